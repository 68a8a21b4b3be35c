// md5_step: one of the 64 MD5 steps (RFC 1321, section 3.4) as a registered
// pipeline stage. The stage carries the running state (a, b, c, d) and the
// message words that vary from value to value (those whose bit is set in
// VAR_MASK); the other words of the block come from cmsg, which is constant
// for a whole job (for messages of at most 8 bytes every word but 0 and 1 is
// either zero or a function of the width), so they cost no pipeline registers.
//
// The state rotates as in the RFC: a' = d, b' = b + rotl(a + F + K + M[g], s),
// c' = b, d' = c. To keep every adder a two-input carry chain, the stage
// does not carry a itself but t = a + K[step] + M[g(step)], computed one stage
// early: this stage outputs t' = d + K[step+1] + M[g(step+1)] (the next a is
// this d). The last stage (STEP = 63) outputs the plain a for the final
// addition. Everything step-specific (function, K, g, s) is decided at
// elaboration time from the STEP parameter.
`default_nettype none
module md5_step #(
    parameter integer STEP = 0,
    parameter [15:0] VAR_MASK = 16'h0003
) (
    input  wire         clk,
    input  wire         ce,
    input  wire [31:0]  in_t,
    input  wire [31:0]  in_b,
    input  wire [31:0]  in_c,
    input  wire [31:0]  in_d,
    input  wire [511:0] in_msg,
    input  wire [511:0] cmsg,
    output reg  [31:0]  out_t,
    output reg  [31:0]  out_b,
    output reg  [31:0]  out_c,
    output reg  [31:0]  out_d,
    output wire [511:0] out_msg
);
    localparam integer ROUND = STEP / 16;

    function integer g_index(input integer step);
        begin
            case (step / 16)
                0: g_index = step % 16;
                1: g_index = (5 * step + 1) % 16;
                2: g_index = (3 * step + 5) % 16;
                default: g_index = (7 * step) % 16;
            endcase
        end
    endfunction

    function integer s_amount(input integer step);
        begin
            case ((step / 16) * 4 + step % 4)
                0: s_amount = 7;   1: s_amount = 12;  2: s_amount = 17;  3: s_amount = 22;
                4: s_amount = 5;   5: s_amount = 9;   6: s_amount = 14;  7: s_amount = 20;
                8: s_amount = 4;   9: s_amount = 11; 10: s_amount = 16; 11: s_amount = 23;
                12: s_amount = 6; 13: s_amount = 10; 14: s_amount = 15; default: s_amount = 21;
            endcase
        end
    endfunction

    // K[i] = floor(|sin(i + 1)| * 2^32)
    function [31:0] k_const(input integer step);
        begin
            case (step)
             0: k_const = 32'hd76aa478;
             1: k_const = 32'he8c7b756;
             2: k_const = 32'h242070db;
             3: k_const = 32'hc1bdceee;
             4: k_const = 32'hf57c0faf;
             5: k_const = 32'h4787c62a;
             6: k_const = 32'ha8304613;
             7: k_const = 32'hfd469501;
             8: k_const = 32'h698098d8;
             9: k_const = 32'h8b44f7af;
            10: k_const = 32'hffff5bb1;
            11: k_const = 32'h895cd7be;
            12: k_const = 32'h6b901122;
            13: k_const = 32'hfd987193;
            14: k_const = 32'ha679438e;
            15: k_const = 32'h49b40821;
            16: k_const = 32'hf61e2562;
            17: k_const = 32'hc040b340;
            18: k_const = 32'h265e5a51;
            19: k_const = 32'he9b6c7aa;
            20: k_const = 32'hd62f105d;
            21: k_const = 32'h02441453;
            22: k_const = 32'hd8a1e681;
            23: k_const = 32'he7d3fbc8;
            24: k_const = 32'h21e1cde6;
            25: k_const = 32'hc33707d6;
            26: k_const = 32'hf4d50d87;
            27: k_const = 32'h455a14ed;
            28: k_const = 32'ha9e3e905;
            29: k_const = 32'hfcefa3f8;
            30: k_const = 32'h676f02d9;
            31: k_const = 32'h8d2a4c8a;
            32: k_const = 32'hfffa3942;
            33: k_const = 32'h8771f681;
            34: k_const = 32'h6d9d6122;
            35: k_const = 32'hfde5380c;
            36: k_const = 32'ha4beea44;
            37: k_const = 32'h4bdecfa9;
            38: k_const = 32'hf6bb4b60;
            39: k_const = 32'hbebfbc70;
            40: k_const = 32'h289b7ec6;
            41: k_const = 32'heaa127fa;
            42: k_const = 32'hd4ef3085;
            43: k_const = 32'h04881d05;
            44: k_const = 32'hd9d4d039;
            45: k_const = 32'he6db99e5;
            46: k_const = 32'h1fa27cf8;
            47: k_const = 32'hc4ac5665;
            48: k_const = 32'hf4292244;
            49: k_const = 32'h432aff97;
            50: k_const = 32'hab9423a7;
            51: k_const = 32'hfc93a039;
            52: k_const = 32'h655b59c3;
            53: k_const = 32'h8f0ccc92;
            54: k_const = 32'hffeff47d;
            55: k_const = 32'h85845dd1;
            56: k_const = 32'h6fa87e4f;
            57: k_const = 32'hfe2ce6e0;
            58: k_const = 32'ha3014314;
            59: k_const = 32'h4e0811a1;
            60: k_const = 32'hf7537e82;
            61: k_const = 32'hbd3af235;
            62: k_const = 32'h2ad7d2bb;
            63: k_const = 32'heb86d391;
            default: k_const = 32'h0;
            endcase
        end
    endfunction

    localparam integer S = s_amount(STEP);
    localparam integer LAST = (STEP == 63) ? 1 : 0;
    localparam integer GN = g_index(LAST ? 0 : STEP + 1);
    localparam [31:0] KN = k_const(LAST ? 0 : STEP + 1);

    reg [31:0] f;
    always @* begin
        case (ROUND)
            0: f = (in_b & in_c) | (~in_b & in_d);
            1: f = (in_d & in_b) | (~in_d & in_c);
            2: f = in_b ^ in_c ^ in_d;
            default: f = in_c ^ (in_b | ~in_d);
        endcase
    end

    // M[g] of the next step, from the carried words or the job constants
    wire [31:0] mn = VAR_MASK[GN] ? in_msg[32*GN +: 32] : cmsg[32*GN +: 32];
    wire [31:0] kmn = mn + KN;

    wire [31:0] sum = in_t + f;
    wire [63:0] sum2 = {sum, sum};
    wire [31:0] rot = sum2[63 - S -: 32];

    always @(posedge clk) begin
        if (ce) begin
            out_t <= LAST ? in_d : in_d + kmn;
            out_b <= in_b + rot;
            out_c <= in_b;
            out_d <= in_c;
        end
    end

    // carry only the words that vary per value
    genvar w;
    generate
        for (w = 0; w < 16; w = w + 1) begin : g_word
            if (VAR_MASK[w]) begin : g_var
                reg [31:0] r;
                always @(posedge clk) if (ce) r <= in_msg[32*w +: 32];
                assign out_msg[32*w +: 32] = r;
            end else begin : g_const
                assign out_msg[32*w +: 32] = 32'd0;
            end
        end
    endgenerate
endmodule
`default_nettype wire
