// md5acc_match_writer: writes the search path's hits as 32-byte match
// records (bytes 0..7 the value, little-endian; 8..15 zero; 16..31 the
// digest) into a ring of `cap` records at `dst`: record i goes to
// dst + 32 * (i mod cap). The host tells how many records it has consumed
// (`host_ack`, MATCH_ACK); the writer never runs more than `cap` records
// ahead of it, it waits instead (and the hit FIFO, then the candidate
// generator, wait behind it), so any number of hits is delivered and none
// is lost. One write burst per record: two beats at DATA_W = 128, one at
// 256, half a strobed beat at 512.
`default_nettype none
module md5acc_match_writer #(
    parameter integer ADDR_W = 32,
    parameter integer DATA_W = 256
) (
    input  wire                clk,
    input  wire                rst,
    input  wire                start,       // pulse: a new job (ring empty)
    input  wire [ADDR_W-1:0]   dst,
    input  wire [31:0]         cap,         // >= 1
    input  wire [31:0]         host_ack,
    // records
    input  wire                in_valid,
    output wire                in_ready,
    input  wire [63:0]         in_value,
    input  wire [127:0]        in_digest,
    // to the write DMA
    output wire                wcmd_valid,
    input  wire                wcmd_ready,
    output wire [ADDR_W-1:0]   wcmd_addr,
    output wire [7:0]          wcmd_len,    // beats - 1
    output wire                wdata_valid,
    input  wire                wdata_ready,
    output wire [DATA_W-1:0]   wdata,
    output wire [DATA_W/8-1:0] wstrb,
    // state
    output reg  [31:0]         issued,      // records handed to the write DMA
    output wire                full,        // cap records ahead of host_ack: waiting
    output wire                idle
);
    localparam integer BUS_B = DATA_W / 8;
    localparam integer RB = (DATA_W == 128) ? 2 : 1;    // beats per record

    reg  [1:0]        state;      // 0: command, 1: first beat, 2: second beat
    reg  [255:0]      rec;
    reg  [ADDR_W-1:0] rec_at;
    reg  [ADDR_W-1:0] waddr;      // dst + 32 * (issued mod cap)
    reg  [31:0]       roff;       // issued mod cap
    reg  [31:0]       cap_m1;     // cap - 1: the ring's last record
    reg  [31:0]       cap_m2;     // cap - 2: the record before it
    reg               cap_is1;
    // the next record is the ring's last, a register: the wrap decision (the
    // write address's enable and the choice dst / waddr + 32) starts at a
    // flip-flop, and the 32-bit compare behind it only feeds this register
    // (the one-pipeline route's critical path was roff == cap_m1 -> the
    // address register's enable, 9.70 ns)
    reg               at_last;
    // `full` in two registered steps, one carry chain each (the one-pipeline
    // route's critical path was MATCH_ACK -> issued - host_ack >= cap):
    // ahead_r = issued - host_ack, then full_r = ahead_r >= cap. ahead_r
    // lags a record issued on the last clock; while that record is in a
    // data state (no record is issued then) one free slot counts as none,
    // so full_r is up to date whenever the writer can issue again. MATCH_ACK
    // only grows during a job, so a late ahead_r is never too optimistic.
    reg  [31:0]       ahead_r;    // records written and not yet acknowledged
    reg               full_r;
    always @(posedge clk) begin
        if (rst || start) begin
            ahead_r <= 32'd0;
            full_r <= 1'b0;
        end else begin
            ahead_r <= issued - host_ack;
            full_r <= ahead_r >= cap || (state != 2'd0 && ahead_r == cap_m1);
        end
    end
    assign full = full_r;
    assign wcmd_valid = state == 2'd0 && in_valid && !full;
    assign in_ready = wcmd_valid && wcmd_ready;
    assign wcmd_len = RB[7:0] - 8'd1;
    assign wdata_valid = state != 2'd0;
    assign idle = state == 2'd0;

    generate
        if (DATA_W == 128) begin : g_rec128
            assign wcmd_addr = waddr;
            assign wdata = (state == 2'd1) ? rec[127:0] : rec[255:128];
            assign wstrb = {BUS_B{1'b1}};
        end else if (DATA_W == 256) begin : g_rec256
            assign wcmd_addr = waddr;
            assign wdata = rec;
            assign wstrb = {BUS_B{1'b1}};
        end else begin : g_rec512   // half a beat, at the aligned-down address
            assign wcmd_addr = {waddr[ADDR_W-1:6], 6'd0};
            assign wdata = {rec, rec};
            assign wstrb = rec_at[5] ? {{32{1'b1}}, 32'd0} : {32'd0, {32{1'b1}}};
        end
    endgenerate

    always @(posedge clk) begin
        if (rst || start) begin
            state <= 2'd0;
            issued <= 32'd0;
            roff <= 32'd0;
            waddr <= dst;
            cap_m1 <= cap - 32'd1;
            cap_m2 <= cap - 32'd2;
            cap_is1 <= cap == 32'd1;
            at_last <= cap == 32'd1;
        end else begin
            case (state)
                2'd0: if (in_ready) begin
                    state <= 2'd1;
                    issued <= issued + 32'd1;
                    if (at_last) begin
                        roff <= 32'd0;
                        waddr <= dst;
                        at_last <= cap_is1;
                    end else begin
                        roff <= roff + 32'd1;
                        waddr <= waddr + 32;
                        at_last <= roff == cap_m2;
                    end
                end
                2'd1: if (wdata_ready) state <= (RB == 2) ? 2'd2 : 2'd0;
                default: if (wdata_ready) state <= 2'd0;
            endcase
        end
    end
    always @(posedge clk) begin
        if (in_ready) begin
            rec <= {in_digest, 64'd0, in_value};
            rec_at <= waddr;
        end
    end
endmodule
`default_nettype wire
