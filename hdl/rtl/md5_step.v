// md5_step: one of the 64 MD5 steps (RFC 1321, section 3.4) as a registered
// pipeline stage: a' = d, b' = b + rotl(a + F(b, c, d) + K + M[g], s),
// c' = b, d' = c.
// The stage carries t = a + K + M[g] instead of a: this stage computes the
// next step's t' = d + K[STEP+1] + M[g(STEP+1)] from its own d (the next a),
// so its b path is F folded into one adder (md5_add KIND 0..3), a rotation
// and one more adder, and its t path is one adder whatever M is:
//   M a per-value word (0 or 1): mn + d + K, one ternary chain (KIND 4);
//   M a job constant (word 2 or 14): d + kmc, kmc = K + M precomputed once
//     for the whole accelerator (md5acc_jobconst);
//   M zero: d + K.
// The last stage (STEP = 63) passes d through as the plain a.
`default_nettype none
module md5_step #(
    parameter integer STEP = 0
) (
    input  wire        clk,
    input  wire [31:0] in_t,
    input  wire [31:0] in_b,
    input  wire [31:0] in_c,
    input  wire [31:0] in_d,
    input  wire [31:0] mn,      // M[g(STEP+1)] when it varies per value
    input  wire [31:0] kmc,     // K + M of step STEP+1 when M is a job constant
    output reg  [31:0] out_t,
    output reg  [31:0] out_b,
    output reg  [31:0] out_c,
    output reg  [31:0] out_d
);
`include "md5_consts.vh"
    localparam integer S = md5_s(STEP);
    localparam integer LAST = (STEP == 63) ? 1 : 0;
    localparam integer SRC_N = LAST ? MD5_SRC_ZERO : md5_src(STEP + 1);
    localparam [31:0] KN = LAST ? 32'd0 : md5_k(STEP + 1);

    wire [31:0] sum;
    md5_add #(.KIND(STEP / 16)) u_f (.x(in_b), .y(in_c), .z(in_d), .w(in_t), .s(sum));
    wire [63:0] sum2 = {sum, sum};
    wire [31:0] rot = sum2[63 - S -: 32];

    wire [31:0] t_next;
    generate
        if (LAST) begin : g_last
            assign t_next = in_d;
        end else if (SRC_N == MD5_SRC_M0 || SRC_N == MD5_SRC_M1) begin : g_var
            md5_add #(.KIND(4), .K(KN)) u_t (.x(in_d), .y(mn), .z(32'd0), .w(32'd0), .s(t_next));
        end else if (SRC_N == MD5_SRC_JOB) begin : g_job
            assign t_next = in_d + kmc;
        end else begin : g_zero
            assign t_next = in_d + KN;
        end
    endgenerate

    always @(posedge clk) begin
        out_t <= t_next;
        out_b <= in_b + rot;
        out_c <= in_b;
        out_d <= in_c;
    end

    wire unused = &{1'b0, mn, kmc};
endmodule
`default_nettype wire
