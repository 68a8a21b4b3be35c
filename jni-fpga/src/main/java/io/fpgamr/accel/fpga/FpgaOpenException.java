package io.fpgamr.accel.fpga;

/**
 * An FPGA device that cannot be opened, with the driver's message and code: busy (owned by
 * another process), absent (no such device, wrong design id or register map, model library
 * missing), or a bad spec.
 */
public final class FpgaOpenException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final int code;

    FpgaOpenException(int code, String message) {
        super(message);
        this.code = code;
    }

    /** The driver's return code (FPGAMR_E*, negative). */
    public int code() {
        return code;
    }

    /** The device exists but another process owns it. */
    public boolean busy() {
        return code == FpgaNative.EBUSY;
    }

    /** No usable device: none at that name, a different design on it, or no model library. */
    public boolean absent() {
        return code == FpgaNative.ENODEV;
    }
}
