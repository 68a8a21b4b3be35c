"""A job summary's timeline (--summary-json's `timeline`), as the benchmarks print it: bench-fixed-cost
and bench-job (issue 40's goal 3) both read where a job's fixed cost goes from it, one way."""


def print_phases(summary, indent="  "):
    """Each phase's first and last time since submission, the step from the phase above, per node too."""
    t = summary["timeline"]
    print(f"{indent}timeline (measured wall clock, seconds since submission; job history {t['history']}):")
    print(f"{indent}{'phase':<26} {'count':>5} {'first':>8} {'last':>8} {'+first':>8} {'+last':>8}  source")
    prev = None
    for p in t["phases"]:
        d1 = f"{p['first_s'] - prev['first_s']:8.2f}" if prev else f"{'':>8}"
        d2 = f"{p['last_s'] - prev['last_s']:8.2f}" if prev else f"{'':>8}"
        print(f"{indent}{p['phase']:<26} {p['count']:>5} {p['first_s']:8.2f} {p['last_s']:8.2f} {d1} {d2}  {p['source']}")
        for node, n in (p.get("by_node") or {}).items():
            print(f"{indent}  on {node:<21} {n['count']:>5} {n['first_s']:8.2f} {n['last_s']:8.2f}")
        prev = p
    print(f"{indent}(+first, +last: since the phase above's first, last)")


def phase(summary, name):
    """The phase of that name, or None where the job had none (the local runner has no job history)."""
    return next((p for p in summary["timeline"]["phases"] if p["phase"] == name), None)


def spans(summary, span_list):
    """Each span of span_list (label, from phase, to phase, the to phase's end, the from phase's end) the
    summary's timeline has both phases of: its seconds, by label, in span_list's order."""
    out = {}
    for label, a, b, end, start in span_list:
        pa, pb = phase(summary, a), phase(summary, b)
        if pa and pb:
            out[label] = pb[end] - pa[start]
    return out
