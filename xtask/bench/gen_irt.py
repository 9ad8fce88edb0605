#!/usr/bin/env python3
"""Generate BFCL runs of many models whose outcomes follow a planted two-parameter logistic
item response model, with the planted parameters: the data `evaltally subset` fits.

Model: P(model m passes test j) = 1 / (1 + exp(-a_j (theta_m + dev_{m,c(j)} - b_j))), with
theta_m ~ N(0, 1), a category deviation dev ~ N(0, 0.5^2), difficulty b_j ~ N(0, 1) and
discrimination a_j = exp(N(0, 0.5^2)). Each (model, test) is drawn --runs times (Bernoulli).
Categories get unequal sizes (1 : 1.4 : 1.8 : 2.2 : 2.6 : 3 for six), as real benchmarks do.

Layout (BFCL v4, docs/formats/bfcl.md): OUT_DIR/run-<r>/result/<model>/BFCL_v4_<cat>_result.json
(one line per test, {"id", "result"}) and OUT_DIR/run-<r>/score/<model>/BFCL_v4_<cat>_score.json
(the summary line, then one line per failed test). Ids are `<cat>_<j>`.

--expected prints the planted parameters and each model's full score:
  {"seed", "runs", "models": [names], "categories": [names],
   "tests": [{"category", "id", "a", "b"}], "theta": {model: [per category]},
   "score": {model: {"categories": {cat: mean pass rate}, "overall": mean of categories}}}

Deterministic: random.Random(seed) draws the parameters, then the outcomes in order.

Usage:
  gen_irt.py --models 60 --tests 3000 --categories 6 --runs 3 --seed 7 OUT_DIR [--expected > truth.json]
"""
import argparse
import json
import math
import os
import random
import sys

CATEGORY_NAMES = ["simple_python", "multiple", "parallel", "parallel_multiple", "live_simple", "live_multiple",
                  "live_parallel", "java", "javascript", "irrelevance", "multi_turn_base", "rest"]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--models", type=int, default=60)
    p.add_argument("--tests", type=int, default=3000)
    p.add_argument("--categories", type=int, default=6)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--expected", action="store_true")
    p.add_argument("out_dir", nargs="?")
    args = p.parse_args()
    if not args.out_dir and not args.expected:
        p.error("give OUT_DIR, --expected, or both")
    rng = random.Random(args.seed)
    cats = CATEGORY_NAMES[: args.categories]
    shares = [1 + 0.4 * i for i in range(len(cats))]
    sizes = [int(args.tests * s / sum(shares)) for s in shares]
    sizes[-1] += args.tests - sum(sizes)
    tests = []
    for c, n in enumerate(sizes):
        for j in range(n):
            tests.append({"category": cats[c], "id": f"{cats[c]}_{j}",
                          "b": rng.gauss(0, 1), "a": math.exp(rng.gauss(0, 0.5))})
    models = [f"model-{m:03d}" for m in range(args.models)]
    theta = {}
    for m in models:
        base = rng.gauss(0, 1)
        theta[m] = [base + rng.gauss(0, 0.5) for _ in cats]
    cat_index = {c: i for i, c in enumerate(cats)}
    # outcomes[m][run] = list of passed flags per test
    passes = {m: [[False] * len(tests) for _ in range(args.runs)] for m in models}
    for m in models:
        for j, t in enumerate(tests):
            x = t["a"] * (theta[m][cat_index[t["category"]]] - t["b"])
            prob = 1 / (1 + math.exp(-x))
            for r in range(args.runs):
                passes[m][r][j] = rng.random() < prob
    if args.out_dir:
        write(args.out_dir, models, cats, tests, passes, args.runs)
    if args.expected:
        score = {}
        for m in models:
            per = {}
            for c in cats:
                js = [j for j, t in enumerate(tests) if t["category"] == c]
                per[c] = sum(sum(passes[m][r][j] for r in range(args.runs)) / args.runs for j in js) / len(js)
            score[m] = {"categories": per, "overall": sum(per.values()) / len(per)}
        json.dump({"seed": args.seed, "runs": args.runs, "models": models, "categories": cats,
                   "tests": tests, "theta": theta, "score": score}, sys.stdout)
        print()


def write(out_dir, models, cats, tests, passes, runs):
    if os.path.exists(out_dir) and os.listdir(out_dir):
        sys.exit(f"{out_dir} is not empty")
    for r in range(runs):
        for m in models:
            for c in cats:
                js = [j for j, t in enumerate(tests) if t["category"] == c]
                result_dir = os.path.join(out_dir, f"run-{r + 1}", "result", m)
                score_dir = os.path.join(out_dir, f"run-{r + 1}", "score", m)
                os.makedirs(result_dir, exist_ok=True)
                os.makedirs(score_dir, exist_ok=True)
                with open(os.path.join(result_dir, f"BFCL_v4_{c}_result.json"), "w") as f:
                    for j in js:
                        f.write(json.dumps({"id": tests[j]["id"], "result": "[f()]"}) + "\n")
                failed = [j for j in js if not passes[m][r][j]]
                with open(os.path.join(score_dir, f"BFCL_v4_{c}_score.json"), "w") as f:
                    correct = len(js) - len(failed)
                    f.write(json.dumps({"accuracy": correct / len(js), "correct_count": correct,
                                        "total_count": len(js)}) + "\n")
                    for j in failed:
                        f.write(json.dumps({"id": tests[j]["id"], "valid": False, "error": ["wrong"],
                                            "error_type": "value_error"}) + "\n")


if __name__ == "__main__":
    main()
