#!/usr/bin/env python3
"""Reference stability analysis over EvalPlus (HumanEval+ / MBPP+) results, written the plain way a
user would in Python: every results file below ROOT is read with json.load.

It is the baseline for speed comparisons and a second opinion on counts.

A results file is named as EvalPlus names them, `eval_results.json`, `<samples>_eval_results.json`
or `<samples>.eval_results.json` (with --any-name, every `*.json`: copies renamed by hand, which
evaltally reads with `--as evalplus`), and is a JSON object whose "eval" maps task ids to either
  * a list of per-sample records with "base_status" (evalplus >= 0.2.1; statuses "pass" / "fail" /
    "timeout", plus_status null when the run was --base-only), or
  * an object with a "base" list of [status, details] pairs (evalplus 0.1.0 .. 0.2.0; statuses
    "success" / "failed" / "timed out"; "plus" is a parallel list, [] or null for --base-only).
A `*.json.bak` backup is not a results file.

Model: the samples name in the file name, `<samples>_eval_results.json` or
`<samples>.eval_results.json`, without a trailing "-sanitized"; code generation's
`<model with / as -->_<backend>_temp_<t>` gives the model with its slashes, the older
`<model>_temp_<t>` gives <model>. The folder's name, read the same way, when the file is
`eval_results.json`, has another name, or its samples name is "samples", "sample" or a word that
names a kind of file (evaltally's list, crates/evaltally-format/src/naming.rs).
Category: "HumanEval" for task ids starting "HumanEval/", "MBPP" for "Mbpp/", else the prefix
before "/" (or "EvalPlus"), with "+" appended when the file carries plus results.
Test: the task id ("HumanEval_12" of evalplus 0.1.0 is "HumanEval/12").
Run: sample index i of a file is run i, named `<file stem>#sample-<i>`; a task with fewer samples
is absent from the later runs.
Pass: EvalPlus's own rule -- for a "+" category a sample passes when its base AND plus status both
pass; for a base-only category when its base status passes. Anything else fails.
A test is a stable pass when it passed in every run that judged it, a stable fail when it passed
in none, otherwise flaky. Prints one JSON object:
  {"models": {model: {category: {"runs", "total", "stable_pass", "flaky", "stable_fail", "correct": [...]}}}}

Usage: ref_evalplus.py [--any-name] ROOT
"""
import json
import os
import re
import sys

import refcommon

PASS = ("pass", "success")
BACKENDS = ("hf_gaudi", "gptqmodel", "anthropic", "bedrock", "google", "ollama", "openai", "vllm", "hf")
# evaltally_format::naming's list of file stems that name a kind of file.
GENERIC = set("""all combined data eval eval-report eval-results evals evaluation evaluation-report
evaluation-results final index junit junit-report junit-results latest log logs merged metrics out
output outputs pytest report report-junit reports result results results-summary run score scores
summary test test-detail test-report test-results testresults tests xunit""".split())
TEMP = re.compile(r"^(.+)_temp_[0-9.]+(-.*)?$")
LEGACY_ID = re.compile(r"^(HumanEval|Mbpp)_(\d+)$")


def generic(stem):
    return stem.startswith("TEST-") or all(p.replace("_", "-").lower() in GENERIC for p in stem.split("."))


def decode(ident):
    if ident.endswith("-sanitized"):
        ident = ident[: -len("-sanitized")]
    m = TEMP.match(ident)
    if not m:
        return ident
    head = m.group(1)
    for b in BACKENDS:
        if head.endswith("_" + b) and len(head) > len(b) + 1:
            return head[: -len(b) - 1].replace("--", "/")
    return head


def model_of(path):
    name = os.path.basename(path)
    for suffix in ("_eval_results.json", ".eval_results.json"):
        if name.endswith(suffix) and len(name) > len(suffix):
            ident = decode(name[: -len(suffix)])
            if ident and ident not in ("samples", "sample") and not generic(ident):
                return ident
    return decode(os.path.basename(os.path.dirname(os.path.abspath(path))))


def is_results_name(name):
    return name == "eval_results.json" or (
        len(name) > len("_eval_results.json") and name[:-len("eval_results.json")][-1:] in ("_", "."))


def samples_of(entry):
    """[(base passed, plus passed or None)] for one task, in sample order."""
    if isinstance(entry, list):
        return [(s["base_status"] in PASS, None if s.get("plus_status") is None else s["plus_status"] in PASS)
                for s in entry]
    base, plus = entry["base"], entry.get("plus") or []
    return [(b[0] in PASS, plus[i][0] in PASS if i < len(plus) else None) for i, b in enumerate(base)]


def category(task, plus):
    prefix = task.split("/", 1)[0] if "/" in task else ""
    dataset = {"HumanEval": "HumanEval", "Mbpp": "MBPP"}.get(prefix, prefix or "EvalPlus")
    return dataset + ("+" if plus else "")


def main():
    args = sys.argv[1:]
    any_name = "--any-name" in args
    root = [a for a in args if a != "--any-name"][0]
    status = {}  # (model, category) -> {task: [passes, runs]}
    runs_seen = {}
    correct = {}
    for dirpath, name in refcommon.walk(root):
        if not (name.endswith(".json") if any_name else is_results_name(name)):
            continue
        path = os.path.join(dirpath, name)
        with open(path) as f:
            doc = json.load(f)
        if not isinstance(doc, dict) or not isinstance(doc.get("eval"), dict):
            continue
        first = next(iter(doc["eval"].values()), None)
        if not (isinstance(first, list) and first and "base_status" in first[0]
                or isinstance(first, dict) and "base" in first):
            continue
        tasks = {}
        for key, entry in doc["eval"].items():
            m = LEGACY_ID.match(key)
            tasks[f"{m.group(1)}/{m.group(2)}" if m else key] = samples_of(entry)
        has_plus = any(p is not None for s in tasks.values() for _, p in s)
        model = model_of(path)
        stem = name[: -len(".json")]
        passed_in = {}  # (category, sample index) -> passes
        for task, samples in tasks.items():
            key = (model, category(task, has_plus))
            for i, (b, p) in enumerate(samples):
                ok = b and p is True if has_plus else b
                t = status.setdefault(key, {}).setdefault(task, [0, 0])
                t[1] += 1
                t[0] += ok
                passed_in[(key, i)] = passed_in.get((key, i), 0) + ok
        for key, i in sorted(passed_in):
            runs_seen.setdefault(key, []).append(f"{stem}#sample-{i}")
            correct.setdefault(key, []).append(passed_in[(key, i)])
    refcommon.print_summary(status, runs_seen, correct)


if __name__ == "__main__":
    main()
