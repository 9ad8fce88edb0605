#!/usr/bin/env python3
"""Write evaltally's lighteval fixtures: small made-up runs in every shape lighteval writes.

Nothing here is copied from a real file. The details files are Parquet, written as lighteval
writes them (Hugging Face `datasets` -> pyarrow, Snappy pages, dictionary encoding), so this
script needs pyarrow:

    /path/to/python-with-pyarrow testdata/shapes/lighteval/make_fixtures.py

(run from anywhere: paths are relative to this file). It rewrites, under testdata/:

    lighteval/                       the main fixture (testdata/lighteval/README.md)
    shapes/lighteval/<shape>/        one folder per catalogued shape (README.md here)
    malformed/_base/lighteval/       the good run the malformed cases are laid over
    malformed/lighteval/<case>/      a cut file, a file without metrics, a broken repr
    fuzz-regressions/lighteval/      a seed input of the `lighteval` fuzz target

Parquet bytes depend on the pyarrow version (its `created_by`); the fixtures in git were
written with pyarrow 26.0.1. Shapes and column types follow docs/formats/lighteval.md.
"""
import json
import os
import shutil

import pyarrow as pa
import pyarrow.parquet as pq

HERE = os.path.dirname(os.path.abspath(__file__))
TESTDATA = os.path.dirname(os.path.dirname(HERE))


def reset(path):
    if os.path.isdir(path):
        shutil.rmtree(path)
    os.makedirs(path)


def write_parquet(path, rows, schema=None):
    """rows as `datasets.Dataset.from_list(rows).to_parquet(path)` writes them: columns in the
    rows' key order, types inferred (all-None fields of type null), Snappy, dictionary pages."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    table = pa.Table.from_pylist(rows, schema=schema)
    pq.write_table(table, path, compression="snappy")


def write_json(path, doc):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(doc, indent=2))
        f.write("\n")


def details_path(root, model, date, task):
    return os.path.join(root, "details", *model.split("/"), date, f"details_{task}_{date}.parquet")


def results_path(root, model, date):
    return os.path.join(root, "results", *model.split("/"), f"results_{date}.json")


# ---------------------------------------------------------------------------------------------
# lighteval 0.11+: doc / metric / model_response structs

def struct_row(task, doc_id, query, choices, gold_index, answer, extracted, metrics):
    """One row as `DetailsLogger.Detail(doc, model_response, metric)` is dumped (0.11+)."""
    return {
        "doc": {
            "choices": choices,
            "fewshot_samples": [],
            "fewshot_sorting_class": None,
            "generation_grammar": None,
            "generation_size": 256,
            "gold_index": gold_index,
            "id": doc_id,
            "images": None,
            "instruction": "",
            "num_samples": 1,
            "original_query": None,
            "query": query,
            "sampling_methods": ["GENERATIVE"],
            "specific": {"extracted_golds": [choices[gold_index]], "extracted_predictions": [extracted]},
            "stop_sequences": ["\n"],
            "task_name": task,
            "unconditioned_query": None,
            "use_logits": False,
        },
        "metric": {k: metrics[k] for k in sorted(metrics)},
        "model_response": {
            "argmax_logits_eq_gold": [],
            "input": [{"content": query, "role": "user"}],
            "input_tokens": [],
            "logits": None,
            "logprobs": [],
            "output_tokens": [],
            "padded_tokens_count": 0,
            "reasonings": [],
            "text": [answer],
            "text_post_processed": [answer],
            "truncated_tokens_count": 0,
            "unconditioned_logprobs": None,
        },
    }


def results_v011(model, tasks, start=1000.0):
    """results_<date>.json as lighteval 0.11+ writes it. tasks: {name: (metric names, hash_examples)}."""
    results, config, summary = {}, {}, {}
    for task, (metrics, hash_examples) in tasks.items():
        results[task] = {}
        for m in metrics:
            results[task][m] = 0.5
            results[task][f"{m}_stderr"] = 0.1
        suite, name = (task.split("|")[0], task.split("|")[1]) if task.count("|") == 2 else ("lighteval", task.split("|")[0])
        config[task] = {
            "name": name, "prompt_function": f"{name}_prompt", "hf_repo": f"acme/{name}", "hf_subset": "default",
            "metrics": [{"metric_name": m, "higher_is_better": True, "category": "GENERATIVE",
                         "sample_level_fn": "compute", "corpus_level_fn": "mean", "batched_compute": False}
                        for m in metrics],
            "hf_revision": None, "hf_filter": None, "hf_avail_splits": ["test"], "evaluation_splits": ["test"],
            "few_shots_split": None, "few_shots_select": None, "generation_size": 256, "generation_grammar": None,
            "stop_sequence": ["\n"], "num_samples": None, "suite": [suite], "original_num_docs": -1,
            "effective_num_docs": -1, "must_remove_duplicate_docs": False, "num_fewshots": 0, "version": 0,
        }
        summary[task] = {"hashes": {"hash_examples": hash_examples, "hash_full_prompts": "ef46db3751d8e999",
                                    "hash_input_tokens": "6568f9b97f67c8b0", "hash_cont_tokens": "6568f9b97f67c8b0"},
                         "truncated": 0, "non_truncated": 0, "padded": 0, "non_padded": 0}
    results["all"] = dict(next(iter(results.values())))
    return {
        "config_general": {
            "lighteval_sha": "?", "num_fewshot_seeds": 1, "max_samples": None, "job_id": "0",
            "start_time": start, "end_time": start + 60.5, "total_evaluation_time_secondes": "60.5",
            "model_config": {"model_name": model, "generation_parameters": {"temperature": 0, "max_new_tokens": None},
                             "provider": "acme"},
            "model_name": model,
        },
        "results": results, "versions": {}, "config_tasks": config, "summary_tasks": summary,
        "summary_general": {"hashes": {"hash_examples": "0", "hash_full_prompts": "0", "hash_input_tokens": "0",
                                       "hash_cont_tokens": "0"}, "truncated": 0, "non_truncated": 0, "padded": 0,
                            "non_padded": 0},
    }


ARITH = [  # (id, question, answer): the order of rows is lighteval's shuffled one
    ("2", "What is 2 plus 2?", "4"),
    ("0", "What is 0 plus 0?", "0"),
    ("3", "What is 3 plus 3?", "6"),
    ("1", "What is 1 plus 1?", "2"),
]
QA = [("1", "Capital of France?", "Paris"), ("0", "Capital of Spain?", "Madrid"), ("2", "Capital of Italy?", "Rome")]


def arith_rows(task, passes):
    """passes: {id: bool}; a failing sample answers one more than the gold."""
    rows = []
    for doc_id, q, gold in ARITH:
        ok = passes[doc_id]
        answer = gold if ok else str(int(gold) + 1)
        rows.append(struct_row(task, doc_id, f"Question: {q}\nAnswer:", [gold], 0, f"Answer: {answer}", answer,
                               {"extractive_match": 1.0 if ok else 0.0}))
    return rows


def qa_rows(task, qem, em):
    rows = []
    for doc_id, q, gold in QA:
        answer = gold if qem[doc_id] else "Lyon"
        if qem[doc_id] and not em[doc_id]:
            answer = gold.lower() + "."
        rows.append(struct_row(task, doc_id, f"Question: {q}\nAnswer:", [gold], 0, answer, answer,
                               {"qem": 1.0 if qem[doc_id] else 0.0, "em": 1.0 if em[doc_id] else 0.0}))
    return rows


def main_fixture():
    root = os.path.join(TESTDATA, "lighteval")
    keep = os.path.join(root, "README.md")
    readme = open(keep, encoding="utf-8").read() if os.path.exists(keep) else None
    reset(root)
    if readme:
        with open(keep, "w", encoding="utf-8") as f:
            f.write(readme)
    tiny, big = "acme/tiny-7b", "acme/big-70b"
    dates = ["2025-10-01T09-00-00.000001", "2025-10-02T09-00-00.000002", "2025-10-03T09-00-00.000003"]
    # arith: 0 stable pass, 1 and 3 flaky, 2 stable fail (each run's file differs from the others)
    arith = [
        {"0": True, "1": True, "2": False, "3": False},
        {"0": True, "1": False, "2": False, "3": True},
        {"0": True, "1": True, "2": False, "3": True},
    ]
    # qa (first two runs): qem decides (configured first), em differs on 1 in the first run
    qa = [({"0": True, "1": True, "2": False}, {"0": True, "1": False, "2": False}),
          ({"0": True, "1": False, "2": False}, {"0": True, "1": False, "2": False})]
    for i, date in enumerate(dates):
        tasks = {"custom|arith|0": (["extractive_match"], "a1b2c3d4e5f60718")}
        write_parquet(details_path(root, tiny, date, "custom|arith|0"), arith_rows("custom|arith|0", arith[i]))
        if i < 2:
            tasks["custom|qa|0"] = (["qem", "em"], "0f1e2d3c4b5a6978")
            write_parquet(details_path(root, tiny, date, "custom|qa|0"), qa_rows("custom|qa|0", *qa[i]))
        write_json(results_path(root, tiny, date), results_v011(tiny, tasks, 1000.0 + i))
    date = "2025-10-01T10-30-00.500000"
    write_parquet(details_path(root, big, date, "custom|arith|0"),
                  arith_rows("custom|arith|0", {"0": True, "1": True, "2": True, "3": False}))
    write_json(results_path(root, big, date), results_v011(big, {"custom|arith|0": (["extractive_match"], "a1b2c3d4e5f60718")}))


# ---------------------------------------------------------------------------------------------
# lighteval up to 0.10: one column per Detail field

def flat_row(example, full_prompt, choices, gold, gold_index, predictions, metrics, extra=None):
    """`asdict(DetailsLogger.Detail)` of 0.8 - 0.10, `id` dropped, keys sorted."""
    row = {
        "choices": choices,
        "cont_tokens": [[1, 2]],
        "example": example,
        "full_prompt": full_prompt,
        "gold": gold,
        "gold_index": gold_index,
        "input_tokens": [[3, 4, 5]],
        "instruction": "",
        "metrics": metrics,
        "num_asked_few_shots": 0,
        "num_effective_few_shots": 0,
        "padded": [0],
        "pred_logits": [],
        "prediction_logits": [],
        "predictions": predictions,
        "specifics": None,
        "truncated": [0],
    }
    row.update(extra or {})
    return {k: row[k] for k in sorted(row)}


def results_v04(model, tasks, v08=True):
    """results_<date>.json of 0.4 - 0.10 (config_tasks keyed suite|task, `metric` a list of dicts)."""
    general = {"lighteval_sha": "?", "num_fewshot_seeds": 1, "override_batch_size": -1, "max_samples": None,
               "job_id": 0, "start_time": 2551784.22, "end_time": 2552485.22,
               "total_evaluation_time_secondes": "701.0", "model_name": model, "model_sha": "",
               "model_dtype": None, "model_size": None}
    if v08:
        general["generation_parameters"] = {"temperature": 0.0, "max_new_tokens": None}
    results, config, summary, versions = {}, {}, {}, {}
    for task, (metrics, hash_examples) in tasks.items():
        results[task] = {m: 0.5 for m in metrics} | {f"{m}_stderr": 0.1 for m in metrics}
        short = task.rsplit("|", 1)[0]
        config[short] = {"name": short.split("|")[1], "prompt_function": "prompt", "hf_repo": "acme/data",
                         "metric": [{"metric_name": m, "higher_is_better": True, "category": "8",
                                     "use_case": "1", "sample_level_fn": "compute", "corpus_level_fn": "mean"}
                                    for m in metrics],
                         "suite": [short.split("|")[0]], "original_num_docs": 4, "effective_num_docs": 4,
                         "version": 0}
        summary[task] = {"hashes": {"hash_examples": hash_examples, "hash_full_prompts": "253167becf0dfed7",
                                    "hash_input_tokens": "1", "hash_cont_tokens": "2"},
                         "truncated": 0, "non_truncated": 4, "padded": 0, "non_padded": 4,
                         "effective_few_shots": 0.0, "num_truncated_few_shots": 0}
        versions[task] = 0
    results["all"] = dict(next(iter(results.values())))
    return {"config_general": general, "results": results, "versions": versions, "config_tasks": config,
            "summary_tasks": summary, "summary_general": {"hashes": {}, "truncated": 0}}


ARC = [  # (question, choices, gold index, logprobs, acc, acc_norm)
    ("Which gas do plants take in?", [" oxygen", " carbon dioxide", " helium"], 1, [-3.1, -1.2, -5.0], 1, 1),
    ("What melts ice?", [" cold", " heat", " salt water"], 1, [-0.9, -1.4, -2.0], 0, 1),
    ("What is the Sun?", [" a planet", " a star", " a moon"], 1, [-1.0, -2.5, -3.0], 0, 0),
    ("What do bees make?", [" honey", " milk", " silk"], 0, [-0.5, -4.0, -3.5], 1, 1),
]


def arc_rows(flip=()):
    rows = []
    for i, (q, choices, gold, logprobs, acc, acc_norm) in enumerate(ARC):
        if i in flip:
            acc = 1 - acc
        prompt = f"Question: {q}\nAnswer:"
        rows.append(flat_row(prompt, prompt, choices, [choices[gold]], [gold],
                             [[lp, 1.0 if lp == max(logprobs) else 0.0] for lp in logprobs],
                             {"acc": float(acc), "acc_norm": float(acc_norm)}))
    return rows


def flat_native():
    root = os.path.join(HERE, "details-parquet-flat-native")
    reset(root)
    model, task = "acme/tiny-7b", "leaderboard|arc:challenge|25"
    for date, flip in [("2025-04-01T12-00-00.000001", ()), ("2025-04-02T12-00-00.000002", (1,))]:
        write_parquet(details_path(root, model, date, task), arc_rows(flip))
        write_json(results_path(root, model, date), results_v04(model, {task: (["acc", "acc_norm"], "5c3f2a1b0d9e8f77")}))


def flat_native_v01():
    """0.1 - 0.3: config_tasks lists Metrics members; the results file is also copied into details/<model>/."""
    root = os.path.join(HERE, "details-parquet-flat-native-v01")
    reset(root)
    model, task, date = "acme/tiny-7b", "lighteval|truthfulqa:mc|0", "2024-03-10T08-15-30.123456"
    rows = []
    for i, (q, mc1, mc2) in enumerate([("Can pigs fly?", 1, 0.81), ("Is the Moon cheese?", 0, 0.35),
                                        ("Do fish drown?", 1, 0.66), ("Is 7 prime?", 0, 0.5)]):
        prompt = f"Q: {q}\nA:"
        rows.append(flat_row(prompt, prompt, [" No.", " Yes."], [" No."], [0], [[-1.0, 1.0], [-2.0, 0.0]],
                             {"truthfulqa_mc1": float(mc1), "truthfulqa_mc2": mc2},
                             {"judement_prompt": None, "judgement": None}))
    write_parquet(details_path(root, model, date, task), rows)
    doc = results_v04(model, {task: (["truthfulqa_mc1", "truthfulqa_mc2"], "77aa55cc33ee1100")}, v08=False)
    doc["config_general"]["config"] = None
    doc["config_tasks"]["lighteval|truthfulqa:mc"]["metric"] = ["truthfulqa_mc_metrics"]
    doc["versions"] = {"all": 0, task: 0}
    write_json(results_path(root, model, date), doc)
    write_json(os.path.join(root, "details", *model.split("/"), f"results_{date}.json"), doc)


def flat_str():
    """0.4 - 0.7: every value str()-ed, so every column is a string and `metrics` a Python repr."""
    root = os.path.join(HERE, "details-parquet-flat-str")
    reset(root)
    model, date = "acme/tiny-7b", "2024-10-05T14-00-00.654321"
    gsm = [("Tom has 3 apples and buys 15. How many?", "18", "18", "{'qem': 1}"),
           ("A box holds 6 eggs. How many in 4 boxes?", "24", "20", "{'qem': 0}"),
           ("Sam reads 5 pages a day for 3 days. Pages?", "15", "15", "{'qem': 1.0}"),
           ("Half of 42 is?", "21", "21", "{'qem': np.float64(1.0)}")]
    rows = []
    for q, gold, pred, metrics in gsm:
        prompt = f"Question: {q}\nAnswer:"
        row = flat_row(prompt, prompt, [], [gold], [0], [pred], None)
        row = {k: str(v) for k, v in row.items()}
        row["metrics"] = metrics
        rows.append(row)
    write_parquet(details_path(root, model, date, "lighteval|gsm8k|5"), rows)
    wmt = []
    for src, ref, hyp in [("Hello", "Bonjour", "Salut"), ("Thank you", "Merci", "Merci")]:
        row = flat_row(src, f"English: {src}\nFrench:", [], [ref], [0], [hyp], None)
        row = {k: str(v) for k, v in row.items()}
        row["metrics"] = (f"{{'bleu': GenerativeCorpusMetricInput(golds=[{ref!r}], preds=[{hyp!r}]), "
                          f"'ter': GenerativeCorpusMetricInput(golds=[{ref!r}], preds=[{hyp!r}])}}")
        wmt.append(row)
    write_parquet(details_path(root, model, date, "lighteval|iwslt17:en-fr|0"), wmt)
    write_json(results_path(root, model, date), results_v04(model, {
        "lighteval|gsm8k|5": (["qem"], "1234abcd5678ef90"),
        "lighteval|iwslt17:en-fr|0": (["bleu", "ter"], "99aa88bb77cc66dd")}, v08=False))


def struct_no_suite():
    """0.12.1+: task names without their suite; 0.11+ metric names carry their parameters."""
    root = os.path.join(HERE, "details-parquet-struct-no-suite")
    reset(root)
    model, date = "acme/tiny-7b", "2025-11-20T16-45-00.250000"
    write_parquet(details_path(root, model, date, "gsm8k|0"),
                  arith_rows("gsm8k|0", {"0": True, "1": False, "2": True, "3": False}))
    rows = []
    for doc_id, ok in [("5", True), ("1", False), ("12", False)]:
        rows.append(struct_row("aime24|0", doc_id, f"Problem {doc_id}", ["204"], 0, "204" if ok else "17",
                               "204" if ok else "17", {"pass@k:k=1&n=1": 1.0 if ok else 0.0}))
    write_parquet(details_path(root, model, date, "aime24|0"), rows)
    write_json(results_path(root, model, date), results_v011(model, {
        "gsm8k|0": (["extractive_match"], "4b1f0e2d3c5a6978"),
        "aime24|0": (["pass@k:k=1&n=1"], "2e3f4a5b6c7d8e9f")}))


def struct_fraction():
    """A task whose first metric averages several samples per problem (pass@1 over n=4)."""
    root = os.path.join(HERE, "details-parquet-struct-fraction-metric")
    reset(root)
    model, date, task = "acme/tiny-7b", "2025-10-15T11-00-00.000100", "lighteval|math_500|0"
    rows = []
    for doc_id, value in [("7", 1.0), ("3", 0.25), ("0", 0.0), ("9", 0.5)]:
        rows.append(struct_row(task, doc_id, f"Problem {doc_id}", ["42"], 0, "42", "42", {"pass@k:k=1&n=4": value}))
    write_parquet(details_path(root, model, date, task), rows)
    write_json(results_path(root, model, date), results_v011(model, {task: (["pass@k:k=1&n=4"], "6d5c4b3a29180716")}))


def struct_two_test_sets():
    """The task's dataset changed between two runs: summary_tasks hash_examples differs."""
    root = os.path.join(HERE, "details-parquet-struct-two-test-sets")
    reset(root)
    model, task = "acme/tiny-7b", "community|quiz|0"
    for date, hash_examples, passes in [("2025-12-02T19-00-00.100000", "9419dfa387a0fead", (True, False, True)),
                                        ("2025-12-12T18-00-00.200000", "0e3d3070789c3703", (True, True, False))]:
        rows = [struct_row(task, str(i), f"Question {i} of set {hash_examples[:4]}", ["A", "B"], 0,
                           "Answer: A" if ok else "Answer: B", "A" if ok else "B",
                           {"trad_score": 1.0 if ok else 0.0, "idk_score": 1.0 if ok else -1.0})
                for i, ok in enumerate(passes)]
        write_parquet(details_path(root, model, date, task), rows)
        write_json(results_path(root, model, date), results_v011(model, {task: (["trad_score", "idk_score"], hash_examples)}))


def sanitised_names():
    """An unreleased branch's names: `|` and `:` written `__` in details file names."""
    root = os.path.join(HERE, "details-sanitised-names")
    reset(root)
    model, date, task = "acme/tiny-7b", "2025-11-05T14-43-47.148527", "community|quiz|0"
    rows = [struct_row(task, str(i), f"Question {i}", ["A", "B"], 0, "A" if ok else "B", "A" if ok else "B",
                       {"trad_score": 1.0 if ok else 0.0}) for i, ok in enumerate([True, False, True])]
    write_parquet(os.path.join(root, "details", *model.split("/"), date, f"details_community__quiz__0_{date}.parquet"), rows)
    write_json(results_path(root, model, date), results_v011(model, {task: (["trad_score"], "9419dfa387a0fead")}))


def results_only():
    """A run saved without --save-details: only results_<date>.json (0.4 - 0.10 shape)."""
    root = os.path.join(HERE, "results-json-only")
    reset(root)
    model = "acme/tiny-7b"
    for date in ["2025-03-14T23-12-53.542208", "2025-03-15T01-02-29.088363"]:
        write_json(results_path(root, model, date), results_v04(model, {"custom|aime24|0": (["extractive_match"], "ddec8fc79d0a014b")}))


# ---------------------------------------------------------------------------------------------
# the malformed corpus and a fuzz seed

def malformed():
    base = os.path.join(TESTDATA, "malformed", "_base", "lighteval")
    reset(base)
    model, date, task = "acme-7b", "2026-01-01T00-00-00.000000", "custom|arith|0"
    write_parquet(details_path(base, model, date, task), arith_rows(task, {"0": True, "1": True, "2": False, "3": False}))
    write_json(results_path(base, model, date), results_v011(model, {task: (["extractive_match"], "a1b2c3d4e5f60718")}))
    date2, task2 = "2026-01-02T00-00-00.000000", "custom|algebra|0"
    cases = os.path.join(TESTDATA, "malformed", "lighteval")
    reset(cases)
    # A file cut in the middle, as a job killed while writing leaves it.
    good = os.path.join(cases, "scratch.parquet")
    write_parquet(good, arith_rows(task2, {"0": True, "1": True, "2": True, "3": False}))
    data = open(good, "rb").read()
    os.remove(good)
    cut = details_path(os.path.join(cases, "truncated"), model, date2, task2)
    os.makedirs(os.path.dirname(cut))
    with open(cut, "wb") as f:
        f.write(data[: len(data) // 2])
    # Details without the metric column: doc and model_response only.
    rows = arith_rows(task2, {"0": True, "1": True, "2": True, "3": False})
    write_parquet(details_path(os.path.join(cases, "no-metric-column"), model, date2, task2),
                  [{"doc": r["doc"], "model_response": r["model_response"]} for r in rows])
    # 0.4 - 0.7 text columns whose metrics repr is cut short in one row.
    rows = []
    for i, metrics in enumerate(["{'qem': 1}", "{'qem': 0", "{'qem': 1}"]):
        row = {k: str(v) for k, v in flat_row(f"Q{i}", f"Q{i}", [], ["1"], [0], ["1"], None).items()}
        row["metrics"] = metrics
        rows.append(row)
    # Its other rows are read, so it is another model's run: the good model's stays as it was.
    write_parquet(details_path(os.path.join(cases, "metrics-repr-cut"), "acme-13b", date2, task2), rows)
    # JSON under a details file's name.
    not_parquet = details_path(os.path.join(cases, "not-parquet"), model, date2, task2)
    os.makedirs(os.path.dirname(not_parquet))
    with open(not_parquet, "w") as f:
        f.write('{"doc": {"id": "0"}, "metric": {"acc": 1}}\n')
    seeds = os.path.join(TESTDATA, "fuzz-regressions", "lighteval")
    reset(seeds)
    # A footer whose length points before the start of the file.
    with open(os.path.join(seeds, "footer-longer-than-the-file"), "wb") as f:
        f.write(b"PAR1" + b"\x15\x00" + (0x7FFFFFF0).to_bytes(4, "little") + b"PAR1")


if __name__ == "__main__":
    main_fixture()
    flat_native()
    flat_native_v01()
    flat_str()
    struct_no_suite()
    struct_fraction()
    struct_two_test_sets()
    sanitised_names()
    results_only()
    malformed()
