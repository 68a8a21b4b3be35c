/*
 * fpgamr_md5.h: the public C API of libfpgamr's CPU MD5 engine.
 *
 * The domain: a value v is hashed as its big-endian encoding in `width` bytes (4..8), which is a
 * single MD5 block. All entry points work on batches (a range or an array of values); none is
 * meant to be called per value. An engine handle owns a pool of `threads` threads (the caller's
 * thread included) and one kernel (scalar, avx2, avx512, neon), chosen at open time. A handle is
 * used by one caller thread at a time; different handles are independent.
 *
 * Digests are written as 16 bytes each, in MD5's usual byte order, value after value.
 * Errors are negative return values (FPGAMR_MD5_E*); fpgamr_md5_strerror() names them.
 */
#ifndef FPGAMR_MD5_H
#define FPGAMR_MD5_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FPGAMR_MD5_API_VERSION 2

/* Codes -1 and -4 mean the same as in fpgamr_fpga.h; the MD5-only codes are -20 and below. */
#define FPGAMR_MD5_OK 0
#define FPGAMR_MD5_EINVAL (-1)     /* bad argument: width, range outside the width's domain, NULL */
#define FPGAMR_MD5_ENOKERNEL (-20)  /* kernel name unknown, or not built for this platform */
#define FPGAMR_MD5_ENOCPU (-21)     /* kernel built, but this CPU (or OS) lacks the instructions */
#define FPGAMR_MD5_ENOMEM (-4)     /* allocation or thread creation failed */

#define FPGAMR_MD5_MIN_WIDTH 4
#define FPGAMR_MD5_MAX_WIDTH 8

typedef struct fpgamr_md5 fpgamr_md5;
typedef struct fpgamr_md5_targets fpgamr_md5_targets;

/* The API version this library implements (FPGAMR_MD5_API_VERSION). */
int fpgamr_md5_api_version(void);

/* The platform the library was built for: "linux-x86_64", "linux-aarch64" or "linux-armhf". */
const char *fpgamr_platform(void);

/* A static string naming an error code. */
const char *fpgamr_md5_strerror(int err);

/* Comma-separated kernel names compiled into this library, best last, e.g. "scalar,avx2,avx512". */
const char *fpgamr_md5_kernels_built(void);

/* FPGAMR_MD5_OK if `kernel` is built and this CPU can run it, else FPGAMR_MD5_ENOKERNEL or FPGAMR_MD5_ENOCPU. */
int fpgamr_md5_kernel_status(const char *kernel);

/* The best kernel this CPU can run (what "auto" picks when FPGAMR_KERNEL is unset). */
const char *fpgamr_md5_best_kernel(void);

/*
 * Opens an engine. `kernel` is a kernel name, or NULL / "" / "auto" for the environment variable
 * FPGAMR_KERNEL when set and non-empty, else the best kernel. A kernel the CPU lacks is an error,
 * never a silent fallback. `threads` <= 0 means one per online CPU. On failure returns NULL and,
 * when `err` is not NULL, writes a message (at most errlen bytes, NUL-terminated) and the error
 * code to *code (when `code` is not NULL).
 */
fpgamr_md5 *fpgamr_md5_open(const char *kernel, int threads, char *err, int errlen, int *code);
void fpgamr_md5_close(fpgamr_md5 *engine);

/* The kernel name of an open engine ("scalar", "avx2", "avx512", "neon"). */
const char *fpgamr_md5_kernel(const fpgamr_md5 *engine);
int fpgamr_md5_threads(const fpgamr_md5 *engine);
/* Lanes per vector of the engine's kernel (1, 4, 8, 16). */
int fpgamr_md5_lanes(const fpgamr_md5 *engine);

/*
 * bench mode: writes the digests of values [start, start + count) to out (16 * count bytes).
 * The range must lie in [0, 2^(8 * width)). Returns the number of values the engine's threads
 * hashed (each thread counts the values it handed its kernel; the sum is count when all is well),
 * or a negative error.
 */
int64_t fpgamr_md5_hash_range(fpgamr_md5 *engine, uint64_t start, uint64_t count, int width, uint8_t *out);

/* bench mode on an array: digests of values[0..count) (each < 2^(8 * width)) to out; returns
 * the values hashed, as fpgamr_md5_hash_range does. */
int64_t fpgamr_md5_hash_values(fpgamr_md5 *engine, const uint64_t *values, uint64_t count, int width,
                               uint8_t *out);

/*
 * A prepared set of target digests (n * 16 bytes; order and duplicates do not matter: the set is
 * sorted here, once). Immutable once made: one set may be shared by several engines and threads.
 * NULL on allocation failure.
 */
fpgamr_md5_targets *fpgamr_md5_targets_new(const uint8_t *digests, uint32_t n);
void fpgamr_md5_targets_free(fpgamr_md5_targets *targets);
uint32_t fpgamr_md5_targets_size(const fpgamr_md5_targets *targets);
/* The set's digests, sorted ascending without duplicates (fpgamr_targets.h): what the FPGA
 * driver's fpgamr_search_range takes, so that both engines share one sorted set. */
const uint8_t *fpgamr_md5_targets_digests(const fpgamr_md5_targets *targets);

/*
 * search mode: the values of [start, start + count) whose digest is in `targets`. Writes the first
 * min(matches, found_cap) of them, ascending, to found, and the number of values the engine's
 * threads examined to *done (when not NULL): the sum of what each thread handed its kernel, count
 * when all is well, 0 when there is no target (nothing is hashed) or on an error. Returns the
 * number of matches (which may exceed found_cap: call again with more room), or a negative error.
 */
int64_t fpgamr_md5_search_range(fpgamr_md5 *engine, const fpgamr_md5_targets *targets, uint64_t start,
                                uint64_t count, int width, uint64_t *found, uint64_t found_cap,
                                uint64_t *done);

/* One digest computed by the portable reference code (for tests and confirmations). */
void fpgamr_md5_reference(uint64_t value, int width, uint8_t digest[16]);

#ifdef __cplusplus
}
#endif

#endif
