// md5_core: one fully pipelined MD5 engine for single 64-byte blocks.
// 64 md5_step stages plus a final stage that adds the initial state
// (RFC 1321, end of section 3.4) give one digest per clock after a fill
// latency of LATENCY = 65 clocks. All stages advance together when ce is
// high, so a downstream buffer applies back-pressure with a single enable.
//
// The block is split in two: words whose VAR_MASK bit is set come from
// in_block and travel down the pipeline with their value; the others come
// from const_block, which must stay constant while values are in flight.
// VAR_MASK = 16'hFFFF gives a general one-block core; the accelerator uses
// 16'h0003 (messages of at most 8 bytes, padded by md5_pad).
// Block word i is bits [32i+31:32i] (RFC 1321 little-endian words).
// The digest has byte j in bits [8j+7:8j], i.e. RFC 1321 output order when
// written little-endian to memory. in_tag travels alongside each value.
`default_nettype none
module md5_core #(
    parameter integer TAG_W = 1,
    parameter [15:0] VAR_MASK = 16'h0003
) (
    input  wire             clk,
    input  wire             rst,
    input  wire             ce,
    input  wire             in_valid,
    input  wire [TAG_W-1:0] in_tag,
    input  wire [511:0]     in_block,
    input  wire [511:0]     const_block,
    output reg              out_valid,
    output reg  [TAG_W-1:0] out_tag,
    output reg  [127:0]     out_digest
);
    localparam integer STEPS = 64;
    localparam integer LATENCY = STEPS + 1;
    localparam [31:0] IV_A = 32'h67452301;
    localparam [31:0] IV_B = 32'hefcdab89;
    localparam [31:0] IV_C = 32'h98badcfe;
    localparam [31:0] IV_D = 32'h10325476;

    wire [31:0]  t [0:STEPS];
    wire [31:0]  b [0:STEPS];
    wire [31:0]  c [0:STEPS];
    wire [31:0]  d [0:STEPS];
    wire [511:0] m [0:STEPS];
    reg  [STEPS-1:0] valid_sr;
    reg  [TAG_W-1:0] tag_sr [0:STEPS-1];

    // t = a + K[0] + M[0] for the first step (see md5_step)
    localparam [31:0] K0 = 32'hd76aa478;
    wire [31:0] m0_first = VAR_MASK[0] ? in_block[31:0] : const_block[31:0];
    assign t[0] = m0_first + (IV_A + K0);
    assign b[0] = IV_B;
    assign c[0] = IV_C;
    assign d[0] = IV_D;
    assign m[0] = in_block;

    genvar i;
    generate
        for (i = 0; i < STEPS; i = i + 1) begin : g_step
            md5_step #(.STEP(i), .VAR_MASK(VAR_MASK)) u_step (
                .clk(clk), .ce(ce),
                .in_t(t[i]), .in_b(b[i]), .in_c(c[i]), .in_d(d[i]),
                .in_msg(m[i]), .cmsg(const_block),
                .out_t(t[i+1]), .out_b(b[i+1]), .out_c(c[i+1]), .out_d(d[i+1]),
                .out_msg(m[i+1])
            );
            if (i == 0) begin : g_tag0
                always @(posedge clk) if (ce) tag_sr[0] <= in_tag;
            end else begin : g_tagn
                always @(posedge clk) if (ce) tag_sr[i] <= tag_sr[i-1];
            end
        end
    endgenerate

    always @(posedge clk) begin
        if (rst) begin
            valid_sr <= {STEPS{1'b0}};
            out_valid <= 1'b0;
        end else if (ce) begin
            valid_sr <= {valid_sr[STEPS-2:0], in_valid};
            out_valid <= valid_sr[STEPS-1];
        end
    end

    always @(posedge clk) begin
        if (ce) begin
            out_tag <= tag_sr[STEPS-1];
            out_digest <= {d[STEPS] + IV_D, c[STEPS] + IV_C, b[STEPS] + IV_B, t[STEPS] + IV_A};
        end
    end
endmodule
`default_nettype wire
