// md5acc_compare: compare/filter stage of the search path. Every pipeline
// has its own copy of the target filter: two bit arrays of 2^IDX_BITS bits,
// array a indexed by the low IDX_BITS bits of the digest's little-endian
// word a (digest bytes 4a..4a+3). A digest hits when its bit is set in both
// arrays (a two-hash Bloom filter; the host sets the bits of every target
// and confirms hits exactly). The host writes 32-bit words of the arrays
// through the register block into every copy at once (write only while
// idle), so each array is a simple dual-port block RAM.
// One group in per clock, never stalls; LATENCY = 4 clocks later out_hit
// marks the valid lanes that hit, with their values (base | lane) and
// digests. The four stages keep the block RAM's slow clock-to-out off the
// hit logic: the read; a register that takes the word beside the RAM (the
// four-pipeline route's critical path was the RAM's read, 5.83 ns, -> across
// the chip -> that register, when it was also the one the bit select read);
// a register by the hit logic; then the bit select and AND into the
// registered hit flags.
`default_nettype none
module md5acc_compare #(
    parameter integer NPIPE = 8,
    parameter integer IDX_BITS = 14
) (
    input  wire                  clk,
    input  wire                  rst,
    input  wire                  in_valid,
    input  wire [NPIPE-1:0]      in_mask,
    input  wire [63:0]           in_base,       // value of lane 0 (NPIPE-aligned)
    input  wire [NPIPE*128-1:0]  in_digest,
    // filter load
    input  wire                  wr_en,
    input  wire                  wr_array,
    input  wire [IDX_BITS-6:0]   wr_word,
    input  wire [31:0]           wr_data,
    output wire                  busy,          // a group between in and out
    // hits
    output wire [NPIPE-1:0]      out_hit,
    output wire [NPIPE*64-1:0]   out_value,
    output wire [NPIPE*128-1:0]  out_digest
);
    localparam integer WORDS = 1 << (IDX_BITS - 5);

    // per stage k = 1..4: group valid, lane mask, lane-0 value, digests
    reg              v1, v2, v3, v4;
    reg [NPIPE-1:0]  mask1, mask2, mask3;
    reg [63:0]       base1, base2, base3, base4;
    reg [NPIPE*128-1:0] dig1, dig2, dig3, dig4;
    reg [NPIPE-1:0]  hit4;

    genvar j;
    generate
        for (j = 0; j < NPIPE; j = j + 1) begin : g_lane
            reg [31:0] arr0 [0:WORDS-1];
            reg [31:0] arr1 [0:WORDS-1];
            reg [31:0] rd0, rd1, rd0_q, rd1_q, rd0_h, rd1_h;
            reg [4:0]  bit0, bit1, bit0_q, bit1_q, bit0_h, bit1_h;
            wire [IDX_BITS-1:0] idx0 = in_digest[128*j +: IDX_BITS];
            wire [IDX_BITS-1:0] idx1 = in_digest[128*j + 32 +: IDX_BITS];
            always @(posedge clk) if (wr_en && !wr_array) arr0[wr_word] <= wr_data;
            always @(posedge clk) if (wr_en && wr_array) arr1[wr_word] <= wr_data;
            always @(posedge clk) begin
                rd0 <= arr0[idx0[IDX_BITS-1:5]];
                rd1 <= arr1[idx1[IDX_BITS-1:5]];
                bit0 <= idx0[4:0];
                bit1 <= idx1[4:0];
                rd0_q <= rd0;               // beside the RAM
                rd1_q <= rd1;
                bit0_q <= bit0;
                bit1_q <= bit1;
                rd0_h <= rd0_q;             // by the hit logic
                rd1_h <= rd1_q;
                bit0_h <= bit0_q;
                bit1_h <= bit1_q;
                hit4[j] <= v3 && mask3[j] && rd0_h[bit0_h] && rd1_h[bit1_h];
            end
        end
    endgenerate

    always @(posedge clk) begin
        if (rst) {v1, v2, v3, v4} <= 4'b0000;
        else {v1, v2, v3, v4} <= {in_valid, v1, v2, v3};
        {mask1, mask2, mask3} <= {in_mask, mask1, mask2};
        {base1, base2, base3, base4} <= {in_base, base1, base2, base3};
        {dig1, dig2, dig3, dig4} <= {in_digest, dig1, dig2, dig3};
    end
    assign out_hit = v4 ? hit4 : {NPIPE{1'b0}};
    assign out_digest = dig4;
    assign busy = v1 || v2 || v3 || v4;
    generate
        for (j = 0; j < NPIPE; j = j + 1) begin : g_value
            assign out_value[64*j +: 64] = base4 | j;
        end
    endgenerate
endmodule
`default_nettype wire
