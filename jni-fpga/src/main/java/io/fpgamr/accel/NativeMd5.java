package io.fpgamr.accel;

import com.sun.jna.Pointer;

/**
 * JNA direct mapping of libfpgamr's MD5 API (native/include/fpgamr_md5.h). Bound by
 * {@link NativeLoader#registerMd5()}; every call is one batch, never one value.
 */
final class NativeMd5 {
    static final int OK = 0;
    static final int EINVAL = -1;
    static final int ENOMEM = -4;
    static final int ENOKERNEL = -20;
    static final int ENOCPU = -21;

    private NativeMd5() {
    }

    static native int fpgamr_md5_api_version();

    static native String fpgamr_platform();

    static native String fpgamr_md5_strerror(int err);

    static native String fpgamr_md5_kernels_built();

    static native int fpgamr_md5_kernel_status(String kernel);

    static native String fpgamr_md5_best_kernel();

    static native Pointer fpgamr_md5_open(String kernel, int threads, byte[] err, int errlen, int[] code);

    static native void fpgamr_md5_close(Pointer engine);

    static native String fpgamr_md5_kernel(Pointer engine);

    static native int fpgamr_md5_threads(Pointer engine);

    static native int fpgamr_md5_lanes(Pointer engine);

    static native long fpgamr_md5_hash_range(Pointer engine, long start, long count, int width, Pointer out);

    static native long fpgamr_md5_hash_values(Pointer engine, Pointer values, long count, int width, Pointer out);

    static native Pointer fpgamr_md5_targets_new(Pointer digests, int n);

    static native void fpgamr_md5_targets_free(Pointer targets);

    static native int fpgamr_md5_targets_size(Pointer targets);

    static native Pointer fpgamr_md5_targets_digests(Pointer targets);

    static native long fpgamr_md5_search_range(Pointer engine, Pointer targets, long start, long count, int width,
            Pointer found, long foundCap, Pointer done);
}
