package io.fpgamr.md5.cli;

/** A job that failed, or whose own accounting did not check out: reported as one line, exit code 1, its output removed. */
public class JobFailedException extends Exception {
    private static final long serialVersionUID = 1L;

    public JobFailedException(String message) {
        super(message);
    }
}
