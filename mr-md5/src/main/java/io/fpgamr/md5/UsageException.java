package io.fpgamr.md5;

/** Bad input from the user: reported as one line, exit code 2. */
public class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }
}
