// tb_md5_core: self-checking test bench for md5_core (and md5_pad + md5_core),
// run under both Icarus and Verilator (--timing).
//  1. RFC 1321 suite messages that fit one block (+ random blocks): general core
//     (VAR_MASK = FFFF), full-rate input, checks the 65-clock latency and one
//     digest per clock.
//  2. Random messages of width 1..8 through md5_pad and the accelerator's core
//     (VAR_MASK = 0003), with random input bubbles and random pipeline stalls.
// Vectors come from gen_vectors.py (software MD5). Prints "N passed, 0 failed".
`timescale 1ns/1ps
`default_nettype none
module tb_md5_core;
`include "counts.vh"
    reg clk = 1'b0;
    reg rst = 1'b1;
    always #5 clk = ~clk;

    reg [639:0] rfc_mem [0:N_RFC-1];
    reg [199:0] pad_mem [0:N_PAD-1];
    initial begin
        $readmemh("rfc_vectors.hex", rfc_mem);
        $readmemh("pad_vectors.hex", pad_mem);
    end

    // ---------------- DUT 1: general one-block core
    reg          g_valid = 1'b0;
    reg  [511:0] g_block = 512'd0;
    reg  [15:0]  g_tag = 16'd0;
    wire         g_out_valid;
    wire [15:0]  g_out_tag;
    wire [127:0] g_out_digest;
    md5_core #(.TAG_W(16), .VAR_MASK(16'hFFFF)) u_general (
        .clk(clk), .rst(rst), .ce(1'b1), .in_valid(g_valid), .in_tag(g_tag),
        .in_block(g_block), .const_block(512'd0),
        .out_valid(g_out_valid), .out_tag(g_out_tag), .out_digest(g_out_digest));

    // ---------------- DUT 2: md5_pad + accelerator core with stalls
    reg          p_valid = 1'b0;
    reg  [3:0]   p_width = 4'd4;
    reg  [63:0]  p_msg = 64'd0;
    reg  [15:0]  p_tag = 16'd0;
    reg          p_ce = 1'b1;
    wire [31:0]  pm0, pm1, pm2, pm14;
    wire         p_out_valid;
    wire [15:0]  p_out_tag;
    wire [127:0] p_out_digest;
    md5_pad u_pad (.width(p_width), .msg(p_msg), .m0(pm0), .m1(pm1), .m2(pm2), .m14(pm14));
    // the width changes per value in this test, so m2/m14 ride in the carried
    // words here (VAR_MASK bits 2 and 14); the accelerator keeps them constant per job
    wire [511:0] p_block = {32'd0, pm14, 352'd0, pm2, pm1, pm0};
    md5_core #(.TAG_W(16), .VAR_MASK(16'h4007)) u_padded (
        .clk(clk), .rst(rst), .ce(p_ce), .in_valid(p_valid), .in_tag(p_tag),
        .in_block(p_block), .const_block(512'd0),
        .out_valid(p_out_valid), .out_tag(p_out_tag), .out_digest(p_out_digest));

    // ---------------- DUT 3: accelerator configuration proper (VAR_MASK 0003), one width per run
    reg          q_valid = 1'b0;
    reg  [3:0]   q_width = 4'd4;
    reg  [63:0]  q_msg = 64'd0;
    reg  [15:0]  q_tag = 16'd0;
    wire [31:0]  qm0, qm1, qm2, qm14;
    wire         q_out_valid;
    wire [15:0]  q_out_tag;
    wire [127:0] q_out_digest;
    md5_pad u_qpad (.width(q_width), .msg(q_msg), .m0(qm0), .m1(qm1), .m2(qm2), .m14(qm14));
    md5_core #(.TAG_W(16), .VAR_MASK(16'h0003)) u_acc (
        .clk(clk), .rst(rst), .ce(p_ce), .in_valid(q_valid), .in_tag(q_tag),
        .in_block({448'd0, qm1, qm0}), .const_block({32'd0, qm14, 352'd0, qm2, 64'd0}),
        .out_valid(q_out_valid), .out_tag(q_out_tag), .out_digest(q_out_digest));

    integer passed = 0;
    integer failed = 0;
    integer cyc = 0;
    always @(posedge clk) cyc <= cyc + 1;

    // ---- checker for DUT 1
    integer g_seen = 0;
    integer g_first_in = -1;
    integer g_first_out = -1;
    integer g_last_out = -1;
    always @(posedge clk) if (!rst && g_valid && g_first_in < 0) g_first_in = cyc;
    always @(posedge clk) begin
        if (!rst && g_out_valid) begin
            if (g_first_out < 0) g_first_out = cyc;
            g_last_out = cyc;
            if (g_out_digest !== rfc_mem[g_out_tag][127:0] || g_out_tag != g_seen[15:0]) begin
                $display("FAIL rfc vector %0d: got %h want %h", g_out_tag, g_out_digest, rfc_mem[g_out_tag][127:0]);
                failed = failed + 1;
            end else passed = passed + 1;
            g_seen = g_seen + 1;
        end
    end

    // ---- checker for DUT 2 (tags count up; stalls must not lose or repeat values)
    integer p_seen = 0;
    always @(posedge clk) begin
        if (!rst && p_ce && p_out_valid) begin
            if (p_out_digest !== pad_mem[p_out_tag][127:0] || p_out_tag != p_seen[15:0]) begin
                $display("FAIL pad vector %0d (width %0d): got %h want %h", p_out_tag,
                         pad_mem[p_out_tag][199:192], p_out_digest, pad_mem[p_out_tag][127:0]);
                failed = failed + 1;
            end else passed = passed + 1;
            p_seen = p_seen + 1;
        end
    end

    // ---- checker for DUT 3
    integer q_seen = 0;
    reg [15:0] q_expect_tag [0:N_PAD-1];
    always @(posedge clk) begin
        if (!rst && p_ce && q_out_valid) begin
            if (q_out_digest !== pad_mem[q_out_tag][127:0] || q_out_tag != q_expect_tag[q_seen]) begin
                $display("FAIL acc vector %0d: got %h want %h", q_out_tag, q_out_digest, pad_mem[q_out_tag][127:0]);
                failed = failed + 1;
            end else passed = passed + 1;
            q_seen = q_seen + 1;
        end
    end

    reg [31:0] lfsr = 32'h1;
    function [31:0] next_lfsr(input [31:0] x);
        next_lfsr = {x[30:0], x[31] ^ x[21] ^ x[1] ^ x[0]};
    endfunction

    // Synchronous stimulus (no races between simulators): phase 1 feeds DUT 1
    // at full rate, phase 2 feeds DUT 2 with bubbles and stalls, phase 3 feeds
    // DUT 3 one width at a time, draining the pipeline between widths.
    integer phase = 0;
    integer gi = 0;
    integer pi = 0;
    integer qi = 0;
    integer qw = 1;
    integer nq = 0;
    integer drain = 0;
    always @(posedge clk) begin
        lfsr <= next_lfsr(lfsr);
        if (rst) begin
            phase <= 1;
        end else if (phase == 1) begin
            if (gi < N_RFC) begin
                g_valid <= 1'b1;
                g_block <= rfc_mem[gi][639:128];
                g_tag <= gi[15:0];
                gi <= gi + 1;
            end else begin
                g_valid <= 1'b0;
                phase <= 2;
            end
        end else if (phase == 2) begin
            p_ce <= lfsr[3:0] != 4'd0;                 // ~6% stalls
            if (p_ce || !p_valid) begin                 // current input taken (or none)
                if (pi < N_PAD && lfsr[7:5] != 3'd0) begin   // ~12% bubbles
                    p_valid <= 1'b1;
                    p_width <= pad_mem[pi][195:192];
                    p_msg <= pad_mem[pi][191:128];
                    p_tag <= pi[15:0];
                    pi <= pi + 1;
                end else begin
                    p_valid <= 1'b0;
                    if (pi >= N_PAD) begin
                        phase <= 3;
                        p_ce <= 1'b1;
                        drain <= 80;
                    end
                end
            end
        end else if (phase == 3) begin
            q_valid <= 1'b0;
            if (drain > 0) begin
                drain <= drain - 1;
                if (drain == 1) q_width <= qw[3:0];
            end else if (qw > 8) begin
                phase <= 4;
            end else if (qi < N_PAD) begin
                if (pad_mem[qi][195:192] == qw[3:0]) begin
                    q_valid <= 1'b1;
                    q_msg <= pad_mem[qi][191:128];
                    q_tag <= qi[15:0];
                    q_expect_tag[nq] <= qi[15:0];
                    nq <= nq + 1;
                end
                qi <= qi + 1;
            end else begin
                qi <= 0;
                qw <= qw + 1;
                drain <= 80;
            end
        end
    end

    initial begin
        repeat (3) @(posedge clk);
        rst <= 1'b0;
        wait (phase == 4);
        repeat (70) @(posedge clk);
        // latency and rate of DUT 1
        if (g_first_out - g_first_in != 65) begin
            $display("FAIL latency %0d, want 65", g_first_out - g_first_in);
            failed = failed + 1;
        end else passed = passed + 1;
        if (g_last_out - g_first_out != N_RFC - 1 || g_seen != N_RFC) begin
            $display("FAIL rate: %0d digests over %0d clocks", g_seen, g_last_out - g_first_out + 1);
            failed = failed + 1;
        end else passed = passed + 1;
        if (p_seen != N_PAD || q_seen != N_PAD) begin
            $display("FAIL counts: pad %0d acc %0d want %0d", p_seen, q_seen, N_PAD);
            failed = failed + 1;
        end else passed = passed + 1;
        $display("tb_md5_core: rfc/random blocks %0d, padded messages %0d x2", g_seen, p_seen);
        $display("%0d passed, %0d failed", passed, failed);
        if (failed != 0) $fatal(1, "tb_md5_core failed");
        $finish;
    end
endmodule
`default_nettype wire
