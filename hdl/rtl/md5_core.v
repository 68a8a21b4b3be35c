// md5_core: one fully pipelined MD5 datapath for single-block messages of at
// most 8 bytes (RFC 1321): 64 md5_step stages and a final stage adding the
// initial state. It never stalls: a message entering at clock c leaves as a
// digest LATENCY = 65 clocks later, one per clock; whoever feeds it keeps
// room downstream (md5acc_top issues on credit). Validity and tags travel
// beside the array (md5acc_pipes), once for all pipelines.
//
// Only what varies travels down the registers: the state (t, b, c, d). The
// per-value message words m0 and m1 are each read by four steps (word 0 by
// steps 0, 19, 41, 48; word 1 by 1, 16, 36, 55): step 0 and 1 take them from
// the input, the six later reads come from delay lines in block RAM (one per
// read, a write pointer shared by all, read address = write pointer minus
// the delay, the RAM's output registered), not from 3,300 pipeline
// registers. Words 2 and 14 are job constants folded with K (kmc,
// md5acc_jobconst), the others are zero.
// Digest byte j is at bits [8j+7:8j] (RFC 1321 order in little-endian memory).
`default_nettype none
module md5_core (
    input  wire         clk,
    input  wire [31:0]  in_m0,
    input  wire [31:0]  in_m1,
    input  wire [255:0] kmc,        // K + M of the MD5_JOB_WORDS job-constant steps
    output reg  [127:0] out_digest
);
`include "md5_consts.vh"
    localparam integer STEPS = 64;
    localparam [31:0] IV_A = 32'h67452301;
    localparam [31:0] IV_B = 32'hefcdab89;
    localparam [31:0] IV_C = 32'h98badcfe;
    localparam [31:0] IV_D = 32'h10325476;

    wire [31:0] t [0:STEPS];
    wire [31:0] b [0:STEPS];
    wire [31:0] c [0:STEPS];
    wire [31:0] d [0:STEPS];

    // step 0: t = a + K[0] + M[0], a = IV_A
    assign t[0] = in_m0 + (IV_A + md5_k(0));
    assign b[0] = IV_B;
    assign c[0] = IV_C;
    assign d[0] = IV_D;

    // delay-line write pointer: stage s sees the message that entered s clocks ago
    reg [5:0] wp = 6'd0;
    always @(posedge clk) wp <= wp + 6'd1;

    genvar i;
    generate
        for (i = 0; i < STEPS; i = i + 1) begin : g_step
            localparam integer SRC_N = (i == STEPS - 1) ? MD5_SRC_ZERO : md5_src(i + 1);
            wire [31:0] mn;
            if (SRC_N == MD5_SRC_M0 || SRC_N == MD5_SRC_M1) begin : g_var
                wire [31:0] word = (SRC_N == MD5_SRC_M0) ? in_m0 : in_m1;
                if (i == 0) begin : g_direct
                    assign mn = word;
                end else begin : g_delay
                    // read at wp - (i - 2) into the RAM's read register q0,
                    // then the output register q: the message reaches stage i
                    // i clocks after it was written, and the adder after q
                    // never sees the RAM's slow clock-to-out (i >= 15 here)
                    localparam [5:0] BACK = i - 2;
                    wire [5:0] ra = wp - BACK;     // modulo 64
                    reg [31:0] mem [0:63];
                    reg [31:0] q0, q;
                    always @(posedge clk) begin
                        mem[wp] <= word;
                        q0 <= mem[ra];
                        q <= q0;
                    end
                    assign mn = q;
                end
            end else begin : g_novar
                assign mn = 32'd0;
            end
            localparam integer J = (SRC_N == MD5_SRC_JOB) ? md5_job_index(i + 1) : 0;
            md5_step #(.STEP(i)) u_step (
                .clk(clk),
                .in_t(t[i]), .in_b(b[i]), .in_c(c[i]), .in_d(d[i]),
                .mn(mn), .kmc(kmc[32*J +: 32]),
                .out_t(t[i+1]), .out_b(b[i+1]), .out_c(c[i+1]), .out_d(d[i+1]));
        end
    endgenerate

    always @(posedge clk)
        out_digest <= {d[STEPS] + IV_D, c[STEPS] + IV_C, b[STEPS] + IV_B, t[STEPS] + IV_A};
endmodule
`default_nettype wire
