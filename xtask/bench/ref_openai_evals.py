#!/usr/bin/env python3
"""Reference stability analysis over openai/evals `oaieval` record logs, written the plain way a
user would in Python: every *.jsonl file below ROOT is read line by line with json.loads.

It is the baseline for speed comparisons and a second opinion on counts.

A file is a record log when its first line is `{"spec": ...}`. The run is the spec's `run_id`,
the model its `completion_fns` joined with `+`, a test's category its `base_eval` (else
`eval_name`); `final_report` lines are skipped. A test is a `sample_id`, judged by its first
`match` event (`data.correct`); a sample without one is not counted in that run. A test is a
stable pass when it passed in every run that judged it, a stable fail when it failed in all of
them, otherwise flaky. Prints one JSON object:
  {"models": {model: {category: {"runs", "total", "stable_pass", "flaky", "stable_fail", "correct": [...]}}}}

Usage: ref_openai_evals.py ROOT
"""
import json
import os
import sys

import refcommon


def main():
    root = sys.argv[1]
    status = {}  # (model, category) -> {sample_id: [passes, runs]}
    runs_seen = {}
    correct = {}
    for dirpath, name in refcommon.walk(root):
        if not name.endswith(".jsonl"):
            continue
        with open(os.path.join(dirpath, name), encoding="utf-8") as f:
            lines = [json.loads(line) for line in f if line.strip()]
        if not lines or "spec" not in lines[0]:
            continue
        spec = lines[0]["spec"]
        run = spec["run_id"]
        key = ("+".join(spec.get("completion_fns") or ["unknown"]), spec.get("base_eval") or spec["eval_name"])
        judged = {}  # sample_id -> correct, from its first match event
        for event in lines[1:]:
            if event.get("type") == "match" and event["sample_id"] not in judged:
                judged[event["sample_id"]] = bool(event["data"]["correct"])
        if not judged:
            continue
        for sample_id, ok in judged.items():
            s = status.setdefault(key, {}).setdefault(sample_id, [0, 0])
            s[1] += 1
            s[0] += ok
        runs_seen.setdefault(key, []).append(run)
        correct.setdefault(key, []).append(sum(judged.values()))
    refcommon.print_summary(status, runs_seen, correct)


if __name__ == "__main__":
    main()
