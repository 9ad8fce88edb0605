#!/usr/bin/env python3
"""Generate a deterministic synthetic workload of openai/evals `oaieval` record logs: every round
runs the same evals on the same samples, one record log per eval run.

Layout: OUT_DIR/<run_id>_<model>_<eval>.jsonl, as `oaieval --record_path` names them by default
(/tmp/evallogs/...); with --models 2 or more the other models' logs lie beside them (the name
carries the model).

Each file is what `LocalRecorder` writes in the `record-log` shape (docs/formats/openai-evals.md,
testdata/oaieval): a `{"spec": ...}` line (RunSpec: completion_fns, eval_name
`<eval>.<split>.v0`, base_eval, split, run_config with the eval_spec, created_by, run_id
`%y%m%d%H%M%S` + 8 base32 characters, created_at), the `{"final_report": {"accuracy": ...}}`
line, then per sample, in the order the worker threads finished them, a `sampling` event
({prompt: chat messages, sampled: [text]}) and a `match` event ({correct, expected, picked,
sampled, options}), every event with run_id, event_id, sample_id `<eval>.<split>.<index>`, type,
data, created_by and created_at; JSON as `evals.data.jsondumps` writes it (ensure_ascii off).

Five evals of the Match / Includes kind, of different prompt sizes: multiple-choice questions on
long fact patterns (us-tort-law), few-shot prompts (logic-fact), short questions (born-first,
crossword) and chain-of-thought answers (arithmetic-expression); about 2 KB a sample. A test's
category is its eval (base_eval), the model the completion function, a run an eval run (its
run_id): a round of --runs makes one run per eval, so a model has 5 × --runs runs, those of
each eval in its category. Run ids grow with time, eval by eval and round by round.

See gencommon.py for the command line shared by all generators and the ground truth (--expected).

Usage:
  gen_openai_evals.py --runs 24 --tests 500 --seed 7 OUT_DIR [--expected > truth.json]
"""
import datetime
import json
import os
import sys

import gencommon

# base_eval, split, share of the samples, eval class, kind of prompt
EVALS = [("us-tort-law", "dev", 0.2, "evals.elsuite.basic.match:Match", "choice"),
         ("born-first", "dev", 0.2, "evals.elsuite.basic.match:Match", "born"),
         ("logic-fact", "dev", 0.2, "evals.elsuite.basic.match:Match", "fewshot"),
         ("crossword", "test", 0.15, "evals.elsuite.basic.fuzzy_match:FuzzyMatch", "clue"),
         ("arithmetic-expression", "dev", 0.25, "evals.elsuite.basic.includes:Includes", "cot")]
MODELS = ["gpt-3.5-turbo", "gpt-4", "gpt-4-1106-preview"]
BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
WORDS = ("plaintiff defendant court negligence duty breach damages contract liability injury property "
         "trespass nuisance statute claim evidence reasonable person owner driver tenant landlord store "
         "customer employee employer accident premises warning vehicle road doctor patient consent "
         "jury verdict appeal judgment fact pattern owed caused harm loss jurisdiction").split()
NAMES = ("Ada Lovelace|Alan Turing|Marie Curie|Isaac Newton|Nikola Tesla|Charles Darwin|Grace Hopper|"
         "Leonhard Euler|Emmy Noether|Srinivasa Ramanujan|Rosalind Franklin|Galileo Galilei|Johannes Kepler|"
         "Carl Gauss|Niels Bohr|Max Planck|Ludwig Boltzmann|Sofia Kovalevskaya|John von Neumann").split("|")
SYSTEM = {
    "choice": "You are a careful legal expert. Read the fact pattern and answer the multiple-choice question "
              "with the letter of the best answer only (A, B, C or D).",
    "short": "Answer the question as concisely as possible: give the answer only, with no explanation.",
    "fewshot": "Decide whether the statement follows from the facts. Answer with Yes or No only.",
    "cot": "Solve the arithmetic expression. Think step by step, then give the final answer on the last "
           "line in the form 'Answer: <number>'.",
}


def sentence(rng, lo=8, hi=24):
    return " ".join(rng.choices(WORDS, k=rng.randrange(lo, hi))).capitalize() + "."


def paragraph(rng, n):
    return " ".join(sentence(rng) for _ in range(n))


def chat(system, question, shots=()):
    return [{"role": "system", "content": SYSTEM[system]}, *shots, {"role": "user", "content": question}]


def sample(rng, kind):
    """(prompt messages, ideal answer, list of ideal answers) of one sample."""
    if kind == "choice":
        options = "\n".join(f"{letter}. {sentence(rng, 10, 30)}" for letter in "ABCD")
        question = (f"{paragraph(rng, rng.randrange(5, 12))}\n\nUnder § {rng.randrange(200, 900)} of the "
                    f"Restatement, which of the following is correct?\n{options}")
        ideal = rng.choice("ABCD")
        return chat(kind, question), ideal, [ideal]
    if kind == "born":
        a, b = rng.sample(NAMES, 2)
        return chat("short", f"Which of these two people was born first: {a} or {b}?"), a, [a]
    if kind == "clue":
        ideal = rng.choice(WORDS).upper()
        question = f"Crossword clue: {sentence(rng, 4, 12)[:-1]} ({len(ideal)} letters, starts with {ideal[0]})"
        return chat("short", question), ideal, [ideal]
    if kind == "fewshot":
        shots = []
        for _ in range(rng.randrange(3, 6)):
            example = f"Facts: {paragraph(rng, 2)}\nStatement: {sentence(rng)}"
            shots += [{"role": "system", "name": "example_user", "content": example},
                      {"role": "system", "name": "example_assistant", "content": rng.choice(["Yes", "No"])}]
        ideal = rng.choice(["Yes", "No"])
        return chat(kind, f"Facts: {paragraph(rng, 3)}\nStatement: {sentence(rng)}", shots), ideal, [ideal]
    terms = [str(rng.randrange(2, 999)) for _ in range(rng.randrange(3, 8))]
    expression = " ".join(t + " " + rng.choice("+-*") for t in terms[:-1]) + " " + terms[-1]
    ideal = str(rng.randrange(-10**5, 10**6))
    return chat(kind, f"Compute {expression}."), ideal, [ideal]


def plan(seed, n_tests):
    """[(base_eval, split, eval class, kind, [(sample_id, prompt, ideal, ideals, pass probability)])]."""
    rng = gencommon.stream(seed, "plan")
    probabilities = iter(gencommon.probabilities(rng, n_tests))
    kinds = {name: (split, cls, kind) for name, split, _, cls, kind in EVALS}
    out = []
    for name, count in gencommon.shares([(e[0], e[2]) for e in EVALS], n_tests):
        split, cls, kind = kinds[name]
        samples = [(f"{name}.{split}.{i}", *sample(rng, kind), next(probabilities)) for i in range(count)]
        out.append((name, split, cls, kind, samples))
    return out


def started(mi, ri, k, seed, model):
    """When eval `k` of round `ri` started: rounds 4 hours apart, evals 7 minutes apart."""
    second = gencommon.stream(seed, "start", model, ri, k).randrange(60)
    return datetime.datetime(2023, 6, 1, 9) + datetime.timedelta(hours=4 * ri, minutes=40 * mi + 7 * k, seconds=second)


def run_id(seed, model, ri, k, at):
    """`%y%m%d%H%M%S` and 8 base32 characters, the first a letter."""
    rng = gencommon.stream(seed, "run_id", model, ri, k)
    return f"{at:%y%m%d%H%M%S}" + rng.choice(BASE32[:26]) + "".join(rng.choices(BASE32, k=7))


def answer(rng, kind, ideal, passed):
    """What the model sampled: the ideal answer when it passed, something else when not."""
    if kind == "cot":
        steps = "\n".join(f"Step {i + 1}: {sentence(rng, 6, 16)} = {rng.randrange(-10**5, 10**6)}"
                          for i in range(rng.randrange(3, 9)))
        return f"{steps}\nAnswer: {ideal if passed else rng.randrange(-10**5, 10**6)}"
    if passed:
        return ideal
    if kind == "choice":
        return rng.choice([c for c in "ABCD" if c != ideal])
    if kind == "fewshot":
        return "No" if ideal == "Yes" else "Yes"
    return rng.choice([x for x in NAMES + [w.upper() for w in WORDS[:10]] + ["I'm not sure."] if x != ideal])


def record_log(model, run, at, name, split, cls, kind, samples, outcomes, rng):
    """The lines of one record log."""
    spec = {"completion_fns": [model], "eval_name": f"{name}.{split}.v0", "base_eval": name, "split": split,
            "run_config": {"completion_fns": [model],
                           "eval_spec": {"cls": cls, "args": {"samples_jsonl": f"{name}/samples.jsonl"},
                                         "key": f"{name}.{split}.v0", "group": name},
                           "seed": 20220722, "max_samples": None,
                           "command": f"/home/dev/evals/.venv/bin/oaieval {model} {name}",
                           "initial_settings": {"visible": True}},
            "created_by": "", "run_id": run, "created_at": f"{at:%Y-%m-%d %H:%M:%S}.{rng.randrange(10**6):06d}"}
    lines = [{"spec": spec}, {"final_report": {"accuracy": sum(outcomes) / len(outcomes)}}]
    order = list(range(len(samples)))
    rng.shuffle(order)
    now = at + datetime.timedelta(seconds=1)
    for i in order:
        sample_id, prompt, ideal, ideals, _ = samples[i]
        passed = outcomes[i]
        sampled = answer(rng, kind, ideal, passed)
        now += datetime.timedelta(microseconds=rng.randrange(50_000, 2_000_000))
        stamp = f"{now:%Y-%m-%d %H:%M:%S.%f}+00:00"
        picked = ideal if passed else None
        for etype, data in (("sampling", {"prompt": prompt, "sampled": [sampled]}),
                            ("match", {"correct": passed, "expected": ideals, "picked": picked, "sampled": sampled,
                                       "options": ideals})):
            lines.append({"run_id": run, "event_id": len(lines) - 2, "sample_id": sample_id, "type": etype,
                          "data": data, "created_by": "", "created_at": stamp})
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)


def main():
    ap = gencommon.parser(__doc__, 24)
    ap.add_argument("--tests", type=int, default=500, help="samples per round, spread over the 5 evals (default 500)")
    a = ap.parse_args()
    gencommon.check_args(ap, a)
    evals = plan(a.seed, a.tests)
    models = gencommon.model_names(MODELS, a.models, "model-")
    truth = gencommon.Truth("openai-evals", a.seed)
    if a.out:
        os.makedirs(a.out, exist_ok=True)
    for mi, model in enumerate(models):
        if a.out and a.models > 1:
            print(f"{model}:", file=sys.stderr)
        for ri in range(a.runs):
            for k, (name, split, cls, kind, samples) in enumerate(evals):
                at = started(mi, ri, k, a.seed, model)
                run = run_id(a.seed, model, ri, k, at)
                truth.run(model, run)
                orng = gencommon.stream(a.seed, "outcome", model, ri, name)
                outcomes = [orng.random() < p for *_, p in samples]
                for (sample_id, *_), passed in zip(samples, outcomes):
                    truth.record(model, run, name, sample_id, passed)
                if a.out:
                    text = record_log(model, run, at, name, split, cls, kind, samples, outcomes,
                                      gencommon.stream(a.seed, "content", model, ri, name))
                    with open(os.path.join(a.out, f"{run}_{model}_{name}.jsonl"), "w", encoding="utf-8") as f:
                        f.write(text)
            if a.out:
                gencommon.progress(ri + 1, a.runs, 50)
    if a.expected:
        truth.print()


if __name__ == "__main__":
    main()
