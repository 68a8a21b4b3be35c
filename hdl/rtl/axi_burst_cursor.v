// axi_burst_cursor: where a DMA stands in its transfer (address, beats left)
// and the length of its next INCR burst: MAX_BURST, the beats to the next
// 4 KiB boundary (AXI rule), or the beats left, whichever is least. Shared by
// the read engine and the hash sink.
// For the clock rate `len` is a register computed from registers with no
// wide compare: the page limit is kept for the current address (updated with
// it, from a narrow index), and the beats left count only when they are few
// (< 2 MAX_BURST: a zero test of the upper bits of `left`, no carry chain).
// `len` is computed from the state of the clock before, so the clock after an
// advance (or a load) it is stale: len_ok is low then.
`default_nettype none
module axi_burst_cursor #(
    parameter integer ADDR_W = 32,
    parameter integer BYTES = 32,                      // bytes per beat
    parameter integer CNT_W = 64,
    parameter integer MAX_BURST = 16,                  // a power of two, <= 4096 / BYTES
    parameter integer LEN_W = $clog2(MAX_BURST) + 1    // derived: holds 0..MAX_BURST
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              load,          // a new transfer: load_beats beats from load_addr
    input  wire [ADDR_W-1:0] load_addr,     // beat aligned
    input  wire [CNT_W-1:0]  load_beats,
    input  wire              advance,       // a burst of adv_len (<= len) beats was issued at addr
    input  wire [LEN_W-1:0]  adv_len,
    output reg  [ADDR_W-1:0] addr,
    output reg  [CNT_W-1:0]  left,
    output reg  [LEN_W-1:0]  len,           // the next burst's length (0: nothing left)
    output reg               len_ok         // len is up to date
);
    localparam integer LSB = $clog2(BYTES);
    localparam integer IW = 12 - LSB;                  // a beat's index in its 4 KiB page

    // beats to the page's end, at most MAX_BURST. The page is a whole number
    // of MAX_BURST-beat blocks, so the end is nearer than MAX_BURST only in
    // the last block (every index bit above the block's bits is one), where
    // it is MAX_BURST minus the index in the block: no wide compare.
    localparam [IW-1:0] BLOCK_MASK = MAX_BURST - 1;
    function [LEN_W-1:0] page_limit(input [IW-1:0] idx);
        reg [IW-1:0] in_block;
        begin
            in_block = idx & BLOCK_MASK;
            if (&(idx | BLOCK_MASK))
                page_limit = MAX_BURST[LEN_W-1:0] - in_block[LEN_W-1:0];
            else
                page_limit = MAX_BURST[LEN_W-1:0];
        end
    endfunction

    reg  [LEN_W-1:0] page_lim;      // page_limit of addr
    wire             left_small = (left >> LEN_W) == {CNT_W{1'b0}};
    wire [IW-1:0]    next_idx = addr[11:LSB] + adv_len;     // wraps at the page: a burst never crosses it
    wire [LEN_W-1:0] left_lo = left[LEN_W-1:0];

    always @(posedge clk) begin
        if (rst) begin
            addr <= {ADDR_W{1'b0}};
            left <= {CNT_W{1'b0}};
            page_lim <= page_limit({IW{1'b0}});
            len_ok <= 1'b0;
        end else if (load) begin
            addr <= load_addr;
            left <= load_beats;
            page_lim <= page_limit(load_addr[11:LSB]);
            len_ok <= 1'b0;
        end else begin
            if (advance) begin
                addr <= addr + ({{(ADDR_W-LEN_W){1'b0}}, adv_len} << LSB);
                left <= left - {{(CNT_W-LEN_W){1'b0}}, adv_len};
                page_lim <= page_limit(next_idx);
            end
            len_ok <= !advance;
        end
        len <= (left_small && left_lo < page_lim) ? left_lo : page_lim;
    end
endmodule
`default_nettype wire
