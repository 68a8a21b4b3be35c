// reset_sync: the fabric's reset on the DE10-Nano. Asserted at once
// (asynchronously) while the HPS holds h2f_reset or the PLL has not locked,
// released synchronously, STAGES rising edges of clk after both have cleared:
// the accelerator never leaves reset on an unstable clock, and its release
// meets recovery/removal timing in clk's domain (fpgamr_md5acc.sdc cuts only
// the asynchronous assertion). The output is the last register of the chain,
// so nothing combinational reaches the fabric's reset net.
`default_nettype none
module reset_sync #(
    parameter integer STAGES = 3    // >= 2: the first register may go metastable
) (
    input  wire clk,
    input  wire arst_n,             // the HPS's h2f_reset_n: 0 = reset
    input  wire locked,             // the PLL's locked: 0 = clk not yet stable
    output wire rst                 // active high, released in step with clk
);
    wire arst = !arst_n || !locked;
    // configuration starts in reset too, before the first assertion
    reg [STAGES-1:0] sync = {STAGES{1'b1}};
    always @(posedge clk or posedge arst) begin
        if (arst) sync <= {STAGES{1'b1}};
        else      sync <= {sync[STAGES-2:0], 1'b0};
    end
    assign rst = sync[STAGES-1];
endmodule
`default_nettype wire
