// axi_rd_engine: AXI4 read DMA. Reads nbeats bus-width beats starting at the
// bus-aligned address addr and delivers them in order on a valid/ready
// stream. Bursts are INCR, at most MAX_BURST beats and never cross a 4 KiB
// boundary (AXI rule). A burst is only issued when the output FIFO has room
// for all of its beats, so R is never back-pressured by this engine.
// A non-OKAY response (SLVERR/DECERR) sets err (with the burst address in
// err_addr) and stops new bursts; bursts already issued are still accepted
// and their data dropped, so busy falls only when the bus is quiet.
// stop ends the transfer early the same way, without an error; clr_err (any
// job's start) clears the error of an earlier transfer.
`default_nettype none
module axi_rd_engine #(
    parameter integer ADDR_W = 32,
    parameter integer DATA_W = 128,
    parameter integer MAX_BURST = 16,
    parameter integer FIFO_DEPTH = 64,
    parameter integer CNT_W = 40,
    parameter [3:0]   AXI_CACHE = 4'b0011
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              start,
    input  wire              clr_err,
    input  wire [ADDR_W-1:0] addr,
    input  wire [CNT_W-1:0]  nbeats,
    input  wire              stop,
    output wire              busy,
    output reg               err,
    output reg  [ADDR_W-1:0] err_addr,
    // data out
    output wire              out_valid,
    input  wire              out_ready,
    output wire [DATA_W-1:0] out_data,
    // AXI4 read channels
    output wire [0:0]        m_axi_arid,
    output wire [ADDR_W-1:0] m_axi_araddr,
    output wire [7:0]        m_axi_arlen,
    output wire [2:0]        m_axi_arsize,
    output wire [1:0]        m_axi_arburst,
    output wire              m_axi_arlock,
    output wire [3:0]        m_axi_arcache,
    output wire [2:0]        m_axi_arprot,
    output wire              m_axi_arvalid,
    input  wire              m_axi_arready,
    input  wire [0:0]        m_axi_rid,
    input  wire [DATA_W-1:0] m_axi_rdata,
    input  wire [1:0]        m_axi_rresp,
    input  wire              m_axi_rlast,
    input  wire              m_axi_rvalid,
    output wire              m_axi_rready
);
    localparam integer BYTES = DATA_W / 8;
    localparam integer LSB = $clog2(BYTES);
    localparam integer FC_W = $clog2(FIFO_DEPTH) + 1;

    reg               stopped;
    reg  [15:0]       outstanding;   // beats requested, not yet received
    // FIFO words neither stored nor requested: a burst is issued only when
    // they cover it (kept as a register: decremented by a burst, incremented
    // by each word the FIFO hands out or a dropped beat)
    reg  [FC_W-1:0]   free;

    wire [FC_W-1:0] fifo_count;
    wire            fifo_in_ready;
    wire            ar_fire;

    // the next burst: MAX_BURST, the next 4 KiB boundary, or what is left.
    // Registered (blen_ok: up to date), so the clock after a burst is issued
    // none is.
    localparam integer LEN_W = $clog2(MAX_BURST) + 1;
    wire [ADDR_W-1:0] cur_addr;
    wire [CNT_W-1:0]  remaining;
    wire [LEN_W-1:0]  blen;
    wire              blen_ok;
    axi_burst_cursor #(.ADDR_W(ADDR_W), .BYTES(BYTES), .CNT_W(CNT_W), .MAX_BURST(MAX_BURST)) u_cursor (
        .clk(clk), .rst(rst), .load(start), .load_addr(addr), .load_beats(nbeats),
        .advance(ar_fire), .adv_len(blen),
        .addr(cur_addr), .left(remaining), .len(blen), .len_ok(blen_ok));
    wire [15:0] blen16 = {{(16-LEN_W){1'b0}}, blen};

    // the FIFO's room for the burst, compared a clock ahead: true when the
    // last clock saw room for an up-to-date length and issued nothing (then
    // the length is the same and `free` only grew), so a burst goes out at
    // most every third clock (the four-pipeline ECP5 route's critical path
    // was the length -> the 16-bit compare with `free` -> ARVALID -> `free`)
    reg fits;
    always @(posedge clk)
        fits <= !(rst || start) && blen_ok && !ar_fire && {{(16-FC_W){1'b0}}, free} >= blen16;

    wire addr_fifo_ready;
    assign m_axi_arvalid = !stopped && blen_ok && blen != {LEN_W{1'b0}} && fits && addr_fifo_ready;
    assign m_axi_araddr = cur_addr;
    assign m_axi_arlen = blen16[7:0] - 8'd1;
    assign m_axi_arsize = LSB[2:0];
    assign m_axi_arburst = 2'b01;
    assign m_axi_arlock = 1'b0;
    assign m_axi_arcache = AXI_CACHE;
    assign m_axi_arprot = 3'b000;
    assign m_axi_arid = 1'b0;
    assign m_axi_rready = 1'b1;

    assign ar_fire = m_axi_arvalid && m_axi_arready;
    wire r_fire = m_axi_rvalid && m_axi_rready;

    // burst start addresses, for err_addr
    wire [ADDR_W-1:0] head_addr;
    wire              head_valid;
    sync_fifo #(.WIDTH(ADDR_W), .DEPTH(FIFO_DEPTH), .BRAM(0)) u_addr_fifo (
        .clk(clk), .rst(rst), .clr(start),
        .in_valid(ar_fire), .in_ready(addr_fifo_ready), .in_data(cur_addr),
        .out_valid(head_valid), .out_ready(r_fire && m_axi_rlast), .out_data(head_addr),
        .count());

    always @(posedge clk) begin
        if (rst) begin
            stopped <= 1'b1;
            outstanding <= 16'd0;
            err <= 1'b0;
            err_addr <= {ADDR_W{1'b0}};
        end else begin
            if (start) begin
                stopped <= 1'b0;
                err <= 1'b0;
                err_addr <= {ADDR_W{1'b0}};
            end else begin
                if (clr_err) begin
                    err <= 1'b0;
                    err_addr <= {ADDR_W{1'b0}};
                end
                if (stop) stopped <= 1'b1;
                if (r_fire && m_axi_rresp != 2'b00) begin
                    stopped <= 1'b1;
                    if (!err) err_addr <= head_addr;
                    err <= 1'b1;
                end
            end
            outstanding <= outstanding + (ar_fire ? blen16 : 16'd0) - {15'd0, r_fire};
        end
    end
    wire r_drop = r_fire && !(!err && m_axi_rresp == 2'b00);     // a beat not stored
    always @(posedge clk) begin
        if (rst || start)
            free <= FIFO_DEPTH[FC_W-1:0];
        else
            free <= free - (ar_fire ? blen16[FC_W-1:0] : {FC_W{1'b0}}) +
                    {{(FC_W-1){1'b0}}, out_valid && out_ready} + {{(FC_W-1){1'b0}}, r_drop};
    end

    sync_fifo #(.WIDTH(DATA_W), .DEPTH(FIFO_DEPTH)) u_data_fifo (
        .clk(clk), .rst(rst), .clr(start),
        .in_valid(r_fire && !err && m_axi_rresp == 2'b00), .in_ready(fifo_in_ready), .in_data(m_axi_rdata),
        .out_valid(out_valid), .out_ready(out_ready), .out_data(out_data),
        .count(fifo_count));

    assign busy = (outstanding != 0) || (!stopped && remaining != 0);

    wire unused = &{1'b0, m_axi_rid, fifo_in_ready, head_valid, fifo_count};
endmodule
`default_nettype wire
