// md5acc_irq: interrupt status and enables (IRQ_STATUS, IRQ_ENABLE). A set
// input raises its status bit (and keeps raising it while it stays high: a
// condition, not only an event); the host clears bits by writing ones
// (write-1-to-clear), a bit set in the same clock as its clear stays set.
// The interrupt line is level-high: irq = |(status & enable).
`default_nettype none
module md5acc_irq #(
    parameter integer N = 3
) (
    input  wire         clk,
    input  wire         rst,
    input  wire [N-1:0] set,
    input  wire         clear,          // a write to IRQ_STATUS
    input  wire [N-1:0] clear_mask,
    input  wire         enable_we,      // a write to IRQ_ENABLE
    input  wire [N-1:0] enable_in,
    output reg  [N-1:0] status,
    output reg  [N-1:0] enable,
    output wire         irq
);
    always @(posedge clk) begin
        if (rst) begin
            status <= {N{1'b0}};
            enable <= {N{1'b0}};
        end else begin
            status <= (status & ~(clear ? clear_mask : {N{1'b0}})) | set;
            if (enable_we) enable <= enable_in;
        end
    end
    assign irq = |(status & enable);
endmodule
`default_nettype wire
