// axil_reg_if: AXI4-Lite slave that turns bus transactions into a simple
// register strobe interface (one write or one read at a time, reads are
// answered from rd_data one clock after rd_en). Responses are always OKAY;
// unmapped registers read as zero and ignore writes in the register file.
`default_nettype none
module axil_reg_if #(
    parameter integer ADDR_W = 12
) (
    input  wire              clk,
    input  wire              rst,
    input  wire [ADDR_W-1:0] s_axil_awaddr,
    input  wire [2:0]        s_axil_awprot,
    input  wire              s_axil_awvalid,
    output wire              s_axil_awready,
    input  wire [31:0]       s_axil_wdata,
    input  wire [3:0]        s_axil_wstrb,
    input  wire              s_axil_wvalid,
    output wire              s_axil_wready,
    output wire [1:0]        s_axil_bresp,
    output reg               s_axil_bvalid,
    input  wire              s_axil_bready,
    input  wire [ADDR_W-1:0] s_axil_araddr,
    input  wire [2:0]        s_axil_arprot,
    input  wire              s_axil_arvalid,
    output wire              s_axil_arready,
    output reg  [31:0]       s_axil_rdata,
    output wire [1:0]        s_axil_rresp,
    output reg               s_axil_rvalid,
    input  wire              s_axil_rready,
    // register file side
    output wire              wr_en,
    output wire [ADDR_W-1:0] wr_addr,
    output wire [31:0]       wr_data,
    output wire [3:0]        wr_strb,
    output wire              rd_en,
    output wire [ADDR_W-1:0] rd_addr,
    input  wire [31:0]       rd_data
);
    // a write fires when both address and data are present and the previous
    // response has been taken
    assign wr_en = s_axil_awvalid && s_axil_wvalid && !s_axil_bvalid;
    assign s_axil_awready = wr_en;
    assign s_axil_wready = wr_en;
    assign wr_addr = s_axil_awaddr;
    assign wr_data = s_axil_wdata;
    assign wr_strb = s_axil_wstrb;
    assign s_axil_bresp = 2'b00;

    assign rd_en = s_axil_arvalid && !s_axil_rvalid;
    assign s_axil_arready = rd_en;
    assign rd_addr = s_axil_araddr;
    assign s_axil_rresp = 2'b00;

    always @(posedge clk) begin
        if (rst) begin
            s_axil_bvalid <= 1'b0;
            s_axil_rvalid <= 1'b0;
            s_axil_rdata <= 32'd0;
        end else begin
            if (wr_en) s_axil_bvalid <= 1'b1;
            else if (s_axil_bready) s_axil_bvalid <= 1'b0;
            if (rd_en) begin
                s_axil_rvalid <= 1'b1;
                s_axil_rdata <= rd_data;
            end else if (s_axil_rready) begin
                s_axil_rvalid <= 1'b0;
            end
        end
    end

    wire unused = &{1'b0, s_axil_awprot, s_axil_arprot};
endmodule
`default_nettype wire
