#!/usr/bin/env python3
"""Compare a subset fitted by `evaltally subset` with the parameters gen_irt.py planted: the
correlation of the fitted difficulties and discriminations with the planted ones, and, given
the JSON of `evaltally subset --check`, its leave-one-model-out figures.

Exits 1 when a correlation is below --min-correlation or the check's median error is above
--max-median-error (in points).

Usage:
  check_irt.py TRUTH.json SUBSET.json [CHECK.json] [--min-correlation 0.9] [--max-median-error 2]
"""
import argparse
import json
import math
import sys


def pearson(x, y):
    n = len(x)
    mx, my = sum(x) / n, sum(y) / n
    cov = sum((a - mx) * (b - my) for a, b in zip(x, y))
    vx = sum((a - mx) ** 2 for a in x)
    vy = sum((b - my) ** 2 for b in y)
    return cov / math.sqrt(vx * vy)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("truth")
    p.add_argument("subset")
    p.add_argument("check", nargs="?")
    p.add_argument("--min-correlation", type=float, default=0.9)
    p.add_argument("--max-median-error", type=float, default=2.0)
    args = p.parse_args()
    truth = json.load(open(args.truth))
    subset = json.load(open(args.subset))
    planted = {(t["category"], t["id"]): t for t in truth["tests"]}
    fitted = {(t["category"], t["id"]): t for t in subset["tests"]}
    keys = sorted(planted)
    missing = [k for k in keys if k not in fitted]
    if missing:
        sys.exit(f"{len(missing)} planted tests are not in the subset file, e.g. {missing[0]}")
    rb = pearson([planted[k]["b"] for k in keys], [fitted[k]["b"] for k in keys])
    ra = pearson([planted[k]["a"] for k in keys], [fitted[k]["a"] for k in keys])
    print(f"difficulty correlation {rb:.3f}, discrimination correlation {ra:.3f} "
          f"({len(keys)} tests, {len(truth['models'])} models x {truth['runs']} runs)")
    ok = rb >= args.min_correlation and ra >= args.min_correlation
    if args.check:
        check = json.load(open(args.check))
        median = 100 * check["median_error"]
        print(f"leave-one-model-out, {check['size']} anchors: median error {median:.2f} points, "
              f"worst {100 * check['worst_error']:.2f}, Spearman {check['spearman']:.3f}, "
              f"coverage {check['coverage_categories']:.2f}; random: median {100 * check['baseline']['median_error']:.2f}")
        ok = ok and median <= args.max_median_error
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
