# The accelerator's RTL in dependency order, for every build of it (hdl/Makefile,
# hdl/synth, jni-fpga/native/fpga's simulated devices). Include with MD5ACC_DIR
# set to this folder's parent (hdl/).
include $(MD5ACC_DIR)/rtl/md5acc_config.mk
MD5ACC_CORE_RTL := $(addprefix $(MD5ACC_DIR)/rtl/,md5_add.v md5_step.v md5_core.v)
MD5ACC_RTL := $(MD5ACC_CORE_RTL) $(addprefix $(MD5ACC_DIR)/rtl/,sync_fifo.v md5acc_regfile.v md5acc_irq.v skid_buffer.v \
  axi_burst_cursor.v axi_rd_engine.v axi_wr_engine.v md5acc_candgen.v md5acc_pipes.v md5acc_compare.v md5acc_hits.v \
  md5acc_match_writer.v md5acc_hash_sink.v md5acc_top.v)
MD5ACC_INC := $(addprefix $(MD5ACC_DIR)/rtl/,md5_consts.vh md5acc_regs.vh md5acc_defaults.vh)
