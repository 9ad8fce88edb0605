#!/usr/bin/env python3
"""Reference stability analysis over SWE-bench per-instance reports, written the plain way a user
would in Python: every logs/run_evaluation/<run_id>/<model>/<instance_id>/report.json below ROOT
is read with json.load.

It is the baseline for speed comparisons and a second opinion on counts.

An instance is resolved in a run when its report says `resolved: true` (reports come wrapped in
{instance_id: {...}} or bare); an instance without a report in a run did not run there. A test's
category is its repository: the instance id without its trailing issue number, `__` read as `/`
(`astropy__astropy-12907` is in `astropy/astropy`). A test is a stable pass when it resolved in
every run that has its report, a stable fail when it resolved in none, otherwise flaky. Prints
one JSON object:
  {"models": {model: {category: {"runs", "total", "stable_pass", "flaky", "stable_fail", "correct": [...]}}}}

Usage: ref_swebench.py ROOT
"""
import json
import os
import re
import sys

import refcommon

NUMBER = re.compile(r"-\d+$")


def main():
    root = sys.argv[1]
    status = {}  # (model, category) -> {instance: [passes, runs]}
    runs_seen = {}
    correct = {}
    for dirpath, dirnames, names in os.walk(root):
        dirnames.sort()
        if "report.json" not in names:
            continue
        parts = os.path.normpath(dirpath).split(os.sep)
        if len(parts) < 5 or parts[-5:-3] != ["logs", "run_evaluation"]:
            continue
        run, model, iid = parts[-3:]
        with open(os.path.join(dirpath, "report.json")) as f:
            report = json.load(f)
        if iid in report:
            report = report[iid]
        key = (model, NUMBER.sub("", iid).replace("__", "/", 1))
        s = status.setdefault(key, {}).setdefault(iid, [0, 0])
        s[1] += 1
        s[0] += bool(report.get("resolved"))
        seen = runs_seen.setdefault(key, [])
        if not seen or seen[-1] != run:
            seen.append(run)
            correct.setdefault(key, []).append(0)
        correct[key][-1] += bool(report.get("resolved"))
    refcommon.print_summary(status, runs_seen, correct)


if __name__ == "__main__":
    main()
