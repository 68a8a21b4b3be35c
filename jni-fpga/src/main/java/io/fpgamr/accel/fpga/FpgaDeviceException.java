package io.fpgamr.accel.fpga;

/** The device failed during a call: an error it reported, or no interrupt within the timeout. */
public final class FpgaDeviceException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int code;

    FpgaDeviceException(int code, String message) {
        super(message);
        this.code = code;
    }

    /** The driver's return code (FPGAMR_EIO, FPGAMR_ETIMEDOUT). */
    public int code() {
        return code;
    }

    /** No interrupt within the driver's timeout: the device hung, and the driver aborted its job. */
    public boolean timedOut() {
        return code == FpgaNative.ETIMEDOUT;
    }
}
