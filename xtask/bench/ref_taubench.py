#!/usr/bin/env python3
"""Reference stability analysis over τ-bench results, written the plain way a user would in
Python: every *.json file below ROOT is read with json.load.

It is the baseline for speed comparisons and a second opinion on counts.

A file is a results file when it is a list of entries with `task_id` and `reward`. Each trial in
it is a run, named `<file stem>#trial-<n>`; a test is a task (`task_id`). The model and category
come from a file name `<model>-<env>.json` ending in `airline` or `retail` (else `unknown` and
`tau-bench`). A trial passes when its reward is within 1e-6 of 1 (τ-bench's `is_successful`),
otherwise it fails. A test is a stable pass when it passed in every trial, a stable fail when it
failed in all of them, otherwise flaky. Prints one JSON object:
  {"models": {model: {category: {"runs", "total", "stable_pass", "flaky", "stable_fail", "correct": [...]}}}}

Usage: ref_taubench.py ROOT
"""
import json
import os
import sys

import refcommon

ENVS = ("airline", "retail")


def main():
    root = sys.argv[1]
    status = {}  # (model, category) -> {task: [passes, runs]}
    runs_seen = {}
    correct = {}
    for dirpath, name in refcommon.walk(root):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(dirpath, name)) as f:
            doc = json.load(f)
        if not isinstance(doc, list) or not doc or not isinstance(doc[0], dict) or "reward" not in doc[0]:
            continue
        stem = name[: -len(".json")]
        model, _, env = stem.rpartition("-")
        key = (model, env) if model and env in ENVS else ("unknown", "tau-bench")
        passed_in = {}  # trial -> passes
        for e in doc:
            ok = abs(e["reward"] - 1) <= 1e-6
            s = status.setdefault(key, {}).setdefault(str(e["task_id"]), [0, 0])
            s[1] += 1
            s[0] += ok
            passed_in[e["trial"]] = passed_in.get(e["trial"], 0) + ok
        for trial in sorted(passed_in):
            runs_seen.setdefault(key, []).append(f"{stem}#trial-{trial}")
            correct.setdefault(key, []).append(passed_in[trial])
    refcommon.print_summary(status, runs_seen, correct)


if __name__ == "__main__":
    main()
