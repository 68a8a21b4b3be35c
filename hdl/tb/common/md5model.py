"""RFC 1321 MD5 step by step, in the RTL's terms (t = a + K + M carried one
step early, K + M of the job-constant words folded), for the datapath
benches; whole digests come from hashlib (benchlib.md5)."""
import math

MASK = 0xFFFFFFFF
K = [int(abs(math.sin(i + 1)) * 2 ** 32) & MASK for i in range(64)]
S = [7, 12, 17, 22] * 4 + [5, 9, 14, 20] * 4 + [4, 11, 16, 23] * 4 + [6, 10, 15, 21] * 4


def g(i):
    return [i % 16, (5 * i + 1) % 16, (3 * i + 5) % 16, (7 * i) % 16][i // 16]


def f(rnd, b, c, d):
    if rnd == 0:
        return (b & c) | (~b & d & MASK)
    if rnd == 1:
        return (d & b) | (~d & c & MASK)
    if rnd == 2:
        return b ^ c ^ d
    return (c ^ (b | (~d & MASK))) & MASK


def rotl(x, s):
    return ((x << s) | (x >> (32 - s))) & MASK


JOB_STEPS = [i for i in range(64) if g(i) in (2, 14)]     # md5_job_index order


def kmc_words(width):
    """K + M of the job-constant steps for messages of `width` bytes."""
    out = []
    for i in JOB_STEPS:
        m = (0x80 if width == 8 else 0) if g(i) == 2 else 8 * width
        out.append((K[i] + m) & MASK)
    return out


def kmc_int(width):
    return sum(w << (32 * j) for j, w in enumerate(kmc_words(width)))


def step(i, t, b, c, d, mn, kmc):
    """Outputs (t', b', c', d') of md5_step STEP = i."""
    nb = (b + rotl((t + f(i // 16, b, c, d)) & MASK, S[i])) & MASK
    if i == 63:
        nt = d
    elif g(i + 1) in (0, 1):
        nt = (d + mn + K[i + 1]) & MASK
    elif g(i + 1) in (2, 14):
        nt = (d + kmc) & MASK
    else:
        nt = (d + K[i + 1]) & MASK
    return nt, nb, b, c
