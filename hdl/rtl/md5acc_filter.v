// md5acc_filter: on-chip target filter for one pipeline. Two bit arrays of
// 2^IDX_BITS bits each; array a is indexed by the low IDX_BITS bits of the
// digest's 32-bit little-endian word a (digest bytes 4a..4a+3). A digest
// hits when its bit is set in both arrays (a two-hash Bloom filter; the host
// sets the bits of every target and confirms hits exactly). The arrays are
// 32-bit words written by the host through the register block, so each is a
// simple dual-port RAM (one write port, one read port) that maps onto block
// RAM. The lookup is registered: hit is valid the clock after ce with the
// digest presented.
`default_nettype none
module md5acc_filter #(
    parameter integer IDX_BITS = 14
) (
    input  wire         clk,
    input  wire         ce,
    input  wire [127:0] digest,
    output wire         hit,
    input  wire         wr_en,
    input  wire         wr_array,
    input  wire [IDX_BITS-6:0] wr_word,
    input  wire [31:0]  wr_data
);
    localparam integer WORDS = 1 << (IDX_BITS - 5);

    reg [31:0] arr0 [0:WORDS-1];
    reg [31:0] arr1 [0:WORDS-1];
    reg [31:0] rd0;
    reg [31:0] rd1;
    reg [4:0]  bit0;
    reg [4:0]  bit1;

    wire [IDX_BITS-1:0] idx0 = digest[IDX_BITS-1:0];
    wire [IDX_BITS-1:0] idx1 = digest[32 +: IDX_BITS];

    always @(posedge clk) begin
        if (wr_en && !wr_array) arr0[wr_word] <= wr_data;
    end
    always @(posedge clk) begin
        if (wr_en && wr_array) arr1[wr_word] <= wr_data;
    end
    always @(posedge clk) begin
        if (ce) begin
            rd0 <= arr0[idx0[IDX_BITS-1:5]];
            rd1 <= arr1[idx1[IDX_BITS-1:5]];
            bit0 <= idx0[4:0];
            bit1 <= idx1[4:0];
        end
    end
    assign hit = rd0[bit0] & rd1[bit1];

    wire unused = &{1'b0, digest[127:64], digest[31:IDX_BITS]};
endmodule
`default_nettype wire
