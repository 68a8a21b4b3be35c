#!/usr/bin/env python3
"""Pin one flip-flop of every MD5 step of every pipeline on the GW5AST-138.

nextpnr's analytical placer, left alone with several pipelines on the
GW5AST-138, stretches each pipeline across the chip: the four-pipeline
route's critical path was a net inside a pipeline (step 61 -> step 62),
10.75 ns of routing. This script gives the placer a floorplan, as a
designer would with region constraints (which nextpnr's Gowin flow does not
read): each pipeline gets a 45 x 40 tile region, above or below a band of
rows in the middle of the chip left to the control logic, and each step's
`b` register bit 16 is pinned (a BEL attribute, which nextpnr places first
and never moves) on a U-shaped spine through that region: steps 0-31 away
from the band, 32-63 back to it, so that a pipeline starts and ends by the
logic that feeds and reads it. Everything else is placed by nextpnr, pulled
to its step by the pinned register. The Makefile applies it to two to four
pipelines (SPINE_PIPES; README, "Timing").

    pipeline_spine.py IN.json OUT.json NPIPE
"""
import json
import os
import re
import sys

# logic tiles of the GW5AST-138 (Apicula's grid): columns 1-180, rows 1-107;
# every ninth row holds block RAM or DSP, no logic
X_FIRST, X_LAST, Y_FIRST, Y_LAST = 1, 180, 1, 107
BAND = (46, 62)           # rows left to the control logic
REGION_W = 45             # columns per pipeline: about 28 tiles a step
SPINE_COLS, SPINE_ROWS = 8, 8
STEPS = 64
ANCHOR_BIT = 16
B_NET = re.compile(r'u_acc\.u_pipes\.g_pipe\[(\d+)\]\.u_core\.b\[(\d+)\]$')


def logic_rows(first, last):
    return [y for y in range(first, last + 1) if y % 9 != 0]


def spine(npipe):
    """(pipeline, step) -> (x, y): pipelines alternate above and below the band"""
    cols = (npipe + 1) // 2
    if cols * REGION_W > X_LAST - X_FIRST + 1:
        raise ValueError('%d pipelines do not fit side by side in %d columns' % (npipe, X_LAST))
    x_left = X_FIRST + (X_LAST - X_FIRST + 1 - cols * REGION_W) // 2
    rows = {0: logic_rows(Y_FIRST, BAND[0] - 1)[::-1],    # outwards from the band
            1: logic_rows(BAND[1] + 1, Y_LAST)}
    half_steps = STEPS // 2
    per_row = SPINE_COLS // 2
    out = {}
    for j in range(npipe):
        xs = range(x_left + (j // 2) * REGION_W, x_left + (j // 2 + 1) * REGION_W)
        ys = rows[j % 2]
        for s in range(STEPS):
            # serpentine rows of per_row steps: the way out in the region's
            # left half, ending at that half's right edge; the way back
            # starts beside it, in the right half, and ends beside step 0
            leg, k = divmod(s, half_steps)
            rk, i = divmod(k, per_row)
            if leg == 0:
                r = rk
                col = per_row - 1 - i if rk % 2 == 0 else i
            else:
                r = SPINE_ROWS - 1 - rk
                col = per_row + (i if rk % 2 == 0 else per_row - 1 - i)
            out[(j, s)] = (xs[int((col + 0.5) * len(xs) / SPINE_COLS)],
                           ys[int((r + 0.5) * len(ys) / SPINE_ROWS)])
    return out


def main(argv):
    if len(argv) != 4 or not argv[3].isdigit():
        print('usage: pipeline_spine.py IN.json OUT.json NPIPE', file=sys.stderr)
        return 2
    src, dst, npipe = argv[1], argv[2], int(argv[3])
    with open(src) as f:
        doc = json.load(f)
    mod = max(doc['modules'].values(), key=lambda m: len(m['cells']))
    # the flip-flop driving b[s+1][ANCHOR_BIT] is step s's anchor
    want = {}
    for name, net in mod['netnames'].items():
        m = B_NET.match(name)
        if m and int(m[2]) >= 1:
            want[net['bits'][ANCHOR_BIT]] = (int(m[1]), int(m[2]) - 1)
    anchors = {}
    for name, cell in mod['cells'].items():
        if cell['type'].startswith('DFF'):
            key = want.get(cell['connections']['Q'][0])
            if key is not None:
                anchors[key] = cell
    try:
        places = spine(npipe)
    except ValueError as e:
        print('pipeline_spine.py: %s' % e, file=sys.stderr)
        return 2
    missing = sorted(set(places) - set(anchors))
    if missing:
        print('pipeline_spine.py: %s: no b register for %d steps (first: pipeline %d step %d)'
              % (src, len(missing), *missing[0]), file=sys.stderr)
        return 1
    for key, (x, y) in places.items():
        anchors[key]['attributes']['BEL'] = 'X%dY%d/DFF0' % (x, y)
    tmp = dst + '.tmp'
    with open(tmp, 'w') as f:
        json.dump(doc, f)
    os.replace(tmp, dst)
    print('pipeline_spine.py: %d pipelines, %d step registers pinned' % (npipe, len(places)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
