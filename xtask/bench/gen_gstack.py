#!/usr/bin/env python3
"""Generate a deterministic synthetic workload of gstack standard eval results: one JSON file per
run, every run holding the same tests.

Layout: OUT_DIR/run-0001.json ... (with --models 2 or more: OUT_DIR/<model>/run-0001.json).

Each file is a StandardEvalResult as gstack's docs and lib/eval-format.ts describe it
(../shared/seeds/002_*, ../shared/notes/gstack-format.md): the twelve fields gstack's validator
requires (schema_version, version, git_branch, git_sha, timestamp, tier, total, passed, failed,
total_cost_usd, duration_seconds, all_results) plus hostname, label, prompt_sha, by_category
({suite: {passed, failed}}) and costs[] (the model), written as JSON.stringify(result, null, 2)
would. Every all_results entry has name, suite, tier, passed, duration_ms and cost_usd, and some
of turns_used, exit_reason, error, output, judge_scores / judge_reasoning, detection_rate /
detected_bugs / missed_bugs. A test's category is its suite; the run's name is its label.

See gencommon.py for the command line shared by all generators and the ground truth (--expected).

Usage:
  gen_gstack.py --runs 2000 --tests 100 --seed 7 OUT_DIR [--expected > truth.json]
"""
import datetime
import os

import gencommon

SUITES = [("browse", 0.25), ("qa", 0.25), ("review", 0.2), ("ship", 0.15), ("design", 0.15)]
MODELS = ["claude-sonnet-4-6", "claude-opus-4-6", "claude-haiku-4-5"]
WORDS = ("snapshot flags login checkout search upload cookie redirect form table modal tab history "
         "planted bugs retro changelog version bump deploy canary rollback diff lint security "
         "layout contrast spacing typography palette mobile dark mode").split()
ERRORS = [("timeout", "Timed out after {n} turns waiting for the page to settle"),
          ("error_max_turns", "Reached the turn limit ({n}) before finishing"),
          ("exit_code_1", "claude -p exited with status 1: {w} failed"),
          ("success", "Assertion failed: expected {w} in the final answer")]
TOOLS = ["Bash", "Read", "Edit", "browse", "Grep"]


def plan(seed, n_tests):
    rng = gencommon.stream(seed, "plan")
    probabilities = gencommon.probabilities(rng, n_tests)
    tests = []
    seen = set()
    for suite, count in gencommon.shares(SUITES, n_tests):
        for _ in range(count):
            name = f"{suite}-{rng.choice(WORDS)}-{rng.choice(WORDS)}"
            base, k = name, 2
            while name in seen:
                name, k = f"{base}-{k}", k + 1
            seen.add(name)
            tests.append((name, suite, probabilities[len(tests)]))
    return tests


def sentence(rng, k):
    return " ".join(rng.choice(WORDS) for _ in range(k))


def entry(name, suite, passed, rng):
    e = {"name": name, "suite": suite, "tier": "e2e", "passed": passed,
         "duration_ms": rng.randrange(4_000, 180_000), "cost_usd": round(rng.uniform(0.02, 0.9), 4)}
    if suite != "review":
        e["turns_used"] = rng.randrange(2, 30)
    if passed:
        e["exit_reason"] = "success"
    else:
        reason, message = rng.choice(ERRORS)
        e["exit_reason"] = reason
        e["error"] = message.format(n=rng.randrange(10, 40), w=rng.choice(WORDS))
    if suite in ("browse", "ship") and rng.random() < 0.5:
        e["output"] = {"response": sentence(rng, 14),
                       "tool_calls": [{"name": rng.choice(TOOLS), "input": {"command": sentence(rng, 4)}}
                                      for _ in range(rng.randrange(1, 4))]}
    if suite in ("review", "design"):
        e["judge_scores"] = {k: rng.randrange(1, 6) for k in ("clarity", "completeness", "actionability")}
        e["judge_reasoning"] = sentence(rng, 24)
    if suite == "qa":
        bugs = [f"bug-{rng.randrange(100)}" for _ in range(rng.randrange(2, 6))]
        found = bugs[: len(bugs) if passed else rng.randrange(len(bugs))]
        e["detection_rate"] = len(found)
        e["detected_bugs"] = found
        e["missed_bugs"] = bugs[len(found):]
    return e


def result(model, run, ri, seed, tests, outcomes, rng):
    results = [entry(name, suite, passed, rng) for (name, suite, _), passed in zip(tests, outcomes)]
    by_category = {}
    for e in results:
        counts = by_category.setdefault(e["suite"], {"passed": 0, "failed": 0})
        counts["passed" if e["passed"] else "failed"] += 1
    passed = sum(outcomes)
    started = datetime.datetime(2026, 1, 1, 2) + datetime.timedelta(hours=6 * ri)
    return {
        "schema_version": 1,
        "version": "0.9.2",
        "label": run,
        "git_branch": "main",
        "git_sha": f"{gencommon.stream(seed, 'sha', ri).getrandbits(28):07x}",
        "timestamp": started.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "hostname": f"ci-runner-{ri % 4 + 1:02d}",
        "tier": "e2e",
        "total": len(results),
        "passed": passed,
        "failed": len(results) - passed,
        "total_cost_usd": round(sum(e["cost_usd"] for e in results), 2),
        "duration_seconds": round(sum(e["duration_ms"] for e in results) / 1000 / 4, 1),
        "prompt_sha": f"{gencommon.stream(seed, 'prompt').getrandbits(28):07x}",
        "all_results": results,
        "by_category": by_category,
        "costs": [{"model": model, "calls": len(results) * 3, "input_tokens": rng.randrange(10**6, 5 * 10**6),
                   "output_tokens": rng.randrange(10**5, 10**6)}],
    }


def main():
    ap = gencommon.parser(__doc__, 2000)
    ap.add_argument("--tests", type=int, default=100, help="tests per run (default 100)")
    a = ap.parse_args()
    gencommon.check_args(ap, a)
    tests = plan(a.seed, a.tests)
    models = gencommon.model_names(MODELS, a.models, "model-")
    truth = gencommon.Truth("gstack", a.seed)
    for model, ri, run, orng in gencommon.each_run(a, models, truth):
        outcomes = [orng.random() < p for _, _, p in tests]
        for (name, suite, _), passed in zip(tests, outcomes):
            truth.record(model, run, suite, name, passed)
        if a.out:
            folder = os.path.join(a.out, model) if a.models > 1 else a.out
            doc = result(model, run, ri, a.seed, tests, outcomes, gencommon.stream(a.seed, "content", model, ri))
            gencommon.write_json(os.path.join(folder, f"{run}.json"), doc, 2)
            gencommon.progress(ri + 1, a.runs, 500)
    if a.expected:
        truth.print()


if __name__ == "__main__":
    main()
