#!/usr/bin/env python3
"""Generate runs of several models over the same tests, with flaky tests planted where they
come from: the benchmark's (flaky under every model) and a model's own (flaky under one model,
a stable pass under the others), among stable passes and stable fails.

Layout: OUT_DIR/<model>/run-01.json ... , each a gstack standard result (gen_gstack.py's
writer), the test's suite its category.

Every planted flaky test is flaky for certain in the runs written: its outcomes are drawn with
its pass probability, and when a model's runs all came out alike one of them is turned the
other way. The ground truth (--expected) names the planted tests:

  {"benchmark_flaky": {category: [ids]}, "model_flaky": {category: {model: [ids]}},
   "models": [...], "runs": N}

By evaltally's rule (flaky under at least two models and at least half of those that ran it),
every planted benchmark-flaky test is the benchmark's and no planted model-flaky test is.

Usage:
  gen_flaky_sources.py --models 3 --runs 10 --tests 200 --seed 7 OUT_DIR [--expected > truth.json]
"""
import json
import os
import sys

import gencommon
import gen_gstack

SUITES = ["browse", "qa", "review"]


def plan(seed, n_tests, models):
    """[(name, suite, kind, owner)]: kind is benchmark, model, pass or fail; owner the model
    whose own flaky test it is."""
    rng = gencommon.stream(seed, "flaky-plan")
    kinds = []
    for kind, count in gencommon.shares([("benchmark", 15), ("model", 20), ("pass", 45), ("fail", 20)], n_tests):
        kinds.extend([kind] * count)
    rng.shuffle(kinds)
    tests = []
    for i, kind in enumerate(kinds):
        suite = SUITES[i % len(SUITES)]
        owner = models[(i // len(SUITES)) % len(models)] if kind == "model" else None
        tests.append((f"{suite}-test-{i:04d}", suite, kind, owner))
    return tests


def outcomes(seed, model, tests, runs):
    """Per test, the model's outcome in each run."""
    rng = gencommon.stream(seed, "flaky-outcome", model)
    out = []
    for name, _, kind, owner in tests:
        flaky = kind == "benchmark" or (kind == "model" and owner == model)
        if flaky:
            p = rng.uniform(0.3, 0.7)
            row = [rng.random() < p for _ in range(runs)]
            if all(row) or not any(row):
                row[rng.randrange(runs)] = not row[0]
        else:
            row = [kind != "fail"] * runs
        out.append(row)
    return out


def main():
    ap = gencommon.parser(__doc__, 10)
    ap.add_argument("--tests", type=int, default=200, help="tests (default 200)")
    a = ap.parse_args()
    if a.models < 2:
        a.models = 3
    gencommon.check_args(ap, a)
    if a.runs < 2:
        ap.error("--runs must be at least 2: one run flips nothing")
    models = gencommon.model_names(gen_gstack.MODELS, a.models, "model-")
    tests = plan(a.seed, a.tests, models)
    entries = [(name, suite, 0.5) for name, suite, _, _ in tests]
    for model in models:
        rows = outcomes(a.seed, model, tests, a.runs)
        if a.out:
            for ri in range(a.runs):
                run = f"run-{ri + 1:02d}"
                doc = gen_gstack.result(model, run, ri, a.seed, entries, [row[ri] for row in rows],
                                        gencommon.stream(a.seed, "content", model, ri))
                gencommon.write_json(os.path.join(a.out, model, f"{run}.json"), doc, 2)
    if a.expected:
        truth = {"models": models, "runs": a.runs, "benchmark_flaky": {}, "model_flaky": {}}
        for name, suite, kind, owner in tests:
            if kind == "benchmark":
                truth["benchmark_flaky"].setdefault(suite, []).append(name)
            elif kind == "model":
                truth["model_flaky"].setdefault(suite, {}).setdefault(owner, []).append(name)
        json.dump(truth, sys.stdout, indent=1, sort_keys=True)
        print()


if __name__ == "__main__":
    main()
