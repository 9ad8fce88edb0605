#!/usr/bin/env python3
"""Reference stability analysis over SF-Bench v2 reports, written the plain way a user would in
Python: every report.json below ROOT is read with json.load.

It is the baseline for speed comparisons and a second opinion on counts.

A report (schema_version "2.0") is a run, named by its run_id; the model is its model_name. An
instance passed when `resolved` is true, failed otherwise, and did not run when its status is
"skipped". A test's category is the instance id up to its first `-` (`apex-batch-003` is in
`apex`). A test is a stable pass when it passed in every run that ran it, a stable fail when it
failed in all of them, otherwise flaky. Prints one JSON object:
  {"models": {model: {category: {"runs", "total", "stable_pass", "flaky", "stable_fail", "correct": [...]}}}}

Usage: ref_sfbench.py ROOT
"""
import json
import os
import sys

import refcommon


def main():
    root = sys.argv[1]
    status = {}  # (model, category) -> {instance: [passes, runs]}
    runs_seen = {}
    correct = {}
    for dirpath, dirnames, names in os.walk(root):
        dirnames.sort()
        if "report.json" not in names:
            continue
        with open(os.path.join(dirpath, "report.json")) as f:
            report = json.load(f)
        if report.get("schema_version") != "2.0":
            continue
        run, model = report["run_id"], report["model_name"]
        passed_here = {}
        for inst in report["instances"]:
            if inst["status"] == "skipped":
                continue
            iid = inst["instance_id"]
            key = (model, iid.split("-")[0])
            s = status.setdefault(key, {}).setdefault(iid, [0, 0])
            s[1] += 1
            s[0] += bool(inst["resolved"])
            passed_here[key] = passed_here.get(key, 0) + bool(inst["resolved"])
        for key, n in passed_here.items():
            runs_seen.setdefault(key, []).append(run)
            correct.setdefault(key, []).append(n)
    refcommon.print_summary(status, runs_seen, correct)


if __name__ == "__main__":
    main()
