#!/usr/bin/env python3
"""Reference stability analysis over lm-evaluation-harness sample logs, written the plain way a
user would in Python: every samples_<task>_<date>.jsonl below ROOT is read line by line with
json.loads, and the results_<date>.json beside it with json.load.

It is the baseline for speed comparisons and a second opinion on counts.

A samples file is one run of one task: the run is named by the date in the file name (what
follows the last `_`), the category is the task, the model is `model_name` of the
results_<date>.json beside it. A line is a document: its test is `doc_id`, with `/<filter>`
appended when its `filter` is not `none` (gsm8k's `strict-match` and `flexible-extract`). The
metric judged is the first the lines' `metrics` name whose every value in the file is 0 or 1
(`exact_match`, `acc`); a document passes when it is 1. A test is a stable pass when it passed in
every run that lists it, a stable fail when it failed in all of them, otherwise flaky. Prints one
JSON object:
  {"models": {model: {category: {"runs", "total", "stable_pass", "flaky", "stable_fail", "correct": [...]}}}}

Usage: ref_lmeval.py ROOT
"""
import json
import os
import sys

import refcommon


def main():
    root = sys.argv[1]
    status = {}  # (model, category) -> {test: [passes, runs]}
    runs_seen = {}
    correct = {}
    models = {}  # results file -> model
    for dirpath, name in refcommon.walk(root):
        if not (name.startswith("samples_") and name.endswith(".jsonl")):
            continue
        task, date = name[len("samples_"): -len(".jsonl")].rsplit("_", 1)
        results = os.path.join(dirpath, f"results_{date}.json")
        if results not in models:
            try:
                with open(results, encoding="utf-8") as f:
                    models[results] = json.load(f).get("model_name", "unknown")
            except FileNotFoundError:
                models[results] = "unknown"
        model = models[results]
        with open(os.path.join(dirpath, name), encoding="utf-8") as f:
            docs = [json.loads(line) for line in f if line.strip()]
        order = []
        for d in docs:
            for m in d.get("metrics", []):
                if m not in order:
                    order.append(m)
        metric = next((m for m in order if all(d.get(m, 0) in (0, 1) for d in docs)), order[0] if order else None)
        if metric is None:
            continue
        key = (model, task)
        passed_here = 0
        for d in docs:
            test = str(d["doc_id"]) if d.get("filter", "none") == "none" else f"{d['doc_id']}/{d['filter']}"
            ok = d[metric] == 1
            s = status.setdefault(key, {}).setdefault(test, [0, 0])
            s[1] += 1
            s[0] += ok
            passed_here += ok
        runs_seen.setdefault(key, []).append(date)
        correct.setdefault(key, []).append(passed_here)
    refcommon.print_summary(status, runs_seen, correct)


if __name__ == "__main__":
    main()
