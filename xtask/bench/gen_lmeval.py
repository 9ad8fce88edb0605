#!/usr/bin/env python3
"""Generate a deterministic synthetic workload of lm-evaluation-harness sample logs: per run one
`samples_<task>_<date>.jsonl` per task and the `results_<date>.json` beside them, every run
holding the same documents, in the shape lm-eval 0.4.7 and later write with --log_samples
(`samples-jsonl-metrics` in docs/formats/lmeval.md).

Layout: OUT_DIR/<model>/samples_<task>_<date>.jsonl and OUT_DIR/<model>/results_<date>.json,
<model> being the model's `model_name_sanitized` (`meta-llama__Llama-3.1-8B-Instruct`): what
`lm_eval --output_path OUT_DIR --log_samples` writes, run after run, into the same folder.

A run is one lm_eval invocation: its date (`2026-01-05T09-00-00.123456`, `datetime.now()` with
`:` as `-`) names it, and every file it writes carries that date. The runs of a model are hours
apart, so their names sort in the order they ran. Tasks, the categories: gsm8k (generate_until,
5-shot, `exact_match` under the filters `strict-match` and `flexible-extract`: each document is
written once per filter, filter by filter, and is two tests, `<doc_id>/strict-match` and
`<doc_id>/flexible-extract`), arc_challenge and hellaswag (multiple_choice, `acc` and
`acc_norm`), and five mmlu subjects (multiple_choice, `acc`; the results file has the `mmlu`
group too). A line has exactly the keys lm-eval writes: doc_id, doc, target, arguments
({gen_args_<i>: {arg_0, arg_1}}), resps and filtered_resps (stringified: log-likelihoods as
`["-12.3", "False"]`), filter, metrics, doc_hash, prompt_hash, target_hash (sha256 as lm-eval
computes them), then the metric values (1.0 / 0.0); it is written with
json.dumps(ensure_ascii=False). A gsm8k line is 4-5 KB (its arg_0 holds the five examples), a
multiple-choice line 1-4 KB (the prompt again in every gen_args_<i>); --docs is split
20/15/20 % over gsm8k, arc_challenge, hellaswag and 8-10 % over each mmlu subject. The first metric a line names (`exact_match` or `acc`) decides
pass or fail; `acc_norm` is what the log-likelihoods give and may differ. The results file is
json.dumps(indent=2) of the aggregate results as 0.4.9 writes them: results per task (with the
accuracy and its stderr of this run), groups, configs, versions, n-shot, higher_is_better,
n-samples, config, pretty_env_info, task_hashes, model_name, model_name_sanitized and the rest.

See gencommon.py for the command line shared by all generators and the ground truth (--expected).

Usage:
  gen_lmeval.py --runs 50 --docs 200 --seed 7 OUT_DIR [--expected > truth.json]
"""
import datetime
import hashlib
import json
import math
import os

import gencommon

MODELS = ["meta-llama/Llama-3.1-8B-Instruct", "Qwen/Qwen2.5-7B-Instruct", "mistralai/Mistral-7B-Instruct-v0.3"]
# (task, share of the documents); gsm8k's documents are two tests each
TASKS = [("gsm8k", 0.2), ("arc_challenge", 0.15), ("hellaswag", 0.2), ("mmlu_abstract_algebra", 0.08),
         ("mmlu_college_biology", 0.09), ("mmlu_high_school_physics", 0.1), ("mmlu_professional_law", 0.1),
         ("mmlu_world_religions", 0.08)]
GSM8K_FILTERS = ["strict-match", "flexible-extract"]
NAMES = "Natalia Weng Betty Julie James Albert Ken Alexis Tina Randy Joy Mark Carla Marie Greta".split()
ITEMS = ("clips apples cupcakes pages stamps marbles tickets eggs books pencils cookies shells coins "
         "stickers baskets bottles").split()
WORDS = ("the a of to in and is was for that with as by on from at which this be are an it or "
         "energy force particle cell membrane protein enzyme group ring field velocity charge mass "
         "court contract plaintiff defendant statute liability evidence temple scripture prophet "
         "ritual doctrine pilgrimage water plant animal light heat rock soil weather season student "
         "teacher experiment result sample measure change increase decrease cause effect system "
         "surface pressure temperature orbit planet moon magnet current circuit gene trait").split()
SUBJECTS = {"mmlu_abstract_algebra": "abstract algebra", "mmlu_college_biology": "college biology",
            "mmlu_high_school_physics": "high school physics", "mmlu_professional_law": "professional law",
            "mmlu_world_religions": "world religions"}
ACTIVITIES = ["Roof shingle removal", "Clean and jerk", "Canoeing", "Making a sandwich", "Personal Care and Style",
              "Home and Garden", "Baking cookies", "Playing harmonica", "Washing dishes", "Finance and Business"]
ENV_INFO = ("PyTorch version: 2.5.1+cu124\nIs debug build: False\nCUDA used to build PyTorch: 12.4\nROCM used to "
            "build PyTorch: N/A\n\nOS: Ubuntu 22.04.4 LTS (x86_64)\nGCC version: (Ubuntu 11.4.0-1ubuntu1~22.04) "
            "11.4.0\nClang version: Could not collect\nCMake version: version 3.30.2\nLibc version: glibc-2.35\n\n"
            "Python version: 3.11.10 (main, Sep  7 2024, 18:35:41) [GCC 11.4.0] (64-bit runtime)\nPython platform: "
            "Linux-5.15.0-119-generic-x86_64-with-glibc2.35\nIs CUDA available: True\nCUDA runtime version: "
            "12.4.131\nCUDA_MODULE_LOADING set to: LAZY\nGPU models and configuration: \n"
            + "".join(f"GPU {i}: NVIDIA H100 80GB HBM3\n" for i in range(8))
            + "\nNvidia driver version: 550.90.07\ncuDNN version: Could not collect\nHIP runtime version: N/A\n"
            "MIOpen runtime version: N/A\nIs XNNPACK available: True\n\nCPU:\nArchitecture:                       "
            "x86_64\nCPU op-mode(s):                     32-bit, 64-bit\nAddress sizes:                      52 "
            "bits physical, 57 bits virtual\nByte Order:                         Little Endian\nCPU(s):          "
            "                   224\nOn-line CPU(s) list:                0-223\nVendor ID:                       "
            "   GenuineIntel\nModel name:                         Intel(R) Xeon(R) Platinum 8480+\n\nVersions of "
            "relevant libraries:\n[pip3] numpy==1.26.4\n[pip3] torch==2.5.1\n[pip3] triton==3.1.0\n[conda] Could "
            "not collect")


def sha256(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def sentence(rng, k):
    s = " ".join(rng.choice(WORDS) for _ in range(k))
    return s[0].upper() + s[1:] + "."


def gsm8k_problem(rng):
    """(question, answer with its <<calculations>> and `#### N`, N)."""
    name, item = rng.choice(NAMES), rng.choice(ITEMS)
    a, b, c = rng.randrange(12, 96), rng.randrange(2, 9), rng.randrange(3, 40)
    total = a * b + c
    question = (f"{name} sold {item} to {a} of her friends in April, {b} {item} to each, and then she sold {c} "
                f"more {item} in May. {sentence(rng, rng.randrange(8, 20))} How many {item} did {name} sell "
                f"altogether in April and May?")
    answer = (f"{name} sold {a} * {b} = <<{a}*{b}={a * b}>>{a * b} {item} in April.\n"
              f"{sentence(rng, rng.randrange(6, 14))}\n"
              f"{name} sold {a * b} + {c} = <<{a * b}+{c}={total}>>{total} {item} altogether in April and May.\n"
              f"#### {total}")
    return question, answer, total


def fewshot_block(seed):
    """The 5 gsm8k examples every prompt starts with (lm-eval's first_n sampler: the same for all)."""
    rng = gencommon.stream(seed, "fewshot")
    shots = [gsm8k_problem(rng) for _ in range(5)]
    return "".join(f"Question: {q}\nAnswer: {a}\n\n" for q, a, _ in shots)


def make_doc(seed, task, i, fewshot):
    """One document of `task`: (doc, target, arguments as lm-eval logs them, choices, gold,
    doc_hash, prompt_hash, target_hash)."""
    rng = gencommon.stream(seed, "doc", task, i)
    if task == "gsm8k":
        q, a, total = gsm8k_problem(rng)
        doc = {"question": q, "answer": a}
        prompt = f"{fewshot}Question: {q}\nAnswer:"
        args = {"gen_args_0": {"arg_0": prompt, "arg_1": {"until": ["Question:", "</s>", "<|im_end|>"],
                                                          "do_sample": False, "temperature": 0.0}}}
        target, choices, gold, answer = a, None, None, total
    elif task == "arc_challenge":
        choices = [sentence(rng, rng.randrange(2, 9))[:-1].lower() for _ in range(4)]
        gold = rng.randrange(4)
        q = sentence(rng, rng.randrange(12, 40))[:-1] + "?"
        doc = {"id": f"{rng.choice(['Mercury', 'MCAS', 'NYSEDREGENTS', 'TIMSS', 'VASoL'])}_{rng.randrange(10**6, 10**7)}",
               "question": q, "choices": {"text": choices, "label": ["A", "B", "C", "D"]}, "answerKey": "ABCD"[gold]}
        prompt = f"Question: {q}\nAnswer:"
        target, answer = gold, None
    elif task == "hellaswag":
        label = rng.choice(ACTIVITIES)
        ctx_a, ctx_b = sentence(rng, rng.randrange(10, 30)), sentence(rng, rng.randrange(2, 6))[:-1].lower()
        endings = [sentence(rng, rng.randrange(8, 24)).lower() for _ in range(4)]
        gold = rng.randrange(4)
        ctx = f"{ctx_a} {ctx_b[0].upper()}{ctx_b[1:]}"
        prompt = f"{label}: {ctx}"
        doc = {"ind": rng.randrange(10, 50000), "activity_label": label, "ctx_a": ctx_a, "ctx_b": ctx_b, "ctx": ctx,
               "endings": endings, "source_id": f"activitynet~v_{rng.getrandbits(40):010x}", "split": "val",
               "split_type": rng.choice(["indomain", "zeroshot"]), "label": str(gold), "query": prompt,
               "choices": endings, "gold": gold}
        choices, target, answer = endings, gold, None
    else:
        subject = SUBJECTS[task]
        options = [sentence(rng, rng.randrange(1, 12))[:-1] for _ in range(4)]
        gold = rng.randrange(4)
        q = " ".join(sentence(rng, rng.randrange(10, 30)) for _ in range(rng.randrange(1, 4 if "law" not in task else 9)))
        doc = {"question": q, "subject": subject.replace(" ", "_"), "choices": options, "answer": gold}
        prompt = (f"The following are multiple choice questions (with answers) about {subject}.\n\n{q}\n"
                  + "".join(f"{l}. {o}\n" for l, o in zip("ABCD", options)) + "Answer:")
        choices, target, answer = ["A", "B", "C", "D"], gold, None
    if choices is not None:
        args = {f"gen_args_{k}": {"arg_0": prompt, "arg_1": f" {c}"} for k, c in enumerate(choices)}
    doc_hash = sha256(json.dumps(doc, indent=2, ensure_ascii=False))
    return {"doc": doc, "target": str(target), "arguments": args, "choices": choices, "gold": gold, "answer": answer,
            "hashes": (doc_hash, sha256(prompt), sha256(str(target)))}


def plan(seed, n_docs):
    """[(task, [(doc_id, [(test id, filter, p)], ...)])]: every document of every task, with its
    tests (one per filter) and their hidden pass probabilities."""
    rng = gencommon.stream(seed, "plan")
    counts = gencommon.shares(TASKS, n_docs)
    n_tests = sum(n * (len(GSM8K_FILTERS) if task == "gsm8k" else 1) for task, n in counts)
    probabilities = iter(gencommon.probabilities(rng, n_tests))
    tasks = []
    for task, n in counts:
        filters = GSM8K_FILTERS if task == "gsm8k" else ["none"]
        docs = [(i, [(str(i) if f == "none" else f"{i}/{f}", f, next(probabilities)) for f in filters]) for i in range(n)]
        tasks.append((task, docs))
    return tasks


def task_config(task, model):
    """What the results file's `configs` holds for `task` (lm-eval adds the model's arguments
    to every task's metadata)."""
    model_meta = {"pretrained": model, "dtype": "bfloat16"}
    common = {"task": task, "dataset_path": "openai/gsm8k", "test_split": "test", "unsafe_code": False,
              "description": "", "target_delimiter": " ", "fewshot_delimiter": "\n\n"}
    if task == "gsm8k":
        return {**common, "tag": ["math_word_problems"], "dataset_name": "main", "training_split": "train",
                "fewshot_split": "train", "doc_to_text": "Question: {{question}}\nAnswer:", "doc_to_target": "{{answer}}",
                "num_fewshot": 5,
                "metric_list": [{"metric": "exact_match", "aggregation": "mean", "higher_is_better": True,
                                 "ignore_case": True, "ignore_punctuation": False,
                                 "regexes_to_ignore": [",", "\\$", "(?s).*#### ", "\\.$"]}],
                "output_type": "generate_until",
                "generation_kwargs": {"until": ["Question:", "</s>", "<|im_end|>"], "do_sample": False, "temperature": 0.0},
                "repeats": 1,
                "filter_list": [{"name": "strict-match", "filter": [{"function": "regex", "regex_pattern": "#### (\\-?[0-9\\.\\,]+)"},
                                                                    {"function": "take_first"}]},
                                {"name": "flexible-extract", "filter": [{"function": "regex", "group_select": -1,
                                                                         "regex_pattern": "(-?[$0-9.,]{2,})|(-?[0-9]+)"},
                                                                        {"function": "take_first"}]}],
                "should_decontaminate": False, "metadata": {"version": 3.0, **model_meta}}
    metrics = [{"metric": "acc", "aggregation": "mean", "higher_is_better": True}]
    if task in ("arc_challenge", "hellaswag"):
        metrics.append({"metric": "acc_norm", "aggregation": "mean", "higher_is_better": True})
    if task == "arc_challenge":
        extra = {"tag": ["ai2_arc"], "dataset_path": "allenai/ai2_arc", "dataset_name": "ARC-Challenge",
                 "training_split": "train", "validation_split": "validation",
                 "doc_to_text": "Question: {{question}}\nAnswer:", "doc_to_target": "{{choices.label.index(answerKey)}}",
                 "doc_to_choice": "{{choices.text}}", "should_decontaminate": True,
                 "doc_to_decontamination_query": "Question: {{question}}\nAnswer:"}
    elif task == "hellaswag":
        extra = {"tag": ["multiple_choice"], "dataset_path": "Rowan/hellaswag", "training_split": "train",
                 "validation_split": "validation", "test_split": None,
                 "process_docs": "def process_docs(dataset: datasets.Dataset) -> datasets.Dataset:\n    def _process_doc(doc):\n        ctx = doc[\"ctx_a\"] + \" \" + doc[\"ctx_b\"].capitalize()\n        out_doc = {\n            \"query\": preprocess(doc[\"activity_label\"] + \": \" + ctx),\n            \"choices\": [preprocess(ending) for ending in doc[\"endings\"]],\n            \"gold\": int(doc[\"label\"]),\n        }\n        return {**doc, **out_doc}\n\n    return dataset.map(_process_doc)\n",
                 "doc_to_text": "{{query}}", "doc_to_target": "{{label}}", "doc_to_choice": "choices",
                 "should_decontaminate": False}
    else:
        subject = SUBJECTS[task]
        extra = {"tag": f"mmlu_{'humanities' if subject in ('professional law', 'world religions') else 'stem'}_tasks",
                 "dataset_path": "cais/mmlu", "dataset_name": task[len("mmlu_"):], "fewshot_split": "dev",
                 "doc_to_text": "{{question.strip()}}\nA. {{choices[0]}}\nB. {{choices[1]}}\nC. {{choices[2]}}\nD. {{choices[3]}}\nAnswer:",
                 "doc_to_target": "answer", "doc_to_choice": ["A", "B", "C", "D"],
                 "description": f"The following are multiple choice questions (with answers) about {subject}.\n\n",
                 "fewshot_config": {"sampler": "first_n"}, "should_decontaminate": False}
    return {**common, **extra, "num_fewshot": 0, "metric_list": metrics, "output_type": "multiple_choice",
            "repeats": 1, "metadata": {"version": 1.0, **model_meta}}


def lines(task, docs, made, outcomes, rng):
    """The lines of one samples file and {metric,filter: [values]} for the results file."""
    out = []
    values = {}
    filters = GSM8K_FILTERS if task == "gsm8k" else ["none"]
    responses = {}
    for k, f in enumerate(filters):
        for (doc_id, tests), passed in zip(docs, outcomes):
            d = made[doc_id]
            ok = passed[k]
            if task == "gsm8k":
                if doc_id not in responses:
                    steps = "\n".join(sentence(rng, rng.randrange(6, 18)) for _ in range(rng.randrange(2, 6)))
                    responses[doc_id] = (f" {steps}\nSo the answer is {d['answer'] if any(passed) else d['answer'] + rng.randrange(1, 9)}."
                                         f"\n#### {d['answer'] if passed[0] else rng.randrange(1, 500)}")
                resp = responses[doc_id]
                if ok:
                    got = str(d["answer"])
                else:
                    got = "[invalid]" if f == "strict-match" and rng.random() < 0.5 else str(d["answer"] + rng.randrange(1, 50))
                line = {"doc_id": doc_id, "doc": d["doc"], "target": d["target"], "arguments": d["arguments"],
                        "resps": [[resp]], "filtered_resps": [got], "filter": f, "metrics": ["exact_match"]}
                metrics = {"exact_match": 1.0 if ok else 0.0}
            else:
                n = len(d["choices"])
                lls = [-rng.uniform(2.0, 40.0) for _ in range(n)]
                best = max(range(n), key=lls.__getitem__)
                gold = d["gold"]
                if ok and best != gold:
                    lls[gold], lls[best] = lls[best], lls[gold]
                elif not ok and best == gold:
                    other = (gold + 1 + rng.randrange(n - 1)) % n
                    lls[gold] = lls[other] - rng.uniform(0.01, 3.0)
                best = max(range(n), key=lls.__getitem__)
                greedy = [str(rng.random() < 0.3 and i == best) for i in range(n)]
                pairs = [[repr(ll), g] for ll, g in zip(lls, greedy)]
                line = {"doc_id": doc_id, "doc": d["doc"], "target": d["target"], "arguments": d["arguments"],
                        "resps": [[p] for p in pairs], "filtered_resps": pairs, "filter": f}
                metrics = {"acc": 1.0 if best == gold else 0.0}
                if task in ("arc_challenge", "hellaswag"):
                    lengths = [len(c) + 1 for c in d["choices"]]
                    norm = max(range(n), key=lambda i: lls[i] / lengths[i])
                    metrics["acc_norm"] = 1.0 if norm == gold else 0.0
                line["metrics"] = list(metrics)
            line["doc_hash"], line["prompt_hash"], line["target_hash"] = d["hashes"]
            line.update(metrics)
            for m, v in metrics.items():
                values.setdefault(f"{m},{f}", []).append(v)
            out.append(json.dumps(line, ensure_ascii=False) + "\n")
    return "".join(out), values


def results_doc(model, seed, ri, started, tasks, per_task, n_docs_by_task):
    results, configs, versions, nshot, hib, nsamples, hashes = {}, {}, {}, {}, {}, {}, {}
    for (task, docs), values in zip(tasks, per_task):
        entry = {"alias": task if not task.startswith("mmlu_") else f"  - {SUBJECTS[task]}"}
        for key, vs in values.items():
            metric, f = key.split(",")
            mean = sum(vs) / len(vs)
            entry[key] = mean
            entry[f"{metric}_stderr,{f}"] = math.sqrt(mean * (1 - mean) / (len(vs) - 1)) if len(vs) > 1 else "N/A"
        results[task] = entry
        configs[task] = task_config(task, model)
        versions[task] = 3.0 if task == "gsm8k" else 1.0
        nshot[task] = 5 if task == "gsm8k" else 0
        hib[task] = {"exact_match": True} if task == "gsm8k" else {m["metric"]: True for m in configs[task]["metric_list"]}
        nsamples[task] = {"original": n_docs_by_task[task], "effective": len(docs)}
        hashes[task] = sha256(f"{seed}/{task}/{len(docs)}")
    mmlu = [t for t, _ in tasks if t.startswith("mmlu_")]
    accs = [results[t]["acc,none"] for t in mmlu]
    rng = gencommon.stream(seed, "results", model, ri)
    elapsed = rng.uniform(600, 3600)
    start = rng.uniform(10**5, 10**7)
    return {
        "results": results,
        "groups": {"mmlu": {"acc,none": sum(accs) / len(accs), "acc_stderr,none": rng.uniform(0.003, 0.01),
                            "alias": "mmlu"}},
        "group_subtasks": {**{t: [] for t, _ in tasks if not t.startswith("mmlu_")}, "mmlu": mmlu},
        "configs": configs,
        "versions": {**versions, "mmlu": 2},
        "n-shot": nshot,
        "higher_is_better": {**hib, "mmlu": {"acc": True}},
        "n-samples": nsamples,
        "config": {"model": "hf", "model_args": f"pretrained={model},dtype=bfloat16", "model_num_parameters": 8030261248,
                   "model_dtype": "torch.bfloat16", "model_revision": "main",
                   "model_sha": hashlib.sha1(model.encode()).hexdigest(), "batch_size": "auto", "batch_sizes": [64],
                   "device": "cuda:0", "use_cache": None, "limit": None, "bootstrap_iters": 100000, "gen_kwargs": None,
                   "random_seed": 0, "numpy_seed": 1234, "torch_seed": 1234, "fewshot_seed": 1234},
        "git_hash": f"{gencommon.stream(seed, 'git').getrandbits(28):07x}",
        "date": started.replace(tzinfo=datetime.timezone.utc).timestamp(),
        "pretty_env_info": ENV_INFO,
        "transformers_version": "4.46.3",
        "lm_eval_version": "0.4.9.2",
        "upper_git_hash": None,
        "tokenizer_pad_token": ["<|eot_id|>", "128009"],
        "tokenizer_eos_token": ["<|eot_id|>", "128009"],
        "tokenizer_bos_token": ["<|begin_of_text|>", "128000"],
        "eot_token_id": 128009,
        "max_length": 131072,
        "task_hashes": hashes,
        "model_source": "hf",
        "model_name": model,
        "model_name_sanitized": sanitized(model),
        "system_instruction": None,
        "system_instruction_sha": None,
        "fewshot_as_multiturn": False,
        "chat_template": None,
        "chat_template_sha": None,
        "start_time": start,
        "end_time": start + elapsed,
        "total_evaluation_time_seconds": str(elapsed),
    }


def sanitized(model):
    return model.replace("/", "__")


def run_date(seed, model, ri):
    """(the run's name, when it started): runs three hours apart, microseconds drawn."""
    started = datetime.datetime(2026, 1, 5, 9) + datetime.timedelta(hours=3 * ri)
    started += datetime.timedelta(seconds=gencommon.stream(seed, "date", model, ri).randrange(60 * 10**6) / 10**6)
    return started.isoformat(timespec="microseconds").replace(":", "-"), started


def main():
    ap = gencommon.parser(__doc__, 50)
    ap.add_argument("--docs", type=int, default=200,
                    help="documents per run, split over the tasks (default 200; gsm8k's count twice as tests)")
    a = ap.parse_args()
    gencommon.check_args(ap, a)
    if a.docs < len(TASKS):
        ap.error(f"--docs must be at least {len(TASKS)} (one per task)")
    tasks = plan(a.seed, a.docs)
    made = None
    if a.out:
        fewshot = fewshot_block(a.seed)
        made = {task: [make_doc(a.seed, task, i, fewshot) for i, _ in docs] for task, docs in tasks}
    full_size = {"gsm8k": 1319, "arc_challenge": 1172, "hellaswag": 10042, "mmlu_abstract_algebra": 100,
                 "mmlu_college_biology": 144, "mmlu_high_school_physics": 151, "mmlu_professional_law": 1534,
                 "mmlu_world_religions": 171}
    models = gencommon.model_names(MODELS, a.models, "acme/model-")
    truth = gencommon.Truth("lmeval", a.seed)
    for model, ri, run, orng in gencommon.each_run(a, models, truth, name=lambda m, i: run_date(a.seed, m, i)[0]):
        outcomes = []
        for task, docs in tasks:
            per_doc = []
            for _, tests in docs:
                passed = [orng.random() < p for _, _, p in tests]
                for (test, _, _), ok in zip(tests, passed):
                    truth.record(model, run, task, test, ok)
                per_doc.append(passed)
            outcomes.append(per_doc)
        if a.out:
            folder = os.path.join(a.out, sanitized(model))
            os.makedirs(folder, exist_ok=True)
            rng = gencommon.stream(a.seed, "content", model, ri)
            per_task = []
            for (task, docs), per_doc in zip(tasks, outcomes):
                text, values = lines(task, docs, made[task], per_doc, rng)
                per_task.append(values)
                with open(os.path.join(folder, f"samples_{task}_{run}.jsonl"), "w", encoding="utf-8") as f:
                    f.write(text)
            doc = results_doc(model, a.seed, ri, run_date(a.seed, model, ri)[1], tasks, per_task,
                              {t: max(full_size[t], len(d)) for t, d in tasks})
            with open(os.path.join(folder, f"results_{run}.json"), "w", encoding="utf-8") as f:
                f.write(json.dumps(doc, indent=2, ensure_ascii=False))
            gencommon.progress(ri + 1, a.runs, 50)
    if a.expected:
        truth.print()


if __name__ == "__main__":
    main()
