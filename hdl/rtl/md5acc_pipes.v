// md5acc_pipes: the pipeline array. NPIPE md5_core datapaths in lockstep,
// one group of up to NPIPE messages in per clock, and beside them one shift
// register carrying each group's valid bit and tag (the lanes' valid mask)
// for all pipelines. Never stalls: out_* is the group that entered
// LATENCY clocks earlier.
// Each pipeline takes its message words through a register of its own first,
// so that the placer can put it by its pipeline and the wire from the
// candidate generator ends at a register, not in step 0's or 1's adder (the
// four-pipeline route's critical path: 6.66 ns of routing into step 1).
// Taps: out_valid and out_tag again (the tag 0 without a group), for TAPS
// consumers, each from its own registers and only while tap_en[c] (held while any group is in flight:
// which consumer takes the groups), so that the placer can put each copy by
// its consumer and the long wire from the pipelines' end ends at a register,
// not in the consumer's logic. The enable keeps the copies distinct
// registers (Yosys merges flip-flops of equal inputs, `keep` or not).
`default_nettype none
module md5acc_pipes #(
    parameter integer NPIPE = 8,
    parameter integer TAG_W = 8,
    parameter integer TAPS = 1
) (
    input  wire                  clk,
    input  wire                  rst,
    input  wire                  in_valid,
    input  wire [TAG_W-1:0]      in_tag,
    input  wire [NPIPE*32-1:0]   in_m0,
    input  wire [NPIPE*32-1:0]   in_m1,
    input  wire [255:0]          kmc,
    output wire                  out_valid,
    output wire [TAG_W-1:0]      out_tag,
    output wire [NPIPE*128-1:0]  out_digest,
    input  wire [TAPS-1:0]       tap_en,
    output reg  [TAPS-1:0]       tap_valid,
    output reg  [TAPS*TAG_W-1:0] tap_tag
);
    localparam integer LATENCY = 66;  // the input register and md5_core's 65

    // one flat vector per signal: stage k is bits [k], [TAG_W*k +: TAG_W]
    reg [LATENCY-1:0]       valid_sr;
    reg [LATENCY*TAG_W-1:0] tag_sr;
    always @(posedge clk) begin
        if (rst) valid_sr <= {LATENCY{1'b0}};
        else valid_sr <= {valid_sr[LATENCY-2:0], in_valid};
        tag_sr <= {tag_sr[(LATENCY-1)*TAG_W-1:0], in_tag};
    end
    assign out_valid = valid_sr[LATENCY-1];
    assign out_tag = tag_sr[(LATENCY-1)*TAG_W +: TAG_W];
    integer c;
    always @(posedge clk) begin
        for (c = 0; c < TAPS; c = c + 1) begin
            tap_valid[c] <= !rst && valid_sr[LATENCY-2] && tap_en[c];
            tap_tag[TAG_W*c +: TAG_W] <= tag_sr[(LATENCY-2)*TAG_W +: TAG_W] & {TAG_W{valid_sr[LATENCY-2] && tap_en[c]}};
        end
    end

    genvar j;
    generate
        for (j = 0; j < NPIPE; j = j + 1) begin : g_pipe
            reg [31:0] m0_r, m1_r;
            always @(posedge clk) begin
                m0_r <= in_m0[32*j +: 32];
                m1_r <= in_m1[32*j +: 32];
            end
            md5_core u_core (
                .clk(clk), .in_m0(m0_r), .in_m1(m1_r), .kmc(kmc),
                .out_digest(out_digest[128*j +: 128]));
        end
    endgenerate
endmodule
`default_nettype wire
