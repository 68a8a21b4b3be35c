#!/usr/bin/env python3
"""Vectors for tb_md5_core: RFC 1321 suite messages that fit one block, and
random messages of every width 1..8 (software MD5 from hashlib).

    gen_vectors.py OUTDIR [NRANDOM] [SEED]
writes OUTDIR/rfc_vectors.hex   one line per message: 512-bit padded block, 128-bit digest
       OUTDIR/pad_vectors.hex   one line per message: 8-bit width, 64-bit message, 128-bit digest
Hex lines are most significant first; block word i sits at bits 32i+31:32i and
message/digest byte j at bits 8j+7:8j, as in the RTL.
"""
import hashlib
import os
import random
import struct
import sys

RFC1321_SUITE = [b"", b"a", b"abc", b"message digest", b"abcdefghijklmnopqrstuvwxyz",
                 b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
                 b"1234567890" * 8]
RFC1321_DIGESTS = ["d41d8cd98f00b204e9800998ecf8427e", "0cc175b9c0f1b6a831c399e269772661",
                   "900150983cd24fb0d6963f7d28e17f72", "f96b697d7cb7938d525a2f31aaf161d0",
                   "c3fcd3d76192e4007dfb496cca67e13b", "d174ab98d277d9f5a5611c2c9f419d9f",
                   "57edf4a22be3c955ac49da2e2107b67a"]


def pad_block(msg):
    assert len(msg) <= 55
    blk = msg + b"\x80" + b"\x00" * (55 - len(msg)) + struct.pack("<Q", 8 * len(msg))
    return blk


def le_hex(b):
    return b[::-1].hex()


def main():
    out = sys.argv[1]
    nrand = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1321)
    os.makedirs(out, exist_ok=True)
    n_rfc = 0
    with open(os.path.join(out, "rfc_vectors.hex"), "w") as f:
        for msg, dig in zip(RFC1321_SUITE, RFC1321_DIGESTS):
            assert hashlib.md5(msg).hexdigest() == dig  # the suite itself
            if len(msg) > 55:
                continue  # needs a second block: outside a one-block core
            f.write(le_hex(pad_block(msg)) + le_hex(bytes.fromhex(dig)) + "\n")
            n_rfc += 1
        # a few random full blocks of 0..55 bytes too
        for _ in range(64):
            msg = bytes(rng.randrange(256) for _ in range(rng.randrange(56)))
            f.write(le_hex(pad_block(msg)) + le_hex(hashlib.md5(msg).digest()) + "\n")
            n_rfc += 1
    n_pad = 0
    with open(os.path.join(out, "pad_vectors.hex"), "w") as f:
        # the thesis example, then every width 1..8 at random with random junk past the width
        fixed = [(4, bytes.fromhex("00000123"))]
        for w, msg in fixed:
            assert hashlib.md5(msg).hexdigest() == "096822475dd517c1089f4b58c7f346ef"
        items = fixed + [(w, None) for w in range(1, 9) for _ in range(nrand // 8)]
        for w, msg in items:
            if msg is None:
                msg = bytes(rng.randrange(256) for _ in range(w))
            junk = bytes(rng.randrange(256) for _ in range(8 - w))
            f.write("%02x" % w + le_hex(msg + junk) + le_hex(hashlib.md5(msg).digest()) + "\n")
            n_pad += 1
    with open(os.path.join(out, "counts.vh"), "w") as f:
        f.write("localparam integer N_RFC = %d;\nlocalparam integer N_PAD = %d;\n" % (n_rfc, n_pad))


if __name__ == "__main__":
    main()
