#!/usr/bin/env python3
"""Generate a deterministic synthetic workload of Terminal-Bench `tb run` output folders, as
`tb run --agent <agent> --model <model> --dataset terminal-bench-core==0.1.1 --n-attempts A`
(terminal-bench 0.2.18) writes them, and the same over a local dataset (`--dataset-path
/home/bench/datasets/usaco`, an adapter's tasks).

Layout: OUT_DIR/<agent>/<run_id>/results.json beside run_metadata.json and tb.lock, and every
trial's own copy OUT_DIR/<agent>/<run_id>/<task>/<trial>/results.json (the per-trial folders'
panes, sessions and logs are not written). A model's --runs runs are attempts, on each dataset:
each `tb run` makes --attempts of them (the last one the rest), so a model has
2 × ceil(runs / attempts) run folders. Run ids are tb's default, the start time
`2026-03-01__09-00-00`, distinct over every model and dataset.

The files are what the harness writes (docs/formats/terminal-bench.md, shape
`tb-results-0.2.8` with 0.2.10's trial names; testdata/terminal-bench), each
`model_dump_json(indent=4)` with no final newline: results.json is BenchmarkResults {id,
results, pass_at_k, n_resolved, n_unresolved, resolved_ids, unresolved_ids, accuracy} with
the trials in the order they finished, each TrialResults {id, trial_name
(`<task>.<i>-of-<n>.<run_id>`), task_id, instruction (300 bytes to 2 KB), is_resolved,
failure_mode, parser_results (1 to 6 unit tests), recording_path, total_input_tokens,
total_output_tokens, six timestamps}; run_metadata.json is RunMetadata with `resumed_at`;
tb.lock the invocation, harness, agent, run config and dataset.

How evaltally names what it reads (the catalogue): the model is `<agent_name>/<model_name>`
(`terminus/anthropic/claude-sonnet-4-20250514`), the category the dataset
(`terminal-bench-core@0.1.1`, or `usaco`, the last part of a local dataset's path), a test a
task (120 by default: 80 in terminal-bench-core, the size of its 0.1.1, and 40 in usaco), a
run an attempt: `<run_id>#attempt-<i>`, or `<run_id>` for a
`tb run` of one attempt. A trial passes when `is_resolved` is true (now and then after an
`agent_timeout`) and fails when it is false (failure mode `unset`, else `agent_timeout`,
`unknown_agent_error` or `context_length_exceeded`). No trial is left ungraded (`is_resolved`
null: evaltally counts those apart by default and as failures with --errors-as fail, so the
counts would depend on the option); the trials' own copies are skipped.

With --harbor it writes Harbor jobs instead, as `harbor run -d terminal-bench@2.0 --agent
<agent> --model <model> --n-attempts A` (harbor 0.26, Terminal-Bench 2.0's harness) does
(docs/formats/terminal-bench.md, shapes `harbor-job` and `harbor-attempts`): one dataset,
`terminal-bench`; OUT_DIR/<agent>/jobs/<job>/ with the job's config.json and result.json (its
summary: trials counted per agent, model and dataset) and a folder per trial, `<task>__<id>`
(the id 7 random letters and digits), holding the trial's result.json (TrialResult: task_name,
trial_name, trial_uri, task_id, source, task_checksum, config, agent_info, agent_result with
tokens, cost and 1 to 20 KB of metadata, verifier_result.rewards.reward 1.0 or 0.0,
exception_info, the phases' timestamps) and config.json (TrialConfig). A failed trial now and
then carries an AgentTimeoutError beside its reward 0. A job is a run: `<job>`, or
`<job>#attempt-<i>` when it ran every task A times, attempt i of a task being its i-th trial in
the order of the trials' folder names (Harbor numbers no attempt); the model is
`<agent>/<model>`, the category `terminal-bench`.

See gencommon.py for the command line shared by all generators and the ground truth (--expected).

Usage:
  gen_terminal_bench.py --runs 10 --tasks 120 --seed 7 OUT_DIR [--attempts 2] [--harbor] [--expected > truth.json]
"""
import datetime
import json
import math
import os
import uuid

import gencommon

MODELS = [("terminus", "anthropic/claude-sonnet-4-20250514"), ("codex", "openai/o4-mini"),
          ("mini-swe-agent", "anthropic/claude-sonnet-4-0")]
# (dataset_name, dataset_version, dataset_path, share of the tasks): a registry dataset and a
# local one.
DATASETS = [("terminal-bench-core", "0.1.1", None, 2), (None, None, "/home/bench/datasets/usaco", 1)]
VERBS = ("build fix crack train configure debug deploy write recover migrate optimize compile parse "
         "extract count solve reshard serve decrypt install").split()
NOUNS = ("git-history linux-kernel 7z-hash fasttext-model nginx-config sqlite-db c4-data qemu-image "
         "python-package jq-query chess-move maze-path regex-log cron-job rust-crate tmux-session "
         "ssl-cert pandas-frame cobol-program mteb-eval").split()
LEVELS = ["", "", "", ".easy", ".hard"]
WORDS = ("file directory script output test server container image binary archive password log "
         "command terminal process port config repository commit branch model dataset epoch "
         "accuracy checksum module library compiler kernel package service request").split()


def sentences(rng, n):
    return " ".join(" ".join(rng.choices(WORDS, k=rng.randrange(6, 18))).capitalize() + "." for _ in range(n))


def category(dataset):
    name, version, path, _ = dataset
    return f"{name}@{version}" if name else path.rstrip("/").rsplit("/", 1)[-1]


def plan(seed, n_tasks, datasets=DATASETS):
    """[(dataset, [(task id, instruction, unit tests, pass probability)] in its order)]."""
    rng = gencommon.stream(seed, "plan")
    probabilities = iter(gencommon.probabilities(rng, n_tasks))
    out = []
    for dataset, count in gencommon.shares([(d, d[3]) for d in datasets], n_tasks):
        names = []
        while len(names) < count:
            if dataset[0]:
                name = f"{rng.choice(VERBS)}-{rng.choice(NOUNS)}{rng.choice(LEVELS)}"
            else:
                name = f"usaco-{rng.randrange(100, 1500)}-{rng.choice(NOUNS).split('-')[0]}"
            if name not in names:
                names.append(name)
        tasks = []
        for name in names:
            tests = [f"test_{rng.choice(WORDS)}_{rng.choice(WORDS)}_{k}" for k in range(rng.randrange(1, 7))]
            tasks.append((name, sentences(rng, rng.randrange(3, 20)), tests, next(probabilities)))
        out.append((dataset, tasks))
    return out


def stamp(t):
    return t.isoformat()


def trial(rng, run_id, task, attempt, n, passed, start):
    name, instruction, tests, _ = task
    trial_name = f"{name}.{attempt}-of-{n}.{run_id}"
    if passed:
        mode = "agent_timeout" if rng.random() < 0.15 else "unset"
        results = {t: "passed" for t in tests}
    else:
        x = rng.random()
        mode = ("unset" if x < 0.6 else "agent_timeout" if x < 0.95 else "unknown_agent_error" if x < 0.98
                else "context_length_exceeded")
        failing = rng.randrange(len(tests))
        results = {t: ("failed" if k == failing or rng.random() < 0.3 else "passed") for k, t in enumerate(tests)}
    agent = datetime.timedelta(seconds=rng.uniform(20, 1800))
    test = datetime.timedelta(seconds=rng.uniform(2, 120))
    second = datetime.timedelta(seconds=1)
    return {"id": str(uuid.UUID(int=rng.getrandbits(128), version=4)), "trial_name": trial_name, "task_id": name,
            "instruction": instruction, "is_resolved": passed, "failure_mode": mode, "parser_results": results,
            "recording_path": f"{run_id}/{name}/{trial_name}/sessions/agent.cast",
            "total_input_tokens": rng.randrange(5_000, 2_000_000), "total_output_tokens": rng.randrange(500, 60_000),
            "trial_started_at": stamp(start), "trial_ended_at": stamp(start + agent + test + 8 * second),
            "agent_started_at": stamp(start + 3 * second), "agent_ended_at": stamp(start + 3 * second + agent),
            "test_started_at": stamp(start + 6 * second + agent), "test_ended_at": stamp(start + 6 * second + agent + test)}


def pass_at_k(trials):
    """tb's pass@k: k a power of 2 up to the fewest attempts of a task (5 and 10 too)."""
    per = {}
    for t in trials:
        per.setdefault(t["task_id"], []).append(t["is_resolved"] is True)
    fewest = min(len(v) for v in per.values())
    ks = sorted({k for k in (2, 4, 8, 16, 32) if k <= fewest} | {k for k in (5, 10) if k <= fewest})
    out = {}
    for k in ks:
        rates = [1.0 if n - c < k else 1 - math.comb(n - c, k) / math.comb(n, k)
                 for n, c in ((len(v), sum(v)) for v in per.values())]
        out[str(k)] = sum(rates) / len(rates)
    return out


def dump(path, doc):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(json.dumps(doc, indent=4, ensure_ascii=False))


def write_run(out, agent, model, dataset, run_id, start, n, tasks, attempts, crng):
    """One `tb run` folder: `attempts` is [(attempt, [passed per task])]."""
    folder = os.path.join(out, agent, run_id)
    trials = []
    clock = start
    for attempt, outcomes in attempts:
        for task, passed in zip(tasks, outcomes):
            clock += datetime.timedelta(seconds=crng.uniform(5, 90))
            trials.append(trial(crng, run_id, task, attempt, n, passed, clock))
    crng.shuffle(trials)  # the order they finished in
    resolved = [t["task_id"] for t in trials if t["is_resolved"]]
    unresolved = [t["task_id"] for t in trials if not t["is_resolved"]]
    dump(os.path.join(folder, "results.json"),
         {"id": str(uuid.UUID(int=crng.getrandbits(128), version=4)), "results": trials, "pass_at_k": pass_at_k(trials),
          "n_resolved": len(resolved), "n_unresolved": len(unresolved), "resolved_ids": resolved,
          "unresolved_ids": unresolved, "accuracy": len(resolved) / len(trials)})
    ids = [t[0] for t in tasks]
    dump(os.path.join(folder, "run_metadata.json"),
         {"run_id": run_id, "uuid": str(uuid.UUID(int=crng.getrandbits(128), version=4)), "dataset_path": dataset[2],
          "dataset_name": dataset[0], "dataset_version": dataset[1], "output_path": "/home/bench/runs",
          "agent_name": agent, "no_rebuild": False, "cleanup": False, "log_level": 20, "task_ids": ids,
          "exclude_task_ids": None, "n_tasks": None, "n_concurrent_trials": 4, "n_attempts": n,
          "dataset_size": len(ids), "accuracy": len(resolved) / len(trials), "model_name": model,
          "start_time": stamp(start), "end_time": stamp(clock), "commit_hash": "unknown", "username": "bench",
          "s3_bucket": None, "agent_kwargs": None, "pass_at_k": pass_at_k(trials), "resumed_at": None})
    source = ["--dataset", f"{dataset[0]}=={dataset[1]}"] if dataset[0] else ["--dataset-path", dataset[2]]
    dump(os.path.join(folder, "tb.lock"),
         {"lockfile_version": "1.0", "created_at": stamp(start),
          "invocation": {"command": "tb", "args": ["run", "--agent", agent, "--model", model, *source,
                                                  "--n-attempts", str(n)]},
          "harness": {"package": "terminal-bench", "version": "0.2.18", "is_editable_installation": False},
          "agent": {"name": agent, "import_path": None, "model_name": model, "extra_kwargs": {}},
          "run_config": {"log_level": "info", "livestream": False, "n_concurrent_trials": 4, "n_attempts": n,
                         "no_rebuild": False, "cleanup": False, "global_timeout_multiplier": 1.0,
                         "global_agent_timeout_sec": None, "global_test_timeout_sec": None},
          "dataset": {"name": dataset[0], "version": dataset[1], "local_path": dataset[2], "task_ids": ids,
                      "registry_url": None, "local_registry_path": None}})
    for t in trials:
        dump(os.path.join(folder, t["task_id"], t["trial_name"], "results.json"), t)


# Harbor's one dataset: its trials' `source`, evaltally's category.
HARBOR_DATASET = ("terminal-bench", "2.0", None, 1)
# ShortUUID's alphabet, from which Harbor draws a trial folder's 7 characters.
SHORTUUID = "23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def harbor_trial(rng, job, agent, model, task, trial_name, passed, start):
    """A trial's result.json (TrialResult) and config.json (TrialConfig)."""
    name, instruction, tests, _ = task
    provider, _, model_name = model.partition("/")
    config = {"task": {"path": f"tasks/{name}", "git_url": None, "git_commit_id": None, "overwrite": False,
                       "download_dir": None, "source": "terminal-bench"},
              "trial_name": trial_name, "trials_dir": f"jobs/{job}", "timeout_multiplier": 1.0,
              "agent": {"name": agent, "import_path": None, "model_name": model, "override_timeout_sec": None,
                        "max_timeout_sec": None, "kwargs": {}},
              "environment": {"type": "docker", "force_build": False, "delete": True, "kwargs": {}},
              "verifier": {"override_timeout_sec": None, "max_timeout_sec": None, "disable": False},
              "job_id": str(uuid.UUID(int=rng.getrandbits(128), version=4))}
    timeout = not passed and rng.random() < 0.15
    agent_time = datetime.timedelta(seconds=900 if timeout else rng.uniform(20, 880))
    second = datetime.timedelta(seconds=1)
    phase = lambda a, b: {"started_at": stamp(start + a), "finished_at": stamp(start + b)}
    result = {
        "id": str(uuid.UUID(int=rng.getrandbits(128), version=4)), "task_name": name, "trial_name": trial_name,
        "trial_uri": f"file:///home/bench/jobs/{job}/{trial_name}", "task_id": {"path": f"tasks/{name}"},
        "source": "terminal-bench", "task_checksum": f"{rng.getrandbits(64):016x}", "config": config,
        "agent_info": {"name": agent, "version": "2.0.0", "model_info": {"name": model_name, "provider": provider}},
        "agent_result": {"n_input_tokens": rng.randrange(5_000, 2_000_000), "n_cache_tokens": rng.randrange(0, 500_000),
                         "n_output_tokens": rng.randrange(500, 60_000), "cost_usd": round(rng.uniform(0.01, 4.0), 4),
                         "rollout_details": None,
                         "metadata": {"n_episodes": rng.randrange(3, 80), "summary": sentences(rng, rng.randrange(10, 200))}},
        "verifier_result": {"rewards": {"reward": 1.0 if passed else 0.0}},
        "exception_info": {"exception_type": "AgentTimeoutError",
                           "exception_message": "Agent execution timed out after 900.0 seconds",
                           "exception_traceback": "Traceback (most recent call last):\n" + "  ...\n" * 12,
                           "occurred_at": stamp(start + agent_time)} if timeout else None,
        "started_at": stamp(start), "finished_at": stamp(start + agent_time + 40 * second),
        "environment_setup": phase(0 * second, 10 * second), "agent_setup": phase(10 * second, 20 * second),
        "agent_execution": phase(20 * second, 20 * second + agent_time),
        "verifier": phase(25 * second + agent_time, 40 * second + agent_time)}
    return result, config


def write_job(out, agent, model, job, start, n, tasks, trials, crng):
    """One Harbor job folder: `trials` is [(task, trial name, passed)]."""
    folder = os.path.join(out, agent, "jobs", job)
    clock = start
    rewards = {"1.0": [], "0.0": []}
    errors = {}
    for task, trial_name, passed in trials:
        clock += datetime.timedelta(seconds=crng.uniform(5, 90))
        result, config = harbor_trial(crng, job, agent, model, task, trial_name, passed, clock)
        dump(os.path.join(folder, trial_name, "result.json"), result)
        dump(os.path.join(folder, trial_name, "config.json"), config)
        rewards["1.0" if passed else "0.0"].append(trial_name)
        if result["exception_info"]:
            errors.setdefault("AgentTimeoutError", []).append(trial_name)
    key = f"{agent}__{model.partition('/')[2]}__terminal-bench"
    dump(os.path.join(folder, "result.json"),
         {"id": str(uuid.UUID(int=crng.getrandbits(128), version=4)), "started_at": stamp(start),
          "updated_at": stamp(clock), "finished_at": stamp(clock), "n_total_trials": len(trials),
          "stats": {"n_trials": len(trials), "n_errors": sum(map(len, errors.values())),
                    "evals": {key: {"n_trials": len(trials), "n_errors": sum(map(len, errors.values())),
                                    "metrics": [{"mean": len(rewards["1.0"]) / len(trials)}],
                                    "reward_stats": {"reward": rewards}, "exception_stats": errors}}}})
    dump(os.path.join(folder, "config.json"),
         {"job_name": job, "jobs_dir": "jobs", "n_attempts": n, "timeout_multiplier": 1.0,
          "orchestrator": {"type": "local", "n_concurrent_trials": 4},
          "agents": [{"name": agent, "model_name": model, "kwargs": {}}],
          "datasets": [{"name": "terminal-bench", "version": "2.0"}]})


def harbor_trial_names(rng, tasks, n):
    """Each task's n trial folder names, sorted: attempt i of a task is its i-th."""
    return {name: sorted(f"{name[:32].rstrip('_-')}__{''.join(rng.choices(SHORTUUID, k=7))}" for _ in range(n))
            for name, *_ in tasks}


def main():
    ap = gencommon.parser(__doc__, 10)
    ap.add_argument("--tasks", type=int, default=120, help="tasks in the two datasets, 2 to 1 (default 120)")
    ap.add_argument("--attempts", type=int, default=2, help="attempts per `tb run` (--n-attempts, default 2)")
    ap.add_argument("--harbor", action="store_true", help="write Harbor jobs (Terminal-Bench 2.0) instead")
    a = ap.parse_args()
    gencommon.check_args(ap, a)
    if a.tasks < len(DATASETS) or a.attempts < 1:
        ap.error(f"--tasks must be at least {len(DATASETS)} (one per dataset) and --attempts at least 1")
    datasets = plan(a.seed, a.tasks, [HARBOR_DATASET] if a.harbor else DATASETS)
    agents = MODELS[:a.models] + [(f"agent-{m}", f"model-{m}") for m in range(len(MODELS), a.models)]
    truth = gencommon.Truth("terminal-bench", a.seed)
    first = datetime.datetime(2026, 3, 1, 9, 0, 0, tzinfo=datetime.timezone.utc)
    n_files = math.ceil(a.runs / a.attempts)
    folders = 0
    for agent, model in agents:
        key = f"{agent}/{model}"
        for dataset, tasks in datasets:
            cat = "terminal-bench" if a.harbor else category(dataset)
            for fi in range(n_files):
                start = first + datetime.timedelta(minutes=97 * folders)
                folders += 1
                run_id = start.strftime("%Y-%m-%d__%H-%M-%S")
                n = min(a.attempts, a.runs - fi * a.attempts)
                attempts = []
                if a.harbor:
                    names = harbor_trial_names(gencommon.stream(a.seed, "names", key, fi), tasks, n)
                    trials = []
                    for i in range(1, n + 1):
                        run = f"{run_id}#attempt-{i}" if n > 1 else run_id
                        truth.run(key, run)
                        orng = gencommon.stream(a.seed, "outcome", key, cat, fi * a.attempts + i - 1)
                        for task in tasks:
                            passed = orng.random() < task[3]
                            truth.record(key, run, cat, task[0], passed)
                            trials.append((task, names[task[0]][i - 1], passed))
                    if a.out:
                        crng = gencommon.stream(a.seed, "content", key, cat, fi)
                        crng.shuffle(trials)  # the order they finished in
                        write_job(a.out, agent, model, run_id, start, n, tasks, trials, crng)
                        gencommon.progress(folders, len(agents) * len(datasets) * n_files, 5)
                    continue
                for i in range(1, n + 1):
                    run = f"{run_id}#attempt-{i}" if n > 1 else run_id
                    truth.run(key, run)
                    orng = gencommon.stream(a.seed, "outcome", key, cat, fi * a.attempts + i - 1)
                    outcomes = [orng.random() < p for *_, p in tasks]
                    for (name, *_), passed in zip(tasks, outcomes):
                        truth.record(key, run, cat, name, passed)
                    attempts.append((i, outcomes))
                if a.out:
                    crng = gencommon.stream(a.seed, "content", key, cat, fi)
                    write_run(a.out, agent, model, dataset, run_id, start, n, tasks, attempts, crng)
                    gencommon.progress(folders, len(agents) * len(datasets) * n_files, 5)
    if a.expected:
        truth.print()


if __name__ == "__main__":
    main()
