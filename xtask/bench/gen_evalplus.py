#!/usr/bin/env python3
"""Generate a deterministic synthetic workload of EvalPlus results: per model one results file for
HumanEval+ and one for MBPP+, each holding every sample of every task, as `evalplus.evaluate`
writes them beside the samples EvalPlus's code generation made with `--n_samples N`.

Layout: OUT_DIR/evalplus_results/humaneval/<id>_eval_results.json and
OUT_DIR/evalplus_results/mbpp/<id>_eval_results.json, <id> being code generation's samples name
`<model with / as -->_vllm_temp_0.8` (with --models 2 or more, the other models' files beside
them: the name carries the model).

Each file is what evalplus 0.3.1's `evaluate()` dumps (docs/formats/evalplus.md, shape
`per-sample`; testdata/evalplus): json.dump(results, f) on one line, {"date", "hash", "eval"},
`eval` mapping each task id to its samples in sample order, the tasks in the order they finished
(shuffled). A sample is {task_id, solution, base_status, plus_status, base_fail_tests,
plus_fail_tests}: the program that ran (10 to 30 lines, about 700 bytes), the statuses `pass`,
`fail` or `timeout`, and the failing test inputs (one, as the default fast check stops at the
first; none for a program that does not compile). By default 164 HumanEval+ and 378 MBPP+ tasks,
the sizes of the datasets (MBPP+ v0.2.0 ids have gaps: Mbpp/2 ... Mbpp/809).

A sample passes when its base and its plus tests pass (EvalPlus's rule); a failed one most often
fails both (with failing inputs), or passes the base tests and fails the plus tests, or does not
compile (both `fail`, no inputs), or runs out of time (`timeout`), or now and then fails the base
tests and passes the plus tests, which is a failure all the same. About 2% of the tasks of a file
lack their last sample (code generation stopped early), so that task did not run in the last run.

Every sample index is a run, named as evaltally names it, `<id>_eval_results#sample-<i>`: a
model has --runs runs (the samples per task), each spanning the categories `HumanEval+` and
`MBPP+`. Each (model, dataset, sample) draws its outcomes from its own stream.

See gencommon.py for the command line shared by all generators and the ground truth (--expected).

Usage:
  gen_evalplus.py --runs 25 --tasks 542 --seed 7 OUT_DIR [--expected > truth.json]
"""
import json
import os
import sys

import gencommon

DATASETS = [("humaneval", "HumanEval", 164), ("mbpp", "MBPP", 378)]
MODELS = ["meta-llama/Meta-Llama-3.1-8B-Instruct", "Qwen/Qwen2.5-Coder-7B-Instruct",
          "deepseek-ai/deepseek-coder-6.7b-instruct"]
HASHES = {"humaneval": "fe585eb4df8c88d844eeb463ea4d0302", "mbpp": "ee43ecabebf20deef4bb776a405ac5b1"}
NAMES = ("numbers values items words text string nums lst arr matrix grid pairs intervals digits"
         " prices scores tokens").split()
VERBS = ("sort count find filter merge split reverse rotate sum max min check parse encode decode"
         " flatten group remove").split()
NOUNS = ("elements vowels primes palindrome substring duplicates pairs words digits brackets"
         " intervals peaks gaps median mode").split()
# (failure mode, weight): which sides fail and how.
MODES = [("both", 45), ("plus", 25), ("compile", 20), ("timeout", 5), ("base", 5)]


def task_plan(seed, n_tasks):
    """[(dataset, category, [(task id, function name, pass probability)])]."""
    rng = gencommon.stream(seed, "plan")
    probabilities = iter(gencommon.probabilities(rng, n_tasks))
    out = []
    for (dataset, category, _), (_, count) in zip(DATASETS, gencommon.shares([(d, s) for d, _, s in DATASETS], n_tasks)):
        if dataset == "humaneval" or count > 808:
            numbers = range(count) if dataset == "humaneval" else range(2, 2 + count)
        else:
            numbers = sorted(rng.sample(range(2, 810), count))
        prefix = "HumanEval" if dataset == "humaneval" else "Mbpp"
        tasks = [(f"{prefix}/{n}", f"{rng.choice(VERBS)}_{rng.choice(NOUNS)}", next(probabilities)) for n in numbers]
        out.append((dataset, category, tasks))
    return out


def an_input(rng):
    kind = rng.randrange(4)
    if kind == 0:
        return [rng.randrange(-50, 100) for _ in range(rng.randrange(1, 12))]
    if kind == 1:
        return rng.randrange(-1000, 10**6)
    if kind == 2:
        return "".join(rng.choice("abcdefgh ()[]") for _ in range(rng.randrange(1, 30)))
    return [[rng.randrange(10) for _ in range(3)] for _ in range(rng.randrange(1, 4))]


def solution(rng, fn):
    """A program as EvalPlus runs it: imports, the function, its body."""
    arg = rng.choice(NAMES)
    lines = [f"from typing import List\n\n\ndef {fn}({arg}: List[int]) -> int:",
             f'    """Return the {fn.replace("_", " ")} of the given {arg}."""', "    result = []"]
    for _ in range(rng.randrange(6, 26)):
        var = rng.choice(NAMES)
        lines.append(rng.choice([
            f"    for i, x in enumerate({arg}):",
            f"        if x % {rng.randrange(2, 9)} == 0:",
            f"            result.append(x * {rng.randrange(1, 5)})",
            f"    {var} = sorted(set({arg}), reverse={rng.choice(['True', 'False'])})",
            f"    while len(result) > {rng.randrange(1, 20)}:",
            "        result.pop()",
            f"    total = sum(result) + len({var} if isinstance({var}, list) else [])",
        ]))
    lines.append("    return len(result)")
    return "\n".join(lines)


def sample(rng, task_id, fn, passed):
    doc = {"task_id": task_id, "solution": solution(rng, fn), "base_status": "pass", "plus_status": "pass",
           "base_fail_tests": [], "plus_fail_tests": []}
    if passed:
        return doc
    mode = rng.choices([m for m, _ in MODES], weights=[w for _, w in MODES])[0]
    if mode in ("both", "compile", "base"):
        doc["base_status"] = "fail"
        if mode != "compile":
            doc["base_fail_tests"] = [[an_input(rng)]]
    if mode in ("both", "plus", "compile"):
        doc["plus_status"] = "fail"
        if mode != "compile":
            doc["plus_fail_tests"] = [[an_input(rng)]]
    if mode == "timeout":
        doc["base_status"] = doc["plus_status"] = "timeout"
    return doc


def main():
    ap = gencommon.parser(__doc__, 25)
    ap.add_argument("--tasks", type=int, default=542,
                    help="tasks per sample, 164 HumanEval+ to 378 MBPP+ (default 542)")
    a = ap.parse_args()
    gencommon.check_args(ap, a)
    datasets = task_plan(a.seed, a.tasks)
    models = gencommon.model_names(MODELS, a.models, "acme/model-")
    truth = gencommon.Truth("evalplus", a.seed)
    for model in models:
        if a.out and a.models > 1:
            print(f"{model}:", file=sys.stderr)
        ident = model.replace("/", "--") + "_vllm_temp_0.8"
        for ri in range(a.runs):
            truth.run(model, f"{ident}_eval_results#sample-{ri}")
        for di, (dataset, category, tasks) in enumerate(datasets):
            srng = gencommon.stream(a.seed, "short", model, dataset)
            # Tasks that lack their last sample, and the order the tasks finished in.
            samples = {t: a.runs - (1 if a.runs > 1 and srng.random() < 0.02 else 0) for t, _, _ in tasks}
            outcomes = []
            for ri in range(a.runs):
                run = f"{ident}_eval_results#sample-{ri}"
                orng = gencommon.stream(a.seed, "outcome", model, dataset, ri)
                row = [orng.random() < p for _, _, p in tasks]
                outcomes.append(row)
                for (task_id, _, _), passed in zip(tasks, row):
                    if ri < samples[task_id]:
                        truth.record(model, run, f"{category}+", task_id, passed)
            if a.out:
                crng = gencommon.stream(a.seed, "content", model, dataset)
                order = list(range(len(tasks)))
                crng.shuffle(order)
                doc = {"date": f"2024-09-0{1 + di} 10:15", "hash": HASHES[dataset], "eval": {}}
                for ti in order:
                    task_id, fn, _ = tasks[ti]
                    doc["eval"][task_id] = [sample(crng, task_id, fn, outcomes[ri][ti])
                                            for ri in range(samples[task_id])]
                path = os.path.join(a.out, "evalplus_results", dataset, f"{ident}_eval_results.json")
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w") as f:
                    json.dump(doc, f)
    if a.expected:
        truth.print()


if __name__ == "__main__":
    main()
