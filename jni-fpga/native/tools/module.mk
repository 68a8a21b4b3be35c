# tools/module.mk: programs shipped beside libfpgamr.so (convention: ../../README.md, "Native build").
# fpgamr-doctor checks an accelerator layer by layer; bin/fpgamr doctor runs it (from the jar) and
# adds the YARN and exporter layers. Its test runs it against simulated devices with injected faults.
TOOL_SRCS += tools/fpgamr-doctor.c

.PHONY: doctor-test
ifndef PLATFORM
test: doctor-test
endif
doctor-test: lib-$(HOST_PLATFORM)
	$(MAKE) -C fpga vsim-libs VSIM_PIPES=4
	tools/tests/test_doctor.sh build/$(HOST_PLATFORM)
