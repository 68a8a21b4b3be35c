// axi_wr_engine: AXI4 write DMA. Each command (address, beats - 1) becomes
// one INCR burst; the caller keeps commands within 4 KiB pages and at most
// 256 beats (the engine does not split). W beats are taken in order from
// the data stream with their byte strobes, WLAST is generated from the
// command lengths. The W channel leaves through a skid buffer (a register
// slice at full rate with a registered ready): the data's path from the
// sources' FIFOs ends at a flip-flop, and so does WREADY's.
// B responses are counted: every OKAY burst reports its beats on ack_*,
// a non-OKAY one sets err and latches its address in err_addr (the first).
// idle is high when no command is queued and every burst has its response.
`default_nettype none
module axi_wr_engine #(
    parameter integer ADDR_W = 32,
    parameter integer DATA_W = 128,
    parameter integer MAX_OUTSTANDING = 8,
    parameter [3:0]   AXI_CACHE = 4'b0011
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              clr_err,
    // commands
    input  wire              cmd_valid,
    output wire              cmd_ready,
    input  wire [ADDR_W-1:0] cmd_addr,
    input  wire [7:0]        cmd_len,     // beats - 1
    // data
    input  wire              data_valid,
    output wire              data_ready,
    input  wire [DATA_W-1:0] data,
    input  wire [DATA_W/8-1:0] strb,
    // status
    output wire              idle,
    output reg               err,
    output reg  [ADDR_W-1:0] err_addr,
    output reg               ack_valid,
    output reg  [8:0]        ack_beats,
    // AXI4 write channels
    output wire [0:0]        m_axi_awid,
    output wire [ADDR_W-1:0] m_axi_awaddr,
    output wire [7:0]        m_axi_awlen,
    output wire [2:0]        m_axi_awsize,
    output wire [1:0]        m_axi_awburst,
    output wire              m_axi_awlock,
    output wire [3:0]        m_axi_awcache,
    output wire [2:0]        m_axi_awprot,
    output wire              m_axi_awvalid,
    input  wire              m_axi_awready,
    output wire [DATA_W-1:0] m_axi_wdata,
    output wire [DATA_W/8-1:0] m_axi_wstrb,
    output wire              m_axi_wlast,
    output wire              m_axi_wvalid,
    input  wire              m_axi_wready,
    input  wire [0:0]        m_axi_bid,
    input  wire [1:0]        m_axi_bresp,
    input  wire              m_axi_bvalid,
    output wire              m_axi_bready
);
    localparam integer LSB = $clog2(DATA_W / 8);
    localparam integer QW = (MAX_OUTSTANDING < 2) ? 2 : MAX_OUTSTANDING;

    wire wq_ready, wq_valid, bq_ready, bq_valid;
    wire [7:0] wq_len;
    wire [ADDR_W+7:0] bq_head;

    assign m_axi_awvalid = cmd_valid && wq_ready && bq_ready;
    assign cmd_ready = m_axi_awready && wq_ready && bq_ready;
    assign m_axi_awaddr = cmd_addr;
    assign m_axi_awlen = cmd_len;
    assign m_axi_awsize = LSB[2:0];
    assign m_axi_awburst = 2'b01;
    assign m_axi_awlock = 1'b0;
    assign m_axi_awcache = AXI_CACHE;
    assign m_axi_awprot = 3'b000;
    assign m_axi_awid = 1'b0;
    wire aw_fire = m_axi_awvalid && m_axi_awready;
    wire w_take, take_last;      // a beat enters the W register; it is its burst's last

    // lengths of bursts whose W beats are still to be sent, the current
    // burst's taken into registers (cur_*) when it starts
    wire wq_load;
    sync_fifo #(.WIDTH(8), .DEPTH(QW), .BRAM(0)) u_wq (
        .clk(clk), .rst(rst), .clr(1'b0),
        .in_valid(aw_fire), .in_ready(wq_ready), .in_data(cmd_len),
        .out_valid(wq_valid), .out_ready(wq_load), .out_data(wq_len),
        .count());
    // bursts waiting for their B response
    sync_fifo #(.WIDTH(ADDR_W + 8), .DEPTH(QW), .BRAM(0)) u_bq (
        .clk(clk), .rst(rst), .clr(1'b0),
        .in_valid(aw_fire), .in_ready(bq_ready), .in_data({cmd_len, cmd_addr}),
        .out_valid(bq_valid), .out_ready(m_axi_bvalid), .out_data(bq_head),
        .count());

    // The current burst: cur_v (its AW was sent and beats are left), the
    // beats left after the next one, and cur_last (the next beat is its
    // last), all registers: data_ready and WLAST start at flip-flops, not at
    // the queue's read and a compare (the one-pipeline route's critical
    // path: the queue's read pointer -> data_ready -> the source's FIFO ->
    // the queue's pop). A burst's first beat can go the clock after its AW;
    // back-to-back bursts keep the full rate (the next loads as the last
    // beat is taken).
    reg       cur_v, cur_last;
    reg [7:0] cur_left;
    assign wq_load = wq_valid && (!cur_v || (w_take && take_last));
    always @(posedge clk) begin
        if (rst) begin
            cur_v <= 1'b0;
            cur_last <= 1'b0;
            cur_left <= 8'd0;
        end else if (wq_load) begin
            cur_v <= 1'b1;
            cur_last <= wq_len == 8'd0;
            cur_left <= wq_len;
        end else if (w_take) begin
            cur_v <= !take_last;
            cur_last <= cur_left == 8'd1;
            cur_left <= cur_left - 8'd1;
        end
    end

    // W stage: a skid buffer. The source sees a registered ready, so no
    // combinational path joins WREADY to the sources' FIFOs (the
    // four-pipeline route's critical path was WREADY -> data_ready -> the
    // hash sink's FIFO, 9.75 ns of routing). Beats only enter for a
    // commanded burst, so none outlives its burst.
    wire w_room;
    assign data_ready = cur_v && w_room;
    assign w_take = data_valid && data_ready;
    assign take_last = cur_last;
    skid_buffer #(.WIDTH(DATA_W + DATA_W / 8 + 1)) u_w (
        .clk(clk), .rst(rst), .clr(1'b0),
        .in_valid(data_valid && cur_v), .in_ready(w_room), .in_data({take_last, strb, data}),
        .out_valid(m_axi_wvalid), .out_ready(m_axi_wready), .out_data({m_axi_wlast, m_axi_wstrb, m_axi_wdata}));
    assign m_axi_bready = 1'b1;

    always @(posedge clk) begin
        if (rst) begin
            err <= 1'b0;
            err_addr <= {ADDR_W{1'b0}};
            ack_valid <= 1'b0;
            ack_beats <= 9'd0;
        end else begin
            ack_valid <= 1'b0;
            if (clr_err) begin
                err <= 1'b0;
                err_addr <= {ADDR_W{1'b0}};
            end
            if (m_axi_bvalid) begin
                if (m_axi_bresp == 2'b00) begin
                    ack_valid <= 1'b1;
                    ack_beats <= {1'b0, bq_head[ADDR_W +: 8]} + 9'd1;
                end else begin
                    if (!err) err_addr <= bq_head[ADDR_W-1:0];
                    err <= 1'b1;
                end
            end
        end
    end

    assign idle = !cmd_valid && !bq_valid;

    wire unused = &{1'b0, m_axi_bid};
endmodule
`default_nettype wire
