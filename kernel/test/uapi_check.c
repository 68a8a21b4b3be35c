// SPDX-License-Identifier: GPL-2.0
/* Compiles the UAPI header as plain user-space C11 and pins its ABI. */
#include <linux/fpgamr.h>
#include <stddef.h>

_Static_assert(sizeof(struct fpgamr_info) == 64, "fpgamr_info size");
_Static_assert(sizeof(struct fpgamr_submit) == 56, "fpgamr_submit size");
_Static_assert(sizeof(struct fpgamr_alloc) == 24, "fpgamr_alloc size");
_Static_assert(sizeof(struct fpgamr_free) == 8, "fpgamr_free size");
_Static_assert(sizeof(struct fpgamr_sync) == 24, "fpgamr_sync size");
_Static_assert(offsetof(struct fpgamr_info, max_buf_bytes) == 24, "info");
_Static_assert(offsetof(struct fpgamr_alloc, mmap_offset) == 8, "alloc");
_Static_assert(offsetof(struct fpgamr_alloc, handle) == 16, "alloc");
_Static_assert(FPGAMR_API_VERSION == 3, "API 3: ALLOC without a bus address");
_Static_assert(offsetof(struct fpgamr_sync, offset) == 8, "sync");
_Static_assert(offsetof(struct fpgamr_info, max_dev_bytes) == 40, "info caps");
_Static_assert(offsetof(struct fpgamr_submit, src_handle) == 24, "submit");
_Static_assert(offsetof(struct fpgamr_submit, match_cap) == 48, "submit cap");

int main(void)
{
	return FPGAMR_IOC_INFO == FPGAMR_IOC_ALLOC || FPGAMR_IOC_SUBMIT == FPGAMR_IOC_ABORT;
}
