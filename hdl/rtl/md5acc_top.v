// md5acc_top: the fpgamr MD5 accelerator.
//
//  * NPIPE md5_core pipelines in lockstep (one group of up to NPIPE values
//    enters per clock), each with md5_pad in front and an md5acc_filter copy
//    behind it.
//  * hash path (MODE.OP = 0): axi_rd_engine reads packed messages from SRC
//    (4-byte slots for WIDTH <= 4, else 8-byte slots), the digests of all of
//    them go out through axi_wr_engine to DST, 16 bytes each, in order.
//  * search path (MODE.OP = 1): values START .. START+COUNT-1 are generated
//    on chip, encoded big-endian in WIDTH bytes, hashed and looked up in the
//    filter; hits are written to DST as 32-byte match records and counted.
//  * AXI4-Lite register block (see hdl/regmap/md5acc.json), level interrupt.
//
// One AXI4 master (read channels for the hash input, write channels for
// digests and match records) of DATA_W bits (128, 256 or 512), INCR bursts
// of at most MAX_BURST beats that never cross 4 KiB. The hash path uses
// min(NPIPE, DATA_W/128) lanes: that many digests per clock, packed into
// full bus beats (the last beat of a job is written with partial strobes);
// each read beat holds DATA_W/32 (or DATA_W/64) messages, so reading takes
// at most half the read channel. The search path uses all NPIPE lanes.
`default_nettype none
module md5acc_top #(
    parameter integer NPIPE = 4,
    parameter integer DATA_W = 128,     // AXI4 master data width: 128, 256 or 512
    parameter integer ADDR_W = 32,
    parameter integer MAX_BURST = 16,
    parameter integer IDX_BITS = 14,
    parameter [3:0]   AXI_CACHE = 4'b0011
) (
    input  wire              clk,
    input  wire              rst,
    output wire              irq,
    output wire              busy,
    // AXI4-Lite slave: registers
    input  wire [11:0]       s_axil_awaddr,
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
    input  wire [11:0]       s_axil_araddr,
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
    localparam integer KH = (NPIPE < DPB) ? NPIPE : DPB;  // hash lanes (digests per clock)
    localparam integer MPB4 = DATA_W / 32;            // messages per read beat, 4-byte slots
    localparam integer MPB8 = DATA_W / 64;            // messages per read beat, 8-byte slots
    localparam integer FP_W = $clog2(MPB4);           // slot index within a read beat
    localparam integer GN_W = $clog2(DPB) + 1;        // digests held in the write gearbox
    localparam integer PAGE_BEATS = 4096 / BUS_B;
    localparam integer RB = (DPB == 1) ? 2 : 1;       // beats per 32-byte match record
    localparam integer CW = $clog2(NPIPE + 1);
    localparam integer TAG_W = 64 + CW;
    localparam integer MIN_WIDTH = 1;
    localparam integer MAX_WIDTH = 8;
    localparam integer RD_FIFO = (DATA_W > 128) ? 32 : 64;
    localparam [31:0] DESIGN_PARAMS_VALUE =
        (NPIPE << DESIGN_PARAMS_PIPELINES_LSB) |
        (1 << DESIGN_PARAMS_MODE_HASH_LSB) | (1 << DESIGN_PARAMS_MODE_SEARCH_LSB) |
        (IDX_BITS << DESIGN_PARAMS_FILTER_IDX_BITS_LSB) |
        (MIN_WIDTH << DESIGN_PARAMS_MIN_WIDTH_LSB) | (MAX_WIDTH << DESIGN_PARAMS_MAX_WIDTH_LSB) |
        ($clog2(DATA_W / 8) << DESIGN_PARAMS_LOG2_BUS_BYTES_LSB) |
        ($clog2(MAX_BURST) << DESIGN_PARAMS_MAX_BURST_LOG2_LSB);

    // ------------------------------------------------------------------
    // register interface
    wire        wr_en, rd_en;
    wire [11:0] wr_addr, rd_addr;
    wire [31:0] wr_data;
    wire [3:0]  wr_strb;
    reg  [31:0] rd_data;

    axil_reg_if #(.ADDR_W(12)) u_axil (
        .clk(clk), .rst(rst),
        .s_axil_awaddr(s_axil_awaddr), .s_axil_awprot(s_axil_awprot), .s_axil_awvalid(s_axil_awvalid),
        .s_axil_awready(s_axil_awready), .s_axil_wdata(s_axil_wdata), .s_axil_wstrb(s_axil_wstrb),
        .s_axil_wvalid(s_axil_wvalid), .s_axil_wready(s_axil_wready), .s_axil_bresp(s_axil_bresp),
        .s_axil_bvalid(s_axil_bvalid), .s_axil_bready(s_axil_bready), .s_axil_araddr(s_axil_araddr),
        .s_axil_arprot(s_axil_arprot), .s_axil_arvalid(s_axil_arvalid), .s_axil_arready(s_axil_arready),
        .s_axil_rdata(s_axil_rdata), .s_axil_rresp(s_axil_rresp), .s_axil_rvalid(s_axil_rvalid),
        .s_axil_rready(s_axil_rready),
        .wr_en(wr_en), .wr_addr(wr_addr), .wr_data(wr_data), .wr_strb(wr_strb),
        .rd_en(rd_en), .rd_addr(rd_addr), .rd_data(rd_data));

    reg [31:0] scratch;
    reg        cfg_op;
    reg [3:0]  cfg_width;
    reg [63:0] cfg_start, cfg_count, cfg_src, cfg_dst;
    reg [31:0] cfg_cap;
    reg [1:0]  irq_en, irq_sts;
    reg [9:0]  filter_addr;

    reg        st_done, st_err, st_abort, st_ovf;
    reg [3:0]  err_code;
    reg [31:0] match_count;
    reg [63:0] values_done, cycles, err_addr;

    wire wr_ctrl = wr_en && wr_addr == REG_CTRL;
    wire start_req = wr_ctrl && wr_data[CTRL_START_LSB];
    wire abort_req = wr_ctrl && wr_data[CTRL_ABORT_LSB];
    wire filter_we = wr_en && wr_addr == REG_FILTER_DATA;

    localparam S_IDLE = 1'b0, S_RUN = 1'b1;
    reg state;
    assign busy = state == S_RUN;

    always @* begin
        case (rd_addr)
            REG_DESIGN_ID:      rd_data = MD5ACC_DESIGN_ID;
            REG_REGMAP_VERSION: rd_data = MD5ACC_REGMAP_VERSION;
            REG_DESIGN_PARAMS:  rd_data = DESIGN_PARAMS_VALUE;
            REG_SCRATCH:        rd_data = scratch;
            REG_STATUS:         rd_data = {20'd0, err_code, 3'd0, st_ovf, st_abort, st_err, st_done, busy};
            REG_IRQ_ENABLE:     rd_data = {30'd0, irq_en};
            REG_IRQ_STATUS:     rd_data = {30'd0, irq_sts};
            REG_MODE:           rd_data = {20'd0, cfg_width, 7'd0, cfg_op};
            REG_START_LO:       rd_data = cfg_start[31:0];
            REG_START_HI:       rd_data = cfg_start[63:32];
            REG_COUNT_LO:       rd_data = cfg_count[31:0];
            REG_COUNT_HI:       rd_data = cfg_count[63:32];
            REG_SRC_LO:         rd_data = cfg_src[31:0];
            REG_SRC_HI:         rd_data = cfg_src[63:32];
            REG_DST_LO:         rd_data = cfg_dst[31:0];
            REG_DST_HI:         rd_data = cfg_dst[63:32];
            REG_MATCH_CAP:      rd_data = cfg_cap;
            REG_MATCH_COUNT:    rd_data = match_count;
            REG_DONE_LO:        rd_data = values_done[31:0];
            REG_DONE_HI:        rd_data = values_done[63:32];
            REG_CYCLES_LO:      rd_data = cycles[31:0];
            REG_CYCLES_HI:      rd_data = cycles[63:32];
            REG_FILTER_ADDR:    rd_data = {22'd0, filter_addr};
            REG_ERR_ADDR_LO:    rd_data = err_addr[31:0];
            REG_ERR_ADDR_HI:    rd_data = err_addr[63:32];
            default:            rd_data = 32'd0;
        endcase
    end

    always @(posedge clk) begin
        if (rst) begin
            scratch <= 32'd0;
            cfg_op <= 1'b0;
            cfg_width <= 4'd4;
            cfg_start <= 64'd0;
            cfg_count <= 64'd0;
            cfg_src <= 64'd0;
            cfg_dst <= 64'd0;
            cfg_cap <= 32'd0;
            irq_en <= 2'b00;
            filter_addr <= 10'd0;
        end else if (wr_en) begin
            case (wr_addr)
                REG_SCRATCH:     scratch <= wr_data;
                REG_IRQ_ENABLE:  irq_en <= wr_data[1:0];
                REG_MODE:        begin cfg_op <= wr_data[MODE_OP_LSB]; cfg_width <= wr_data[MODE_WIDTH_LSB +: 4]; end
                REG_START_LO:    cfg_start[31:0] <= wr_data;
                REG_START_HI:    cfg_start[63:32] <= wr_data;
                REG_COUNT_LO:    cfg_count[31:0] <= wr_data;
                REG_COUNT_HI:    cfg_count[63:32] <= wr_data;
                REG_SRC_LO:      cfg_src[31:0] <= wr_data;
                REG_SRC_HI:      cfg_src[63:32] <= wr_data;
                REG_DST_LO:      cfg_dst[31:0] <= wr_data;
                REG_DST_HI:      cfg_dst[63:32] <= wr_data;
                REG_MATCH_CAP:   cfg_cap <= wr_data;
                REG_FILTER_ADDR: filter_addr <= wr_data[9:0];
                REG_FILTER_DATA: filter_addr <= filter_addr + 10'd1;
                default: ;
            endcase
        end
    end

    assign irq = |(irq_sts & irq_en);

    // ------------------------------------------------------------------
    // job state
    reg        job_op;
    reg [3:0]  job_width;
    reg        job_slot8;
    reg [63:0] job_count;
    reg [ADDR_W-1:0] job_dst;
    reg [31:0] job_cap;
    reg [63:0] issued;        // values handed to the pipelines
    reg [63:0] cur_value;     // search: next value
    reg        abort_lat;

    wire rd_busy, rd_err, wr_idle, wr_err;
    wire [ADDR_W-1:0] rd_err_addr, wr_err_addr;

    wire src_stop = abort_lat || rd_err || wr_err;
    wire [63:0] remaining = job_count - issued;
    wire src_done = src_stop || remaining == 64'd0;

    // configuration checks at START
    wire bad_width = cfg_width < MIN_WIDTH[3:0] || cfg_width > MAX_WIDTH[3:0];
    wire src_high = (cfg_src >> ADDR_W) != 64'd0;
    wire dst_high = (cfg_dst >> ADDR_W) != 64'd0;
    wire bad_align = cfg_op ? (cfg_dst[4:0] != 5'd0 || dst_high)
                            : (cfg_src[LSB-1:0] != {LSB{1'b0}} || cfg_dst[LSB-1:0] != {LSB{1'b0}} ||
                               src_high || dst_high);
    wire start_ok = state == S_IDLE && start_req && !bad_width && !bad_align && cfg_count != 64'd0;
    wire job_start = start_ok;

    // ------------------------------------------------------------------
    // read DMA (hash path input)
    wire [DATA_W-1:0] rd_beat;
    wire         rd_beat_valid;
    wire         rd_beat_pop;
    // beats = ceil(count * slot / BUS_B)
    wire [63:0]  rd_bytes = (cfg_width > 4'd4) ? (cfg_count << 3) : (cfg_count << 2);
    wire [63:0]  rd_nbeats = (rd_bytes + BUS_B - 1) >> LSB;

    axi_rd_engine #(.ADDR_W(ADDR_W), .DATA_W(DATA_W), .MAX_BURST(MAX_BURST),
                    .FIFO_DEPTH(RD_FIFO), .CNT_W(64), .AXI_CACHE(AXI_CACHE)) u_rd (
        .clk(clk), .rst(rst),
        .start(job_start && !cfg_op), .addr(cfg_src[ADDR_W-1:0]), .nbeats(rd_nbeats),
        .stop(src_stop), .busy(rd_busy), .err(rd_err), .err_addr(rd_err_addr),
        .out_valid(rd_beat_valid), .out_ready(rd_beat_pop), .out_data(rd_beat),
        .m_axi_arid(m_axi_arid), .m_axi_araddr(m_axi_araddr), .m_axi_arlen(m_axi_arlen),
        .m_axi_arsize(m_axi_arsize), .m_axi_arburst(m_axi_arburst), .m_axi_arlock(m_axi_arlock),
        .m_axi_arcache(m_axi_arcache), .m_axi_arprot(m_axi_arprot), .m_axi_arvalid(m_axi_arvalid),
        .m_axi_arready(m_axi_arready), .m_axi_rid(m_axi_rid), .m_axi_rdata(m_axi_rdata),
        .m_axi_rresp(m_axi_rresp), .m_axi_rlast(m_axi_rlast), .m_axi_rvalid(m_axi_rvalid),
        .m_axi_rready(m_axi_rready));

    // ------------------------------------------------------------------
    // group source: NPIPE lanes, lane j gets value/message number issued + j.
    // Search: NPIPE values per group. Hash: up to KH messages of the current
    // read beat per group (a group never spans two beats).
    wire ce;
    reg  [FP_W-1:0] feed_pos;                  // message slot within the current beat
    wire [7:0] mpb = job_slot8 ? MPB8[7:0] : MPB4[7:0];   // messages per beat
    wire [7:0] beat_left = mpb - {{(8-FP_W){1'b0}}, feed_pos};

    reg  [CW-1:0] grp_cnt;
    always @* begin
        if (job_op) begin
            grp_cnt = (remaining < NPIPE) ? remaining[CW-1:0] : NPIPE[CW-1:0];
        end else begin
            grp_cnt = KH[CW-1:0];
            if ({24'd0, beat_left} < KH) grp_cnt = beat_left[CW-1:0];
            if (remaining < {{(64-CW){1'b0}}, grp_cnt}) grp_cnt = remaining[CW-1:0];
        end
    end

    wire grp_valid = state == S_RUN && !src_done && (job_op || rd_beat_valid);
    wire grp_take = grp_valid && ce;
    wire [7:0] feed_next = {{(8-FP_W){1'b0}}, feed_pos} + {{(8-CW){1'b0}}, grp_cnt};
    wire last_in_beat = (feed_next >= mpb) || (remaining == {{(64-CW){1'b0}}, grp_cnt});
    assign rd_beat_pop = grp_take && !job_op && last_in_beat;

    always @(posedge clk) begin
        if (rst || job_start) begin
            feed_pos <= {FP_W{1'b0}};
        end else if (grp_take && !job_op) begin
            feed_pos <= last_in_beat ? {FP_W{1'b0}} : feed_next[FP_W-1:0];
        end
    end

    // per-lane messages, padding, pipelines, filters
    wire [31:0]  m2_c, m14_c;
    wire         core_valid;
    wire [TAG_W-1:0] core_tag;
    wire [127:0] core_digest [0:NPIPE-1];
    wire [NPIPE-1:0] lane_hit;

    reg         p1_valid;
    reg [CW-1:0] p1_cnt;
    reg [63:0]  p1_base;
    reg [127:0] p1_dig [0:NPIPE-1];

    genvar j;
    generate
        for (j = 0; j < NPIPE; j = j + 1) begin : g_lane
            wire [63:0] value = cur_value + j;
            // big-endian in job_width bytes: left-align, then byte-reverse
            wire [63:0] aligned = value << (7'd64 - {job_width, 3'b000});
            wire [63:0] msg_search;
            wire [63:0] msg_hash;
            wire [63:0] msg;
            wire [31:0] m0, m1, m2, m14;
            genvar bb;
            for (bb = 0; bb < 8; bb = bb + 1) begin : g_byte
                assign msg_search[8*bb +: 8] = aligned[8*(7-bb) +: 8];
            end
            if (j < KH) begin : g_hash
                wire [FP_W-1:0] slot = feed_pos + j;
                assign msg_hash = job_slot8 ? rd_beat[64*slot[FP_W-2:0] +: 64] : {32'd0, rd_beat[32*slot +: 32]};
            end else begin : g_nohash
                assign msg_hash = 64'd0;    // lane used by the search path only
            end
            assign msg = job_op ? msg_search : msg_hash;
            md5_pad u_pad (.width(job_width), .msg(msg), .m0(m0), .m1(m1), .m2(m2), .m14(m14));
            if (j == 0) begin : g_const
                assign m2_c = m2;
                assign m14_c = m14;
                md5_core #(.TAG_W(TAG_W), .VAR_MASK(16'h0003)) u_core (
                    .clk(clk), .rst(rst), .ce(ce), .in_valid(grp_valid),
                    .in_tag({grp_cnt, cur_value}),
                    .in_block({448'd0, m1, m0}), .const_block({32'd0, m14_c, 352'd0, m2_c, 64'd0}),
                    .out_valid(core_valid), .out_tag(core_tag), .out_digest(core_digest[j]));
            end else begin : g_other
                wire unused_v;
                wire unused_t;
                md5_core #(.TAG_W(1), .VAR_MASK(16'h0003)) u_core (
                    .clk(clk), .rst(rst), .ce(ce), .in_valid(1'b0), .in_tag(1'b0),
                    .in_block({448'd0, m1, m0}), .const_block({32'd0, m14_c, 352'd0, m2_c, 64'd0}),
                    .out_valid(unused_v), .out_tag(unused_t), .out_digest(core_digest[j]));
                wire unused = &{1'b0, m2, m14, unused_v, unused_t};
            end
            md5acc_filter #(.IDX_BITS(IDX_BITS)) u_filter (
                .clk(clk), .ce(ce), .digest(core_digest[j]), .hit(lane_hit[j]),
                .wr_en(filter_we), .wr_array(filter_addr[9]), .wr_word(filter_addr[IDX_BITS-6:0]),
                .wr_data(wr_data));
            always @(posedge clk) if (ce) p1_dig[j] <= core_digest[j];
        end
    endgenerate

    // ------------------------------------------------------------------
    // P1: digest groups leave the pipelines.
    // Search: one lane per clock is emitted (filter hits) to the match FIFO.
    // Hash: the whole group (p1_cnt <= KH <= DPB digests) goes into the
    // write gearbox at once, which packs digests into full bus beats.
    reg  [NPIPE-1:0] done_mask;
    wire [NPIPE-1:0] lane_en;
    generate
        for (j = 0; j < NPIPE; j = j + 1) begin : g_en
            assign lane_en[j] = j < p1_cnt;
        end
    endgenerate
    wire [NPIPE-1:0] emit_mask = (p1_valid && job_op) ? (lane_hit & lane_en) : {NPIPE{1'b0}};
    wire [NPIPE-1:0] pending = emit_mask & ~done_mask;
    wire [NPIPE-1:0] sel_onehot = pending & (~pending + 1'b1);
    reg  [CW-1:0] sel;
    integer q;
    always @* begin
        sel = {CW{1'b0}};
        for (q = NPIPE - 1; q >= 0; q = q - 1)
            if (pending[q]) sel = q;
    end
    wire [127:0] sel_digest = p1_dig[sel];

    wire hfifo_in_ready, mfifo_in_ready;
    wire match_drop = match_count >= job_cap;
    wire emit = (pending != {NPIPE{1'b0}}) && (mfifo_in_ready || match_drop);
    wire s_ready = (pending == {NPIPE{1'b0}}) || (emit && (pending & ~sel_onehot) == {NPIPE{1'b0}});
    wire h_emit = p1_valid && !job_op && hfifo_in_ready;
    wire p1_ready = job_op ? s_ready : hfifo_in_ready;
    assign ce = !p1_valid || p1_ready;
    wire p1_take = p1_valid && p1_ready;

    always @(posedge clk) begin
        if (rst) begin
            p1_valid <= 1'b0;
            done_mask <= {NPIPE{1'b0}};
        end else if (ce) begin
            p1_valid <= core_valid;
            done_mask <= {NPIPE{1'b0}};
        end else if (emit) begin
            done_mask <= done_mask | sel_onehot;
        end
    end
    always @(posedge clk) begin
        if (ce) begin
            p1_cnt <= core_tag[64 +: CW];
            p1_base <= core_tag[63:0];
        end
    end

    // groups inside the pipelines or P1
    reg [7:0] inflight;
    always @(posedge clk) begin
        if (rst || job_start) inflight <= 8'd0;
        else inflight <= inflight + {7'd0, grp_take} - {7'd0, p1_take};
    end
    wire drained = src_done && inflight == 8'd0;

    // ------------------------------------------------------------------
    // hash gearbox: gb_n (< DPB) digests wait in gb_buf for a full beat;
    // the group at P1 fills the beat, the rest of it waits. When the source
    // is drained, a partial beat is flushed with strobes for gb_n digests.
    reg  [127:0]    gb_buf [0:DPB-1];
    reg  [GN_W-1:0] gb_n;
    wire [7:0]      gb_sum = {{(8-GN_W){1'b0}}, gb_n} + {{(8-CW){1'b0}}, p1_cnt};
    wire            gb_full = gb_sum >= DPB;
    wire            gb_flush = state == S_RUN && !job_op && drained && gb_n != {GN_W{1'b0}} && hfifo_in_ready;
    wire [DATA_W-1:0] gb_beat;
    wire [DPB-1:0]  gb_valid;     // digests of the beat that are real (strobes)
    genvar s;
    generate
        for (s = 0; s < DPB; s = s + 1) begin : g_gb
            // slot s of the outgoing beat: waiting digest, or lane s - gb_n of P1
            wire [7:0] li = s - {{(8-GN_W){1'b0}}, gb_n};
            wire [127:0] from_lane = (li < KH) ? p1_dig[li[CW-1:0]] : 128'd0;
            assign gb_beat[128*s +: 128] = (s < gb_n) ? gb_buf[s] : from_lane;
            assign gb_valid[s] = gb_flush ? (s < gb_n) : 1'b1;
            // after a full beat, slot s of the buffer gets lane s + DPB - gb_n
            wire [7:0] ci = s + DPB - {{(8-GN_W){1'b0}}, gb_n};
            wire [127:0] carry = (ci < KH) ? p1_dig[ci[CW-1:0]] : 128'd0;
            always @(posedge clk) begin
                if (h_emit) gb_buf[s] <= gb_full ? carry : gb_beat[128*s +: 128];
            end
        end
    endgenerate
    always @(posedge clk) begin
        if (rst || job_start) gb_n <= {GN_W{1'b0}};
        else if (gb_flush) gb_n <= {GN_W{1'b0}};
        else if (h_emit) gb_n <= gb_full ? (gb_sum - DPB) : gb_sum[GN_W-1:0];
    end

    // hash sink: beats -> FIFO -> bursts of up to MAX_BURST beats
    wire [DATA_W+DPB-1:0] hfifo_data;
    wire         hfifo_valid;
    wire         hfifo_pop;
    wire [5:0]   hfifo_count;
    sync_fifo #(.WIDTH(DATA_W + DPB), .DEPTH(32)) u_hfifo (
        .clk(clk), .rst(rst), .clr(job_start),
        .in_valid((h_emit && gb_full) || gb_flush), .in_ready(hfifo_in_ready), .in_data({gb_valid, gb_beat}),
        .out_valid(hfifo_valid), .out_ready(hfifo_pop), .out_data(hfifo_data),
        .count(hfifo_count));
    wire [BUS_B-1:0] hfifo_strb;
    generate
        for (s = 0; s < DPB; s = s + 1) begin : g_hstrb
            assign hfifo_strb[16*s +: 16] = {16{hfifo_data[DATA_W + s]}};
        end
    endgenerate

    reg  [ADDR_W-1:0] hw_addr;
    reg  [63:0] hw_left;          // beats not yet commanded
    reg  [6:0]  hw_committed;     // beats commanded but not yet sent
    wire [6:0]  uncommitted = {1'b0, hfifo_count} - hw_committed;
    wire [8:0]  hw_to_page = PAGE_BEATS[8:0] - {1'b0, hw_addr[11:LSB]};
    reg  [6:0]  hw_want;
    always @* begin
        hw_want = MAX_BURST[6:0];
        if (hw_to_page < {2'd0, hw_want}) hw_want = hw_to_page[6:0];
        if (hw_left < {57'd0, hw_want}) hw_want = hw_left[6:0];
    end
    wire [6:0] hw_len = (uncommitted < hw_want) ? uncommitted : hw_want;
    wire hw_cmd_valid = state == S_RUN && !job_op && hw_len != 7'd0 && (hw_len == hw_want || drained);

    // ------------------------------------------------------------------
    // search sink: match records {address, value, digest} -> writer
    localparam integer MREC_W = ADDR_W + 64 + 128;
    wire [MREC_W-1:0] mfifo_out;
    wire              mfifo_valid;
    wire              mfifo_pop;
    wire [ADDR_W-1:0] mrec_addr = job_dst + {match_count[ADDR_W-6:0], 5'd0};
    sync_fifo #(.WIDTH(MREC_W), .DEPTH(4)) u_mfifo (
        .clk(clk), .rst(rst), .clr(job_start),
        .in_valid(emit && !match_drop), .in_ready(mfifo_in_ready),
        .in_data({mrec_addr, p1_base + sel, sel_digest}),
        .out_valid(mfifo_valid), .out_ready(mfifo_pop), .out_data(mfifo_out),
        .count());
    reg [1:0] rw_state;   // 0: command, 1: first beat, 2: second beat (DATA_W = 128)
    // the 32-byte record in memory order: value, 8 zero bytes, digest
    wire [255:0] mrec = {mfifo_out[127:0], 64'd0, mfifo_out[191:128]};
    wire [ADDR_W-1:0] mrec_at = mfifo_out[MREC_W-1 -: ADDR_W];
    wire [DATA_W-1:0] m_wdata;
    wire [BUS_B-1:0]  m_wstrb;
    wire [ADDR_W-1:0] m_waddr;
    generate
        if (DATA_W == 128) begin : g_rec128
            assign m_wdata = (rw_state == 2'd1) ? mrec[127:0] : mrec[255:128];
            assign m_wstrb = {BUS_B{1'b1}};
            assign m_waddr = mrec_at;
        end else if (DATA_W == 256) begin : g_rec256
            assign m_wdata = mrec;
            assign m_wstrb = {BUS_B{1'b1}};
            assign m_waddr = mrec_at;
        end else begin : g_rec512   // half a beat, at the aligned-down address
            assign m_wdata = {mrec, mrec};
            assign m_wstrb = mrec_at[5] ? {{32{1'b1}}, 32'd0} : {32'd0, {32{1'b1}}};
            assign m_waddr = {mrec_at[ADDR_W-1:6], 6'd0};
        end
    endgenerate

    // ------------------------------------------------------------------
    // write DMA, shared by both sinks
    wire              wcmd_valid, wcmd_ready, wdata_valid, wdata_ready;
    wire [ADDR_W-1:0] wcmd_addr;
    wire [7:0]        wcmd_len;
    wire [DATA_W-1:0] wdata;
    wire [BUS_B-1:0]  wstrb;
    wire              ack_valid;
    wire [8:0]        ack_beats;

    assign wcmd_valid = job_op ? (mfifo_valid && rw_state == 2'd0) : hw_cmd_valid;
    assign wcmd_addr = job_op ? m_waddr : hw_addr;
    assign wcmd_len = job_op ? (RB[7:0] - 8'd1) : {1'b0, hw_len} - 8'd1;
    assign wdata_valid = job_op ? (mfifo_valid && rw_state != 2'd0) : hfifo_valid;
    assign wdata = job_op ? m_wdata : hfifo_data[DATA_W-1:0];
    assign wstrb = job_op ? m_wstrb : hfifo_strb;
    assign hfifo_pop = !job_op && wdata_ready;
    assign mfifo_pop = job_op && wdata_ready && rw_state == RB[1:0];

    axi_wr_engine #(.ADDR_W(ADDR_W), .DATA_W(DATA_W), .MAX_OUTSTANDING(8), .AXI_CACHE(AXI_CACHE)) u_wr (
        .clk(clk), .rst(rst), .clr_err(job_start),
        .cmd_valid(wcmd_valid), .cmd_ready(wcmd_ready), .cmd_addr(wcmd_addr), .cmd_len(wcmd_len),
        .data_valid(wdata_valid), .data_ready(wdata_ready), .data(wdata), .strb(wstrb),
        .idle(wr_idle), .err(wr_err), .err_addr(wr_err_addr), .ack_valid(ack_valid), .ack_beats(ack_beats),
        .m_axi_awid(m_axi_awid), .m_axi_awaddr(m_axi_awaddr), .m_axi_awlen(m_axi_awlen),
        .m_axi_awsize(m_axi_awsize), .m_axi_awburst(m_axi_awburst), .m_axi_awlock(m_axi_awlock),
        .m_axi_awcache(m_axi_awcache), .m_axi_awprot(m_axi_awprot), .m_axi_awvalid(m_axi_awvalid),
        .m_axi_awready(m_axi_awready), .m_axi_wdata(m_axi_wdata), .m_axi_wstrb(m_axi_wstrb),
        .m_axi_wlast(m_axi_wlast), .m_axi_wvalid(m_axi_wvalid), .m_axi_wready(m_axi_wready),
        .m_axi_bid(m_axi_bid), .m_axi_bresp(m_axi_bresp), .m_axi_bvalid(m_axi_bvalid),
        .m_axi_bready(m_axi_bready));

    wire hw_cmd_fire = !job_op && wcmd_valid && wcmd_ready;
    always @(posedge clk) begin
        if (rst || job_start) begin
            hw_addr <= cfg_dst[ADDR_W-1:0];
            hw_left <= (cfg_count + DPB - 1) >> $clog2(DPB);
            hw_committed <= 7'd0;
        end else begin
            if (hw_cmd_fire) begin
                hw_addr <= hw_addr + ({{(ADDR_W-7){1'b0}}, hw_len} << LSB);
                hw_left <= hw_left - {57'd0, hw_len};
            end
            hw_committed <= hw_committed + (hw_cmd_fire ? hw_len : 7'd0) - {6'd0, hfifo_pop && hfifo_valid};
        end
    end

    always @(posedge clk) begin
        if (rst || job_start) rw_state <= 2'd0;
        else if (job_op) begin
            case (rw_state)
                2'd0: if (wcmd_valid && wcmd_ready) rw_state <= 2'd1;
                2'd1: if (wdata_valid && wdata_ready) rw_state <= (RB == 2) ? 2'd2 : 2'd0;
                default: if (wdata_valid && wdata_ready) rw_state <= 2'd0;
            endcase
        end
    end

    // hash: digests whose beats were acknowledged (the last beat may be partial)
    wire [63:0] h_acked = values_done + ({55'd0, ack_beats} << $clog2(DPB));

    // ------------------------------------------------------------------
    // controller
    wire finished = state == S_RUN && drained && !hfifo_valid && !mfifo_valid && rw_state == 2'd0 &&
                    wr_idle && !rd_busy && hw_committed == 7'd0 && gb_n == {GN_W{1'b0}};
    wire fail_now = state == S_IDLE && start_req && (bad_width || bad_align);
    wire empty_job = state == S_IDLE && start_req && !bad_width && !bad_align && cfg_count == 64'd0;

    always @(posedge clk) begin
        if (rst) begin
            state <= S_IDLE;
            st_done <= 1'b0;
            st_err <= 1'b0;
            st_abort <= 1'b0;
            st_ovf <= 1'b0;
            err_code <= 4'd0;
            irq_sts <= 2'b00;
            match_count <= 32'd0;
            values_done <= 64'd0;
            cycles <= 64'd0;
            err_addr <= 64'd0;
            job_op <= 1'b0;
            job_width <= 4'd4;
            job_slot8 <= 1'b0;
            job_count <= 64'd0;
            job_dst <= {ADDR_W{1'b0}};
            job_cap <= 32'd0;
            issued <= 64'd0;
            cur_value <= 64'd0;
            abort_lat <= 1'b0;
        end else begin
            if (wr_en && wr_addr == REG_IRQ_STATUS) irq_sts <= irq_sts & ~wr_data[1:0];
            if (state == S_IDLE && start_req) begin
                st_done <= 1'b0;
                st_err <= 1'b0;
                st_abort <= 1'b0;
                st_ovf <= 1'b0;
                err_code <= 4'd0;
                match_count <= 32'd0;
                values_done <= 64'd0;
                cycles <= 64'd0;
                err_addr <= 64'd0;
                issued <= 64'd0;
                abort_lat <= 1'b0;
                job_op <= cfg_op;
                job_width <= cfg_width;
                job_slot8 <= cfg_width > 4'd4;
                job_count <= cfg_count;
                job_dst <= cfg_dst[ADDR_W-1:0];
                job_cap <= cfg_cap;
                cur_value <= cfg_start;
            end
            if (fail_now) begin
                st_done <= 1'b1;
                st_err <= 1'b1;
                err_code <= bad_width ? MD5ACC_ERR_BAD_WIDTH[3:0] : MD5ACC_ERR_BAD_ALIGN[3:0];
                irq_sts[1] <= 1'b1;
            end
            if (empty_job) begin
                st_done <= 1'b1;
                irq_sts[0] <= 1'b1;
            end
            if (start_ok) state <= S_RUN;
            if (state == S_RUN) begin
                cycles <= cycles + 64'd1;
                if (abort_req) abort_lat <= 1'b1;
                if (grp_take) begin
                    issued <= issued + {{(64-CW){1'b0}}, grp_cnt};
                    cur_value <= cur_value + {{(64-CW){1'b0}}, grp_cnt};
                end
                if (job_op && p1_take) values_done <= values_done + {{(64-CW){1'b0}}, p1_cnt};
                if (!job_op && ack_valid) values_done <= (h_acked < issued) ? h_acked : issued;
                if (emit && job_op) begin
                    match_count <= match_count + 32'd1;
                    if (match_drop) st_ovf <= 1'b1;
                end
                if (finished) begin
                    state <= S_IDLE;
                    st_done <= 1'b1;
                    st_abort <= abort_lat;
                    if (rd_err || wr_err) begin
                        st_err <= 1'b1;
                        err_code <= rd_err ? MD5ACC_ERR_READ_RESP[3:0] : MD5ACC_ERR_WRITE_RESP[3:0];
                        err_addr <= {{(64-ADDR_W){1'b0}}, rd_err ? rd_err_addr : wr_err_addr};
                        irq_sts[1] <= 1'b1;
                    end else begin
                        irq_sts[0] <= 1'b1;
                    end
                end
            end
        end
    end

    wire unused = &{1'b0, wr_strb, rd_en, m2_c[0], scratch[0]};
endmodule
`default_nettype wire
