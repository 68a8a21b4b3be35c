// md5acc_candgen: the candidate generator. Turns a job into groups of up to
// NPIPE padded messages for the pipeline array, one group per clock while
// `credit` allows (the array never stalls, so whoever drains it grants
// credit only for room it has).
//  * search (op = 1): values START .. START+COUNT-1 made on chip. Groups are
//    NPIPE-aligned (NPIPE a power of two): lane j of a group holds
//    base | j, so the group's big-endian encoding is built once and each
//    lane only ORs its own index into the message byte that holds the
//    value's low byte; lanes outside the range are masked off.
//  * hash (op = 0): messages from the read DMA's beats (4-byte slots for
//    widths 1..4, else 8-byte slots, message bytes first); up to
//    HASH_LANES = min(NPIPE, DATA_W/128) lanes take consecutive slots of the
//    current beat (a group never spans two beats).
// A message of w bytes (1..8) is padded into block words 0 and 1 (per value)
// and words 2 and 14 (per job); kmc holds K + M for the steps that read words
// 2 and 14 (md5_consts.vh), shared by every pipeline.
// Outputs are registered; out_mask bit j marks lane j valid.
`default_nettype none
module md5acc_candgen #(
    parameter integer NPIPE = 8,
    parameter integer DATA_W = 256
) (
    input  wire                 clk,
    input  wire                 rst,
    // job (stable while running)
    input  wire                 start,          // pulse: load the job below
    input  wire                 op,             // 0 hash, 1 search
    input  wire [3:0]           width,          // message bytes, 1..8
    input  wire [63:0]          first_value,    // search
    input  wire [63:0]          count,
    input  wire                 stop,           // abort/error: issue nothing more
    input  wire                 credit,         // room downstream for one more group
    output wire                 done,           // every value issued, or stopped
    // hash path input: read DMA beats
    input  wire                 rd_valid,
    input  wire [DATA_W-1:0]    rd_data,
    output wire                 rd_pop,
    // groups out
    output reg                  out_valid,
    output reg  [NPIPE-1:0]     out_mask,
    output reg  [NPIPE*32-1:0]  out_m0,
    output reg  [NPIPE*32-1:0]  out_m1,
    output reg  [255:0]         kmc
);
`include "md5_consts.vh"
    localparam integer LN = (NPIPE > 1) ? $clog2(NPIPE) : 1;
    localparam integer DPB = DATA_W / 128;
    localparam integer HASH_LANES = (NPIPE < DPB) ? NPIPE : DPB;
    localparam integer MPB4 = DATA_W / 32;          // messages per beat, 4-byte slots
    localparam integer MPB8 = DATA_W / 64;          // messages per beat, 8-byte slots
    localparam integer FP_W = $clog2(MPB4);
    localparam integer CW = $clog2(NPIPE + 1);
    localparam [63:0] LANE_MASK = NPIPE - 1;        // NPIPE must be a power of two
    localparam integer RS_W = CW + 1;               // low bits of `remaining` that count lanes

    // padded block words 0 and 1 of the message msg[8j+7:8j] = byte j
    function [63:0] pad(input [63:0] msg, input [3:0] w);
        integer j;
        begin
            for (j = 0; j < 8; j = j + 1)
                pad[8*j +: 8] = (j < w) ? msg[8*j +: 8] : (j == w) ? 8'h80 : 8'h00;
        end
    endfunction

    reg        running;
    reg        first;          // search: the first group (lanes below the start masked)
    reg [LN-1:0] skip;
    reg [64:0] remaining;      // search: values from base to the end; hash: messages left
    reg [63:0] base;           // search: current NPIPE-aligned group base
    reg [FP_W-1:0] feed_pos;   // hash: next message slot of the current beat
    wire slot8 = width > 4'd4;

    // ---- search group
    wire [63:0] aligned = base << (7'd64 - {width, 3'b000});
    wire [63:0] base_be;       // big-endian value bytes in memory order
    genvar bb;
    generate
        for (bb = 0; bb < 8; bb = bb + 1) begin : g_be
            assign base_be[8*bb +: 8] = aligned[8*(7-bb) +: 8];
        end
    endgenerate
    wire [63:0] base_blk = pad(base_be, width);

    // ---- hash group
    // A beat holds MPB4 or MPB8 slots, both multiples of HASH_LANES (powers
    // of two, HASH_LANES <= DPB): a group is HASH_LANES messages, only the
    // job's last one fewer, and never spans two beats. feed_pos steps by
    // HASH_LANES; the beat's last group starts at last_pos (set at START).
    reg  [FP_W-1:0] last_pos;
    // `remaining` against a lane count: its low bits, once its high bits are
    // zero. That zero test is a register (the one-pipeline route's critical
    // path was remaining's high bits -> the OR tree -> last group -> the read
    // FIFO's pop, 10.47 ns): set at START from the job, then taken from
    // `remaining` every clock, so on the clock after an issue it still
    // describes the remaining before it. That is exact where it matters:
    // the high bits reach zero on an issue that leaves at least
    // 2^RS_W - NPIPE >= NPIPE + 2 values or messages, where the stale and
    // the fresh flag give the same mask and no last group, and they never
    // leave zero again.
    reg rem_small;
    wire [RS_W-1:0] rem_lo = remaining[RS_W-1:0];
    // at START: the count's high bits, and no carry out of the low ones
    // when the search adds the first group's skipped lanes
    wire [RS_W:0] start_lo = {1'b0, count[RS_W-1:0]} + (op ? first_value[RS_W-1:0] & LANE_MASK[RS_W-1:0] : {RS_W{1'b0}});
    wire start_small = count[63:RS_W] == {(64-RS_W){1'b0}} && !start_lo[RS_W];
    wire rem_le_npipe = rem_small && rem_lo <= NPIPE;               // search: the last group
    wire last_group = rem_small && rem_lo <= HASH_LANES;            // hash: the job's last messages
    wire [CW-1:0] hcnt = last_group ? rem_lo[CW-1:0] : HASH_LANES[CW-1:0];
    wire last_in_beat = feed_pos == last_pos || last_group;

    assign done = !running;
    wire issue = running && !stop && credit && (op || rd_valid);
    assign rd_pop = issue && !op && last_in_beat;

    reg [NPIPE-1:0] mask;
    reg [NPIPE*64-1:0] blk;
    integer j, k;   // one loop variable per process (a shared one would be a register too)
    always @* begin
        for (j = 0; j < NPIPE; j = j + 1) begin
            if (op) begin
                mask[j] = (!first || j >= skip) && (!rem_small || rem_lo > j);
                // lane index into the message byte of the value's low byte
                blk[64*j +: 64] = base_blk | ((64'd0 + j) << {width - 4'd1, 3'b000});
            end else if (j < HASH_LANES) begin
                mask[j] = j < hcnt;
                blk[64*j +: 64] = pad(slot8 ? rd_data[(64*(feed_pos + j)) % DATA_W +: 64]
                                            : {32'd0, rd_data[(32*(feed_pos + j)) % DATA_W +: 32]}, width);
            end else begin
                mask[j] = 1'b0;
                blk[64*j +: 64] = 64'd0;
            end
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            running <= 1'b0;
            out_valid <= 1'b0;
        end else begin
            out_valid <= issue;
            if (start) begin
                running <= count != 64'd0;
            end else if (stop) begin
                running <= 1'b0;
            end else if (issue) begin
                if (op ? rem_le_npipe : last_group) running <= 1'b0;
            end
        end
    end

    always @(posedge clk) rem_small <= start ? start_small : remaining[64:RS_W] == {(65-RS_W){1'b0}};

    always @(posedge clk) begin
        if (start) begin
            first <= 1'b1;
            skip <= first_value[LN-1:0] & LANE_MASK[LN-1:0];
            base <= first_value & ~LANE_MASK;
            remaining <= op ? {1'b0, count} + {1'b0, first_value & LANE_MASK} : {1'b0, count};
            feed_pos <= {FP_W{1'b0}};
            last_pos <= (width > 4'd4) ? MPB8 - HASH_LANES : MPB4 - HASH_LANES;
        end else if (issue) begin
            first <= 1'b0;
            base <= base + NPIPE;
            // the last group takes what is left (remaining == rem_lo then), so
            // the subtrahend is a constant of the job's kind and the zero
            // test only selects after the subtraction, beside it
            remaining <= (op ? rem_le_npipe : last_group) ? 65'd0 :
                         remaining - (op ? NPIPE : HASH_LANES);
            if (!op) feed_pos <= last_in_beat ? {FP_W{1'b0}} : feed_pos + HASH_LANES[FP_W-1:0];
        end
        out_mask <= mask;
        for (k = 0; k < NPIPE; k = k + 1) begin
            out_m0[32*k +: 32] <= blk[64*k +: 32];
            out_m1[32*k +: 32] <= blk[64*k + 32 +: 32];
        end
    end

    // job constants: K + M of the steps reading word 2 (0x80 when the pad
    // byte lands there, width 8) or word 14 (the bit length)
    genvar q;
    generate
        for (q = 0; q < MD5_JOB_WORDS; q = q + 1) begin : g_kmc
            localparam integer STEP = md5_job_step(q);
            wire [31:0] m = (md5_g(STEP) == 2) ? ((width == 4'd8) ? 32'h80 : 32'h0) : {25'd0, width, 3'b000};
            always @(posedge clk) kmc[32*q +: 32] <= md5_k(STEP) + m;
        end
    endgenerate
endmodule
`default_nettype wire
