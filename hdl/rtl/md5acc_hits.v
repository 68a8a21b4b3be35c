// md5acc_hits: the hit FIFO of the search path. The pipelines never stall,
// so every lane may hit on every clock: each lane has its own FIFO of
// {value, digest} records in block RAM, and one record per clock leaves
// towards the match writer (lowest non-empty lane first). Each lane's record
// waits in a register of its own before the choice between lanes: the lanes'
// block RAMs sit by their pipelines, across the chip, and a path from a RAM's
// slow output across the chip into the choice did not make the clock. The
// chosen record leaves through a skid buffer, so the reader's ready meets a
// register, not every lane's FIFO (the four-pipeline route's critical path:
// a lane's valid -> the match writer's take -> the lanes' pops -> a lane
// FIFO's count, 15.00 ns, 12.58 ns of it routing). `room` tells the
// candidate generator whether every lane FIFO still has space for all that
// can be in flight (SLACK groups: the clock `room` is registered, the
// generator's output register, the pipelines' 66 clocks (an input register
// and 65 stages) and the compare's 4: 72, two short of 74); while it is low
// no group is issued, so a FIFO never overflows and no hit is ever lost.
`default_nettype none
module md5acc_hits #(
    parameter integer NPIPE = 8,
    parameter integer DEPTH = 128,
    parameter integer SLACK = 74
) (
    input  wire                  clk,
    input  wire                  rst,
    input  wire                  clr,
    input  wire [NPIPE-1:0]      in_hit,
    input  wire [NPIPE*64-1:0]   in_value,
    input  wire [NPIPE*128-1:0]  in_digest,
    output wire                  room,
    output wire                  empty,
    output wire                  out_valid,
    input  wire                  out_ready,
    output wire [63:0]           out_value,
    output wire [127:0]          out_digest
);
    localparam integer CW = $clog2(DEPTH) + 1;

    wire [NPIPE-1:0] f_valid, f_ready, f_low, f_empty;
    wire [NPIPE*192-1:0] f_data;
    reg  [NPIPE-1:0] l_v;       // a lane's record waits in its register
    reg  [192-1:0]   l_d [0:NPIPE-1];
    reg  [NPIPE-1:0] sel;       // one-hot: the lowest lane with a record
    reg  [191:0]     sel_d;     // its record
    wire             sel_ready; // the skid buffer takes it

    genvar j;
    generate
        for (j = 0; j < NPIPE; j = j + 1) begin : g_lane
            wire [CW-1:0] cnt;
            sync_fifo #(.WIDTH(192), .DEPTH(DEPTH)) u_fifo (
                .clk(clk), .rst(rst), .clr(clr),
                .in_valid(in_hit[j]), .in_ready(),
                .in_data({in_value[64*j +: 64], in_digest[128*j +: 128]}),
                .out_valid(f_valid[j]), .out_ready(f_ready[j]), .out_data(f_data[192*j +: 192]),
                .count(cnt));
            assign f_low[j] = cnt < DEPTH - SLACK;
            assign f_empty[j] = cnt == 0;
            // the lane register takes the FIFO's next record when it is free or its record leaves
            wire l_open = !l_v[j] || (sel_ready && sel[j]);
            assign f_ready[j] = l_open;
            always @(posedge clk) begin
                if (rst || clr) l_v[j] <= 1'b0;
                else if (l_open) l_v[j] <= f_valid[j];
                if (l_open && f_valid[j]) l_d[j] <= f_data[192*j +: 192];
            end
        end
    endgenerate

    integer k;
    always @* begin
        sel = {NPIPE{1'b0}};
        sel_d = 192'd0;
        for (k = NPIPE - 1; k >= 0; k = k - 1)
            if (l_v[k]) begin
                sel = {NPIPE{1'b0}};
                sel[k] = 1'b1;
                sel_d = l_d[k];
            end
    end

    skid_buffer #(.WIDTH(192)) u_out (
        .clk(clk), .rst(rst), .clr(clr),
        .in_valid(|l_v), .in_ready(sel_ready), .in_data(sel_d),
        .out_valid(out_valid), .out_ready(out_ready), .out_data({out_value, out_digest}));
    // registered: one clock late, so SLACK covers one group more than the pipelines hold
    reg room_r;
    always @(posedge clk) room_r <= !rst && &f_low;
    assign room = room_r;
    assign empty = &f_empty && !(|l_v) && !out_valid;
endmodule
`default_nettype wire
