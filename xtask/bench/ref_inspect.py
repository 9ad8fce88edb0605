#!/usr/bin/env python3
"""Reference stability analysis over inspect_ai `.eval` logs, written the plain way a user would
in Python: every *.eval file below ROOT is opened with zipfile, and its header.json and every
samples/<id>_epoch_<n>.json member read with json.load (what inspect_ai's read_eval_log does);
with --summaries, summaries.json instead of the samples (what its
read_eval_log_sample_summaries does, and what evaltally reads).

It is the baseline for speed comparisons and a second opinion on counts.

Each epoch of a log is a run named `<file stem>#epoch-<n>`; the model is the header's
`eval.model`, a sample's category its task (`eval.task`), its test its `id`. The scorer read is
the first the header's `results.scores` names; a sample passes when that score's value is "C"
(or a number, boolean or numeric string at 1 or more), fails otherwise, and does not count when
it has an `error` or no such score. A test is a stable pass when it passed in every run that
judged it, a stable fail when it failed in all of them, otherwise flaky. Prints one JSON object:
  {"models": {model: {category: {"runs", "total", "stable_pass", "flaky", "stable_fail", "correct": [...]}}}}

Usage: ref_inspect.py [--summaries] ROOT
"""
import json
import os
import sys
import zipfile

import refcommon

VALUES = {"C": 1.0, "P": 0.5, "I": 0.0, "N": 0.0, "yes": 1.0, "true": 1.0, "no": 0.0, "false": 0.0}


def as_float(value):
    """inspect_ai's value_to_float, for scalars; None for anything else."""
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        v = value.strip()
        if v in VALUES or v.lower() in VALUES:
            return VALUES.get(v, VALUES.get(v.lower()))
        try:
            return float(v)
        except ValueError:
            return None
    return None


def main():
    args = sys.argv[1:]
    summaries = "--summaries" in args
    root = [a for a in args if a != "--summaries"][0]
    status = {}  # (model, category) -> {test: [passes, runs]}
    runs_seen = {}
    correct = {}
    for dirpath, name in refcommon.walk(root):
        if not name.endswith(".eval"):
            continue
        with zipfile.ZipFile(os.path.join(dirpath, name)) as z:
            with z.open("header.json") as f:
                header = json.load(f)
            if summaries:
                with z.open("summaries.json") as f:
                    samples = json.load(f)
            else:
                samples = []
                for member in z.namelist():
                    if member.startswith("samples/") and member.endswith(".json"):
                        with z.open(member) as f:
                            samples.append(json.load(f))
        model = header["eval"]["model"]
        key = (model, header["eval"]["task"])
        scores = (header.get("results") or {}).get("scores") or []
        scorer = scores[0]["scorer"] if scores else None
        passed_here = {}  # epoch -> passes
        for s in samples:
            score = (s.get("scores") or {}).get(scorer)
            value = as_float(score.get("value")) if score else None
            if s.get("error") or value is None:
                continue
            ok = value >= 1.0
            t = status.setdefault(key, {}).setdefault(str(s["id"]), [0, 0])
            t[1] += 1
            t[0] += ok
            passed_here[s["epoch"]] = passed_here.get(s["epoch"], 0) + ok
        stem = name[: -len(".eval")]
        for epoch in sorted(passed_here):
            runs_seen.setdefault(key, []).append(f"{stem}#epoch-{epoch}")
            correct.setdefault(key, []).append(passed_here[epoch])
    refcommon.print_summary(status, runs_seen, correct)


if __name__ == "__main__":
    main()
