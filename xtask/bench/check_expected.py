#!/usr/bin/env python3
"""Check stability counts against a generator's ground truth.

EXPECTED is what a generator wrote with --expected (gen_*.py here, or
../shared/bench/gen_bfcl_runs.py). ACTUAL is either `evaltally stability DIR --format json`
(models as a list) or the output of a ref_*.py baseline (models as a dict).

Per (model, category) the counts total, stable_pass, flaky and stable_fail must be equal, and so
must the run names and the per-run correct / listed counts where both sides have them; no model
or category may be missing or extra. Differences are printed, one line each, and the exit status
is 1; a match prints a one-line summary. Warnings and errors in evaltally's JSON are listed on
stderr (errors fail the check).

Usage: check_expected.py EXPECTED ACTUAL
"""
import json
import sys

COUNTS = ("total", "stable_pass", "flaky", "stable_fail")
MAX_LINES = 40


def normalise(actual):
    """{model: {category: {...}}} and {model: [runs]} from evaltally's or a baseline's JSON."""
    models = actual.get("models", {})
    if isinstance(models, dict):
        return models, {}
    cats = {m["model"]: {c["category"]: c for c in m.get("categories", [])} for m in models}
    return cats, {m["model"]: m.get("runs") for m in models}


def expected_runs(expected, model):
    runs = expected.get("runs")
    return runs.get(model) if isinstance(runs, dict) else runs


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        expected = json.load(f)
    with open(sys.argv[2]) as f:
        actual = json.load(f)
    got, got_runs = normalise(actual)
    want = expected["models"]
    diffs = []
    for model in sorted(set(want) | set(got)):
        if model not in got:
            diffs.append(f"model {model}: missing ({len(want[model])} categories expected)")
            continue
        if model not in want:
            diffs.append(f"model {model}: not expected ({len(got[model])} categories found)")
            continue
        runs = expected_runs(expected, model)
        if runs is not None and got_runs.get(model) is not None and got_runs[model] != runs:
            diffs.append(f"model {model}: runs {differ(got_runs[model], runs)}")
        for cat in sorted(set(want[model]) | set(got[model])):
            w, g = want[model].get(cat), got[model].get(cat)
            if g is None:
                diffs.append(f"{model} / {cat}: missing")
                continue
            if w is None:
                diffs.append(f"{model} / {cat}: not expected ({', '.join(f'{k} {g.get(k)}' for k in COUNTS)})")
                continue
            for key in COUNTS:
                if g.get(key) != w.get(key):
                    diffs.append(f"{model} / {cat}: {key} {g.get(key)}, expected {w.get(key)}")
            cat_runs = w.get("runs", runs)
            if cat_runs is not None and g.get("runs") is not None and g["runs"] != cat_runs:
                diffs.append(f"{model} / {cat}: runs {differ(g['runs'], cat_runs)}")
            for key in ("correct", "listed"):
                if key in w and key in g and g[key] != w[key]:
                    diffs.append(f"{model} / {cat}: {key} {differ(g[key], w[key])}")
    for kind in ("warnings", "errors"):
        found = actual.get(kind) or []
        for d in found[:5]:
            print(f"{kind[:-1]}: {d.get('path')}:{d.get('line') or ''} {d.get('message')}", file=sys.stderr)
        if len(found) > 5:
            print(f"... {len(found)} {kind} in all", file=sys.stderr)
    errors = actual.get("errors") or []
    if errors:
        diffs.append(f"{len(errors)} errors reported")
    if diffs:
        for line in diffs[:MAX_LINES]:
            print(line)
        if len(diffs) > MAX_LINES:
            print(f"... {len(diffs)} differences in all")
        sys.exit(1)
    cats = [c for m in want.values() for c in m.values()]
    counts = {k: sum(c[k] for c in cats) for k in COUNTS}
    print(f"ground truth matched: {plural(len(want), 'model')}, {plural(len(cats), 'category')}, "
          f"{plural(counts['total'], 'test')} ({counts['stable_pass']} stable pass, {counts['flaky']} flaky, "
          f"{counts['stable_fail']} stable fail)")


def plural(n, word):
    return f"{n} {word}" if n == 1 else f"{n} {word[:-1]}ies" if word.endswith("y") else f"{n} {word}s"


def summary(values):
    """A list, shortened to its ends when long."""
    if not isinstance(values, list) or len(values) <= 6:
        return json.dumps(values)
    head = ", ".join(json.dumps(v) for v in values[:3])
    tail = ", ".join(json.dumps(v) for v in values[-2:])
    return f"[{head}, ... ({len(values)} in all), {tail}]"


def differ(got, want):
    """`got`, expected `want`: both shortened, with the first position where they differ."""
    text = f"{summary(got)}, expected {summary(want)}"
    if isinstance(got, list) and isinstance(want, list):
        at = next((i for i, (g, w) in enumerate(zip(got, want)) if g != w), min(len(got), len(want)))
        text += f" (first difference at #{at}: {summary(got[at:at + 1])} vs {summary(want[at:at + 1])})"
    return text


if __name__ == "__main__":
    main()
