// md5acc_hits: the hit FIFO of the search path. The pipelines never stall,
// so every lane may hit on every clock: each lane has its own FIFO of
// {value, digest} records in block RAM, and one record per clock leaves
// towards the match writer (lowest non-empty lane first). `room` tells the
// candidate generator whether every lane FIFO still has space for all that
// can be in flight (SLACK groups: the clock `room` is registered, the
// generator's output register, 65 pipeline stages and the compare's 3:
// 70 <= 72); while it is low no group is issued, so a FIFO never overflows
// and no hit is ever lost.
`default_nettype none
module md5acc_hits #(
    parameter integer NPIPE = 8,
    parameter integer DEPTH = 128,
    parameter integer SLACK = 72
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
    output reg  [63:0]           out_value,
    output reg  [127:0]          out_digest
);
    localparam integer CW = $clog2(DEPTH) + 1;

    wire [NPIPE-1:0] f_valid, f_ready, f_low, f_empty;
    wire [NPIPE*192-1:0] f_data;
    reg  [NPIPE-1:0] sel;       // one-hot: the lowest lane with a record

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
            assign f_ready[j] = out_ready && sel[j];
        end
    endgenerate

    integer k;
    always @* begin
        sel = {NPIPE{1'b0}};
        {out_value, out_digest} = 192'd0;
        for (k = NPIPE - 1; k >= 0; k = k - 1)
            if (f_valid[k]) begin
                sel = {NPIPE{1'b0}};
                sel[k] = 1'b1;
                {out_value, out_digest} = f_data[192*k +: 192];
            end
    end

    assign out_valid = |f_valid;
    // registered: one clock late, so SLACK covers one group more than the pipelines hold
    reg room_r;
    always @(posedge clk) room_r <= !rst && &f_low;
    assign room = room_r;
    assign empty = &f_empty;
endmodule
`default_nettype wire
