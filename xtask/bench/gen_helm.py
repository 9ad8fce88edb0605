#!/usr/bin/env python3
"""Generate a deterministic synthetic workload of HELM run folders: one suite per run, as
`helm-run --suite run-0001 ...` writes it, every suite running the same run specs (a HELM
Lite-like set: five MMLU subjects, OpenBookQA, MedQA, two LegalBench subsets and NarrativeQA)
over the same instances.

Layout: OUT_DIR/runs/run-0001/<run spec>/{run_spec.json, scenario.json, scenario_state.json,
stats.json, per_instance_stats.json} ..., OUT_DIR standing for HELM's benchmark_output and the
run spec folders named as HELM names them, `:` included
(`mmlu:subject=econometrics,method=multiple_choice_joint,model=meta_llama-3.1-8b-instruct-turbo`).
With --models 2 or more each suite holds every model's run spec folders, as one helm-run over
several models writes them.

The five files are what Runner.run_one() of crfm-helm 0.5 writes (docs/formats/helm.md, shape
`per-instance-stats`; testdata/helm; ../shared/refdata/evals/every_eval_ever/tests/data/helm),
each json.dumps(..., indent=2): per_instance_stats.json, a list of {instance_id,
train_trial_index, stats} with every Stat written in full (name {name, split}, count, sum,
sum_squared, min, max, mean, variance, stddev; the training_* costs with count 0 and no mean):
the token counts, runtime and finish reasons, exact_match, quasi_exact_match,
prefix_exact_match, quasi_prefix_exact_match, logprob and the byte counts, and for NarrativeQA
f1_score, rouge_l, bleu_1 and bleu_4 too; run_spec.json (name, scenario_spec, adapter_spec with
model and model_deployment, metric_specs, data_augmenter_spec, groups); scenario.json;
scenario_state.json (adapter_spec and one request state per instance: the instance with its
references, the full few-shot prompt, the completion); stats.json (the per-instance stats
aggregated). evaltally reads per_instance_stats.json with the run_spec.json beside it and skips
the other three (counted in one `note:` line on stderr); they are written so that walking a
folder costs what it costs on a real one.

How evaltally names what it reads (the catalogue): the model is adapter_spec.model, the category
the run spec's name without its `model=` argument (`mmlu:subject=econometrics,method=
multiple_choice_joint`, `med_qa`), a test the instance id (`id1437`). A test passes when its
exact_match mean is 1; every instance here has exact_match (a failed one now and then has
quasi_exact_match 1, which does not count), none is perturbed and none unscored. Each train
trial is a run named `<run folder>#trial-<n>`; one train trial per suite (num_train_trials 1,
as HELM Lite runs), and since every suite holds the same run folders, evaltally tells them apart
by the suite: the runs of a category are `run-0001/<run spec>#trial-0`, `run-0002/...` (with a
single run, `<run spec>#trial-0`), so a model has one run per (suite, run spec).

See gencommon.py for the command line shared by all generators and the ground truth (--expected).

Usage:
  gen_helm.py --runs 10 --instances 200 --seed 7 OUT_DIR [--expected > truth.json]
"""
import os

import gencommon

MODELS = [("meta/llama-3.1-8b-instruct-turbo", "together/llama-3.1-8b-instruct-turbo"),
          ("mistralai/mistral-7b-instruct-v0.3", "together/mistral-7b-instruct-v0.3"),
          ("qwen/qwen2.5-7b-instruct-turbo", "together/qwen2.5-7b-instruct-turbo")]

# Run spec (name without the model), scenario class, its args, group, weight, kind.
MC, QA = "multiple_choice", "generation"
SCENARIOS = [("mmlu:subject=abstract_algebra,method=multiple_choice_joint", "mmlu_scenario.MMLUScenario",
              {"subject": "abstract_algebra"}, "mmlu", 0.07, MC),
             ("mmlu:subject=college_chemistry,method=multiple_choice_joint", "mmlu_scenario.MMLUScenario",
              {"subject": "college_chemistry"}, "mmlu", 0.07, MC),
             ("mmlu:subject=computer_security,method=multiple_choice_joint", "mmlu_scenario.MMLUScenario",
              {"subject": "computer_security"}, "mmlu", 0.07, MC),
             ("mmlu:subject=econometrics,method=multiple_choice_joint", "mmlu_scenario.MMLUScenario",
              {"subject": "econometrics"}, "mmlu", 0.07, MC),
             ("mmlu:subject=us_foreign_policy,method=multiple_choice_joint", "mmlu_scenario.MMLUScenario",
              {"subject": "us_foreign_policy"}, "mmlu", 0.07, MC),
             ("commonsense:dataset=openbookqa,method=multiple_choice_joint", "commonsense_scenario.OpenBookQA",
              {}, "openbookqa", 0.15, MC),
             ("med_qa", "med_qa_scenario.MedQAScenario", {}, "med_qa", 0.15, MC),
             ("legalbench:subset=abercrombie", "legalbench_scenario.LegalBenchScenario",
              {"subset": "abercrombie"}, "legalbench", 0.07, QA),
             ("legalbench:subset=corporate_lobbying", "legalbench_scenario.LegalBenchScenario",
              {"subset": "corporate_lobbying"}, "legalbench", 0.08, QA),
             ("narrative_qa", "narrativeqa_scenario.NarrativeQAScenario", {}, "narrative_qa", 0.2, QA)]
DESCRIPTIONS = {"mmlu": ("The Massive Multitask Language Understanding benchmark for knowledge-intensive question "
                         "answering across 57 domains.", ["knowledge", "multiple_choice"]),
                "openbookqa": ("The OpenbookQA benchmark for commonsense-intensive open book question answering.",
                               ["knowledge", "multiple_choice"]),
                "med_qa": ("MedQA is an open domain question answering dataset composed of questions from "
                           "professional medical board exams.", ["knowledge", "multiple_choice", "biomedical"]),
                "legalbench": ("LegalBench is a large collaboratively constructed benchmark of legal reasoning "
                               "tasks.", ["text_classification", "legal"]),
                "narrative_qa": ("The NarrativeQA benchmark for reading comprehension over narratives.",
                                 ["question_answering"])}
WORDS = ("analysis argument assumption balance boundary capital catalyst chamber charge coefficient "
         "concentration constraint contract court covenant creditor defendant demand density doctrine "
         "dosage effect electron element equilibrium estimate evidence exposure factor function gradient "
         "group hypothesis income inflation interest isotope kernel lattice liability market matrix "
         "measure membrane method model molecule monopoly motion network neutron oxide patient pressure "
         "principle protocol reaction regression remedy reserve residual sample sanction sequence "
         "solution solvent statute subgroup subsidy symptom tariff theorem treaty variable vector velocity").split()
SMALL = ("the a of in to for with by on at from which that this its each".split())
NAMES = ["Maria", "Tom", "the captain", "Elena", "the old king", "Jonas", "the doctor", "Ada", "the stranger"]
LABELS = ["generic", "descriptive", "suggestive", "arbitrary", "fanciful"]


def sentence(rng, lo=8, hi=20):
    words = [rng.choice(SMALL) if rng.random() < 0.3 else rng.choice(WORDS) for _ in range(rng.randrange(lo, hi))]
    return " ".join(words).capitalize() + "."


def prose(rng, n_chars):
    out = []
    while sum(len(s) + 1 for s in out) < n_chars:
        out.append(sentence(rng))
    return " ".join(out)


def item(kind, name, rng):
    """(input text, references [(text, correct)]) of one instance."""
    if name.startswith("narrative_qa"):
        story = prose(rng, rng.randrange(1800, 3200)).replace(" the ", f" {rng.choice(NAMES)} ", 3)
        question = f"Why does {rng.choice(NAMES)} {rng.choice(WORDS)} the {rng.choice(WORDS)}?"
        answers = [sentence(rng, 4, 10)[:-1], sentence(rng, 4, 10)[:-1]]
        return f"{story}\nQuestion: {question}", [(a, True) for a in answers]
    if name.startswith("legalbench:subset=abercrombie"):
        mark = f"The mark \"{rng.choice(WORDS).capitalize()}\" for {rng.choice(WORDS)}s."
        right = rng.choice(LABELS)
        return f"Description: {mark}", [(label, label == right) for label in LABELS]
    if name.startswith("legalbench"):
        bill = f"Bill title: {sentence(rng, 6, 12)}\nBill summary: {prose(rng, rng.randrange(300, 700))}"
        company = (f"Company name: {rng.choice(WORDS).capitalize()} Corp\n"
                   f"Company business description: {prose(rng, 250)}")
        right = rng.random() < 0.5
        return f"{bill}\n{company}", [("Yes", right), ("No", not right)]
    n = 5 if name.startswith("med_qa") else 4
    right = rng.randrange(n)
    choices = [sentence(rng, 2, 9)[:-1] for _ in range(n)]
    return sentence(rng, 12, 40)[:-1] + "?", [(c, i == right) for i, c in enumerate(choices)]


def plan(seed, n_instances):
    """[(run spec without model, scenario, instructions, train examples, [(instance id, input,
    references, pass probability)])] in SCENARIOS order."""
    rng = gencommon.stream(seed, "plan")
    probabilities = iter(gencommon.probabilities(rng, n_instances))
    counts = dict(gencommon.shares([(s[0], s[4]) for s in SCENARIOS], n_instances))
    out = []
    for scenario in SCENARIOS:
        name, kind = scenario[0], scenario[5]
        if name not in counts:
            continue
        numbers = rng.sample(range(2000), counts[name])
        instances = [(f"id{n}", *item(kind, name, rng), next(probabilities)) for n in numbers]
        shots = 1 if name.startswith("narrative_qa") else 5
        train = [item(kind, name, rng) for _ in range(shots)]
        subject = scenario[2].get("subject", scenario[3]).replace("_", " ")
        instructions = {MC: f"The following are multiple choice questions (with answers) about {subject}.\n",
                        QA: "Answer the question based on the passage or description below.\n"}[kind]
        out.append((scenario, instructions, train, instances))
    return out


def spec_name(scenario, model):
    """The run spec's name, and its folder's: the scenario's arguments, then `model=` with the
    model's `/` written `_`."""
    name = scenario[0]
    return f"{name}{',' if ':' in name else ':'}model={model.replace('/', '_')}"


def adapter_spec(scenario, instructions, model, deployment):
    kind, name = scenario[5], scenario[0]
    narrative = name.startswith("narrative_qa")
    return {
        "method": "multiple_choice_joint" if kind == MC else "generation",
        "global_prefix": "", "global_suffix": "", "instructions": instructions,
        "input_prefix": "Question: " if kind == MC else "", "input_suffix": "\n",
        "reference_prefix": "A. ", "reference_suffix": "\n",
        "chain_of_thought_prefix": "", "chain_of_thought_suffix": "\n",
        "output_prefix": "Answer: ", "output_suffix": "\n", "instance_prefix": "\n", "substitutions": [],
        "max_train_instances": 1 if narrative else 5, "max_eval_instances": 1000, "num_outputs": 1,
        "num_train_trials": 1, "num_trials": 1, "sample_train": True,
        "model_deployment": deployment, "model": model, "temperature": 0.0,
        "max_tokens": 100 if narrative else 1 if kind == MC else 10,
        "stop_sequences": ["\n"], "multi_label": False,
    }


def run_spec(scenario, instructions, model, deployment):
    name, cls, args, group, _, kind = scenario
    metrics = [{"class_name": "helm.benchmark.metrics.basic_metrics.BasicGenerationMetric",
                "args": {"names": ["exact_match", "quasi_exact_match", "prefix_exact_match", "quasi_prefix_exact_match"]
                         + (["f1_score", "rouge_l", "bleu_1", "bleu_4"] if name.startswith("narrative_qa") else [])}},
               {"class_name": "helm.benchmark.metrics.basic_metrics.BasicReferenceMetric", "args": {}},
               {"class_name": "helm.benchmark.metrics.basic_metrics.InstancesPerSplitMetric", "args": {}}]
    return {
        "name": spec_name(scenario, model),
        "scenario_spec": {"class_name": f"helm.benchmark.scenarios.{cls}", "args": args},
        "adapter_spec": adapter_spec(scenario, instructions, model, deployment),
        "metric_specs": metrics,
        "data_augmenter_spec": {"perturbation_specs": [], "should_augment_train_instances": False,
                                "should_include_original_train": False, "should_skip_unchanged_train": False,
                                "should_augment_eval_instances": False, "should_include_original_eval": False,
                                "should_skip_unchanged_eval": False, "seeds_per_instance": 1},
        "groups": [group],
    }


def block(kind, text, refs, answer=True):
    """One question as the prompt writes it, with its answer when it is a training example."""
    if kind == MC:
        letters = "ABCDE"
        lines = [f"Question: {text}"] + [f"{letters[i]}. {r}" for i, (r, _) in enumerate(refs)]
        right = next(letters[i] for i, (_, ok) in enumerate(refs) if ok)
        return "\n".join(lines) + "\nAnswer:" + (f" {right}\n" if answer else "")
    right = next(r for r, ok in refs if ok)
    return f"{text}\nAnswer:" + (f" {right}\n" if answer else "")


def stat(name, value):
    if value is None:
        return {"name": {"name": name, "split": "test"}, "count": 0, "sum": 0, "sum_squared": 0}
    return {"name": {"name": name, "split": "test"}, "count": 1, "sum": value, "sum_squared": value * value,
            "min": value, "max": value, "mean": float(value), "variance": 0.0, "stddev": 0.0}


def instance_stats(scenario, iid, refs, prompt, completion, passed, rng):
    narrative = scenario[0].startswith("narrative_qa")
    quasi = 1 if passed or rng.random() < 0.1 else 0
    runtime = rng.uniform(0.15, 2.5) if narrative else rng.uniform(0.08, 0.9)
    prompt_tokens = len(prompt) // 4
    out_tokens = max(1, len(completion) // 4)
    logprob = -rng.uniform(0.001, 3.0)
    values = [("num_references", len(refs)), ("num_train_trials", 1), ("num_prompt_tokens", prompt_tokens),
              ("num_completion_tokens", out_tokens), ("num_output_tokens", out_tokens), ("training_co2_cost", None),
              ("training_energy_cost", None), ("inference_runtime", runtime), ("batch_size", 1),
              ("finish_reason_length", 0), ("finish_reason_stop", 1), ("finish_reason_endoftext", 0),
              ("finish_reason_unknown", 0), ("num_train_instances", 1 if narrative else 5), ("prompt_truncated", 0)]
    if scenario[5] == MC:
        values.append(("max_prob", rng.uniform(0.3, 1.0)))
    values += [("exact_match", int(passed)), ("quasi_exact_match", quasi), ("prefix_exact_match", int(passed)),
               ("quasi_prefix_exact_match", quasi)]
    if narrative:
        f1 = 1.0 if passed else rng.uniform(0, 0.8)
        values += [("f1_score", f1), ("rouge_l", f1 * rng.uniform(0.8, 1.0)), ("bleu_1", f1 * rng.uniform(0.6, 1.0)),
                   ("bleu_4", f1 * rng.uniform(0, 0.5))]
    values += [("logprob", logprob), ("num_perplexity_tokens", out_tokens), ("num_bytes", len(completion.encode()))]
    return {"instance_id": iid, "train_trial_index": 0, "stats": [stat(n, v) for n, v in values]}


def aggregate(entries):
    """stats.json: each per-instance stat summed over the instances, plus num_instances."""
    by_name = {}
    for e in entries:
        for s in e["stats"]:
            by_name.setdefault(s["name"]["name"], []).append(s)
    out = []
    for name, stats in by_name.items():
        values = [s["mean"] for s in stats if "mean" in s]
        if not values:
            out.append({"name": {"name": name, "split": "test"}, "count": 0, "sum": 0, "sum_squared": 0})
            continue
        n, total, squares = len(values), float(sum(values)), float(sum(v * v for v in values))
        mean = total / n
        variance = max(0.0, squares / n - mean * mean)
        out.append({"name": {"name": name, "split": "test"}, "count": n, "sum": total, "sum_squared": squares,
                    "min": float(min(values)), "max": float(max(values)), "mean": mean, "variance": variance,
                    "stddev": variance ** 0.5})
    out.append({"name": {"name": "num_instances", "split": "test"}, "count": 1, "sum": len(entries),
                "sum_squared": len(entries) ** 2, "min": len(entries), "max": len(entries),
                "mean": float(len(entries)), "variance": 0.0, "stddev": 0.0})
    return out


def write_run_folder(folder, scenario, instructions, train, instances, model, deployment, outcomes, ri, rng):
    spec = run_spec(scenario, instructions, model, deployment)
    kind = scenario[5]
    shots = "".join("\n" + block(kind, text, refs) for text, refs in train)
    states, entries = [], []
    started = 1767225600 + ri * 86400  # 2026-01-01, a suite a day
    for (iid, text, refs, _), passed in zip(instances, outcomes):
        prompt = instructions + shots + "\n" + block(kind, text, refs, answer=False)
        letters = "ABCDE"
        if kind == MC:
            right = next(i for i, (_, ok) in enumerate(refs) if ok)
            pick = right if passed else rng.choice([i for i in range(len(refs)) if i != right])
            completion = f" {letters[pick]}"
        else:
            right = next(r for r, ok in refs if ok)
            wrong = [r for r, ok in refs if not ok] or [sentence(rng, 3, 8)[:-1]]
            completion = f" {right}" if passed else f" {rng.choice(wrong)}"
        logprob = -rng.uniform(0.001, 3.0)
        instance = {"input": {"text": text},
                    "references": [{"output": {"text": r}, "tags": ["correct"] if ok else []} for r, ok in refs],
                    "split": "test", "id": iid}
        state = {"instance": instance, "train_trial_index": 0}
        if kind == MC:
            state["output_mapping"] = {letters[i]: r for i, (r, _) in enumerate(refs)}
        state.update({
            "request": {"model_deployment": deployment, "model": model, "embedding": False, "prompt": prompt,
                        "temperature": 0.0, "num_completions": 1, "top_k_per_token": 1,
                        "max_tokens": spec["adapter_spec"]["max_tokens"], "stop_sequences": ["\n"],
                        "echo_prompt": False, "top_p": 1, "presence_penalty": 0, "frequency_penalty": 0},
            "result": {"success": True, "embedding": [],
                       "completions": [{"text": completion, "logprob": logprob,
                                        "tokens": [{"text": completion, "logprob": logprob}],
                                        "finish_reason": {"reason": "stop"}}],
                       "cached": False, "request_time": rng.uniform(0.08, 2.5),
                       "request_datetime": started + rng.randrange(3600)},
            "num_train_instances": len(train), "prompt_truncated": False,
        })
        states.append(state)
        entries.append(instance_stats(scenario, iid, refs, prompt, completion, passed, rng))
    group = scenario[3]
    description, tags = DESCRIPTIONS[group]
    module = scenario[1].split(".")[0]
    gencommon.write_json(os.path.join(folder, "run_spec.json"), spec, 2)
    source = f"https://github.com/stanford-crfm/helm/blob/v0.5.4/src/helm/benchmark/scenarios/{module}.py"
    gencommon.write_json(os.path.join(folder, "scenario.json"),
                         {"name": group, "description": description, "tags": tags, "definition_path": source}, 2)
    gencommon.write_json(os.path.join(folder, "scenario_state.json"),
                         {"adapter_spec": spec["adapter_spec"], "request_states": states}, 2)
    gencommon.write_json(os.path.join(folder, "stats.json"), aggregate(entries), 2)
    gencommon.write_json(os.path.join(folder, "per_instance_stats.json"), entries, 2)


def natural_key(name):
    """evaltally's natural order of run names (evaltally_core::id::natural_key): each run of
    digits becomes `0`, the length of its number and the number; then the name itself."""
    out = bytearray()
    raw = name.encode()
    i = 0
    while i < len(raw):
        if 48 <= raw[i] <= 57:
            j = i
            while j < len(raw) and 48 <= raw[j] <= 57:
                j += 1
            digits = raw[i:j].lstrip(b"0") or b"0"
            out += b"0" + len(digits).to_bytes(4, "big") + digits
            i = j
        else:
            out.append(raw[i])
            i += 1
    return bytes(out), raw


def main():
    ap = gencommon.parser(__doc__, 10)
    ap.add_argument("--instances", type=int, default=200,
                    help="instances per model and run, over all run specs (default 200)")
    a = ap.parse_args()
    gencommon.check_args(ap, a)
    scenarios = plan(a.seed, a.instances)
    known = [m for m, _ in MODELS]
    models = gencommon.model_names(known, a.models, "acme/model-")
    deployments = {m: dict(MODELS).get(m, m.replace("acme/", "acme-serving/")) for m in models}
    truth = gencommon.Truth("helm", a.seed)
    names = {}  # model -> the run names evaltally gives, one per (suite, run spec)
    suite = lambda model, ri: gencommon.run_label(a, ri)  # noqa: E731
    for model, ri, label, orng in gencommon.each_run(a, models, truth, name=suite):
        for scenario, instructions, train, instances in scenarios:
            spec_folder = spec_name(scenario, model)
            run = f"{label}/{spec_folder}#trial-0" if a.runs > 1 else f"{spec_folder}#trial-0"
            names.setdefault(model, []).append(run)
            category = scenario[0]
            outcomes = [orng.random() < p for _, _, _, p in instances]
            for (iid, _, _, _), passed in zip(instances, outcomes):
                truth.record(model, run, category, iid, passed)
            if a.out:
                rng = gencommon.stream(a.seed, "content", model, ri, category)
                folder = os.path.join(a.out, "runs", label, spec_folder)
                write_run_folder(folder, scenario, instructions, train, instances, model, deployments[model],
                                 outcomes, ri, rng)
        if a.out:
            gencommon.progress(ri + 1, a.runs, 10)
    # A run of evaltally's is a (suite, run spec), not the suite each_run registered.
    truth.runs = {model: sorted(runs, key=natural_key) for model, runs in names.items()}
    if a.expected:
        truth.print()


if __name__ == "__main__":
    main()
