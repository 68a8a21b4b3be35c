// md5acc_regfile: the register file behind the AXI4-Lite slave port
// (hdl/regmap/md5acc.json, generated into md5acc_regs.vh). One write or one
// read at a time: a write completes when both its address and data have
// arrived and the previous response was taken, a read is answered two clocks
// after its address; responses are always OKAY, unmapped registers read as
// zero and ignore writes. The window is two 4 KiB pages (register map 3):
// the user page (status, identity, counters, filter, interrupt, MATCH_ACK)
// and the kernel page (the job: MODE, START, COUNT, SRC, DST, MATCH_CAP,
// CTRL; since 3.2 ERR_ADDR, a bus address), which only the kernel driver
// maps; address bit 12 selects the page.
// It holds the job configuration, MATCH_ACK and the
// filter address, turns CTRL, FILTER_DATA, IRQ_STATUS and IRQ_ENABLE writes
// into strobes, and reads back the status the rest of the design drives.
`default_nettype none
module md5acc_regfile #(
    parameter [31:0] DESIGN_PARAMS_VALUE = 32'd0,
    parameter [31:0] CLOCK_KHZ = 32'd0
) (
    input  wire        clk,
    input  wire        rst,
    // AXI4-Lite slave
    input  wire [12:0] s_axil_awaddr,
    input  wire [2:0]  s_axil_awprot,
    input  wire        s_axil_awvalid,
    output wire        s_axil_awready,
    input  wire [31:0] s_axil_wdata,
    input  wire [3:0]  s_axil_wstrb,
    input  wire        s_axil_wvalid,
    output wire        s_axil_wready,
    output wire [1:0]  s_axil_bresp,
    output reg         s_axil_bvalid,
    input  wire        s_axil_bready,
    input  wire [12:0] s_axil_araddr,
    input  wire [2:0]  s_axil_arprot,
    input  wire        s_axil_arvalid,
    output wire        s_axil_arready,
    output reg  [31:0] s_axil_rdata,
    output wire [1:0]  s_axil_rresp,
    output reg         s_axil_rvalid,
    input  wire        s_axil_rready,
    // configuration
    output reg         cfg_op,
    output reg  [3:0]  cfg_width,
    output reg  [63:0] cfg_start,
    output reg  [63:0] cfg_count,
    output reg  [63:0] cfg_src,
    output reg  [63:0] cfg_dst,
    output reg  [31:0] cfg_cap,
    output reg  [31:0] match_ack,
    input  wire        job_start,      // clears MATCH_ACK
    // strobes (registered: the clock after the write, with its data)
    output reg         start_req,
    output reg         abort_req,
    output reg         filter_we,
    output reg         filter_array,
    output reg  [8:0]  filter_word,
    output reg  [31:0] wr_data,
    output reg         irq_clear,
    output reg         irq_enable_we,
    // status
    input  wire [31:0] status,
    input  wire [2:0]  irq_status,
    input  wire [2:0]  irq_enable,
    input  wire [31:0] match_count,
    input  wire [63:0] values_done,
    input  wire [63:0] cycles,
    input  wire [63:0] err_addr,
    input  wire [31:0] jobs_started
);
`include "md5acc_regs.vh"
    wire        wr_en = s_axil_awvalid && s_axil_wvalid && !s_axil_bvalid;
    wire [12:0] wr_addr = s_axil_awaddr;
    reg         rd_pend;                       // a read address accepted, its data the next clock
    wire        rd_en = s_axil_arvalid && !s_axil_rvalid && !rd_pend;
    assign s_axil_awready = wr_en;
    assign s_axil_wready = wr_en;
    assign s_axil_bresp = 2'b00;
    assign s_axil_arready = rd_en;
    assign s_axil_rresp = 2'b00;
    wire [31:0] wdata = s_axil_wdata;

    reg [31:0] scratch;
    reg [9:0]  filter_addr;

    wire wr_ctrl = wr_en && wr_addr == REG_CTRL;
    always @(posedge clk) begin
        start_req <= !rst && wr_ctrl && wdata[CTRL_START_LSB];
        abort_req <= !rst && wr_ctrl && wdata[CTRL_ABORT_LSB];
        filter_we <= !rst && wr_en && wr_addr == REG_FILTER_DATA;
        irq_clear <= !rst && wr_en && wr_addr == REG_IRQ_STATUS;
        irq_enable_we <= !rst && wr_en && wr_addr == REG_IRQ_ENABLE;
        filter_array <= filter_addr[9];
        filter_word <= filter_addr[8:0];
        wr_data <= wdata;
    end

    // reads in two clocks, for the clock rate: the accepted address is decoded
    // into a one-hot word select (rd_sel), and the next clock the data is an
    // AND-OR of the selected word, not a decode and a 27-way mux in one clock
    // words of the map: 0x000..0x07C of each page, word {page, offset[6:2]}
    localparam integer NW = 64;
    function integer wi(input [12:0] a);
        wi = {a[12], a[6:2]};
    endfunction
    reg  [31:0] word_val [0:NW-1];              // each register's read value; others read 0
    integer k, j, m;
    always @* begin
        for (k = 0; k < NW; k = k + 1) word_val[k] = 32'd0;
        word_val[wi(REG_DESIGN_ID)] = MD5ACC_DESIGN_ID;
        word_val[wi(REG_REGMAP_VERSION)] = MD5ACC_REGMAP_VERSION;
        word_val[wi(REG_DESIGN_PARAMS)] = DESIGN_PARAMS_VALUE;
        word_val[wi(REG_SCRATCH)] = scratch;
        word_val[wi(REG_STATUS)] = status;
        word_val[wi(REG_IRQ_ENABLE)] = {29'd0, irq_enable};
        word_val[wi(REG_IRQ_STATUS)] = {29'd0, irq_status};
        word_val[wi(REG_MODE)] = {20'd0, cfg_width, 7'd0, cfg_op};
        word_val[wi(REG_START_LO)] = cfg_start[31:0];
        word_val[wi(REG_START_HI)] = cfg_start[63:32];
        word_val[wi(REG_COUNT_LO)] = cfg_count[31:0];
        word_val[wi(REG_COUNT_HI)] = cfg_count[63:32];
        word_val[wi(REG_SRC_LO)] = cfg_src[31:0];
        word_val[wi(REG_SRC_HI)] = cfg_src[63:32];
        word_val[wi(REG_DST_LO)] = cfg_dst[31:0];
        word_val[wi(REG_DST_HI)] = cfg_dst[63:32];
        word_val[wi(REG_MATCH_CAP)] = cfg_cap;
        word_val[wi(REG_MATCH_COUNT)] = match_count;
        word_val[wi(REG_DONE_LO)] = values_done[31:0];
        word_val[wi(REG_DONE_HI)] = values_done[63:32];
        word_val[wi(REG_CYCLES_LO)] = cycles[31:0];
        word_val[wi(REG_CYCLES_HI)] = cycles[63:32];
        word_val[wi(REG_FILTER_ADDR)] = {22'd0, filter_addr};
        word_val[wi(REG_ERR_ADDR_LO)] = err_addr[31:0];
        word_val[wi(REG_ERR_ADDR_HI)] = err_addr[63:32];
        word_val[wi(REG_CLOCK_KHZ)] = CLOCK_KHZ;
        word_val[wi(REG_MATCH_ACK)] = match_ack;
        word_val[wi(REG_JOBS_STARTED)] = jobs_started;
    end
    reg  [NW-1:0] rd_sel;
    always @(posedge clk)
        if (rd_en)
            for (j = 0; j < NW; j = j + 1) rd_sel[j] <= s_axil_araddr[11:7] == 5'd0 && wi(s_axil_araddr) == j;
    reg  [31:0]   rd_data;
    always @* begin
        rd_data = 32'd0;
        for (m = 0; m < NW; m = m + 1) rd_data = rd_data | ({32{rd_sel[m]}} & word_val[m]);
    end

    always @(posedge clk) begin
        if (rst) begin
            s_axil_bvalid <= 1'b0;
            s_axil_rvalid <= 1'b0;
            s_axil_rdata <= 32'd0;
            rd_pend <= 1'b0;
        end else begin
            if (wr_en) s_axil_bvalid <= 1'b1;
            else if (s_axil_bready) s_axil_bvalid <= 1'b0;
            rd_pend <= rd_en;
            if (rd_pend) begin
                s_axil_rvalid <= 1'b1;
                s_axil_rdata <= rd_data;
            end else if (s_axil_rready) begin
                s_axil_rvalid <= 1'b0;
            end
        end
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
            match_ack <= 32'd0;
            filter_addr <= 10'd0;
        end else begin
            if (wr_en) begin
                case (wr_addr)
                    REG_SCRATCH:     scratch <= wdata;
                    REG_MODE:        begin cfg_op <= wdata[MODE_OP_LSB]; cfg_width <= wdata[MODE_WIDTH_LSB +: 4]; end
                    REG_START_LO:    cfg_start[31:0] <= wdata;
                    REG_START_HI:    cfg_start[63:32] <= wdata;
                    REG_COUNT_LO:    cfg_count[31:0] <= wdata;
                    REG_COUNT_HI:    cfg_count[63:32] <= wdata;
                    REG_SRC_LO:      cfg_src[31:0] <= wdata;
                    REG_SRC_HI:      cfg_src[63:32] <= wdata;
                    REG_DST_LO:      cfg_dst[31:0] <= wdata;
                    REG_DST_HI:      cfg_dst[63:32] <= wdata;
                    REG_MATCH_CAP:   cfg_cap <= wdata;
                    REG_MATCH_ACK:   match_ack <= wdata;
                    REG_FILTER_ADDR: filter_addr <= wdata[9:0];
                    REG_FILTER_DATA: filter_addr <= filter_addr + 10'd1;
                    default: ;
                endcase
            end
            if (job_start) match_ack <= 32'd0;
        end
    end

    wire unused = &{1'b0, s_axil_awprot, s_axil_arprot, s_axil_wstrb};
endmodule
`default_nettype wire
