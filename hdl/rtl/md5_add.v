// md5_add: the two kinds of 32-bit addition an MD5 step needs, each one
// carry chain.
//   KIND 0..3: s = w + F(x, y, z), F the RFC 1321 round function of round
//              KIND (F, G, H, I) on x = b, y = c, z = d.
//   KIND 4:    s = x + y + K, K a constant (a ternary add).
// Generic RTL by default (simulators, nextpnr-ecp5, Quartus, whose own
// synthesis puts a function of four inputs in front of each adder bit and
// has a three-input "shared arithmetic" mode). With MD5ACC_MISTRAL defined
// (the Yosys Cyclone V estimate, synth/) each bit is one Yosys
// MISTRAL_ALUT_ARITH cell, half of an ALM in arithmetic mode, whose two
// 4-input LUTs absorb what Yosys's generic mapping leaves in separate LUTs
// (its own arith_alm_map.v says so): F folds into the first LUT; for KIND 4
// the first LUT gives the sum bit x^y^K and the second the carry-save bit
// maj(x, y, K) of the bit below (the shared-arithmetic trick). The
// md5_add bench checks both forms against each other bit for bit.
`default_nettype none
module md5_add #(
    parameter integer KIND = 0,
    parameter [31:0]  K = 32'd0
) (
    input  wire [31:0] x,
    input  wire [31:0] y,
    input  wire [31:0] z,
    input  wire [31:0] w,
    output wire [31:0] s
);
    function f_bit(input integer kind, input b, input c, input d);
        case (kind)
            0: f_bit = (b & c) | (~b & d);
            1: f_bit = (d & b) | (~d & c);
            2: f_bit = b ^ c ^ d;
            default: f_bit = c ^ (b | ~d);
        endcase
    endfunction

`ifdef MD5ACC_MISTRAL
    // q0 = LUT0[{D0,C,B,A}], q1 = LUT1[{D1,C,B,A}], {CO,SO} = q0 + !q1 + CI
    function [15:0] lut_f(input integer kind);
        integer i;
        begin
            for (i = 0; i < 16; i = i + 1) lut_f[i] = f_bit(kind, i[0], i[1], i[2]);
        end
    endfunction
    function [15:0] lut_xor3(input kbit);       // A ^ B ^ kbit
        integer i;
        begin
            for (i = 0; i < 16; i = i + 1) lut_xor3[i] = i[0] ^ i[1] ^ kbit;
        end
    endfunction
    function [15:0] lut_nmaj(input kbit);       // !maj(C, D1, kbit)
        integer i;
        begin
            for (i = 0; i < 16; i = i + 1)
                lut_nmaj[i] = !((i[2] & i[3]) | (i[2] & kbit) | (i[3] & kbit));
        end
    endfunction

    wire [32:0] carry;
    assign carry[0] = 1'b0;
    genvar i;
    generate
        for (i = 0; i < 32; i = i + 1) begin : g_bit
            if (KIND < 4) begin : g_f
                MISTRAL_ALUT_ARITH #(.LUT0(lut_f(KIND)), .LUT1(16'h00FF)) u_alm (
                    .A(x[i]), .B(y[i]), .C(z[i]), .D0(1'b0), .D1(w[i]),
                    .CI(carry[i]), .SO(s[i]), .CO(carry[i+1]));
            end else if (i == 0) begin : g_k0
                MISTRAL_ALUT_ARITH #(.LUT0(lut_xor3(K[0])), .LUT1(16'hFFFF)) u_alm (
                    .A(x[0]), .B(y[0]), .C(1'b0), .D0(1'b0), .D1(1'b0),
                    .CI(carry[0]), .SO(s[0]), .CO(carry[1]));
            end else begin : g_k
                MISTRAL_ALUT_ARITH #(.LUT0(lut_xor3(K[i])), .LUT1(lut_nmaj(K[i-1]))) u_alm (
                    .A(x[i]), .B(y[i]), .C(x[i-1]), .D0(1'b0), .D1(y[i-1]),
                    .CI(carry[i]), .SO(s[i]), .CO(carry[i+1]));
            end
        end
    endgenerate
    wire unused = carry[32];
`else
    reg [31:0] f;
    integer i;
    always @* for (i = 0; i < 32; i = i + 1) f[i] = f_bit(KIND, x[i], y[i], z[i]);
    assign s = (KIND < 4) ? w + f : x + y + K;
`endif
endmodule
`default_nettype wire
