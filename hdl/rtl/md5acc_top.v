// md5acc_top: the fpgamr MD5 accelerator. Data flow:
//   md5acc_regfile (AXI4-Lite registers) -> controller (below) ->
//   md5acc_candgen (groups of NPIPE padded messages: values made on chip for
//     the search path, messages from axi_rd_engine for the hash path) ->
//   md5acc_pipes (NPIPE md5_core pipelines in lockstep, never stalling) ->
//   hash path:   md5acc_hash_sink (digests packed into beats, bursts) ->
//   search path: md5acc_compare (target filter) -> md5acc_hits (hit FIFO) ->
//                md5acc_match_writer (32-byte records into a ring) ->
//   axi_wr_engine (AXI4 write DMA);  md5acc_irq (level interrupt).
// The pipelines never stall: the generator issues a group only while the
// hash sink's beat FIFO or every hit FIFO has room for all groups in flight.
// One AXI4 master of DATA_W bits (128, 256 or 512): reads for the hash input,
// writes for digests and match records, INCR bursts of at most MAX_BURST
// beats that never cross 4 KiB. The hash path uses HASH_LANES =
// min(NPIPE, DATA_W/128) lanes, that many digests per clock; the search path
// uses all NPIPE lanes (NPIPE a power of two).
`default_nettype none
`include "md5acc_defaults.vh"
module md5acc_top #(
    parameter integer NPIPE = `MD5ACC_DEFAULT_PIPELINES,
    parameter integer DATA_W = `MD5ACC_DEFAULT_DATA_W,    // AXI4 master data width: 128, 256 or 512
    parameter integer ADDR_W = 32,
    parameter integer MAX_BURST = 16,
    parameter integer IDX_BITS = 14,
    parameter integer CLOCK_KHZ = `MD5ACC_CLOCK_KHZ,
    parameter [3:0]   AXI_CACHE = 4'b0011
) (
    input  wire              clk,
    input  wire              rst,
    output wire              irq,
    output wire              busy,
    // AXI4-Lite slave: registers
    input  wire [12:0]       s_axil_awaddr,
    input  wire [2:0]        s_axil_awprot,
    input  wire              s_axil_awvalid,
    output wire              s_axil_awready,
    input  wire [31:0]       s_axil_wdata,
    input  wire [3:0]        s_axil_wstrb,
    input  wire              s_axil_wvalid,
    output wire              s_axil_wready,
    output wire [1:0]        s_axil_bresp,
    output wire              s_axil_bvalid,
    input  wire              s_axil_bready,
    input  wire [12:0]       s_axil_araddr,
    input  wire [2:0]        s_axil_arprot,
    input  wire              s_axil_arvalid,
    output wire              s_axil_arready,
    output wire [31:0]       s_axil_rdata,
    output wire [1:0]        s_axil_rresp,
    output wire              s_axil_rvalid,
    input  wire              s_axil_rready,
    // AXI4 master: data
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
    output wire              m_axi_bready,
    output wire [0:0]        m_axi_arid,
    output wire [ADDR_W-1:0] m_axi_araddr,
    output wire [7:0]        m_axi_arlen,
    output wire [2:0]        m_axi_arsize,
    output wire [1:0]        m_axi_arburst,
    output wire              m_axi_arlock,
    output wire [3:0]        m_axi_arcache,
    output wire [2:0]        m_axi_arprot,
    output wire              m_axi_arvalid,
    input  wire              m_axi_arready,
    input  wire [0:0]        m_axi_rid,
    input  wire [DATA_W-1:0] m_axi_rdata,
    input  wire [1:0]        m_axi_rresp,
    input  wire              m_axi_rlast,
    input  wire              m_axi_rvalid,
    output wire              m_axi_rready
);
`include "md5acc_regs.vh"

    localparam integer BUS_B = DATA_W / 8;            // bytes per beat
    localparam integer LSB = $clog2(BUS_B);
    localparam integer DPB = DATA_W / 128;            // digests per beat
    localparam integer HASH_LANES = (NPIPE < DPB) ? NPIPE : DPB;
    localparam integer CW = $clog2(NPIPE + 1);
    localparam integer MIN_WIDTH = 1;
    localparam integer MAX_WIDTH = 8;
    localparam integer RD_FIFO = (DATA_W > 128) ? 32 : 64;
    localparam [63:0]  LANE_MASK = NPIPE - 1;
    localparam [31:0] DESIGN_PARAMS_VALUE =
        (NPIPE << DESIGN_PARAMS_PIPELINES_LSB) |
        (1 << DESIGN_PARAMS_MODE_HASH_LSB) | (1 << DESIGN_PARAMS_MODE_SEARCH_LSB) |
        (IDX_BITS << DESIGN_PARAMS_FILTER_IDX_BITS_LSB) |
        (MIN_WIDTH << DESIGN_PARAMS_MIN_WIDTH_LSB) | (MAX_WIDTH << DESIGN_PARAMS_MAX_WIDTH_LSB) |
        ($clog2(DATA_W / 8) << DESIGN_PARAMS_LOG2_BUS_BYTES_LSB) |
        ($clog2(MAX_BURST) << DESIGN_PARAMS_MAX_BURST_LOG2_LSB);

    function [CW-1:0] popcount(input [NPIPE-1:0] m);
        integer i;
        begin
            popcount = {CW{1'b0}};
            for (i = 0; i < NPIPE; i = i + 1) popcount = popcount + m[i];
        end
    endfunction

    // ------------------------------------------------------------------
    // register file and interrupt
    wire        cfg_op;
    wire [3:0]  cfg_width;
    wire [63:0] cfg_start, cfg_count, cfg_src, cfg_dst;
    wire [31:0] cfg_cap, match_ack, wr_data;
    wire        start_req, abort_req, filter_we, filter_array, irq_clear, irq_enable_we;
    wire [8:0]  filter_word;
    wire [2:0]  irq_sts, irq_en, irq_set;
    reg         st_done, st_err, st_abort;
    reg  [3:0]  err_code;
    reg  [31:0] match_count;
    reg  [63:0] values_done, cycles, err_addr;
    wire        mw_full;
    reg         launch;
    reg  [31:0] jobs_started;   // STARTs accepted while idle (JOBS_STARTED)

    md5acc_regfile #(.DESIGN_PARAMS_VALUE(DESIGN_PARAMS_VALUE), .CLOCK_KHZ(CLOCK_KHZ)) u_regs (
        .clk(clk), .rst(rst),
        .s_axil_awaddr(s_axil_awaddr), .s_axil_awprot(s_axil_awprot), .s_axil_awvalid(s_axil_awvalid),
        .s_axil_awready(s_axil_awready), .s_axil_wdata(s_axil_wdata), .s_axil_wstrb(s_axil_wstrb),
        .s_axil_wvalid(s_axil_wvalid), .s_axil_wready(s_axil_wready), .s_axil_bresp(s_axil_bresp),
        .s_axil_bvalid(s_axil_bvalid), .s_axil_bready(s_axil_bready), .s_axil_araddr(s_axil_araddr),
        .s_axil_arprot(s_axil_arprot), .s_axil_arvalid(s_axil_arvalid), .s_axil_arready(s_axil_arready),
        .s_axil_rdata(s_axil_rdata), .s_axil_rresp(s_axil_rresp), .s_axil_rvalid(s_axil_rvalid),
        .s_axil_rready(s_axil_rready),
        .cfg_op(cfg_op), .cfg_width(cfg_width), .cfg_start(cfg_start), .cfg_count(cfg_count),
        .cfg_src(cfg_src), .cfg_dst(cfg_dst), .cfg_cap(cfg_cap), .match_ack(match_ack), .job_start(launch),
        .start_req(start_req), .abort_req(abort_req), .filter_we(filter_we), .filter_array(filter_array),
        .filter_word(filter_word), .wr_data(wr_data), .irq_clear(irq_clear), .irq_enable_we(irq_enable_we),
        .status({20'd0, err_code, 3'd0, busy && job_op && mw_full, st_abort, st_err, st_done, busy}),
        .irq_status(irq_sts), .irq_enable(irq_en), .match_count(match_count),
        .values_done(values_done), .cycles(cycles), .err_addr(err_addr), .jobs_started(jobs_started));

    md5acc_irq #(.N(3)) u_irq (
        .clk(clk), .rst(rst), .set(irq_set), .clear(irq_clear), .clear_mask(wr_data[2:0]),
        .enable_we(irq_enable_we), .enable_in(wr_data[2:0]), .status(irq_sts), .enable(irq_en), .irq(irq));

    // ------------------------------------------------------------------
    // controller: START checks, job registers (latched at START, the
    // datapath launched the clock after), counters, completion
    localparam S_IDLE = 1'b0, S_RUN = 1'b1;
    reg state;
    assign busy = state == S_RUN;
    reg        job_op;
    reg [3:0]  job_width;
    reg [63:0] job_first, job_count;
    reg [ADDR_W-1:0] job_src, job_dst;
    reg [31:0] job_cap;
    reg        abort_lat;
    reg [63:0] issued;        // hash: messages handed to the pipelines
    reg [63:0] out_base;      // search: value of lane 0 of the group leaving the pipelines
    reg [7:0]  inflight;      // groups in the generator's output register and the pipelines

    wire bad_width = cfg_width < MIN_WIDTH[3:0] || cfg_width > MAX_WIDTH[3:0];
    wire src_high = (cfg_src >> ADDR_W) != 64'd0;
    wire dst_high = (cfg_dst >> ADDR_W) != 64'd0;
    wire bad_align = cfg_op ? (cfg_dst[4:0] != 5'd0 || dst_high)
                            : (cfg_src[LSB-1:0] != {LSB{1'b0}} || cfg_dst[LSB-1:0] != {LSB{1'b0}} ||
                               src_high || dst_high);
    wire bad_cap = cfg_op && cfg_cap == 32'd0;
    wire start_idle = state == S_IDLE && start_req;
    wire fail_now = start_idle && (bad_width || bad_align || bad_cap);
    wire empty_job = start_idle && !fail_now && cfg_count == 64'd0;
    wire start_ok = start_idle && !fail_now && cfg_count != 64'd0;
    always @(posedge clk)
        if (rst) jobs_started <= 32'd0;
        else if (start_idle) jobs_started <= jobs_started + 32'd1;

    wire rd_busy, rd_err, wr_idle, wr_err;
    wire [ADDR_W-1:0] rd_err_addr, wr_err_addr;
    // registered (a clock late; cleared by the launch): the one-pipeline
    // route's critical path after the skid buffers was the read engine's
    // error -> stop -> the generator's issue -> the read FIFO's pop (10.59 ns)
    reg stop;
    always @(posedge clk) stop <= !(rst || launch) && (abort_lat || rd_err || wr_err);
    // ABORT also drops the search's pending hits (register map 3.1): the hit
    // FIFO is held clear until the next launch, so a match writer waiting for
    // a MATCH_ACK that never comes (a full ring: a job with an all-ones filter
    // and a small MATCH_CAP) takes no more records, finishes the one in
    // flight (its burst was issued) and the job completes. Only ABORT: after a
    // DMA error the kernel's stop writes ABORT anyway, and until then the
    // records already found still reach the ring.
    reg drop;
    always @(posedge clk) drop <= !(rst || launch) && abort_lat;

    // ------------------------------------------------------------------
    // read DMA (hash path input): ceil(count * slot / BUS_B) beats
    wire [DATA_W-1:0] rd_beat;
    wire rd_beat_valid, rd_beat_pop;
    wire [63:0] rd_bytes = (job_width > 4'd4) ? (job_count << 3) : (job_count << 2);
    wire [63:0] rd_nbeats = (rd_bytes + BUS_B - 1) >> LSB;

    axi_rd_engine #(.ADDR_W(ADDR_W), .DATA_W(DATA_W), .MAX_BURST(MAX_BURST),
                    .FIFO_DEPTH(RD_FIFO), .CNT_W(64), .AXI_CACHE(AXI_CACHE)) u_rd (
        .clk(clk), .rst(rst),
        .start(launch && !job_op), .clr_err(launch), .addr(job_src), .nbeats(rd_nbeats),
        .stop(stop), .busy(rd_busy), .err(rd_err), .err_addr(rd_err_addr),
        .out_valid(rd_beat_valid), .out_ready(rd_beat_pop), .out_data(rd_beat),
        .m_axi_arid(m_axi_arid), .m_axi_araddr(m_axi_araddr), .m_axi_arlen(m_axi_arlen),
        .m_axi_arsize(m_axi_arsize), .m_axi_arburst(m_axi_arburst), .m_axi_arlock(m_axi_arlock),
        .m_axi_arcache(m_axi_arcache), .m_axi_arprot(m_axi_arprot), .m_axi_arvalid(m_axi_arvalid),
        .m_axi_arready(m_axi_arready), .m_axi_rid(m_axi_rid), .m_axi_rdata(m_axi_rdata),
        .m_axi_rresp(m_axi_rresp), .m_axi_rlast(m_axi_rlast), .m_axi_rvalid(m_axi_rvalid),
        .m_axi_rready(m_axi_rready));

    // ------------------------------------------------------------------
    // candidate generator -> pipelines
    wire gen_done, gen_valid;
    wire [NPIPE-1:0] gen_mask;
    wire [NPIPE*32-1:0] gen_m0, gen_m1;
    wire [255:0] kmc;
    wire hash_room, hits_room;

    md5acc_candgen #(.NPIPE(NPIPE), .DATA_W(DATA_W)) u_gen (
        .clk(clk), .rst(rst), .start(launch), .op(job_op), .width(job_width),
        .first_value(job_first), .count(job_count), .stop(stop),
        .credit(job_op ? hits_room : hash_room), .done(gen_done),
        .rd_valid(rd_beat_valid), .rd_data(rd_beat), .rd_pop(rd_beat_pop),
        .out_valid(gen_valid), .out_mask(gen_mask), .out_m0(gen_m0), .out_m1(gen_m1), .kmc(kmc));

    wire pipe_valid;
    wire [NPIPE-1:0] pipe_mask;
    wire [NPIPE*128-1:0] pipe_digest;
    // the pipelines' output valid and mask again for the hash sink and the
    // compare, each its own registers placed beside it (taps 0 and 1)
    wire hs_in_valid, cmp_in_valid;
    wire [NPIPE-1:0] hs_in_mask, cmp_in_mask;
    md5acc_pipes #(.NPIPE(NPIPE), .TAG_W(NPIPE), .TAPS(2)) u_pipes (
        .clk(clk), .rst(rst), .in_valid(gen_valid), .in_tag(gen_mask), .in_m0(gen_m0), .in_m1(gen_m1),
        .kmc(kmc), .out_valid(pipe_valid), .out_tag(pipe_mask), .out_digest(pipe_digest),
        .tap_en({job_op, !job_op}), .tap_valid({cmp_in_valid, hs_in_valid}),
        .tap_tag({cmp_in_mask, hs_in_mask}));

    always @(posedge clk) begin
        if (rst || launch) inflight <= 8'd0;
        else inflight <= inflight + {7'd0, gen_valid} - {7'd0, pipe_valid};
    end
    // every group out of the pipelines, registered: a clock late, and
    // cleared by the launch, so a job is not drained before its generator
    // runs (the four-pipeline route's critical path was inflight's zero test
    // -> across the chip -> the hash sink's flush -> its FIFO's push -> avail)
    reg drained;
    always @(posedge clk) drained <= !(rst || launch) && gen_done && !gen_valid && inflight == 8'd0;

    // the messages a group hands the pipelines (hash) and the values a group
    // brings out of them (search), counted a clock later: the popcounts start
    // at the generator's output register and the pipelines' tag register and
    // end at registers, where the 64-bit adds start (the four-pipeline
    // route's critical path was the group mask -> its popcount -> issued's
    // carry chain); the counts settle before `drained` can rise, so
    // completion sees them final
    reg          issue_new, out_new;
    reg [CW-1:0] issue_n, out_n;
    always @(posedge clk) begin
        issue_new <= !(rst || launch) && state == S_RUN && gen_valid && !job_op;
        out_new   <= !(rst || launch) && state == S_RUN && pipe_valid && job_op;
        issue_n   <= popcount(gen_mask);
        out_n     <= popcount(pipe_mask);
    end

    // ------------------------------------------------------------------
    // hash path output
    wire hs_idle, hs_cmd_valid, hs_data_valid;
    wire [ADDR_W-1:0] hs_cmd_addr;
    wire [7:0] hs_cmd_len;
    wire [DATA_W-1:0] hs_data;
    wire [BUS_B-1:0] hs_strb;
    wire wcmd_ready, wdata_ready;
    md5acc_hash_sink #(.LANES(HASH_LANES), .DATA_W(DATA_W), .ADDR_W(ADDR_W), .MAX_BURST(MAX_BURST)) u_hsink (
        .clk(clk), .rst(rst), .start(launch), .dst(job_dst), .count(job_count),
        .active(state == S_RUN && !job_op), .drained(drained),
        .in_valid(hs_in_valid), .in_mask(hs_in_mask[HASH_LANES-1:0]),
        .in_digest(pipe_digest[HASH_LANES*128-1:0]), .room(hash_room), .idle(hs_idle),
        .wcmd_valid(hs_cmd_valid), .wcmd_ready(wcmd_ready && !job_op), .wcmd_addr(hs_cmd_addr),
        .wcmd_len(hs_cmd_len), .wdata_valid(hs_data_valid), .wdata_ready(wdata_ready && !job_op),
        .wdata(hs_data), .wstrb(hs_strb));

    // ------------------------------------------------------------------
    // search path output: filter -> hit FIFO -> match records
    wire [NPIPE-1:0] hit;
    wire [NPIPE*64-1:0] hit_value;
    wire [NPIPE*128-1:0] hit_digest;
    wire cmp_busy;
    md5acc_compare #(.NPIPE(NPIPE), .IDX_BITS(IDX_BITS)) u_cmp (
        .clk(clk), .rst(rst), .in_valid(cmp_in_valid), .in_mask(cmp_in_mask), .in_base(out_base),
        .in_digest(pipe_digest), .wr_en(filter_we), .wr_array(filter_array),
        .wr_word(filter_word[IDX_BITS-6:0]), .wr_data(wr_data), .busy(cmp_busy),
        .out_hit(hit), .out_value(hit_value), .out_digest(hit_digest));

    wire hits_empty, rec_valid, rec_ready;
    wire [63:0] rec_value;
    wire [127:0] rec_digest;
    md5acc_hits #(.NPIPE(NPIPE)) u_hits (
        .clk(clk), .rst(rst), .clr(launch || drop), .in_hit(hit), .in_value(hit_value), .in_digest(hit_digest),
        .room(hits_room), .empty(hits_empty), .out_valid(rec_valid), .out_ready(rec_ready),
        .out_value(rec_value), .out_digest(rec_digest));

    wire mw_idle, mw_cmd_valid, mw_data_valid;
    wire [ADDR_W-1:0] mw_cmd_addr;
    wire [7:0] mw_cmd_len;
    wire [DATA_W-1:0] mw_data;
    wire [BUS_B-1:0] mw_strb;
    wire [31:0] mw_issued;
    md5acc_match_writer #(.ADDR_W(ADDR_W), .DATA_W(DATA_W)) u_mw (
        .clk(clk), .rst(rst), .start(launch), .dst(job_dst), .cap(job_cap), .host_ack(match_ack),
        .in_valid(rec_valid), .in_ready(rec_ready), .in_value(rec_value), .in_digest(rec_digest),
        .wcmd_valid(mw_cmd_valid), .wcmd_ready(wcmd_ready && job_op), .wcmd_addr(mw_cmd_addr),
        .wcmd_len(mw_cmd_len), .wdata_valid(mw_data_valid), .wdata_ready(wdata_ready && job_op),
        .wdata(mw_data), .wstrb(mw_strb), .issued(mw_issued), .full(mw_full), .idle(mw_idle));

    // ------------------------------------------------------------------
    // write DMA, shared by both paths
    wire ack_valid;
    wire [8:0] ack_beats;
    axi_wr_engine #(.ADDR_W(ADDR_W), .DATA_W(DATA_W), .MAX_OUTSTANDING(8), .AXI_CACHE(AXI_CACHE)) u_wr (
        .clk(clk), .rst(rst), .clr_err(launch),
        .cmd_valid(job_op ? mw_cmd_valid : hs_cmd_valid), .cmd_ready(wcmd_ready),
        .cmd_addr(job_op ? mw_cmd_addr : hs_cmd_addr), .cmd_len(job_op ? mw_cmd_len : hs_cmd_len),
        .data_valid(job_op ? mw_data_valid : hs_data_valid), .data_ready(wdata_ready),
        .data(job_op ? mw_data : hs_data), .strb(job_op ? mw_strb : hs_strb),
        .idle(wr_idle), .err(wr_err), .err_addr(wr_err_addr), .ack_valid(ack_valid), .ack_beats(ack_beats),
        .m_axi_awid(m_axi_awid), .m_axi_awaddr(m_axi_awaddr), .m_axi_awlen(m_axi_awlen),
        .m_axi_awsize(m_axi_awsize), .m_axi_awburst(m_axi_awburst), .m_axi_awlock(m_axi_awlock),
        .m_axi_awcache(m_axi_awcache), .m_axi_awprot(m_axi_awprot), .m_axi_awvalid(m_axi_awvalid),
        .m_axi_awready(m_axi_awready), .m_axi_wdata(m_axi_wdata), .m_axi_wstrb(m_axi_wstrb),
        .m_axi_wlast(m_axi_wlast), .m_axi_wvalid(m_axi_wvalid), .m_axi_wready(m_axi_wready),
        .m_axi_bid(m_axi_bid), .m_axi_bresp(m_axi_bresp), .m_axi_bvalid(m_axi_bvalid),
        .m_axi_bready(m_axi_bready));

    // hash: digests whose beats were acknowledged, in two registered steps
    // (one carry chain each): the acknowledged beats' digests, then at most
    // the digests issued (the last beat may be partial)
    reg  [63:0] h_acked;
    reg         h_acked_new;
    always @(posedge clk) begin
        if (rst || launch) h_acked <= 64'd0;
        else if (ack_valid && !job_op) h_acked <= h_acked + ({55'd0, ack_beats} << $clog2(DPB));
        h_acked_new <= !rst && ack_valid && !job_op;
    end
    // search: records written and not yet consumed by the host, compared
    // with half the ring, in two registered steps (an interrupt two clocks
    // later; one carry chain each: the one-pipeline GW5AST-138 route's
    // critical path was the subtraction and the compare in one clock)
    reg [31:0] match_pending, match_thresh;
    reg match_irq;
    always @(posedge clk) begin
        match_pending <= (rst || launch) ? 32'd0 : match_count - match_ack;
        match_thresh  <= (job_cap > 32'd1) ? {1'b0, job_cap[31:1]} : 32'd1;
        match_irq <= !rst && state == S_RUN && job_op && match_pending >= match_thresh;
    end

    // ------------------------------------------------------------------
    // completion, registered: every part idle and every count settled
    // (once a job is quiet nothing in it moves again)
    wire quiet = drained && !cmp_busy && hits_empty && mw_idle && hs_idle && wr_idle && !rd_busy &&
                 !ack_valid && !h_acked_new;
    reg  quiet_r;
    always @(posedge clk) quiet_r <= !rst && state == S_RUN && !launch && quiet;
    wire finished = state == S_RUN && quiet_r;
    assign irq_set[0] = empty_job || (finished && !(rd_err || wr_err));
    assign irq_set[1] = fail_now || (finished && (rd_err || wr_err));
    assign irq_set[2] = match_irq;

    always @(posedge clk) begin
        if (rst) begin
            state <= S_IDLE;
            launch <= 1'b0;
            st_done <= 1'b0;
            st_err <= 1'b0;
            st_abort <= 1'b0;
            err_code <= 4'd0;
            match_count <= 32'd0;
            values_done <= 64'd0;
            cycles <= 64'd0;
            err_addr <= 64'd0;
            job_op <= 1'b0;
            job_width <= 4'd4;
            job_first <= 64'd0;
            job_count <= 64'd0;
            job_src <= {ADDR_W{1'b0}};
            job_dst <= {ADDR_W{1'b0}};
            job_cap <= 32'd0;
            issued <= 64'd0;
            out_base <= 64'd0;
            abort_lat <= 1'b0;
        end else begin
            launch <= start_ok;
            if (start_idle) begin
                st_done <= 1'b0;
                st_err <= 1'b0;
                st_abort <= 1'b0;
                err_code <= 4'd0;
                match_count <= 32'd0;
                values_done <= 64'd0;
                cycles <= 64'd0;
                err_addr <= 64'd0;
                issued <= 64'd0;
                abort_lat <= 1'b0;
                job_op <= cfg_op;
                job_width <= cfg_width;
                job_first <= cfg_start;
                job_count <= cfg_count;
                job_src <= cfg_src[ADDR_W-1:0];
                job_dst <= cfg_dst[ADDR_W-1:0];
                job_cap <= cfg_cap;
                out_base <= cfg_start & ~LANE_MASK;
            end
            if (fail_now) begin
                st_done <= 1'b1;
                st_err <= 1'b1;
                err_code <= bad_width ? MD5ACC_ERR_BAD_WIDTH[3:0] :
                            bad_align ? MD5ACC_ERR_BAD_ALIGN[3:0] : MD5ACC_ERR_BAD_CAP[3:0];
            end
            if (empty_job) st_done <= 1'b1;
            if (start_ok) state <= S_RUN;
            if (state == S_RUN) begin
                cycles <= cycles + 64'd1;
                if (abort_req) abort_lat <= 1'b1;
                if (issue_new) issued <= issued + {{(64-CW){1'b0}}, issue_n};
                if (out_new) values_done <= values_done + {{(64-CW){1'b0}}, out_n};
                if (pipe_valid && job_op) out_base <= out_base + NPIPE;
                if (ack_valid && job_op) match_count <= match_count + 32'd1;
                if (h_acked_new) values_done <= (h_acked < issued) ? h_acked : issued;
                if (finished) begin
                    state <= S_IDLE;
                    st_done <= 1'b1;
                    st_abort <= abort_lat;
                    if (rd_err || wr_err) begin
                        st_err <= 1'b1;
                        err_code <= rd_err ? MD5ACC_ERR_READ_RESP[3:0] : MD5ACC_ERR_WRITE_RESP[3:0];
                        err_addr <= {{(64-ADDR_W){1'b0}}, rd_err ? rd_err_addr : wr_err_addr};
                    end
                end
            end
        end
    end

    wire unused = &{1'b0, mw_issued[0], filter_word};
endmodule
`default_nettype wire
