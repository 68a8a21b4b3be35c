// md5acc_hash_sink: the hash path's output. Groups of up to LANES digests
// (LANES <= digests per beat) leave the pipelines; a gearbox packs them
// into full DATA_W-bit beats (the rest of a group waits for the next one),
// the beats queue in a FIFO and go out as INCR bursts of up to MAX_BURST
// beats that never cross 4 KiB, in order from `dst`. When `drained` (no
// group will come any more) a partial beat is flushed with strobes for the
// digests it holds. The pipelines never stall: `room` says whether the FIFO
// can take every group that may be in flight (SLACK), and the candidate
// generator issues only then.
`default_nettype none
module md5acc_hash_sink #(
    parameter integer LANES = 2,
    parameter integer DATA_W = 256,
    parameter integer ADDR_W = 32,
    parameter integer MAX_BURST = 16,
    parameter integer DEPTH = 128,
    parameter integer SLACK = 72
) (
    input  wire                  clk,
    input  wire                  rst,
    input  wire                  start,          // pulse: a new job
    input  wire [ADDR_W-1:0]     dst,            // bus aligned
    input  wire [63:0]           count,          // digests of the job
    input  wire                  active,         // the running job is a hash job
    input  wire                  drained,        // no more groups will arrive
    input  wire                  in_valid,
    input  wire [LANES-1:0]      in_mask,        // contiguous from lane 0
    input  wire [LANES*128-1:0]  in_digest,
    output wire                  room,
    output wire                  idle,           // everything handed to the write DMA
    // to the write DMA
    output wire                  wcmd_valid,
    input  wire                  wcmd_ready,
    output wire [ADDR_W-1:0]     wcmd_addr,
    output wire [7:0]            wcmd_len,
    output wire                  wdata_valid,
    input  wire                  wdata_ready,
    output wire [DATA_W-1:0]     wdata,
    output wire [DATA_W/8-1:0]   wstrb
);
    localparam integer BUS_B = DATA_W / 8;
    localparam integer LSB = $clog2(BUS_B);
    localparam integer DPB = DATA_W / 128;            // digests per beat
    localparam integer GN_W = $clog2(DPB) + 1;        // digests held in the gearbox
    localparam integer CW = $clog2(LANES + 1);
    localparam integer PAGE_BEATS = 4096 / BUS_B;
    localparam integer FC_W = $clog2(DEPTH) + 1;

    reg [CW-1:0] in_cnt;
    integer q;
    always @* begin
        in_cnt = {CW{1'b0}};
        for (q = 0; q < LANES; q = q + 1) if (in_mask[q]) in_cnt = q + 1;
    end

    // gearbox: gb_n (< DPB) digests wait in gb_buf for a full beat
    reg  [127:0]    gb_buf [0:DPB-1];
    reg  [GN_W-1:0] gb_n;
    wire [7:0]      gb_sum = {{(8-GN_W){1'b0}}, gb_n} + {{(8-CW){1'b0}}, in_cnt};
    wire            gb_full = gb_sum >= DPB;
    wire            fifo_in_ready;
    // the flush is decided a clock ahead, from registers (once drained no
    // group comes any more, so gb_n only changes by the flush itself): the
    // four-pipeline route's critical path was the gearbox's state -> the
    // flush -> the FIFO's push -> `avail` (10.11 ns, 7.56 ns of it routing)
    reg             flush_due;
    wire            gb_flush = flush_due && fifo_in_ready;
    always @(posedge clk)
        flush_due <= !(rst || start) && active && drained && !in_valid && gb_n != {GN_W{1'b0}} && !gb_flush;
    wire [DATA_W-1:0] gb_beat;
    wire [DPB-1:0]  gb_valid;     // digests of the beat that are real (strobes)
    genvar s;
    generate
        for (s = 0; s < DPB; s = s + 1) begin : g_gb
            // slot s of the outgoing beat: a waiting digest, or lane s - gb_n
            wire [7:0] li = s - {{(8-GN_W){1'b0}}, gb_n};
            wire [127:0] from_lane = (li < LANES) ? in_digest[128*li[CW-1:0] +: 128] : 128'd0;
            assign gb_beat[128*s +: 128] = (s < gb_n) ? gb_buf[s] : from_lane;
            assign gb_valid[s] = gb_flush ? (s < gb_n) : 1'b1;
            // after a full beat, slot s of the buffer gets lane s + DPB - gb_n
            wire [7:0] ci = s + DPB - {{(8-GN_W){1'b0}}, gb_n};
            wire [127:0] carry = (ci < LANES) ? in_digest[128*ci[CW-1:0] +: 128] : 128'd0;
            always @(posedge clk) begin
                if (in_valid) gb_buf[s] <= gb_full ? carry : gb_beat[128*s +: 128];
            end
        end
    endgenerate
    always @(posedge clk) begin
        if (rst || start) gb_n <= {GN_W{1'b0}};
        else if (gb_flush) gb_n <= {GN_W{1'b0}};
        else if (in_valid) gb_n <= gb_full ? (gb_sum - DPB) : gb_sum[GN_W-1:0];
    end

    // beats -> FIFO
    wire [DATA_W+DPB-1:0] fifo_data;
    wire         fifo_valid;
    wire         fifo_pop;
    wire [FC_W-1:0] fifo_count;
    // the block RAM's read lands in a register beside it (BRAM = 2; the
    // one-pipeline route's critical path was the RAM's read, 5.83 ns
    // clock-to-out, -> the skid buffer's input mux -> its register, 9.37 ns)
    sync_fifo #(.WIDTH(DATA_W + DPB), .DEPTH(DEPTH), .BRAM(2)) u_fifo (
        .clk(clk), .rst(rst), .clr(start),
        .in_valid((in_valid && gb_full) || gb_flush), .in_ready(fifo_in_ready), .in_data({gb_valid, gb_beat}),
        .out_valid(fifo_valid), .out_ready(fifo_pop), .out_data(fifo_data),
        .count(fifo_count));
    // registered: one clock late, so SLACK covers one group more than the pipelines hold
    reg room_r;
    always @(posedge clk) room_r <= !rst && fifo_count < DEPTH - SLACK;
    assign room = room_r;
    // the FIFO's beats leave through a skid buffer: the block RAM's read
    // (5.6 to 5.8 ns clock-to-out) stays beside the FIFO, and what crosses
    // the chip to the write engine starts at a flip-flop (both proxy routes'
    // critical path was the FIFO's read -> across the chip -> the write
    // engine's W register, 9.91 ns for one pipeline, 11.28 ns for four)
    wire [DATA_W+DPB-1:0] out_beat;
    wire out_valid;
    skid_buffer #(.WIDTH(DATA_W + DPB)) u_out (
        .clk(clk), .rst(rst), .clr(start),
        .in_valid(fifo_valid), .in_ready(fifo_pop), .in_data(fifo_data),
        .out_valid(out_valid), .out_ready(wdata_ready), .out_data(out_beat));
    generate
        for (s = 0; s < DPB; s = s + 1) begin : g_strb
            assign wstrb[16*s +: 16] = {16{out_beat[DATA_W + s]}};
        end
    endgenerate
    assign wdata = out_beat[DATA_W-1:0];
    assign wdata_valid = out_valid;

    // FIFO -> bursts: a burst is commanded when its beats are in the FIFO
    // (or, once drained, whatever is left), never across 4 KiB. For the
    // clock rate every decision starts at a register: the burst wanted next
    // (MAX_BURST, the page's end, the beats left: axi_burst_cursor) is
    // registered (want_ok: it is up to date), and so is the command itself
    // (cmd_v, cmd_len: what the last clock decided, still true, since the
    // FIFO's uncommanded beats only grow until a command takes them). A
    // command is followed by two clocks without one (a burst is up to 16
    // beats and a beat a clock, so this costs nothing once bursts are 3
    // beats or more); `avail` counts the FIFO's beats not yet commanded.
    localparam integer LEN_W = $clog2(MAX_BURST) + 1;
    localparam integer AV_W = FC_W > LEN_W ? FC_W : LEN_W;
    wire [ADDR_W-1:0] hw_addr;
    wire [LEN_W-1:0]  hw_want;     // the next burst's length, when want_ok
    wire              want_ok;
    reg  [FC_W-1:0]   avail;       // beats in the FIFO not yet commanded
    reg               cmd_v;       // a command, of cmd_len beats, at hw_addr
    reg  [LEN_W-1:0]  cmd_len;
    wire cmd_fire = cmd_v && wcmd_ready;
    axi_burst_cursor #(.ADDR_W(ADDR_W), .BYTES(BUS_B), .CNT_W(64), .MAX_BURST(MAX_BURST)) u_cursor (
        .clk(clk), .rst(1'b0), .load(rst || start), .load_addr(dst), .load_beats((count + DPB - 1) >> $clog2(DPB)),
        .advance(cmd_fire), .adv_len(cmd_len),
        .addr(hw_addr), .left(), .len(hw_want), .len_ok(want_ok));
    wire [AV_W-1:0]  avail_w = {{(AV_W-FC_W){1'b0}}, avail};
    wire [AV_W-1:0]  want_w = {{(AV_W-LEN_W){1'b0}}, hw_want};
    wire [LEN_W-1:0] hw_len = (avail_w < want_w) ? avail_w[LEN_W-1:0] : hw_want;
    wire fifo_push = ((in_valid && gb_full) || gb_flush) && fifo_in_ready;
    wire cmd_now = active && want_ok && hw_len != {LEN_W{1'b0}} &&
                   (hw_len == hw_want || (drained && gb_n == {GN_W{1'b0}}));
    wire [AV_W-1:0] cmd_len_w = {{(AV_W-LEN_W){1'b0}}, cmd_len};
    wire [8:0] cmd_len9 = {{(9-LEN_W){1'b0}}, cmd_len};          // LEN_W <= 9: AXI bursts are <= 256 beats
    assign wcmd_valid = cmd_v;
    assign wcmd_addr = hw_addr;
    assign wcmd_len = cmd_len9[7:0] - 8'd1;

    always @(posedge clk) begin
        if (rst || start) begin
            avail <= {FC_W{1'b0}};
            cmd_v <= 1'b0;
        end else begin
            cmd_v <= cmd_now && !cmd_fire;
            avail <= avail + {{(FC_W-1){1'b0}}, fifo_push} -
                     (cmd_fire ? cmd_len_w[FC_W-1:0] : {FC_W{1'b0}});
        end
        cmd_len <= hw_len;
    end

    // every beat went out when the FIFO and the skid buffer are empty (a
    // command covers only beats in them)
    assign idle = gb_n == {GN_W{1'b0}} && fifo_count == {FC_W{1'b0}} && !out_valid;
endmodule
`default_nettype wire
