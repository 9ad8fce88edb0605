"""What the workload generators in this folder share: the command line, the hidden per-test
pass probabilities, the random streams and the ground truth.

Every generator takes

  gen_<format>.py [--runs N] [--seed S] [--models M] [--expected] [format options] [OUT_DIR]

writes its runs below OUT_DIR (which must not exist yet or be empty) and, with --expected,
prints the ground truth as one JSON document on stdout (progress goes to stderr). OUT_DIR may be
left out with --expected: the outcomes do not depend on the files, so the ground truth alone
is cheap.

Determinism: the test plan (ids, categories, hidden pass probabilities) comes from
random.Random(seed); each (model, run) draws its outcomes from its own stream and the file
contents (durations, messages, ...) from another, so the same seed gives byte-identical files
and the same ground truth, whatever the size of the content.

The ground truth (same spirit as ../shared/bench/gen_bfcl_runs.py --expected):
  {"format": NAME, "seed": S,
   "runs": {model: [run names, in natural order]},
   "models": {model: {category: {"runs": [runs that judged at least one of its tests],
                                 "total", "stable_pass", "flaky", "stable_fail",
                                 "correct": [passes per run of "runs"],
                                 "listed": [tests listed per run of "runs": judged, or (SF-Bench's skipped) listed unjudged],
                                 "ids": {"stable_pass": [...], "flaky": [...], "stable_fail": [...]}}}}}
A test is judged by a run when it passed or failed there (a skipped test, or one the run does
not list, is not). It counts among "total" when at least one run judged it, and is a stable
pass when it passed in every run that judged it, a stable fail when it failed in every one,
otherwise flaky.
"""
import argparse
import json
import os
import random
import sys
import zlib


def parser(description, default_runs):
    """The shared command line; generators add their own options."""
    ap = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", nargs="?", metavar="OUT_DIR", help="where to write the runs (may be omitted with --expected)")
    ap.add_argument("--runs", type=int, default=default_runs, help=f"runs per model (default {default_runs})")
    ap.add_argument("--seed", type=int, default=7, help="random seed (default 7)")
    ap.add_argument("--models", type=int, default=1, help="models, each with its own runs of the same tests (default 1)")
    ap.add_argument("--expected", action="store_true", help="print the ground truth JSON on stdout")
    return ap


def check_args(ap, args):
    if args.out is None and not args.expected:
        ap.error("OUT_DIR is required unless --expected is given")
    if args.runs < 1 or args.models < 1:
        ap.error("--runs and --models must be at least 1")
    if args.out is not None and os.path.isdir(args.out) and os.listdir(args.out):
        ap.error(f"{args.out} is not empty")


def probabilities(rng, n):
    """Hidden pass probabilities of n tests, in random order: 55% always pass, 25% flaky (10%
    near-stable at 0.95, 15% anywhere in 0.2-0.8) and 20% always fail, to the nearest test.
    (A flaky test can still pass or fail in every run of a short workload: the ground truth
    counts what the runs did.)"""
    out = []
    for kind, count in shares([(1.0, 55), (0.95, 10), (None, 15), (0.0, 20)], n):
        out.extend(rng.uniform(0.2, 0.8) if kind is None else kind for _ in range(count))
    rng.shuffle(out)
    return out


def stream(seed, *parts):
    """An independent random stream for (seed, parts...)."""
    return random.Random(zlib.crc32("/".join(str(p) for p in (seed, *parts)).encode()))


def write_json(path, doc, indent):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(doc, f, indent=indent)
        f.write("\n")


def progress(done, total, every):
    if done % every == 0 or done == total:
        print(f"  {done}/{total} runs", file=sys.stderr, flush=True)


class Truth:
    """Outcomes per (model, category, test) and run: True (passed), False (failed) or absent
    (skipped or not listed)."""

    def __init__(self, fmt, seed):
        self.fmt = fmt
        self.seed = seed
        self.runs = {}  # model -> [run]
        self.outcomes = {}  # (model, category) -> {test: {run: bool}}
        self.unjudged = {}  # (model, category) -> {test: {run}}: listed, not judged

    def run(self, model, run):
        self.runs.setdefault(model, []).append(run)

    def record(self, model, run, category, test, passed, listed=False):
        """`passed` is True, False, or None for a test the run skipped; `listed`: a skipped
        test the run's file lists all the same (SF-Bench's `skipped` instances), which
        evaltally counts among the run's listed tests, judged in none."""
        if passed is not None:
            self.outcomes.setdefault((model, category), {}).setdefault(test, {})[run] = passed
        elif listed:
            self.unjudged.setdefault((model, category), {}).setdefault(test, set()).add(run)

    def document(self):
        models = {}
        for (model, category), tests in sorted(self.outcomes.items()):
            runs = [r for r in self.runs[model] if any(r in by_run for by_run in tests.values())]
            ids = {"stable_pass": [], "flaky": [], "stable_fail": []}
            for test, by_run in tests.items():
                res = list(by_run.values())
                key = "stable_pass" if all(res) else "stable_fail" if not any(res) else "flaky"
                ids[key].append(test)
            models.setdefault(model, {})[category] = {
                "runs": runs,
                "total": len(tests),
                **{k: len(v) for k, v in ids.items()},
                "correct": [sum(1 for by_run in tests.values() if by_run.get(r) is True) for r in runs],
                "listed": [sum(1 for by_run in tests.values() if r in by_run)
                           + sum(1 for t, by in self.unjudged.get((model, category), {}).items()
                                 if r in by and r not in tests.get(t, {}))
                           for r in runs],
                "ids": {k: sorted(v) for k, v in ids.items()},
            }
        return {"format": self.fmt, "seed": self.seed, "runs": self.runs, "models": models}

    def print(self):
        json.dump(self.document(), sys.stdout, indent=1, sort_keys=True)
        print()


def model_names(known, n, prefix):
    """The first `n` of `known`, then `<prefix><i>` for as many more as asked."""
    return known[:n] + [f"{prefix}{m}" for m in range(len(known), n)]


def run_label(args, ri, min_width=4):
    """`run-0001`: the run's number, zero-padded to the width of the largest."""
    return f"run-{ri + 1:0{max(min_width, len(str(args.runs)))}d}"


def each_run(args, models, truth, name=None, min_width=4):
    """Every run of every model in order, registered with `truth`: yields (model, index, run
    name, the run's outcome stream). `name(model, index)` names a run (default `run-0001`).
    When files of several models are written, each model's name goes to stderr first."""
    for model in models:
        if args.out and args.models > 1:
            print(f"{model}:", file=sys.stderr)
        for ri in range(args.runs):
            run = name(model, ri) if name else run_label(args, ri, min_width)
            truth.run(model, run)
            yield model, ri, run, stream(args.seed, "outcome", model, ri)


def shares(weighted, n):
    """[(name, count)] splitting n by the weights of [(name, weight)] (largest remainder), every
    name at least 1 when n allows."""
    total = sum(w for _, w in weighted)
    exact = [(name, n * w / total) for name, w in weighted]
    counts = {name: int(x) for name, x in exact}
    by_remainder = sorted(exact, key=lambda nx: nx[1] - int(nx[1]), reverse=True)
    for name, _ in by_remainder[: n - sum(counts.values())]:
        counts[name] += 1
    for name, _ in weighted:
        if counts[name] == 0 and n >= len(weighted):
            donor = max(counts, key=counts.get)
            counts[donor] -= 1
            counts[name] += 1
    return [(name, counts[name]) for name, _ in weighted if counts[name] > 0]
