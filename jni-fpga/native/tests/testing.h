/*
 * testing.h: what the C tests of jni-fpga share: CHECK, which counts a check and reports a failed
 * one with its place, and the reference MD5 of a value.
 *
 * The reference is OpenSSL's MD5() wherever the test program links libcrypto: the host platform
 * (FPGAMR_TEST_OPENSSL, set by the Makefiles). The ARM test programs run under qemu-user, and
 * Debian has no cross build of libcrypto for them (only multiarch packages, which would make the
 * build machine a multi-architecture dpkg installation); there the reference is the library's own
 * portable one-block MD5 (fpgamr_md5_reference), which every host run checks against OpenSSL's
 * (test_md5: "library reference"), so that the same C source is the reference on every platform.
 */
#ifndef FPGAMR_TESTING_H
#define FPGAMR_TESTING_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int passed __attribute__((unused)), failed __attribute__((unused));

#define CHECK(cond, ...)                                                        \
    do {                                                                        \
        if (cond) {                                                             \
            passed++;                                                           \
        } else {                                                                \
            failed++;                                                           \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);     \
            fprintf(stderr, __VA_ARGS__);                                       \
            fputc('\n', stderr);                                                \
        }                                                                       \
    } while (0)

/* The message of value v in width w: its big-endian encoding in w bytes. */
static inline void ref_message(uint64_t v, int w, uint8_t m[8]) {
    for (int i = 0; i < w && i < 8; i++) {
        m[i] = (uint8_t)(v >> (8 * (w - 1 - i)));
    }
}

#ifdef FPGAMR_TEST_OPENSSL
#define OPENSSL_SUPPRESS_DEPRECATED /* MD5() is the reference, deprecated or not */
#include <openssl/md5.h>
#define REF_MD5_NAME "OpenSSL MD5()"

/* The reference digest of value v in width w (1..8 bytes). */
static inline void ref_value(uint64_t v, int w, uint8_t out[16]) {
    uint8_t m[8];
    ref_message(v, w, m);
    MD5(m, (size_t)w, out);
}
#else
#include "fpgamr_md5.h"
#define REF_MD5_NAME "the library's portable MD5"

static inline void ref_value(uint64_t v, int w, uint8_t out[16]) {
    fpgamr_md5_reference(v, w, out);
}
#endif

#endif
