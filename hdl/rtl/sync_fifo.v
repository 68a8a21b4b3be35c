// sync_fifo: single-clock first-word-fall-through FIFO with valid/ready on
// both sides, a synchronous clear and an occupancy count; holds DEPTH words
// (DEPTH a power of two).
// BRAM = 1: the storage is read through a register (block RAM: M10K on
// Cyclone V, EBR on ECP5) into an output register, so a word written to an
// empty FIFO shows at the output two clocks later (data FIFOs).
// BRAM = 2: as 1, and the read register's word passes through one more
// register, a plain flip-flop the placer puts beside the block RAM, so the
// RAM's slow clock-to-out (5.6-5.8 ns on the ECP5 proxy, whose block RAM
// output register Yosys does not use) ends there, not at the consumer's
// logic across the chip; a word shows three clocks after it was written.
// BRAM = 0: the storage is read combinationally (registers or LUT RAM), a
// word shows the clock after it was written (small control FIFOs).
// count is a register of its own (no pointer arithmetic behind it), so the
// room checks of its users start at a flip-flop.
`default_nettype none
module sync_fifo #(
    parameter integer WIDTH = 8,
    parameter integer DEPTH = 16,
    parameter integer BRAM = 1
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
    reg [AW:0] cnt;                                  // words in the FIFO (storage and output registers)
    wire stored = wr_ptr != rd_ptr;                  // a word in the storage
    wire push = in_valid && in_ready;
    wire pop;                                        // a word leaves the storage
    wire leave = out_valid && out_ready;             // a word leaves the FIFO

    always @(posedge clk) begin
        if (push) mem[wr_ptr[AW-1:0]] <= in_data;
    end
    always @(posedge clk) begin
        if (rst || clr) begin
            wr_ptr <= {(AW+1){1'b0}};
            rd_ptr <= {(AW+1){1'b0}};
        end else begin
            if (push) wr_ptr <= wr_ptr + 1'b1;
            if (pop) rd_ptr <= rd_ptr + 1'b1;
        end
    end
    always @(posedge clk) begin
        if (rst || clr) cnt <= {(AW+1){1'b0}};
        else if (push && !leave) cnt <= cnt + 1'b1;
        else if (leave && !push) cnt <= cnt - 1'b1;
    end
    assign count = cnt;

    generate
        if (BRAM == 2) begin : g_bram2
            reg             q_valid, q2_valid;
            reg [WIDTH-1:0] q, q2;
            wire move = q_valid && (!q2_valid || out_ready);   // the read register's word moves on
            assign pop = stored && (!q_valid || move);
            always @(posedge clk) begin
                if (pop) q <= mem[rd_ptr[AW-1:0]];
                if (move) q2 <= q;
            end
            always @(posedge clk) begin
                if (rst || clr) begin
                    q_valid <= 1'b0;
                    q2_valid <= 1'b0;
                end else begin
                    if (pop) q_valid <= 1'b1;
                    else if (move) q_valid <= 1'b0;
                    if (move) q2_valid <= 1'b1;
                    else if (out_ready) q2_valid <= 1'b0;
                end
            end
            assign out_valid = q2_valid;
            assign out_data = q2;
        end else if (BRAM) begin : g_bram
            reg             q_valid;
            reg [WIDTH-1:0] q;
            assign pop = stored && (!q_valid || out_ready);
            always @(posedge clk) begin
                if (pop) q <= mem[rd_ptr[AW-1:0]];
            end
            always @(posedge clk) begin
                if (rst || clr) q_valid <= 1'b0;
                else if (pop) q_valid <= 1'b1;
                else if (out_ready) q_valid <= 1'b0;
            end
            assign out_valid = q_valid;
            assign out_data = q;
        end else begin : g_comb
            assign pop = stored && out_ready;
            assign out_valid = stored;
            assign out_data = mem[rd_ptr[AW-1:0]];
        end
    endgenerate
    assign in_ready = !cnt[AW];                      // cnt < DEPTH (it never exceeds DEPTH)
endmodule
`default_nettype wire
