#!/usr/bin/env python3
"""neon_insns.py: instructions per MD5 value of the armhf NEON kernel, counted from its disassembly.

    neon_insns.py LIBFPGAMR_SO [OBJDUMP]   (default objdump: arm-linux-gnueabihf-objdump)

Prints, as a properties file, per kernel loop (search, hash) its instructions per value and
the NEON instructions among them (`search.insns`, `search.neon`), over values per iteration
(LANES x IL = 4 x 2 on armhf). The loop is a function's widest backward branch; its path is traced from the loop head
to that branch: a conditional branch is taken when it leaves the straight-line loop for a block
that rejoins it without a call (the single-target compare, out of line), and falls through when
its target calls out (a hit being reported: cold, about 2^-32 of the values). Debian ships no
QEMU instruction-counting plugin, so the count comes from the code the emulated maps run.
(The report turns it into a modelled Cortex-A9 rate: mr-md5/experiments/README.md.)
"""
import re
import subprocess
import sys

LOOPS = {"search": "md5_search_x0_neon", "hash": "md5_hash_seg_neon"}
VALUES_PER_ITERATION = 4 * 2  # LANES x NEON_IL on armhf (kernels/kernel_neon.c)
LINE = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$")
TARGET = re.compile(r"\b([0-9a-f]+) <")


def function(lib, objdump, name):
    out = subprocess.run([objdump, "-d", "--no-show-raw-insn", lib], check=True, capture_output=True, text=True).stdout
    insns, inside = [], False
    for line in out.splitlines():
        if line.endswith("<" + name + ">:"):
            inside = True
            continue
        if inside:
            if not line.strip():
                break
            m = LINE.match(line)
            if m and not m.group(2).startswith("."):
                insns.append((int(m.group(1), 16), m.group(2), m.group(3)))
    if not insns:
        sys.exit("neon_insns: no function %s in %s" % (name, lib))
    return insns


def branch_target(mnemonic, operands):
    if not (mnemonic.startswith("b") or mnemonic.startswith("cb")) or mnemonic.startswith(("bl", "bic", "bfi", "bfc", "bx")):
        return None
    m = TARGET.search(operands)
    return int(m.group(1), 16) if m else None


def conditional(mnemonic):
    base = mnemonic.split(".")[0]
    return base.startswith("cb") or base != "b"


def count(insns):
    at = {a: i for i, (a, _, _) in enumerate(insns)}
    loops = [(t, a) for a, m, o in insns if (t := branch_target(m, o)) is not None and t < a and t in at]
    head, back = max(loops, key=lambda l: l[1] - l[0])

    def calls_before_rejoining(addr):
        i = at.get(addr)
        for _ in range(len(insns)):
            if i is None or i >= len(insns):
                return True
            a, m, o = insns[i]
            if head <= a <= back:
                return False
            if m.startswith("bl"):
                return True
            t = branch_target(m, o)
            if t is not None and not conditional(m):
                i = at.get(t)
                continue
            i += 1
        return True

    n = neon = 0
    i = at[head]
    for _ in range(4 * len(insns)):
        a, m, o = insns[i]
        n += 1
        neon += m.startswith("v")
        t = branch_target(m, o)
        if a == back or t == head:
            # the loop's next iteration (the main path's own back branch, or another exit to the head)
            return n, neon
        if t is not None and (not conditional(m) or not calls_before_rejoining(t)):
            i = at[t]
        else:
            i += 1
    sys.exit("neon_insns: the path from the loop head at %x does not return to it" % head)


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: neon_insns.py LIBFPGAMR_SO [OBJDUMP]")
    objdump = sys.argv[2] if len(sys.argv) > 2 else "arm-linux-gnueabihf-objdump"
    print("# instructions per value of the armhf NEON kernel's loops (jni-fpga/native/bench/neon_insns.py %s)" % sys.argv[1])
    for kind, name in LOOPS.items():
        n, neon = count(function(sys.argv[1], objdump, name))
        print("# %s: %d instructions per iteration (%d NEON), %d values per iteration" % (name, n, neon, VALUES_PER_ITERATION))
        print("%s.insns=%.3f" % (kind, n / VALUES_PER_ITERATION))
        print("%s.neon=%.3f" % (kind, neon / VALUES_PER_ITERATION))


if __name__ == "__main__":
    main()
