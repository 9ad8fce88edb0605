#!/usr/bin/env python3
"""Reference stability analysis over HELM run folders, written the plain way a user would in
Python: every per_instance_stats.json below ROOT is read with json.load, with the run_spec.json
beside it (the other files of a run folder are not opened).

It is the baseline for speed comparisons and a second opinion on counts.

The model is the run spec's adapter_spec.model; the category its name without the `model=` and
`model_deployment=` arguments; a test is an instance id (with `/<perturbation name>` for a
perturbed variant), its entries of one train trial read together. Each train trial of a run
folder is a run, named `<run folder>#trial-<n>`, or `<suite>/<run folder>#trial-<n>` when the
same run folder is in several suites. A test passes when its exact_match mean is 1 (else, without
exact_match, its quasi_exact_match mean), fails for any other mean, and is not judged without
either. A test is a stable pass when it passed in every run that judged it, a stable fail when
it failed in all of them, otherwise flaky. Prints one JSON object:
  {"models": {model: {category: {"runs", "total", "stable_pass", "flaky", "stable_fail", "correct": [...]}}}}

Usage: ref_helm.py ROOT
"""
import json
import os
import sys

import refcommon

METRICS = ("exact_match", "quasi_exact_match")


def category_of(name):
    scenario, _, args = name.partition(":")
    kept = [a for a in args.split(",") if a and not a.startswith(("model=", "model_deployment="))]
    return f"{scenario}:{','.join(kept)}" if kept else scenario


def main():
    root = sys.argv[1]
    folders = []
    for dirpath, dirnames, names in os.walk(root):
        dirnames.sort()
        if "per_instance_stats.json" in names:
            folders.append(dirpath)
    in_suites = {}
    for folder in folders:
        name = os.path.basename(folder)
        in_suites[name] = in_suites.get(name, 0) + 1
    status = {}  # (model, category) -> {test: [passes, runs]}
    runs_seen = {}
    correct = {}
    for folder in folders:
        with open(os.path.join(folder, "run_spec.json")) as f:
            spec = json.load(f)
        with open(os.path.join(folder, "per_instance_stats.json")) as f:
            entries = json.load(f)
        key = (spec["adapter_spec"]["model"], category_of(spec["name"]))
        name = os.path.basename(folder)
        if in_suites[name] > 1:
            name = f"{os.path.basename(os.path.dirname(folder))}/{name}"
        means = {}  # (trial, test) -> {metric: first mean}
        for e in entries:
            test = e["instance_id"] if not e.get("perturbation") else f"{e['instance_id']}/{e['perturbation']['name']}"
            got = means.setdefault((e.get("train_trial_index", 0), test), {})
            for s in e["stats"]:
                metric = s["name"]["name"]
                if metric in METRICS and "mean" in s:
                    got.setdefault(metric, s["mean"])
        passes = {}  # trial -> passes
        for (trial, test), got in means.items():
            mean = next((got[m] for m in METRICS if m in got), None)
            if mean is None:
                continue
            ok = abs(mean - 1) <= 1e-9
            s = status.setdefault(key, {}).setdefault(test, [0, 0])
            s[1] += 1
            s[0] += ok
            passes[trial] = passes.get(trial, 0) + ok
        for trial in sorted(passes):
            runs_seen.setdefault(key, []).append(f"{name}#trial-{trial}")
            correct.setdefault(key, []).append(passes[trial])
    refcommon.print_summary(status, runs_seen, correct)


if __name__ == "__main__":
    main()
