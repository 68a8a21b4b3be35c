package io.fpgamr.energy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs the CLI in-process and keeps what it printed. */
final class Cli {
    final int code;
    final String out;
    final String err;

    private Cli(int code, String out, String err) {
        this.code = code;
        this.out = out;
        this.err = err;
    }

    static Cli run(String... args) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        int code = new EnergyCli(new PrintStream(o, true, StandardCharsets.UTF_8), new PrintStream(e, true, StandardCharsets.UTF_8)).dispatch(args);
        return new Cli(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
    }
}
