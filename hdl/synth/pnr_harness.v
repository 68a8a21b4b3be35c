// pnr_harness: md5acc_top for a place-and-route of its own on a proxy FPGA
// (nextpnr-ecp5 or nextpnr-himbaechel gowin). The accelerator's AXI port bits stand for on-chip
// connections to the HPS bridges, not package pins: here every input comes
// from a shift register fed by one pin and every output is captured into a
// shift register read out through one pin, so nothing is optimized away,
// the design fits the package and every path of md5acc_top starts and ends
// at a register (its own or the harness's).
`default_nettype none
module pnr_harness #(
    parameter integer NPIPE = 8,
    parameter integer DATA_W = 256
) (
    input  wire clk,
    input  wire rst_in,
    input  wire sin,
    input  wire load,
    output wire sout
);
    localparam integer IN_W = 86 + DATA_W;
    localparam integer OUT_W = 157 + DATA_W + DATA_W / 8;
    localparam integer W0 = 98 + DATA_W + DATA_W / 8;    // outputs after the write data
    reg [IN_W-1:0] si;
    reg [OUT_W-1:0] so;
    reg rst;
    wire [OUT_W-1:0] o;

    always @(posedge clk) begin
        rst <= rst_in;
        si <= {si[IN_W-2:0], sin};
        so <= load ? o : {so[OUT_W-2:0], 1'b0};
    end
    assign sout = so[OUT_W-1];

    md5acc_top #(.NPIPE(NPIPE), .DATA_W(DATA_W)) u_acc (
        .clk(clk), .rst(rst), .irq(o[0]), .busy(o[1]),
        .s_axil_awaddr({si[84 + DATA_W], si[11:0]}), .s_axil_awprot(si[14:12]), .s_axil_awvalid(si[15]),
        .s_axil_awready(o[2]), .s_axil_wdata(si[47:16]), .s_axil_wstrb(si[51:48]), .s_axil_wvalid(si[52]),
        .s_axil_wready(o[3]), .s_axil_bresp(o[5:4]), .s_axil_bvalid(o[6]), .s_axil_bready(si[53]),
        .s_axil_araddr({si[85 + DATA_W], si[65:54]}), .s_axil_arprot(si[68:66]), .s_axil_arvalid(si[69]), .s_axil_arready(o[7]),
        .s_axil_rdata(o[39:8]), .s_axil_rresp(o[41:40]), .s_axil_rvalid(o[42]), .s_axil_rready(si[70]),
        .m_axi_awid(o[43]), .m_axi_awaddr(o[75:44]), .m_axi_awlen(o[83:76]), .m_axi_awsize(o[86:84]),
        .m_axi_awburst(o[88:87]), .m_axi_awlock(o[89]), .m_axi_awcache(o[93:90]), .m_axi_awprot(o[96:94]),
        .m_axi_awvalid(o[97]), .m_axi_awready(si[71]),
        .m_axi_wdata(o[98 +: DATA_W]), .m_axi_wstrb(o[98 + DATA_W +: DATA_W / 8]),
        .m_axi_wlast(o[W0]), .m_axi_wvalid(o[W0 + 1]),
        .m_axi_wready(si[72]), .m_axi_bid(si[73]), .m_axi_bresp(si[75:74]), .m_axi_bvalid(si[76]),
        .m_axi_bready(o[W0 + 2]), .m_axi_arid(o[W0 + 3]), .m_axi_araddr(o[W0 + 4 +: 32]),
        .m_axi_arlen(o[W0 + 36 +: 8]), .m_axi_arsize(o[W0 + 44 +: 3]), .m_axi_arburst(o[W0 + 47 +: 2]),
        .m_axi_arlock(o[W0 + 49]), .m_axi_arcache(o[W0 + 50 +: 4]), .m_axi_arprot(o[W0 + 54 +: 3]),
        .m_axi_arvalid(o[W0 + 57]), .m_axi_arready(si[77]),
        .m_axi_rid(si[78]), .m_axi_rdata(si[79 +: DATA_W]), .m_axi_rresp(si[79 + DATA_W +: 2]),
        .m_axi_rlast(si[81 + DATA_W]), .m_axi_rvalid(si[82 + DATA_W]),
        .m_axi_rready(o[W0 + 58]));
    wire unused = si[83 + DATA_W];
endmodule
`default_nettype wire
