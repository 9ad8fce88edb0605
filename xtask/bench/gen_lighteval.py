#!/usr/bin/env python3
"""Generate a deterministic synthetic workload of Hugging Face lighteval details: per run one
`details_<task>_<date>.parquet` per task and the run's `results_<date>.json`, every run holding
the same samples, in the shape lighteval 0.11 and later write with --save-details
(`details-parquet-struct` in docs/formats/lighteval.md).

Layout: OUT_DIR/details/<model>/<date>/details_<task>_<date>.parquet and
OUT_DIR/results/<model>/results_<date>.json, <model> the model's name used as a path
(`openrouter/openai/gpt-5-mini` is three folders): what `lighteval ... --output-dir OUT_DIR
--save-details` writes, run after run.

A run is one lighteval invocation: its date (`2026-01-05T09-00-00.123456`, `datetime.now()`
with `:` as `-`) names it, its folder and every file it writes. The runs of a model are hours
apart, so their names sort in the order they ran. Tasks, the categories: `lighteval|gsm8k|0`
(generative, `extractive_match`), `leaderboard|mmlu:anatomy|5` (`acc`) and
`community|lexam-en-idk|0` (grouped metrics `trad_score`, `idk_score`, `idk_freq`,
`extract_fail`); --samples is split 40/30/30 % over them. A row has the three struct columns
lighteval writes, `doc` (id, query, choices, gold_index, instruction, task_name), `metric`
(every metric of the task, fields sorted: lexam's first field is `extract_fail`, not the
configured `trad_score`) and `model_response` (input messages, text, text_post_processed),
rows in one shuffled order of the documents in every run (lighteval shuffles with a fixed
seed), `doc.id` the document's index. A query is 0.5-2 KB and an answer 0.2-1 KB of words, so
a file is about the size of lighteval's for API models. The task's first configured metric
decides pass or fail (1.0 / 0.0); the others are filled as the metric would (idk_score -1, 0
or 1). The results file is the aggregate of 0.11: config_general with model_config,
results per task and `all`, config_tasks with the metrics, summary_tasks with the hashes (the
same `hash_examples` in every run: one test set).

The bench's Python has no pyarrow, so the files are written by minparquet.py (beside this
file): Snappy pages of literal runs, one data page per column, RLE levels, PLAIN values.

See gencommon.py for the command line shared by all generators and the ground truth (--expected).

Usage:
  gen_lighteval.py --runs 50 --samples 200 --seed 7 OUT_DIR [--expected > truth.json]
"""
import datetime
import hashlib
import json
import os

import gencommon
import minparquet as mp

MODELS = ["openrouter/openai/gpt-5-mini", "openrouter/anthropic/claude-sonnet-4.5", "deepseek-ai/DeepSeek-V3.1-Terminus"]
# (task, share of the samples, metrics in configured order)
TASKS = [("lighteval|gsm8k|0", 0.4, ["extractive_match"]),
         ("leaderboard|mmlu:anatomy|5", 0.3, ["acc"]),
         ("community|lexam-en-idk|0", 0.3, ["trad_score", "idk_score", "idk_freq", "extract_fail"])]
WORDS = ("the a of to in and is was for that with as by on from at which this be are an it or "
         "energy force particle cell membrane protein enzyme court contract plaintiff defendant statute "
         "liability evidence water plant light heat rock soil student result sample measure change "
         "cause effect system pressure temperature orbit planet magnet current circuit gene trait").split()

SCHEMA = mp.group("schema", [
    mp.group("doc", [
        mp.list_of("choices", mp.leaf("element", mp.STRING)),
        mp.leaf("gold_index", mp.INT64),
        mp.leaf("id", mp.STRING),
        mp.leaf("instruction", mp.STRING),
        mp.leaf("query", mp.STRING),
        mp.leaf("task_name", mp.STRING),
    ]),
    None,  # the metric struct, per task
    mp.group("model_response", [
        mp.list_of("input", mp.group("element", [mp.leaf("content", mp.STRING), mp.leaf("role", mp.STRING)])),
        mp.list_of("text", mp.leaf("element", mp.STRING)),
        mp.list_of("text_post_processed", mp.leaf("element", mp.STRING)),
    ]),
], repetition=None)


def schema(metrics):
    """The file's schema: `doc`, `metric` (the task's metrics, sorted) and `model_response`."""
    metric = mp.group("metric", [mp.leaf(m, mp.DOUBLE) for m in sorted(metrics)])
    return mp.group("schema", [SCHEMA.children[0], metric, SCHEMA.children[2]], repetition=None)


def words(rng, lo, hi):
    """Text of lo..hi bytes."""
    target = rng.randrange(lo, hi)
    out = []
    size = 0
    while size < target:
        w = rng.choice(WORDS)
        out.append(w)
        size += len(w) + 1
    return " ".join(out)


def plan(seed, n):
    """[(task, metrics, [(doc id, p)], row order)]: the samples of every task and their hidden
    pass probabilities, with the order lighteval's shuffle puts them in."""
    rng = gencommon.stream(seed, "plan")
    counts = gencommon.shares([(t, w) for t, w, _ in TASKS], n)
    probabilities = iter(gencommon.probabilities(rng, n))
    out = []
    for (task, count), (_, _, metrics) in zip(counts, TASKS):
        docs = [(str(i), next(probabilities)) for i in range(count)]
        order = list(range(count))
        gencommon.stream(seed, "shuffle", task).shuffle(order)
        out.append((task, metrics, docs, order))
    return out


def documents(seed, task, count):
    """The documents of a task: (query, choices, gold index)."""
    out = []
    for i in range(count):
        rng = gencommon.stream(seed, "doc", task, i)
        choices = ["A", "B", "C", "D"] if "gsm8k" not in task else [str(rng.randrange(10, 999))]
        query = f"Question {i}: {words(rng, 500, 2000)}?\n" + "".join(f"{c}) {words(rng, 10, 60)}\n" for c in "ABCD")
        out.append((query, choices, rng.randrange(len(choices))))
    return out


def rows(task, metrics, docs, made, order, outcomes, rng):
    out = []
    for at in order:
        doc_id, _ = docs[at]
        query, choices, gold = made[at]
        ok = outcomes[at]
        answer = choices[gold] if ok else f"{choices[gold]}0"
        text = f"{words(rng, 200, 1000)}\nAnswer: {answer}"
        values = {metrics[0]: 1.0 if ok else 0.0}
        if "idk_score" in metrics:
            idk = rng.random() < 0.05
            values |= {"idk_score": 0.0 if idk else (1.0 if ok else -1.0), "idk_freq": 1.0 if idk else 0.0,
                       "extract_fail": 0.0}
        out.append({
            "doc": {"choices": choices, "gold_index": gold, "id": doc_id, "instruction": "",
                    "query": query, "task_name": task},
            "metric": values,
            "model_response": {"input": [{"content": query, "role": "user"}], "text": [text],
                               "text_post_processed": [text]},
        })
    return out


def results_doc(model, seed, ri, tasks, means):
    rng = gencommon.stream(seed, "results", model, ri)
    start = rng.uniform(10**5, 10**7)
    elapsed = rng.uniform(60, 3600)
    results, config, summary = {}, {}, {}
    for (task, metrics, docs, _), mean in zip(tasks, means):
        results[task] = {}
        for m in metrics:
            results[task][m] = mean if m == metrics[0] else 0.0
            results[task][f"{m}_stderr"] = 0.01
        suite, name, shots = task.split("|")
        config[task] = {
            "name": name, "prompt_function": f"{name.split(':')[0]}_prompt", "hf_repo": f"acme/{name}",
            "hf_subset": "default",
            "metrics": [{"metric_name": metrics if len(metrics) > 1 else metrics[0],
                         "higher_is_better": {m: True for m in metrics} if len(metrics) > 1 else True,
                         "category": "GENERATIVE", "sample_level_fn": "compute",
                         "corpus_level_fn": {m: "mean" for m in metrics} if len(metrics) > 1 else "mean",
                         "batched_compute": False}],
            "hf_avail_splits": ["test"], "evaluation_splits": ["test"], "few_shots_split": None,
            "few_shots_select": None, "generation_size": 256, "stop_sequence": ["\n"], "num_samples": None,
            "suite": [suite], "original_num_docs": -1, "effective_num_docs": -1,
            "must_remove_duplicate_docs": False, "num_fewshots": int(shots), "version": 0,
        }
        summary[task] = {"hashes": {"hash_examples": hashlib.sha1(f"{seed}/{task}/{len(docs)}".encode()).hexdigest()[:16],
                                    "hash_full_prompts": "ef46db3751d8e999", "hash_input_tokens": "0",
                                    "hash_cont_tokens": "0"},
                         "truncated": 0, "non_truncated": 0, "padded": 0, "non_padded": 0}
    results["all"] = dict(results[tasks[0][0]])
    return {
        "config_general": {"lighteval_sha": "?", "num_fewshot_seeds": 1, "max_samples": None, "job_id": "0",
                           "start_time": start, "end_time": start + elapsed,
                           "total_evaluation_time_secondes": str(elapsed),
                           "model_config": {"model_name": model, "provider": model.split("/")[0],
                                            "generation_parameters": {"temperature": 0, "max_new_tokens": None}},
                           "model_name": model},
        "results": results, "versions": {}, "config_tasks": config, "summary_tasks": summary,
        "summary_general": {"hashes": {}, "truncated": 0, "non_truncated": 0, "padded": 0, "non_padded": 0},
    }


def run_date(seed, model, ri):
    """The run's name: runs three hours apart, microseconds drawn."""
    started = datetime.datetime(2026, 1, 5, 9) + datetime.timedelta(hours=3 * ri)
    started += datetime.timedelta(seconds=gencommon.stream(seed, "date", model, ri).randrange(60 * 10**6) / 10**6)
    return started.isoformat(timespec="microseconds").replace(":", "-")


def main():
    ap = gencommon.parser(__doc__, 50)
    ap.add_argument("--samples", type=int, default=200, help="samples per run, split over the tasks (default 200)")
    a = ap.parse_args()
    gencommon.check_args(ap, a)
    if a.samples < len(TASKS):
        ap.error(f"--samples must be at least {len(TASKS)} (one per task)")
    tasks = plan(a.seed, a.samples)
    made = {task: documents(a.seed, task, len(docs)) for task, _, docs, _ in tasks} if a.out else None
    models = gencommon.model_names(MODELS, a.models, "acme/model-")
    truth = gencommon.Truth("lighteval", a.seed)
    for model, ri, run, orng in gencommon.each_run(a, models, truth, name=lambda m, i: run_date(a.seed, m, i)):
        outcomes = []
        for task, _, docs, _ in tasks:
            passed = [orng.random() < p for _, p in docs]
            for (doc_id, _), ok in zip(docs, passed):
                truth.record(model, run, task, doc_id, ok)
            outcomes.append(passed)
        if a.out:
            rng = gencommon.stream(a.seed, "content", model, ri)
            means = []
            for (task, metrics, docs, order), passed in zip(tasks, outcomes):
                path = os.path.join(a.out, "details", *model.split("/"), run, f"details_{task}_{run}.parquet")
                os.makedirs(os.path.dirname(path), exist_ok=True)
                mp.write(path, schema(metrics), rows(task, metrics, docs, made[task], order, passed, rng))
                means.append(sum(passed) / len(passed))
            gencommon.write_json(os.path.join(a.out, "results", *model.split("/"), f"results_{run}.json"),
                                 results_doc(model, a.seed, ri, tasks, means), 2)
            gencommon.progress(ri + 1, a.runs, 25)
    if a.expected:
        truth.print()


if __name__ == "__main__":
    main()
