#!/usr/bin/env python3
"""Generate two groups of runs of one model (before and after a change) with tests planted
as regressed, improved, and noise: a regressed test passes nearly always before and rarely
after, an improved one the reverse, and a noise test has the same pass probability on both
sides (anywhere from 0.1 to 0.9, or 1 or 0), so any difference it shows is chance.

Layout: OUT_DIR/base/run-01.json ... and OUT_DIR/new/run-01.json ..., each a gstack standard
result (gen_gstack.py's writer), the test's suite its category.

A planted change is certain in the runs written: a regressed test passes in at least all but
one base run and in at most two new runs (an improved one the other way round). The ground
truth (--expected):

  {"regressed": [ids], "improved": [ids], "noise": [ids], "runs": N}

With 20 runs a side, every planted change is far beyond noise (Fisher's exact p below 1e-6),
and a per-test comparison that controls the false discovery rate at 5% calls few noise tests
changed.

Usage:
  gen_groups.py --runs 20 --tests 300 --seed 7 OUT_DIR [--expected > truth.json]
"""
import json
import os
import sys

import gencommon
import gen_gstack

SUITES = ["browse", "qa", "review", "ship"]
MODEL = "claude-sonnet-4-6"


def plan(seed, n_tests):
    """[(name, suite, kind, p)]: kind regressed, improved or noise; p the noise test's pass
    probability."""
    rng = gencommon.stream(seed, "groups-plan")
    kinds = []
    for kind, count in gencommon.shares([("regressed", 6), ("improved", 4), ("noise", 90)], n_tests):
        kinds.extend([kind] * count)
    rng.shuffle(kinds)
    tests = []
    for i, kind in enumerate(kinds):
        p = rng.choice([1.0, 0.0, rng.uniform(0.1, 0.9), rng.uniform(0.1, 0.9)]) if kind == "noise" else None
        tests.append((f"{SUITES[i % len(SUITES)]}-test-{i:04d}", SUITES[i % len(SUITES)], kind, p))
    return tests


def side(seed, which, tests, runs):
    """Per test, its outcome in each run of side `which` (base or new)."""
    rng = gencommon.stream(seed, "groups-outcome", which)
    out = []
    for _, _, kind, p in tests:
        if kind == "noise":
            out.append([rng.random() < p for _ in range(runs)])
            continue
        high = (kind == "regressed") == (which == "base")
        row = [rng.random() < (0.95 if high else 0.1) for _ in range(runs)]
        # Certain: all but one pass on the high side, at most two on the low one.
        while high and sum(row) < runs - 1:
            row[row.index(False)] = True
        while not high and sum(row) > 2:
            row[row.index(True)] = False
        out.append(row)
    return out


def main():
    ap = gencommon.parser(__doc__, 20)
    ap.add_argument("--tests", type=int, default=300, help="tests (default 300)")
    a = ap.parse_args()
    gencommon.check_args(ap, a)
    tests = plan(a.seed, a.tests)
    entries = [(name, suite, 0.5) for name, suite, _, _ in tests]
    if a.out:
        for which in ("base", "new"):
            rows = side(a.seed, which, tests, a.runs)
            for ri in range(a.runs):
                run = f"{which}-{ri + 1:02d}"
                doc = gen_gstack.result(MODEL, run, ri, a.seed, entries, [row[ri] for row in rows],
                                        gencommon.stream(a.seed, "content", which, ri))
                gencommon.write_json(os.path.join(a.out, which, f"run-{ri + 1:02d}.json"), doc, 2)
    if a.expected:
        truth = {"runs": a.runs, "regressed": [], "improved": [], "noise": []}
        for name, _, kind, _ in tests:
            truth[kind].append(name)
        json.dump(truth, sys.stdout, indent=1, sort_keys=True)
        print()


if __name__ == "__main__":
    main()
