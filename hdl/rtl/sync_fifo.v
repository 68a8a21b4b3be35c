// sync_fifo: single-clock first-word-fall-through FIFO with valid/ready on
// both sides, a synchronous clear and an occupancy count.
// DEPTH must be a power of two.
`default_nettype none
module sync_fifo #(
    parameter integer WIDTH = 8,
    parameter integer DEPTH = 16
) (
    input  wire             clk,
    input  wire             rst,
    input  wire             clr,
    input  wire             in_valid,
    output wire             in_ready,
    input  wire [WIDTH-1:0] in_data,
    output wire             out_valid,
    input  wire             out_ready,
    output wire [WIDTH-1:0] out_data,
    output wire [$clog2(DEPTH):0] count
);
    localparam integer AW = $clog2(DEPTH);

    reg [WIDTH-1:0] mem [0:DEPTH-1];
    reg [AW:0] wr_ptr;
    reg [AW:0] rd_ptr;

    wire empty = wr_ptr == rd_ptr;
    wire full = (wr_ptr[AW-1:0] == rd_ptr[AW-1:0]) && (wr_ptr[AW] != rd_ptr[AW]);

    assign in_ready = !full;
    assign out_valid = !empty;
    assign out_data = mem[rd_ptr[AW-1:0]];
    assign count = wr_ptr - rd_ptr;

    always @(posedge clk) begin
        if (in_valid && !full) mem[wr_ptr[AW-1:0]] <= in_data;
    end

    always @(posedge clk) begin
        if (rst || clr) begin
            wr_ptr <= {(AW+1){1'b0}};
            rd_ptr <= {(AW+1){1'b0}};
        end else begin
            if (in_valid && !full) wr_ptr <= wr_ptr + 1'b1;
            if (out_ready && !empty) rd_ptr <= rd_ptr + 1'b1;
        end
    end
endmodule
`default_nettype wire
