// de10nano_top: board top level for the DE10-Nano. The Platform Designer
// system soc_system (soc_system.tcl) holds the HPS, the PLL, the md5acc
// component on the lightweight bridge (registers) and F2SDRAM port 0 (DMA),
// its reset synchroniser (h2f_reset and the PLL's lock; h2f_reset goes
// nowhere else) and the IRQ to the GIC; this wrapper only connects the board
// pins. KEY[0] resets the PLL, and through its lock the accelerator.
`default_nettype none
module de10nano_top (
    input  wire        FPGA_CLK1_50,
    input  wire [0:0]  KEY,
    output wire [0:0]  LED,
    // HPS DDR3
    output wire [14:0] HPS_DDR3_ADDR,
    output wire [2:0]  HPS_DDR3_BA,
    output wire        HPS_DDR3_CAS_N,
    output wire        HPS_DDR3_CKE,
    output wire        HPS_DDR3_CK_N,
    output wire        HPS_DDR3_CK_P,
    output wire        HPS_DDR3_CS_N,
    output wire [3:0]  HPS_DDR3_DM,
    inout  wire [31:0] HPS_DDR3_DQ,
    inout  wire [3:0]  HPS_DDR3_DQS_N,
    inout  wire [3:0]  HPS_DDR3_DQS_P,
    output wire        HPS_DDR3_ODT,
    output wire        HPS_DDR3_RAS_N,
    output wire        HPS_DDR3_RESET_N,
    input  wire        HPS_DDR3_RZQ,
    output wire        HPS_DDR3_WE_N
);
    wire busy;

    soc_system u_soc (
        .clk_clk                     (FPGA_CLK1_50),
        .reset_reset_n               (KEY[0]),
        .md5acc_busy_busy            (busy),
        .memory_mem_a                (HPS_DDR3_ADDR),
        .memory_mem_ba               (HPS_DDR3_BA),
        .memory_mem_ck               (HPS_DDR3_CK_P),
        .memory_mem_ck_n             (HPS_DDR3_CK_N),
        .memory_mem_cke              (HPS_DDR3_CKE),
        .memory_mem_cs_n             (HPS_DDR3_CS_N),
        .memory_mem_ras_n            (HPS_DDR3_RAS_N),
        .memory_mem_cas_n            (HPS_DDR3_CAS_N),
        .memory_mem_we_n             (HPS_DDR3_WE_N),
        .memory_mem_reset_n          (HPS_DDR3_RESET_N),
        .memory_mem_dq               (HPS_DDR3_DQ),
        .memory_mem_dqs              (HPS_DDR3_DQS_P),
        .memory_mem_dqs_n            (HPS_DDR3_DQS_N),
        .memory_mem_odt              (HPS_DDR3_ODT),
        .memory_mem_dm               (HPS_DDR3_DM),
        .memory_oct_rzqin            (HPS_DDR3_RZQ)
    );

    assign LED[0] = busy;
endmodule
`default_nettype wire
