#!/usr/bin/env python3
"""Reference stability analysis over gstack standard eval results, written the plain way a user
would in Python: every *.json file below ROOT is read with json.load.

It is the baseline for speed comparisons and a second opinion on counts.

A file is a run when it has `all_results` (files whose name starts with `_`, gstack's partial
saves, are left out). The run is named by its `label`, else the file name; the model is the one
in `costs`; a test's category is its `suite`. A test is a stable pass when it passed in every run
that lists it, a stable fail when it failed in all of them, otherwise flaky. Prints one JSON
object:
  {"models": {model: {category: {"runs", "total", "stable_pass", "flaky", "stable_fail", "correct": [...]}}}}

Usage: ref_gstack.py ROOT
"""
import json
import os
import sys

import refcommon


def main():
    root = sys.argv[1]
    status = {}  # (model, category) -> {name: [passes, runs]}
    runs_seen = {}
    correct = {}
    for dirpath, name in refcommon.walk(root):
        if not name.endswith(".json") or name.startswith("_"):
            continue
        with open(os.path.join(dirpath, name)) as f:
            doc = json.load(f)
        if not isinstance(doc, dict) or "all_results" not in doc:
            continue
        run = doc.get("label") or name[: -len(".json")]
        costs = doc.get("costs") or [{}]
        model = costs[0].get("model", "unknown")
        passed_here = {}
        for test in doc["all_results"]:
            key = (model, test.get("suite") or doc.get("tier") or "unknown")
            s = status.setdefault(key, {}).setdefault(test["name"], [0, 0])
            s[1] += 1
            if test["passed"]:
                s[0] += 1
            passed_here[key] = passed_here.get(key, 0) + (1 if test["passed"] else 0)
        for key, n in passed_here.items():
            runs_seen.setdefault(key, []).append(run)
            correct.setdefault(key, []).append(n)
    refcommon.print_summary(status, runs_seen, correct)


if __name__ == "__main__":
    main()
