#!/usr/bin/env python3
"""Reference stability analysis over Terminal-Bench `tb run` results, written the plain way a user
would in Python: every *.json file below ROOT is read with json.load.

It is the baseline for speed comparisons and a second opinion on counts.

A file is a run's results (`runs/<run_id>/results.json`, BenchmarkResults; submitters rename some
to `<run_id>_results.json`) when it is a JSON object whose `results` is a list of objects that
each have `trial_name` and `task_id`. A trial's own copy `<run>/<task_id>/<trial_name>/results.json`
is a bare TrialResults object and is skipped. Two results files with the same top-level `id`
(tb >= 0.2.8) are one run saved twice: the later one in walk order is skipped.

The model and the category come from `run_metadata.json` beside the results file: the model is
`<agent_name>/<model_name>`, the agent alone when `model_name` is null (an agent run without
--model), the model alone without `agent_name`, `unknown` without run_metadata.json; the category
is `<dataset_name>@<dataset_version>`, else the last part of `dataset_path`, else
`terminal-bench`. A model that is no `<agent>/<model>` (the agent alone, `unknown`) gets the
folder that holds the run's folder, `<agent> (<folder>)`: a leaderboard submission, an
experiment; the run's own folder when that one names a dataset (is the category, or ends in
`@<version>` or `:<version>`), none when it is `runs`. A test is a `task_id`.

Each attempt is a run: attempt i of n is read from the trial name (`<task>.<i>-of-<n>`, with
`.<run_id>` after it from tb 0.2.10, `<task>.<key>.<i>-of-<n>` before 0.2.6), and the run is named
`<run id>#attempt-<i>`, or `<run id>` when the file holds one attempt; the run id is the results
file's folder, or its stem less `_results` when it is not named results.json. `is_resolved` true is
a pass, false a fail, null is errored (the harness did not grade the trial: the tests timed out,
their output could not be parsed, the harness raised): errored trials judge nothing and are
counted apart. A test that errored in more runs than judged it is errored; any other is a stable
pass when it passed in every run that judged it, a stable fail when it passed in none, otherwise
flaky. Prints one JSON object (refcommon.py's, with the errored tests and results of each
category):
  {"models": {model: {category: {"runs", "total", "stable_pass", "flaky", "stable_fail", "errored",
                                 "errored_results", "correct": [...]}}}}
and, when a file was skipped as a copy, on stderr one JSON object {"files": n,
"skipped_duplicates": [...]}.

Harbor's jobs (Terminal-Bench 2.0) are read too: a `result.json` in a trial folder
`<task>__<id>` that is an object with `task_name` and `trial_name` is one trial (TrialResult) of
the job, the folder above. The model is `<config.agent.name>/<config.agent.model_name>`, the
category the trial's `source` (`terminal-bench` without one), the test `task_name`. A reward
(`verifier_result.rewards.reward`) of 1 passes, another fails; no reward with an exception is
errored. A job is a run named after its folder, or `<job>#attempt-<i>` when a task ran more than
once, attempt i of a task being its i-th trial in the order of the folder names. The job's own
result.json and config.json are summaries and are skipped.

Usage: ref_terminal_bench.py ROOT
"""
import json
import os
import re
import sys

import refcommon

ATTEMPT = re.compile(r"(\d+)-of-(\d+)(?=\.|$)")


def attempt(name, task):
    """(i, n) from a trial name, read after the task id, else from its last `.<i>-of-<n>`."""
    if name.startswith(task + "."):
        rest = name[len(task) + 1:]
        for at in (rest, rest.split(".", 1)[1] if "." in rest else ""):
            m = ATTEMPT.match(at)
            if m:
                return int(m[1]), int(m[2])
    found = [m for m in re.finditer(r"\.(\d+)-of-(\d+)(?=\.|$)", name)]
    return (int(found[-1][1]), int(found[-1][2])) if found else (1, 1)


def told_apart(name, cat, dirpath, renamed):
    """`name (<folder>)` for a model that is no agent/model pair, by the folder of its runs:
    a renamed `<run_id>_results.json` is its own run, in the folder of its runs."""
    folder = os.path.normpath(dirpath)
    own, above = (None, os.path.basename(folder)) if renamed else (
        os.path.basename(folder), os.path.basename(os.path.dirname(folder)))
    if not above or above.lower() == "runs":
        return name
    dataset = above.replace(":", "@").lower() == cat.replace(":", "@").lower() or re.search(r"[@:]\d[^@:]*$", above)
    if dataset and own is None:
        return name
    return f"{name} ({own if dataset else above})"


def identity(dirpath, renamed):
    path = os.path.join(dirpath, "run_metadata.json")
    if not os.path.exists(path):
        return told_apart("unknown", "terminal-bench", dirpath, renamed), "terminal-bench"
    with open(path) as f:
        meta = json.load(f)
    agent, model = meta.get("agent_name") or None, meta.get("model_name") or None
    name = f"{agent}/{model}" if agent and model else agent or model or "unknown"
    if meta.get("dataset_name"):
        cat = meta["dataset_name"] + (f"@{meta['dataset_version']}" if meta.get("dataset_version") else "")
    elif meta.get("dataset_path"):
        cat = [p for p in re.split(r"[/\\]", meta["dataset_path"]) if p][-1]
    else:
        cat = "terminal-bench"
    if not model:
        name = told_apart(name, cat, dirpath, renamed)
    return name, cat


def harbor_trial(doc):
    """(model, category, task, passed: True/False/None for errored) of a Harbor TrialResult."""
    agent = (doc.get("config") or {}).get("agent") or {}
    info = doc.get("agent_info") or {}
    name = agent.get("name") or info.get("name")
    model = agent.get("model_name")
    key = f"{name}/{model}" if name and model else name or model or "unknown"
    rewards = (doc.get("verifier_result") or {}).get("rewards") or {}
    reward = rewards.get("reward", next(iter(rewards.values())) if len(rewards) == 1 else None)
    passed = None if reward is None else abs(reward - 1.0) <= 1e-6
    return key, doc.get("source") or "terminal-bench", doc["task_name"], passed


def harbor(jobs, status, runs_seen, correct):
    """Adds each job's trials ({job folder: [(trial folder, doc)]}) as its attempts' runs."""
    for job, trials in sorted(jobs.items()):
        trials.sort()
        counts = {}
        read = []
        for _, doc in trials:
            key, cat, task, passed = harbor_trial(doc)
            counts[(key, task)] = counts.get((key, task), 0) + 1
            read.append(((key, cat), task, passed, counts[(key, task)]))
        several = any(n > 1 for n in counts.values())
        name = os.path.basename(job)
        per_run = {}
        for key, task, passed, i in read:
            run = f"{name}#attempt-{i}" if several else name
            per_run.setdefault((key, run), 0)
            s = status.setdefault(key, {}).setdefault(task, [0, 0, 0])
            if passed is None:
                s[2] += 1
                continue
            s[1] += 1
            s[0] += passed
            per_run[(key, run)] += passed
        for (key, run), ok in sorted(per_run.items()):
            runs_seen.setdefault(key, []).append(run)
            correct.setdefault(key, []).append(ok)


def main():
    root = sys.argv[1]
    jobs = {}
    status = {}  # (model, category) -> {task: [passes, runs that judged it, runs it errored in]}
    runs_seen = {}
    correct = {}
    seen_ids = {}
    skipped = []
    files = 0
    for dirpath, name in refcommon.walk(root):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(dirpath, name)) as f:
            doc = json.load(f)
        folder = os.path.basename(dirpath)
        if (name == "result.json" and re.fullmatch(r".+__[A-Za-z0-9]+", folder) and isinstance(doc, dict)
                and "task_name" in doc and "trial_name" in doc):
            jobs.setdefault(os.path.dirname(dirpath), []).append((folder, doc))
            files += 1
            continue
        trials = doc.get("results") if isinstance(doc, dict) else None
        if not isinstance(trials, list) or not all(
                isinstance(t, dict) and "trial_name" in t and "task_id" in t for t in trials):
            continue
        rel = os.path.relpath(os.path.join(dirpath, name), root)
        if doc.get("id") is not None:
            if doc["id"] in seen_ids:
                skipped.append({"file": rel, "same_id_as": seen_ids[doc["id"]]})
                continue
            seen_ids[doc["id"]] = rel
        files += 1
        key = identity(dirpath, name != "results.json")
        run_id = os.path.basename(os.path.abspath(dirpath))
        if name != "results.json":
            run_id = re.sub(r"(__|_|-)results$", "", name[: -len(".json")]) or name[: -len(".json")]
        attempts = {t_attempt: 0 for t_attempt in (attempt(t["trial_name"], t["task_id"]) for t in trials)}
        several = len(attempts) > 1 or any(n > 1 for _, n in attempts)
        for t in trials:
            i_n = attempt(t["trial_name"], t["task_id"])
            s = status.setdefault(key, {}).setdefault(t["task_id"], [0, 0, 0])
            if t.get("is_resolved") is None:
                s[2] += 1
                continue
            s[1] += 1
            ok = t["is_resolved"] is True
            s[0] += ok
            attempts[i_n] += ok
        for i, n in sorted(attempts):
            runs_seen.setdefault(key, []).append(f"{run_id}#attempt-{i}" if several else run_id)
            correct.setdefault(key, []).append(attempts[(i, n)])
    harbor(jobs, status, runs_seen, correct)
    # refcommon.print_summary's document, the errored tests set apart first.
    out = {"models": {}}
    for (model, cat), per in sorted(status.items()):
        judged = {t: (p, n) for t, (p, n, e) in per.items() if e <= n}
        summary = {t: [p, n] for t, (p, n) in judged.items()}
        sp = sum(1 for p, n in summary.values() if p == n)
        sf = sum(1 for p, n in summary.values() if p == 0)
        out["models"].setdefault(model, {})[cat] = {
            "runs": runs_seen[(model, cat)], "total": len(per), "stable_pass": sp,
            "flaky": len(summary) - sp - sf, "stable_fail": sf, "errored": len(per) - len(judged),
            "errored_results": sum(e for _, _, e in per.values()), "correct": correct[(model, cat)]}
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    print()
    if skipped:
        json.dump({"files": files, "skipped_duplicates": skipped}, sys.stderr, indent=1, sort_keys=True)
        print(file=sys.stderr)


if __name__ == "__main__":
    main()
