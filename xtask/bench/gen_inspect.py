#!/usr/bin/env python3
"""Generate a deterministic synthetic workload of inspect_ai `.eval` logs: per run one log per
task, every run holding the same samples.

Layout: OUT_DIR/<created>_<task>_<task_id>.eval, inspect_ai's own file names
(`2026-02-02T08-00-00-00-00_gpqa-diamond_Xc3…`: the creation time and the task with `:`, `+`
and `_` made `-`), all in one folder as in a log dir, whatever the model (the model is in the
header; with --models 2 or more every model has its own logs there).

A run is what one `inspect eval` of the four tasks does: one log per task, one epoch each, the
four sharing the header's `eval.run_id` (each has its own `eval_id` and `task_id`). evaltally makes each epoch of a log a run named `<file stem>#epoch-<n>`, so each log is one run
(`<stem>#epoch-1`) judging one category (its task), and a model has as many runs as logs (--runs
times the four tasks); the ground truth names them so. The logs of a model are created hours
apart run after run and minutes apart task after task, so their names sort in the order they
ran. Tasks (--samples split 20/30/25/25 %): gpqa_diamond (multiple_choice with chain of thought, scorer `choice`, ids `rec…`),
mmlu_0_shot (multiple_choice, `choice`, integer ids, metadata `subject`), gsm8k (10-shot system
message, prompt template and generate, scorer `match`, integer ids, metadata `reasoning`) and
arc_challenge (multiple_choice, `choice`, ids like `Mercury_7175875`). A sample's score is
"C" (passed) or "I" (failed); no sample errors (fail_on_error is on).

Each archive has what inspect_ai's EvalRecorder writes, in its order: `_journal/start.json`,
then every ten samples (its log_buffer for such a task) `samples/<id>_epoch_1.json` and
`_journal/summaries/<k>.json`, then `summaries.json`, `reductions.json` and `header.json`. The
members are compact JSON (indent=None, as since 0.3.195) shaped as the fixture
testdata/shapes/inspect/eval-zstd (0.3.285) with the fields 0.3.205 had (no turn_count): a
sample holds its input, choices, target, messages, output, scores, metadata, store, events
(spans, sample_init, model, state and score events; texts over 100 characters moved to
`attachments`, model input as `input_refs` into `events_data`), model_usage, times and uuid; a
summary is the sample thinned as inspect_ai thins it (explanations shortened to 1024
characters). A sample is 3-40 KB of JSON (gpqa's reasoning and gsm8k's few-shot system
message the largest), a summary about 1 KB. Members are compressed with deflate level 5, what inspect_ai wrote until 0.3.205
(0.3.206 and later write Zstandard, which Python 3.11's zipfile cannot); the header says
inspect_ai 0.3.205.

See gencommon.py for the command line shared by all generators and the ground truth (--expected).

Usage:
  gen_inspect.py --runs 100 --samples 200 --seed 7 OUT_DIR [--expected > truth.json]
"""
import datetime
import hashlib
import json
import os
import textwrap
import zipfile

import gencommon

MODELS = ["openai/gpt-4o-2024-08-06", "anthropic/claude-3-5-sonnet-20241022", "google/gemini-1.5-pro-002"]
# (task, share of the samples)
TASKS = [("gpqa_diamond", 0.2), ("mmlu_0_shot", 0.3), ("gsm8k", 0.25), ("arc_challenge", 0.25)]
SHORTUUID = "23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
WORDS = ("the a of to in and is was for that with as by on from at which this be are an it or not "
         "energy force particle electron photon orbital nucleus reaction enzyme protein membrane "
         "receptor ligand equilibrium entropy enthalpy solvent acid base catalyst isomer molecule "
         "field potential velocity momentum charge mass wavelength frequency spin lattice crystal "
         "gene allele mutation chromosome population selection species cell tissue organ "
         "therefore because since however thus then first next finally so we can compute "
         "consider note that given each total number value answer option choice correct").split()
SUBJECTS = ["abstract_algebra", "anatomy", "college_chemistry", "econometrics", "high_school_biology",
            "jurisprudence", "moral_scenarios", "philosophy", "professional_medicine", "virology"]
ARC_SOURCES = ["Mercury", "MCAS", "NYSEDREGENTS", "TIMSS", "VASoL", "ACTAAP", "MEA", "OHAT"]
NAMES = "Janet Tobias Marissa Olaf Carla Ravi Mei Sandra Hugo Priya Dmitri Ana".split()
ITEMS = "eggs apples tickets stickers marbles cupcakes books bottles shells coins".split()
MC = ("Answer the following multiple choice question. The entire content of your response should be of the "
      "following format: 'ANSWER: $LETTER' (without quotes) where LETTER is one of A,B,C,D.\n\n{question}\n\n{choices}")
MC_COT = ("Answer the following multiple choice question. The last line of your response should be of the "
          "following format: 'ANSWER: $LETTER' (without quotes) where LETTER is one of A,B,C,D. Think step by "
          "step before answering.\n\n{question}\n\n{choices}")
MATH = ("Solve the following math problem step by step. The last line of your response should be of the form "
        "\"ANSWER: $ANSWER\" (without quotes) where $ANSWER is the answer to the problem.\n\n{prompt}\n\n"
        "Remember to put your answer on its own line at the end in the form \"ANSWER: $ANSWER\" (without quotes) "
        "where $ANSWER is the answer to the problem, and you do not need to use a \\boxed command.\n\nReasoning:")
SCORER = {"gsm8k": "match"}
PACKAGES = {"inspect_ai": "0.3.205", "inspect_evals": "0.3.106"}


def dumps(doc):
    """What inspect_ai's to_json_safe(indent=None) gives: compact, UTF-8."""
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def shortuuid(rng):
    return "".join(rng.choice(SHORTUUID) for _ in range(22))


def sentence(rng, k):
    s = " ".join(rng.choice(WORDS) for _ in range(k))
    return s[0].upper() + s[1:] + "."


def word_problem(rng):
    """(question, worked solution, answer) in the manner of gsm8k."""
    name, item = rng.choice(NAMES), rng.choice(ITEMS)
    a, b, c = rng.randrange(3, 40), rng.randrange(2, 12), rng.randrange(1, 30)
    total = a * b - c
    question = (f"{name} has {b} boxes with {a} {item} in each. {sentence(rng, rng.randrange(8, 22))} "
                f"{name} gives away {c} {item}. How many {item} does {name} have left?")
    reasoning = (f"{name} has {b} * {a} = <<{b}*{a}={a * b}>>{a * b} {item}.\n{sentence(rng, rng.randrange(6, 14))}\n"
                 f"After giving away {c}, {name} has {a * b} - {c} = <<{a * b}-{c}={total}>>{total} {item}.")
    return question, reasoning, total


def fewshot_system(seed):
    """gsm8k's system message: ten solved examples, the same for every sample."""
    rng = gencommon.stream(seed, "fewshot")
    shots = [word_problem(rng) for _ in range(10)]
    return "\n\n".join(f"{q}\n\nReasoning:\n{r}\n\nANSWER: {t}" for q, r, t in shots)


def plan(seed, n_samples):
    """[(task, [(sample id, p)])]: the samples of every task and their hidden pass probabilities."""
    rng = gencommon.stream(seed, "plan")
    probabilities = iter(gencommon.probabilities(rng, n_samples))
    tasks = []
    for task, count in gencommon.shares(TASKS, n_samples):
        ids, seen = [], set()
        for i in range(count):
            if task == "gpqa_diamond":
                sid = "rec" + "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
                                      for _ in range(14))
            elif task == "arc_challenge":
                sid = f"{rng.choice(ARC_SOURCES)}_{rng.randrange(10**6, 10**7)}"
            else:
                sid = i + 1
            while sid in seen:
                sid = f"{sid}-{i}"
            seen.add(sid)
            ids.append((sid, next(probabilities)))
        tasks.append((task, ids))
    return tasks


def make_sample(seed, task, sid, fewshot):
    """What a sample's dataset record gives: input, choices, target, metadata, the prompt the
    solvers make of it and the system message (None but for gsm8k)."""
    rng = gencommon.stream(seed, "sample", task, sid)
    if task == "gsm8k":
        question, reasoning, answer = word_problem(rng)
        return {"input": question, "choices": None, "target": str(answer), "metadata": {"reasoning": reasoning},
                "prompt": MATH.format(prompt=question), "system": fewshot, "answer": answer}
    if task == "gpqa_diamond":
        question = " ".join(sentence(rng, rng.randrange(12, 30)) for _ in range(rng.randrange(2, 7)))
        choices = [sentence(rng, rng.randrange(2, 18))[:-1] for _ in range(4)]
        template, metadata = MC_COT, {}
    elif task == "mmlu_0_shot":
        question = " ".join(sentence(rng, rng.randrange(8, 24)) for _ in range(rng.randrange(1, 4)))
        choices = [sentence(rng, rng.randrange(1, 10))[:-1] for _ in range(4)]
        template, metadata = MC, {"subject": rng.choice(SUBJECTS)}
    else:
        question = sentence(rng, rng.randrange(10, 36))[:-1] + "?"
        choices = [sentence(rng, rng.randrange(1, 8))[:-1].lower() for _ in range(4)]
        template, metadata = MC, {}
    target = "ABCD"[rng.randrange(4)]
    listed = "\n".join(f"{letter}) {c}" for letter, c in zip("ABCD", choices))
    return {"input": question, "choices": choices, "target": target, "metadata": metadata,
            "prompt": template.format(question=question, choices=listed), "system": None, "answer": None}


class Clock:
    """Timestamps of one log, moving forward."""

    def __init__(self, start):
        self.t = start

    def tick(self, rng, lo=0.0001, hi=0.01):
        self.t += datetime.timedelta(seconds=rng.uniform(lo, hi))
        return self.t.isoformat(timespec="microseconds")


def attachment(text, attachments):
    """inspect_ai's condensing of a text over 100 characters in the events."""
    if len(text) <= 100:
        return text
    key = hashlib.md5(text.encode("utf-8")).hexdigest()
    attachments[key] = text
    return f"attachment://{key}"


def completion_text(task, s, passed, rng, pool):
    """The model's answer: reasoning (for gpqa and gsm8k) and its final line."""
    if task == "gsm8k":
        got = s["answer"] if passed else s["answer"] + rng.choice([-10, -2, -1, 1, 3, 12])
        steps = "\n".join(rng.choice(pool) for _ in range(rng.randrange(3, 12)))
        return f"{steps}\n\nThe total is {got}.\n\nANSWER: {got}", str(got)
    letter = s["target"] if passed else rng.choice([x for x in "ABCD" if x != s["target"]])
    if task == "gpqa_diamond":
        paragraphs = ["\n".join(rng.choice(pool) for _ in range(rng.randrange(2, 6))) for _ in range(rng.randrange(3, 9))]
        return "\n\n".join(paragraphs) + f"\n\nANSWER: {letter}", letter
    return f"ANSWER: {letter}", letter


def api_response(model, api_model, content, in_tokens, out_tokens, cached, clock, rng):
    """The provider's raw response, as the model event's `call` keeps it."""
    provider = model.split("/", 1)[0]
    if provider == "anthropic":
        return {"id": f"msg_01{shortuuid(rng)}", "content": [{"citations": None, "text": content, "type": "text"}],
                "model": api_model, "role": "assistant", "stop_reason": "end_turn", "stop_sequence": None,
                "type": "message", "usage": {"cache_creation_input_tokens": 0, "cache_read_input_tokens": cached,
                                             "input_tokens": in_tokens - cached, "output_tokens": out_tokens,
                                             "server_tool_use": None, "service_tier": "standard"}}
    if provider == "google":
        return {"sdk_http_response": {"headers": {"content-type": "application/json; charset=UTF-8"}},
                "candidates": [{"content": {"parts": [{"text": content}], "role": "model"}, "finish_reason": "STOP",
                                "avg_logprobs": -rng.uniform(0.01, 0.4), "index": 0}],
                "create_time": None, "model_version": api_model, "response_id": shortuuid(rng),
                "usage_metadata": {"cached_content_token_count": cached or None, "candidates_token_count": out_tokens,
                                   "prompt_token_count": in_tokens, "total_token_count": in_tokens + out_tokens}}
    return {"id": f"chatcmpl-{rng.getrandbits(96):024x}",
            "choices": [{"finish_reason": "stop", "index": 0, "logprobs": None,
                         "message": {"content": content, "refusal": None, "role": "assistant", "annotations": [],
                                     "audio": None, "function_call": None, "tool_calls": None}}],
            "created": int(clock.t.timestamp()), "model": api_model, "object": "chat.completion",
            "service_tier": "default", "system_fingerprint": f"fp_{rng.getrandbits(40):010x}",
            "usage": {"completion_tokens": out_tokens, "prompt_tokens": in_tokens, "total_tokens": in_tokens + out_tokens,
                      "completion_tokens_details": {"accepted_prediction_tokens": 0, "audio_tokens": 0,
                                                    "reasoning_tokens": 0, "rejected_prediction_tokens": 0},
                      "prompt_tokens_details": {"audio_tokens": 0, "cached_tokens": cached}}}


def sample_doc(model, task, sid, s, passed, rng, pool, clock):
    """(the sample as inspect_ai writes it, its summary) for one epoch."""
    api_model = model.split("/", 1)[1]
    scorer = SCORER.get(task, "choice")
    text, answer = completion_text(task, s, passed, rng, pool)
    def uid():
        return shortuuid(rng)

    attachments = {}
    started = clock.tick(rng, 0.01, 0.5)
    t0 = clock.t
    input_msgs = []
    if s["system"]:
        input_msgs.append({"id": uid(), "content": s["system"], "role": "system"})
    user = {"id": uid(), "content": s["prompt"], "source": "input", "role": "user"}
    input_msgs.append(user)
    assistant = {"id": uid(), "content": text, "source": "generate", "role": "assistant", "model": api_model}
    in_tokens = sum(len(m["content"]) for m in input_msgs) // 4 + 12
    out_tokens = len(text) // 4 + 2
    usage = {"input_tokens": in_tokens, "output_tokens": out_tokens, "total_tokens": in_tokens + out_tokens}
    if rng.random() < 0.6:
        cached = min(in_tokens, rng.randrange(0, 2048) // 128 * 128)
        usage["input_tokens_cache_read"] = cached
    gen_time = rng.uniform(0.4, 2.0) + out_tokens / rng.uniform(40, 120)
    stop = "stop"
    output = {"model": api_model, "choices": [{"message": assistant, "stop_reason": stop}], "completion": text,
              "usage": usage, "time": gen_time}
    score = {"value": "C" if passed else "I", "answer": answer, "explanation": text, "history": []}

    events = []
    span_stack = []

    def event(kind, **fields):
        e = {"uuid": uid(), "span_id": span_stack[-1], "timestamp": clock.tick(rng),
             "working_start": (clock.t - t0).total_seconds(), "event": kind}
        e.update(fields)
        events.append(e)
        return e

    def begin(kind, name):
        span = uid()
        parent = {"parent_id": span_stack[-1]} if span_stack else {}
        span_stack.append(span)
        event("span_begin", id=span, **parent, type=kind, name=name)

    def end():
        event("span_end", id=span_stack[-1])
        span_stack.pop()

    begin("init", "init")
    sample_init = {"input": attachment(s["input"], attachments), "target": s["target"], "id": sid}
    if s["choices"]:
        sample_init["choices"] = s["choices"]
    if s["metadata"]:
        sample_init["metadata"] = s["metadata"]
    event("sample_init", sample=sample_init,
          state={"messages": [{"id": user["id"], "content": attachment(s["input"], attachments), "source": "input",
                               "role": "user"}],
                 "tools": [], "tool_choice": None, "store": {},
                 "output": {"model": api_model, "choices": [], "completion": ""}, "completed": False,
                 "metadata": s["metadata"]})
    end()
    begin("solvers", "solvers")
    solvers = ["system_message", "prompt_template", "generate"] if task == "gsm8k" else ["multiple_choice"]
    for name in solvers:
        begin("solver", name)
        if name == "system_message":
            event("state", changes=[{"op": "add", "path": "/messages/0",
                                     "value": {"id": input_msgs[0]["id"], "content": attachment(s["system"], attachments),
                                               "role": "system"}}])
        if name in ("prompt_template", "multiple_choice"):
            event("state", changes=[{"op": "replace", "path": f"/messages/{len(input_msgs) - 1}/content",
                                     "value": attachment(s["prompt"], attachments),
                                     "replaced": attachment(s["input"], attachments)}])
        if name in ("generate", "multiple_choice"):
            condensed = dict(assistant, content=attachment(text, attachments))
            response = api_response(model, api_model, attachment(text, attachments), in_tokens, out_tokens,
                                    usage.get("input_tokens_cache_read", 0), clock, rng)
            event("model", model=model, input=[], input_refs=[[0, len(input_msgs)]], tools=[], tool_choice="none",
                  config={"max_tokens": 4096} if task == "gpqa_diamond" else {},
                  output={"model": api_model, "choices": [{"message": condensed, "stop_reason": stop}],
                          "completion": text, "usage": usage, "time": gen_time},
                  call={"request": {"model": api_model, "max_tokens": 4096} if task == "gpqa_diamond" else {"model": api_model},
                        "response": response, "time": gen_time,
                        "call_refs": [[0, len(input_msgs)]], "call_key": "messages"},
                  completed=clock.tick(rng, gen_time, gen_time + 0.05), working_time=gen_time)
            event("state", changes=[{"op": "add", "path": f"/messages/{len(input_msgs)}", "value": condensed},
                                    {"op": "add", "path": "/output/usage", "value": usage},
                                    {"op": "add", "path": "/output/time", "value": gen_time},
                                    {"op": "add", "path": "/output/choices/0",
                                     "value": {"message": condensed, "stop_reason": stop}},
                                    {"op": "replace", "path": "/output/completion", "value": attachment(text, attachments),
                                     "replaced": ""}])
        end()
    end()
    begin("scorers", "scorers")
    begin("scorer", scorer)
    event("score", score=score, target=s["target"], intermediate=False, scorer=scorer,
          scorer_args={"numeric": True} if scorer == "match" else {})
    end()
    end()
    completed = clock.tick(rng, 0.001, 0.05)
    total = round(gen_time + rng.uniform(0.01, 0.4), 3)
    model_usage = {model: usage}
    doc = {"id": sid, "epoch": 1, "input": s["input"]}
    if s["choices"]:
        doc["choices"] = s["choices"]
    doc.update({"target": s["target"], "messages": input_msgs + [assistant], "output": output, "scores": {scorer: score},
                "metadata": s["metadata"], "store": {}, "events": events, "model_usage": model_usage, "role_usage": {},
                "started_at": started, "completed_at": completed, "total_time": total,
                "working_time": round(total - rng.uniform(0, 0.01), 3), "uuid": uid(), "error_retries": [],
                "attachments": attachments,
                "events_data": {"messages": input_msgs,
                                "calls": [{"role": m["role"], "content": m["content"]} for m in input_msgs]}})
    summary = {"id": sid, "epoch": 1, "input": s["input"] if len(s["input"]) <= 5120 else s["input"][:5120] + "...\n(content truncated)"}
    if s["choices"]:
        summary["choices"] = s["choices"]
    summary.update({"target": s["target"],
                    "metadata": {k: thin(v) if isinstance(v, str) else v for k, v in s["metadata"].items()},
                    "scores": {scorer: {"value": score["value"], "answer": thin(answer), "explanation": thin(text),
                                        "history": []}},
                    "model_usage": model_usage, "role_usage": {}, "started_at": started, "completed_at": completed,
                    "total_time": doc["total_time"], "working_time": doc["working_time"], "uuid": doc["uuid"],
                    "retries": 0, "completed": True, "message_count": len(doc["messages"])})
    return doc, summary


def thin(text):
    """inspect_ai's thin_text (0.3.205): whitespace collapsed, at most 1024 characters."""
    return textwrap.shorten(text, width=1024, placeholder="...")


def log_names(seed, model, ri):
    """[(created, task_id, file stem)] of the run's logs, task by task: runs four hours apart,
    tasks minutes apart."""
    rng = gencommon.stream(seed, "ids", model, ri)
    t = datetime.datetime(2026, 2, 2, 8, tzinfo=datetime.timezone.utc) + datetime.timedelta(hours=4 * ri)
    out = []
    for task, _ in TASKS:
        t += datetime.timedelta(seconds=rng.randrange(30, 1500))
        created = t.isoformat(timespec="seconds")
        task_id = shortuuid(rng)
        out.append((created, task_id, f"{clean_filename(created)}_{clean_filename(task)}_{clean_filename(task_id)}"))
    return out


def clean_filename(component):
    """inspect_ai's clean_filename_component."""
    return component.replace("_", "-").replace("/", "-").replace(":", "-").replace("+", "-")


def write_log(path, seed, model, task, created, task_id, run_ids, samples, outcomes, rng, pool, n_total):
    """One `.eval` archive, member by member in inspect_ai's order."""
    scorer = SCORER.get(task, "choice")
    start = datetime.datetime.fromisoformat(created)
    clock = Clock(start)
    eval_id, run_id = run_ids
    scorers = [{"name": scorer, "options": {"numeric": True} if scorer == "match" else {},
                "metrics": [{"name": "inspect_ai/accuracy", "options": {}}, {"name": "inspect_ai/stderr", "options": {}}],
                "metadata": {}}]
    steps = ([{"solver": "system_message", "params": {"template": "(fewshot examples)"}, "params_passed": {}},
              {"solver": "prompt_template", "params": {"template": MATH}, "params_passed": {"template": MATH}},
              {"solver": "generate", "params": {"tool_calls": "loop"}, "params_passed": {}}]
             if task == "gsm8k" else
             [{"solver": "multiple_choice", "params": {"cot": task == "gpqa_diamond"},
               "params_passed": {"cot": True} if task == "gpqa_diamond" else {}}])
    ids = [sid for sid, _ in samples]
    eval_spec = {"eval_id": eval_id, "run_id": run_id, "created": created, "task": task, "task_id": task_id,
                 "task_version": 0, "task_display_name": task, "task_registry_name": f"inspect_evals/{task}",
                 "task_attribs": {}, "task_args": {}, "task_args_passed": {},
                 "dataset": {"name": task.split("_")[0], "location": f"hf://datasets/{task.split('_')[0]}",
                             "samples": n_total, "sample_ids": ids, "shuffled": False},
                 "model": model, "model_generate_config": {"temperature": 0.5} if task == "gpqa_diamond" else {},
                 "model_args": {},
                 "config": {"limit": len(ids), "epochs": 1, "epochs_reducer": ["mean"], "fail_on_error": True,
                            "continue_on_fail": False, "sandbox_cleanup": True, "log_samples": True,
                            "log_realtime": True, "log_images": True, "score_display": True},
                 "revision": {"type": "git", "origin": "https://github.com/UKGovernmentBEIS/inspect_evals.git",
                              "commit": f"{gencommon.stream(seed, 'commit').getrandbits(160):040x}", "dirty": False},
                 "packages": PACKAGES, "scorers": scorers}
    plan_doc = {"name": "plan", "steps": steps, "config": eval_spec["model_generate_config"]}
    with zipfile.ZipFile(path, "w") as z:
        def put(name, doc):
            info = zipfile.ZipInfo(name, date_time=clock.t.timetuple()[:6])
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o600 << 16
            z.writestr(info, dumps(doc), compresslevel=5)

        put("_journal/start.json", {"version": 2, "eval": eval_spec, "plan": plan_doc})
        # samples finish roughly in dataset order
        order = sorted(range(len(samples)), key=lambda i: i + rng.uniform(0, 8))
        summaries, buffered, k = [], [], 0
        usage_total = {"input_tokens": 0, "output_tokens": 0, "total_tokens": 0}
        reductions = []
        for i in order:
            sid, s = samples[i]
            doc, summary = sample_doc(model, task, sid, s, outcomes[i], rng, pool, clock)
            for key in usage_total:
                usage_total[key] += doc["output"]["usage"][key]
            put(f"samples/{sid}_epoch_1.json", doc)
            buffered.append(summary)
            score = doc["scores"][scorer]
            reductions.append({"value": 1.0 if outcomes[i] else 0.0, "answer": score["answer"],
                               "explanation": score["explanation"], "history": [], "sample_id": sid})
            if len(buffered) == 10:
                k += 1
                put(f"_journal/summaries/{k}.json", buffered)
                summaries.extend(buffered)
                buffered = []
        if buffered:
            k += 1
            put(f"_journal/summaries/{k}.json", buffered)
            summaries.extend(buffered)
        put("summaries.json", summaries)
        put("reductions.json", [{"scorer": scorer, "samples": reductions}])
        n = len(samples)
        accuracy = sum(outcomes) / n
        stderr = (accuracy * (1 - accuracy) / (n - 1)) ** 0.5 if n > 1 else 0.0
        put("header.json", {
            "version": 2, "status": "success", "eval": eval_spec, "plan": plan_doc,
            "results": {"total_samples": n, "completed_samples": n,
                        "scores": [{"name": scorer, "scorer": scorer, "scored_samples": n,
                                    "unscored_samples": 0, "params": scorers[0]["options"],
                                    "metrics": {"accuracy": {"name": "accuracy", "value": accuracy, "params": {}},
                                                "stderr": {"name": "stderr", "value": stderr, "params": {}}}}]},
            "stats": {"started_at": created, "completed_at": clock.t.isoformat(timespec="seconds"),
                      "model_usage": {model: usage_total}, "role_usage": {}},
            "invalidated": False, "tags": [], "metadata": {}})


def main():
    ap = gencommon.parser(__doc__, 100)
    ap.add_argument("--samples", type=int, default=200, help="samples per run, split over the four tasks (default 200)")
    a = ap.parse_args()
    gencommon.check_args(ap, a)
    if a.samples < len(TASKS):
        ap.error(f"--samples must be at least {len(TASKS)} (one per task)")
    tasks = plan(a.seed, a.samples)
    made = pool = None
    if a.out:
        os.makedirs(a.out, exist_ok=True)
        fewshot = fewshot_system(a.seed)
        made = {task: [(sid, make_sample(a.seed, task, sid, fewshot)) for sid, _ in ids] for task, ids in tasks}
        prng = gencommon.stream(a.seed, "pool")
        pool = [sentence(prng, prng.randrange(6, 26)) for _ in range(3000)]
    full = {"gpqa_diamond": 198, "mmlu_0_shot": 14042, "gsm8k": 1319, "arc_challenge": 1172}
    models = gencommon.model_names(MODELS, a.models, "openai/model-")
    truth = gencommon.Truth("inspect", a.seed)
    def first_log(model, ri):
        """The run each_run registers: the first task's log; the other tasks' logs are runs too."""
        return f"{log_names(a.seed, model, ri)[0][2]}#epoch-1"

    for model, ri, _, orng in gencommon.each_run(a, models, truth, name=first_log):
        names = log_names(a.seed, model, ri)
        for _, _, stem in names[1:]:
            truth.run(model, f"{stem}#epoch-1")
        outcomes = []
        for (task, ids), (_, _, stem) in zip(tasks, names):
            passed = [orng.random() < p for _, p in ids]
            for (sid, _), ok in zip(ids, passed):
                truth.record(model, f"{stem}#epoch-1", task, str(sid), ok)
            outcomes.append(passed)
        if a.out:
            rng = gencommon.stream(a.seed, "content", model, ri)
            run_id = shortuuid(rng)  # one `inspect eval`, one run_id; each log its own eval_id
            for (task, _), (created, task_id, stem), passed in zip(tasks, names, outcomes):
                write_log(os.path.join(a.out, f"{stem}.eval"), a.seed, model, task, created, task_id,
                          (shortuuid(rng), run_id), made[task], passed, rng, pool, max(full[task], len(passed)))
            gencommon.progress(ri + 1, a.runs, 10)
    if a.expected:
        truth.print()


if __name__ == "__main__":
    main()
