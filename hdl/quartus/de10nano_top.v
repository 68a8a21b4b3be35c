// de10nano_top: board top level for the DE10-Nano. The Platform Designer
// system soc_system (soc_system.tcl) holds the HPS, the PLL, the md5acc
// component on the lightweight bridge (registers) and F2SDRAM port 0 (DMA),
// its reset synchroniser (h2f_reset and the PLL's lock; h2f_reset goes
// nowhere else) and the IRQ to the GIC; this wrapper only connects the board
// pins. KEY[0] resets the PLL, and through its lock the accelerator.
// The HPS peripherals' pins (Ethernet, SD card, USB, console, I2C, the LTC
// connector's SPI) are the HPS's own: they pass through the system's hps_io
// conduit (named as Platform Designer names a conduit's signals,
// <export>_<interface>_<instance>_<signal>; never checked against a
// qsys-generate output here) and the fitter places them on the HPS pins.
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
    output wire        HPS_DDR3_WE_N,
    // HPS Ethernet (EMAC1, RGMII)
    output wire        HPS_ENET_GTX_CLK,
    output wire [3:0]  HPS_ENET_TX_DATA,
    output wire        HPS_ENET_TX_EN,
    input  wire        HPS_ENET_RX_CLK,
    input  wire [3:0]  HPS_ENET_RX_DATA,
    input  wire        HPS_ENET_RX_DV,
    inout  wire        HPS_ENET_MDIO,
    output wire        HPS_ENET_MDC,
    // HPS micro SD card (SD/MMC, 4 bits)
    output wire        HPS_SD_CLK,
    inout  wire        HPS_SD_CMD,
    inout  wire [3:0]  HPS_SD_DATA,
    // HPS USB OTG (USB1, ULPI)
    input  wire        HPS_USB_CLKOUT,
    inout  wire [7:0]  HPS_USB_DATA,
    input  wire        HPS_USB_DIR,
    input  wire        HPS_USB_NXT,
    output wire        HPS_USB_STP,
    // HPS console (UART0)
    input  wire        HPS_UART_RX,
    output wire        HPS_UART_TX,
    // HPS I2C0 (accelerometer) and I2C1 (LTC connector)
    inout  wire        HPS_I2C0_SCLK,
    inout  wire        HPS_I2C0_SDAT,
    inout  wire        HPS_I2C1_SCLK,
    inout  wire        HPS_I2C1_SDAT,
    // HPS SPI master 1 (LTC connector)
    output wire        HPS_SPIM_CLK,
    output wire        HPS_SPIM_MOSI,
    input  wire        HPS_SPIM_MISO,
    output wire        HPS_SPIM_SS
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
        .memory_oct_rzqin            (HPS_DDR3_RZQ),
        .hps_io_hps_io_emac1_inst_TX_CLK (HPS_ENET_GTX_CLK),
        .hps_io_hps_io_emac1_inst_TXD0   (HPS_ENET_TX_DATA[0]),
        .hps_io_hps_io_emac1_inst_TXD1   (HPS_ENET_TX_DATA[1]),
        .hps_io_hps_io_emac1_inst_TXD2   (HPS_ENET_TX_DATA[2]),
        .hps_io_hps_io_emac1_inst_TXD3   (HPS_ENET_TX_DATA[3]),
        .hps_io_hps_io_emac1_inst_TX_CTL (HPS_ENET_TX_EN),
        .hps_io_hps_io_emac1_inst_RX_CLK (HPS_ENET_RX_CLK),
        .hps_io_hps_io_emac1_inst_RXD0   (HPS_ENET_RX_DATA[0]),
        .hps_io_hps_io_emac1_inst_RXD1   (HPS_ENET_RX_DATA[1]),
        .hps_io_hps_io_emac1_inst_RXD2   (HPS_ENET_RX_DATA[2]),
        .hps_io_hps_io_emac1_inst_RXD3   (HPS_ENET_RX_DATA[3]),
        .hps_io_hps_io_emac1_inst_RX_CTL (HPS_ENET_RX_DV),
        .hps_io_hps_io_emac1_inst_MDIO   (HPS_ENET_MDIO),
        .hps_io_hps_io_emac1_inst_MDC    (HPS_ENET_MDC),
        .hps_io_hps_io_sdio_inst_CLK     (HPS_SD_CLK),
        .hps_io_hps_io_sdio_inst_CMD     (HPS_SD_CMD),
        .hps_io_hps_io_sdio_inst_D0      (HPS_SD_DATA[0]),
        .hps_io_hps_io_sdio_inst_D1      (HPS_SD_DATA[1]),
        .hps_io_hps_io_sdio_inst_D2      (HPS_SD_DATA[2]),
        .hps_io_hps_io_sdio_inst_D3      (HPS_SD_DATA[3]),
        .hps_io_hps_io_usb1_inst_CLK     (HPS_USB_CLKOUT),
        .hps_io_hps_io_usb1_inst_D0      (HPS_USB_DATA[0]),
        .hps_io_hps_io_usb1_inst_D1      (HPS_USB_DATA[1]),
        .hps_io_hps_io_usb1_inst_D2      (HPS_USB_DATA[2]),
        .hps_io_hps_io_usb1_inst_D3      (HPS_USB_DATA[3]),
        .hps_io_hps_io_usb1_inst_D4      (HPS_USB_DATA[4]),
        .hps_io_hps_io_usb1_inst_D5      (HPS_USB_DATA[5]),
        .hps_io_hps_io_usb1_inst_D6      (HPS_USB_DATA[6]),
        .hps_io_hps_io_usb1_inst_D7      (HPS_USB_DATA[7]),
        .hps_io_hps_io_usb1_inst_DIR     (HPS_USB_DIR),
        .hps_io_hps_io_usb1_inst_NXT     (HPS_USB_NXT),
        .hps_io_hps_io_usb1_inst_STP     (HPS_USB_STP),
        .hps_io_hps_io_uart0_inst_RX     (HPS_UART_RX),
        .hps_io_hps_io_uart0_inst_TX     (HPS_UART_TX),
        .hps_io_hps_io_i2c0_inst_SCL     (HPS_I2C0_SCLK),
        .hps_io_hps_io_i2c0_inst_SDA     (HPS_I2C0_SDAT),
        .hps_io_hps_io_i2c1_inst_SCL     (HPS_I2C1_SCLK),
        .hps_io_hps_io_i2c1_inst_SDA     (HPS_I2C1_SDAT),
        .hps_io_hps_io_spim1_inst_CLK    (HPS_SPIM_CLK),
        .hps_io_hps_io_spim1_inst_MOSI   (HPS_SPIM_MOSI),
        .hps_io_hps_io_spim1_inst_MISO   (HPS_SPIM_MISO),
        .hps_io_hps_io_spim1_inst_SS0    (HPS_SPIM_SS)
    );

    assign LED[0] = busy;
endmodule
`default_nettype wire
