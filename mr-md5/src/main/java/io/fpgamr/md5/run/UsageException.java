package io.fpgamr.md5.run;

/** Bad input from the user, or a cluster that cannot be reached: reported as one line, exit code 2. */
public class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }

    /** The first line of the root cause's message: what a one-line error can say about a failure deep in a library. */
    public static String firstLine(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String m = root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
        return m.lines().findFirst().orElse(m);
    }
}
