// skid_buffer: a register slice for a valid/ready stream, at full rate, with
// a registered ready: out_valid, out_data and in_ready all start at
// flip-flops, so neither the data nor the ready crosses the slice
// combinationally and a long route on either side is a path of its own.
// Two words of storage: the output register and a skid register that takes
// the word accepted on the clock the output stalls (in_ready falls a clock
// after out_ready). A word shows at the output the clock after it entered.
`default_nettype none
module skid_buffer #(
    parameter integer WIDTH = 8
) (
    input  wire             clk,
    input  wire             rst,
    input  wire             clr,
    input  wire             in_valid,
    output wire             in_ready,
    input  wire [WIDTH-1:0] in_data,
    output wire             out_valid,
    input  wire             out_ready,
    output wire [WIDTH-1:0] out_data
);
    reg             o_v, s_v;
    reg [WIDTH-1:0] o_data, s_data;
    wire o_open = !o_v || out_ready;     // the output register is free on this clock
    wire take = in_valid && !s_v;

    always @(posedge clk) begin
        if (rst || clr) begin
            o_v <= 1'b0;
            s_v <= 1'b0;
        end else if (o_open) begin
            o_v <= s_v || take;
            s_v <= 1'b0;
        end else if (take) begin
            s_v <= 1'b1;
        end
        if (o_open) o_data <= s_v ? s_data : in_data;
        if (!o_open && take) s_data <= in_data;
    end
    assign in_ready = !s_v;
    assign out_valid = o_v;
    assign out_data = o_data;
endmodule
`default_nettype wire
