// md5_pad: MD5 padding (RFC 1321, sections 3.1 and 3.2) of a message of
// WIDTH bytes (1..8) into the words of its single 64-byte block.
// msg holds message byte j in bits [8j+7:8j] (the order in which the bytes
// sit in memory on a little-endian AXI bus); bytes at and above WIDTH are
// ignored. Words 3..13 and 15 of the block are zero; m2 and m14 depend on the
// width only. Combinational.
`default_nettype none
module md5_pad (
    input  wire [3:0]  width,
    input  wire [63:0] msg,
    output wire [31:0] m0,
    output wire [31:0] m1,
    output wire [31:0] m2,
    output wire [31:0] m14
);
    reg [63:0] padded;
    integer j;
    always @* begin
        for (j = 0; j < 8; j = j + 1) begin
            if (j < width)
                padded[8*j +: 8] = msg[8*j +: 8];
            else if (j == width)
                padded[8*j +: 8] = 8'h80;
            else
                padded[8*j +: 8] = 8'h00;
        end
    end
    assign m0 = padded[31:0];
    assign m1 = padded[63:32];
    assign m2 = (width == 4'd8) ? 32'h0000_0080 : 32'h0;
    assign m14 = {25'd0, width[3:0], 3'b000};
endmodule
`default_nettype wire
