#!/usr/bin/env python3
"""Reference stability analysis over promptfoo eval outputs (`promptfoo eval -o out.json`),
written the plain way a user would in Python: every *.json file below ROOT is read with
json.load.

It is the baseline for speed comparisons and a second opinion on counts.

A file is an eval when its `results` is an object holding `version` and a `results` list. The
model is a result's provider label, else its id; the category is the config's description
(else `promptfoo`); a test is the test case's description (else its variables) with the
prompt's label (else its id). The k-th result of a (test, model) in testIdx order is repeat k,
the run `<file stem>#repeat-<k>`. A result with `success` true passed; one with failureReason 2
errored and judges nothing; any other failed. A test is a stable pass when it passed in every
run that judged it, a stable fail when it failed in all of them, otherwise flaky. Prints one
JSON object:
  {"models": {model: {category: {"runs", "total", "stable_pass", "flaky", "stable_fail", "correct": [...]}}}}

Usage: ref_promptfoo.py ROOT
"""
import json
import os
import sys

import refcommon


def model_of(provider):
    if isinstance(provider, str):
        return provider
    return (provider or {}).get("label") or (provider or {}).get("id") or "unknown"


def main():
    root = sys.argv[1]
    status = {}  # (model, category) -> {test: [passes, runs]}
    runs_seen = {}
    correct = {}
    for dirpath, name in refcommon.walk(root):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(dirpath, name), encoding="utf-8") as f:
            doc = json.load(f)
        results = doc.get("results") if isinstance(doc, dict) else None
        if not isinstance(results, dict) or "version" not in results:
            continue
        if not isinstance(results.get("results"), list):
            continue
        category = (doc.get("config") or {}).get("description") or "promptfoo"
        stem = name[: -len(".json")]
        entries = sorted(results["results"], key=lambda r: r.get("testIdx", 0))
        seen = {}  # (test, model) -> occurrences so far
        per_run = {}  # (model, repeat) -> passes
        for r in entries:
            case = r.get("testCase") or {}
            prompt = (r.get("prompt") or {}).get("label") or r.get("promptId")
            test = (case.get("description") or json.dumps(case.get("vars", r.get("vars")), sort_keys=True), prompt)
            model = model_of(r.get("provider"))
            repeat = seen[(test, model)] = seen.get((test, model), 0) + 1
            if not r["success"] and r.get("failureReason") == 2:
                continue
            s = status.setdefault((model, category), {}).setdefault(test, [0, 0])
            s[1] += 1
            s[0] += bool(r["success"])
            per_run[(model, repeat)] = per_run.get((model, repeat), 0) + bool(r["success"])
        for (model, repeat), n in sorted(per_run.items()):
            runs_seen.setdefault((model, category), []).append(f"{stem}#repeat-{repeat}")
            correct.setdefault((model, category), []).append(n)
    refcommon.print_summary(status, runs_seen, correct)


if __name__ == "__main__":
    main()
