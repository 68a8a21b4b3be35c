# Included by jni-fpga/native/Makefile (include $(wildcard */module.mk)):
# the fpga driver's sources go into libfpgamr.so; the simulated devices,
# tests and bench are built by fpga/Makefile (same build/<os-arch> folder).
LIB_SRCS += fpga/fpgamr_fpga.c fpga/bus_vsim.c fpga/bus_uio.c fpga/port_diag.c
LIB_CPPFLAGS += -I$(CURDIR)/../../kernel/include/uapi
LIB_LDLIBS += -ldl -pthread

.PHONY: fpga-vsim-libs fpga-test bench-fpga
# make test also runs the driver's C tests on the simulated devices
ifndef PLATFORM
test: fpga-test
endif
fpga-vsim-libs:
	$(MAKE) -C fpga vsim-libs
fpga-test:
	$(MAKE) -C fpga test
bench-fpga:
	$(MAKE) -C fpga bench-fpga
