# kernels/module.mk: the CPU MD5 kernels (convention: ../../README.md, "Native build").
LIB_SRCS += kernels/kernel_scalar.c
LIB_SRCS_linux-x86_64 += kernels/kernel_avx2.c kernels/kernel_avx512.c
LIB_SRCS_linux-aarch64 += kernels/kernel_neon.c
LIB_SRCS_linux-armhf += kernels/kernel_neon.c

# Only these files use the extensions; the engine calls them after checking the CPU.
CFLAGS_kernels/kernel_avx2.c := -mavx2
CFLAGS_kernels/kernel_avx512.c := -mavx512f
ifeq ($(PLATFORM),linux-armhf)
CFLAGS_kernels/kernel_neon.c := -mfpu=neon
endif

TEST_SRCS += tests/test_md5.c
