#!/usr/bin/env python3
"""Reference stability analysis over Hugging Face lighteval details, written the plain way a user
would in Python: every details_<task>_<date>.parquet below ROOT is read with pyarrow
(pq.read_table(...).to_pylist()), and the run's results_<date>.json with json.load.

It is the baseline for speed comparisons and a second opinion on counts. Unlike the other
baselines it needs pyarrow (`pip install pyarrow`): lighteval's details are Parquet.

Layout lighteval writes (EvaluationTracker.save_results / save_details):
  <out>/results/<model_name>/results_<date>.json
  <out>/details/<model_name>/<date>/details_<task>_<date>.parquet
<model_name> is config_general.model_name used as a path (`org/model` is two folders), <date>
`datetime.now().isoformat()` with ':' as '-', <task> the task's full name with its '|' and ':'
(`community|lexam-en-idk|0`).

A details file is one run of one task: the run is the <date>, the category the <task> (the
results file's name for it when the file name writes `__` for `|` and `:`), the model the
results file's config_general.model_name (else model_config.model_name, else the folders
between the nearest `details/` and <date>/). The results file is looked for at
<out>/results/<model>/results_<date>.json, then <out>/details/<model>/ (lighteval 0.1 - 0.3
copied it there), then beside the details file. Rows are samples; the test is `doc.id`
(lighteval 0.11+: `doc`/`metric`/`model_response` struct columns) or the row's position
(earlier: flat columns, `metrics` a struct or, in 0.4 - 0.7, the Python repr of a dict), with
`#<k>` appended to the k-th repeat of an id. The metric judged is the task's first configured
metric (config_tasks[task].metrics[0] or, keyed without the few-shot count, .metric[0]; its
metric_name, the first of a list; 0.1 - 0.3's Metrics members mapped to their keys) when the
file has it, else the file's first metric. A sample passes when that value is 1 (or True),
fails when 0 (or False); a row without the metric is left out; any other value (a fraction, a
NaN, a list, a corpus metric's inputs) is unscored: the test is listed by the run but judged
by none, and tests no run judged are counted apart (printed to stderr). A test is a stable pass
when it passed in every run that judged it, a stable fail when it failed in all of them,
otherwise flaky. Prints one JSON object:
  {"models": {model: {category: {"runs", "total", "stable_pass", "flaky", "stable_fail", "correct": [...]}}}}

Usage: ref_lighteval.py ROOT [METRIC]
METRIC judges every file instead of the task's first metric (evaltally's --metric); a file
without it is left out.
"""
import ast
import json
import math
import os
import re
import sys

import pyarrow.parquet as pq

import refcommon

DETAILS = re.compile(r"^details_(?P<task>.+)_(?P<date>\d{4}-\d{2}-\d{2}T\d{2}[-:]\d{2}[-:]\d{2}(?:\.\d+)?)\.parquet$")
# config_tasks of 0.1 - 0.3 list Metrics members, not the keys the rows carry
MEMBER_KEYS = {
    "loglikelihood_acc": "acc", "loglikelihood_acc_single_token": "acc",
    "loglikelihood_acc_norm": "acc_norm", "loglikelihood_acc_norm_nospace": "acc_norm",
    "loglikelihood_acc_norm_single_token": "acc_norm", "exact_match": "em",
    "quasi_exact_match": "qem", "quasi_exact_match_math": "qem", "quasi_exact_match_gsm8k": "qem",
    "quasi_exact_match_triviaqa": "qem", "prefix_exact_match": "pem",
    "prefix_quasi_exact_match": "pqem", "truthfulqa_mc_metrics": "truthfulqa_mc1",
    "perfect_exact_match": "perfect_em", "recall_at_1": "acc", "recall_at_1_single_token": "acc",
}
UNSCORED = object()  # a value that is no score


def layout(path, date):
    """(output folder, [model folders]) of a details file below a `details` folder, else None."""
    parts = os.path.normpath(path).split(os.sep)[:-1]
    if parts and parts[-1] == date:
        parts = parts[:-1]
    for i in range(len(parts) - 1, -1, -1):
        if parts[i] == "details" and i < len(parts) - 1:
            return os.sep.join(parts[:i]), parts[i + 1:]
    return None


def results_for(path, date):
    """The first results file of the run that is there, and the model the folders name."""
    name = f"results_{date}.json"
    found = layout(path, date)
    candidates = []
    if found:
        root, model = found
        candidates += [os.path.join(root, "results", *model, name), os.path.join(root, "details", *model, name)]
    candidates.append(os.path.join(os.path.dirname(path), name))
    if not found:
        candidates.append(os.path.join(os.path.dirname(os.path.dirname(path)), name))
    folder_model = "/".join(found[1]) if found else os.path.basename(os.path.dirname(os.path.dirname(path))) or "unknown"
    for c in candidates:
        if os.path.isfile(c):
            with open(c, encoding="utf-8") as f:
                return json.load(f), folder_model
    return None, folder_model


def metric_key(entry):
    if isinstance(entry, dict):
        name = entry.get("metric_name")
        return name[0] if isinstance(name, list) and name else name
    if isinstance(entry, str):
        return MEMBER_KEYS.get(entry, entry)
    return None


def task_name(results, task):
    """The results file's name for the task (for file names that write `__` for `|` and `:`)."""
    keys = list((results.get("summary_tasks") or {})) + list((results.get("results") or {}))
    if task in keys:
        return task
    return next((k for k in keys if k.replace("|", "__").replace(":", "__") == task), task)


def configured_metric(results, task):
    tasks = results.get("config_tasks") or {}
    cfg = tasks.get(task) or tasks.get(task.rsplit("|", 1)[0])
    if not isinstance(cfg, dict):
        return None
    metrics = cfg.get("metrics") or cfg.get("metric") or []
    return metric_key(metrics[0]) if metrics else None


def literal(node):
    """A Python literal node's value; a call of a NumPy scalar is its argument, any other call
    (a corpus metric's input object) no score."""
    if isinstance(node, ast.Call):
        if len(node.args) == 1 and not node.keywords and isinstance(node.args[0], ast.Constant):
            name = ast.unparse(node.func)
            if name.startswith(("np.", "numpy.")):
                return node.args[0].value
        return UNSCORED
    if isinstance(node, ast.Dict):
        return {literal(k): literal(v) for k, v in zip(node.keys, node.values)}
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return [literal(e) for e in node.elts]
    if isinstance(node, ast.Name) and node.id in ("nan", "inf"):
        return float(node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -literal(node.operand)
    return ast.literal_eval(node)


def row_metrics(value):
    if isinstance(value, str):  # 0.4 - 0.7 wrote str(dict)
        try:
            value = literal(ast.parse(value, mode="eval").body)
        except (ValueError, SyntaxError, TypeError):
            return None
    return value if isinstance(value, dict) else {}


def verdict(v):
    """True pass, False fail, UNSCORED no score, None no value."""
    if v is None:
        return None
    if isinstance(v, bool):
        return v
    if isinstance(v, str):
        v = {"True": 1.0, "true": 1.0, "False": 0.0, "false": 0.0}.get(v.strip(), v)
        try:
            v = float(v)
        except ValueError:
            return UNSCORED
    if isinstance(v, (int, float)) and not math.isnan(v):
        if abs(v) < 1e-9:
            return False
        if abs(v - 1) < 1e-9:
            return True
    return UNSCORED


def main():
    root = sys.argv[1]
    chosen = sys.argv[2] if len(sys.argv) > 2 else None
    status = {}  # (model, category) -> {test: [passes, runs]}
    runs_seen, correct, listed = {}, {}, {}
    for dirpath, name in refcommon.walk(root):
        m = DETAILS.match(name)
        if not m:
            continue
        task, date = m.group("task"), m.group("date")
        path = os.path.join(dirpath, name)
        results, folder_model = results_for(path, date)
        results = results or {}
        general = results.get("config_general") or {}
        model = general.get("model_name") or (general.get("model_config") or {}).get("model_name") or folder_model
        task = task_name(results, task)
        table = pq.read_table(path)
        column = "metric" if "metric" in table.column_names else "metrics"
        if column not in table.column_names:
            continue
        rows = table.to_pylist()
        metrics = [row_metrics(r.get(column)) for r in rows]
        kind = table.schema.field(column).type
        names = [kind.field(i).name for i in range(kind.num_fields)] if hasattr(kind, "num_fields") and kind.num_fields else []
        for mm in metrics:
            names += [k for k in (mm or {}) if k not in names]
        if not names:
            continue
        if chosen:
            if chosen not in names:
                continue
            primary = chosen
        else:
            primary = configured_metric(results, task)
            if primary not in names:
                primary = names[0]
        key = (model, task)
        seen_ids, tests = {}, []
        for pos, (row, mm) in enumerate(zip(rows, metrics)):
            if mm is None:
                continue  # a repr that does not parse: left out
            doc = row.get("doc")
            own = doc.get("id") if isinstance(doc, dict) else None
            test = str(own) if own not in (None, "") else str(pos)
            k = seen_ids.get(test, 0)
            seen_ids[test] = k + 1
            if k:
                test = f"{test}#{k}"
            ok = verdict(mm.get(primary))
            if ok is not None:
                tests.append((test, ok))
        if not tests:
            continue
        per = status.setdefault(key, {})
        for test, ok in tests:
            s = per.setdefault(test, [0, 0])
            if ok is not UNSCORED:
                s[1] += 1
                s[0] += ok
        runs_seen.setdefault(key, []).append(date)
        correct.setdefault(key, []).append(sum(1 for _, ok in tests if ok is True))
        listed.setdefault(key, []).append(len(tests))
    unscored = {k: sum(1 for p, n in per.values() if n == 0) for k, per in status.items()}
    refcommon.print_summary({k: {t: s for t, s in per.items() if s[1]} for k, per in status.items()}, runs_seen, correct)
    if any(unscored.values()):
        print(json.dumps({"unscored_tests": {f"{m} :: {c}": n for (m, c), n in sorted(unscored.items()) if n}}),
              file=sys.stderr)


if __name__ == "__main__":
    main()
