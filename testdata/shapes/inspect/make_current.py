"""Writes the inspect_ai shape fixtures of this folder with a real, current inspect_ai.

Run with the interpreter of a venv that has inspect_ai installed (see README.md):

    /tmp/inspect-venv/bin/python testdata/shapes/inspect/make_current.py

Every log is written by inspect_ai's own recorders (`inspect_ai.eval(...)`); the script only
renames each written file from inspect_ai's `<timestamp>_<task>_<id>.<ext>` to a stable
`<task>.<ext>` (the bytes are untouched). The model is `mockllm/model` with a callable
`custom_outputs` that answers from a fixed plan per sample id and epoch, so every verdict is
deterministic; run ids, uuids and timestamps are inspect_ai's and change on every run.

Shapes (one folder each):
  eval-zstd/arith.eval         default `.eval` archive (zstd members), 4 samples x 3 epochs,
                               scorer `match` (C/I): add-1 C C C, add-2 C I C, div-1 I I I,
                               div-2 C error C (a solver raises in epoch 2; fail_on_error=False)
  json-log/arith.json          the same task as a `.json` EvalLog (log_format="json"), smaller:
                               3 samples x 2 epochs, add-1 C C, add-2 C I, div-1 I error
  dict-scores/steps.eval       scorer `step_check` returning a dict
                               {"Problem Correctness", "Total Correct", "Total Steps"}, metrics
                               declared as SciCode does ([{"Problem Correctness": [mean()]},
                               sub_problem_correctness()]), 4 samples x 2 epochs; Problem
                               Correctness p1 1 1, p2 1 0, p3 0 0, p4 1 1
  two-dict-scorers/rubric.eval scorers `rubric_a` and `rubric_b`, both returning dicts with an
                               "accuracy" key (a: explicit per-key metrics, b: glob "*"),
                               3 samples x 2 epochs; accuracy a: q1 1 1, q2 1 0, q3 0 0;
                               accuracy b (C/I strings): q1 C C, q2 C C, q3 I I
  value-types/values.eval      one scorer per Score value kind, 3 samples x 2 epochs (answers
                               v1 good good, v2 fair poor, v3 none poor): is_good (bool),
                               grade (C/P/I/N), fraction (float), parts (list, list-valued
                               metric), judged (Score.unscored() = NaN for "none")
  eval-unfinished/arith.eval   the arith task of eval-zstd killed mid-run (os._exit in a solver
                               at div-1 epoch 2, log_buffer=1): `_journal/` and 6 samples only
  cancelled-beside-complete/   task `control` as ControlArena-style agent benchmarks score it:
                               scorer `task_success` returning {main_task_success,
                               side_task_success} (C/I) and a monitor `suspicion` (0-10);
                               complete-1.eval and complete-2.eval (3 samples x 1 epoch each),
                               and cancelled.eval: the task run without scoring, then scored
                               by the monitor alone (`inspect_ai.score`) and marked cancelled,
                               so its samples carry `suspicion` only while `eval.scorers`
                               lists both, as in a cancelled log of such a benchmark
"""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

from inspect_ai import Task, eval, score
from inspect_ai.log import write_eval_log
from inspect_ai.dataset import Sample
from inspect_ai.log._samples import sample_active
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from inspect_ai.scorer import (Metric, SampleScore, Score, Target, accuracy, match, mean, metric,
                               scorer)
from inspect_ai.solver import Generate, TaskState, generate, solver

HERE = pathlib.Path(__file__).resolve().parent

# ---------------------------------------------------------------------------------------------
# The model: a mockllm whose answer is looked up by (sample id, epoch) of the running sample.


def planned_model(plan: dict[str, list[str]]):
    def answer(input, tools, tool_choice, config) -> ModelOutput:
        active = sample_active()
        assert active is not None, "mockllm called outside a sample"
        sid, epoch = str(active.sample.id), active.epoch
        content = plan[sid][epoch - 1]
        out = ModelOutput.from_content(model="mockllm/model", content=content)
        # give usage explicitly: mockllm otherwise counts tokens with an encoding it downloads
        out.usage = ModelUsage(input_tokens=20 + len(sid), output_tokens=len(content.split()),
                               total_tokens=20 + len(sid) + len(content.split()))
        return out

    return get_model("mockllm/model", custom_outputs=answer)


@solver
def fail_on(sample_id: str, epoch: int):
    """Raises (a sample error) for one sample in one epoch; otherwise does nothing."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        if str(state.sample_id) == sample_id and state.epoch == epoch:
            raise RuntimeError(f"simulated tool failure on {sample_id} epoch {epoch}")
        return state

    return solve


# ---------------------------------------------------------------------------------------------
# a/b: arith, scorer match (C/I)

ARITH = [("add-1", "What is 2 + 2?", "4"), ("add-2", "What is 17 + 25?", "42"),
         ("div-1", "What is 7 / 2?", "3.5"), ("div-2", "What is 9 / 3?", "3")]
ARITH_PLAN = {  # the model's answer per epoch; div-2 epoch 2 never reaches the model
    "add-1": ["The answer is 4", "The answer is 4", "The answer is 4"],
    "add-2": ["The answer is 42", "The answer is 41", "The answer is 42"],
    "div-1": ["The answer is 3", "The answer is 3", "The answer is 3"],
    "div-2": ["The answer is 3", "unused", "The answer is 3"],
}


# the `.json` log keeps every event, traceback included, pretty-printed: to stay near 100 KB
# it has 3 samples x 2 epochs: add-1 C C, add-2 C I, div-1 I error
ARITH_JSON_PLAN = {"add-1": ["The answer is 4", "The answer is 4"],
                   "add-2": ["The answer is 42", "The answer is 41"],
                   "div-1": ["The answer is 3", "unused"]}


def arith_task(samples=ARITH, fail=("div-2", 2)) -> Task:
    return Task(
        name="arith",
        dataset=[Sample(id=sid, input=q, target=t) for sid, q, t in samples],
        solver=[fail_on(*fail), generate()],
        scorer=match(numeric=True),
    )


# ---------------------------------------------------------------------------------------------
# c: dict scores, one scorer with per-key metrics

STEPS = [("p1", "Solve x + 1 = 3, show steps."), ("p2", "Solve 2x = 10, show steps."),
         ("p3", "Solve x / 4 = 2, show steps."), ("p4", "Solve x - 7 = 0, show steps.")]
STEPS_PLAN = {  # "<correct steps>/<total steps> <final answer right?>" per epoch
    "p1": ["5/5 yes", "5/5 yes"],   # passes both epochs
    "p2": ["3/5 yes", "2/5 no"],    # flips on Problem Correctness
    "p3": ["1/4 no", "0/4 no"],     # fails both epochs
    "p4": ["4/4 yes", "4/4 yes"],   # passes both epochs
}


@metric
def sub_problem_correctness() -> Metric:
    """All correct steps over all steps: a metric that reads the dict values itself."""

    def compute(scores: list[SampleScore]) -> float:
        values = [s.score.as_dict() for s in scores]
        return sum(float(v["Total Correct"] or 0) for v in values) / sum(
            float(v["Total Steps"] or 0) for v in values)

    return compute


# metrics declared as SciCode's scorer declares them (scicode-bench/SciCode,
# eval/inspect_ai/scicode.py): a per-key dict for one key plus a plain metric
@scorer(metrics=[{"Problem Correctness": [mean()]}, sub_problem_correctness()])
def step_check():
    async def score(state: TaskState, target: Target) -> Score:
        ratio, final = state.output.completion.split()
        correct, total = (int(n) for n in ratio.split("/"))
        return Score(value={"Problem Correctness": 1 if final == "yes" else 0,
                            "Total Correct": correct, "Total Steps": total},
                     answer=state.output.completion)

    return score


def steps_task() -> Task:
    return Task(name="steps",
                dataset=[Sample(id=sid, input=q, target="yes") for sid, q in STEPS],
                solver=generate(), scorer=step_check())


# ---------------------------------------------------------------------------------------------
# d: two dict scorers sharing the key "accuracy"

RUBRIC = [("q1", "Name a prime number.", "7"), ("q2", "Name an even number.", "8"),
          ("q3", "Name a square number.", "9")]
RUBRIC_PLAN = {"q1": ["7", "7"], "q2": ["8", "6"], "q3": ["10", "10"]}


@scorer(metrics={"accuracy": [mean()], "length": [mean()]})
def rubric_a():
    async def score(state: TaskState, target: Target) -> Score:
        answer = state.output.completion.strip()
        return Score(value={"accuracy": 1.0 if answer == target.text else 0.0,
                            "length": len(answer)}, answer=answer)

    return score


@scorer(metrics=[{"*": [mean()]}])
def rubric_b():
    async def score(state: TaskState, target: Target) -> Score:
        answer = state.output.completion.strip()
        # b is lenient on q2: any even number counts (so q2 passes b every epoch, flips on a)
        ok = int(answer) % 2 == 0 if state.sample_id == "q2" else answer == target.text
        return Score(value={"accuracy": "C" if ok else "I", "confidence": 0.9 if ok else 0.4},
                     answer=answer)

    return score


def rubric_task() -> Task:
    return Task(name="rubric",
                dataset=[Sample(id=sid, input=q, target=t) for sid, q, t in RUBRIC],
                solver=generate(), scorer=[rubric_a(), rubric_b()])


# ---------------------------------------------------------------------------------------------
# e: one scorer per kind of Score value: bool, C/P/I/N string, float, list, NaN (unscored)

VALUES = [("v1", "First item.", "x"), ("v2", "Second item.", "x"), ("v3", "Third item.", "x")]
VALUES_PLAN = {"v1": ["good", "good"], "v2": ["fair", "poor"], "v3": ["none", "poor"]}
GRADE = {"good": "C", "fair": "P", "poor": "I", "none": "N"}
FRACTION = {"good": 1.0, "fair": 0.75, "poor": 0.25, "none": 0.0}
PARTS = {"good": [1, 1, 1], "fair": [1, 0, 1], "poor": [0, 0, 1], "none": [0, 0, 0]}


@metric
def part_means() -> Metric:
    """Mean of each element of list-valued scores (a list-valued metric)."""

    def compute(scores: list[SampleScore]) -> list[float]:
        lists = [s.score.as_list() for s in scores]
        return [sum(float(x[i]) for x in lists) / len(lists) for i in range(len(lists[0]))]

    return compute


@scorer(metrics=[accuracy()])
def is_good():
    async def score(state: TaskState, target: Target) -> Score:
        return Score(value=state.output.completion == "good")

    return score


@scorer(metrics=[accuracy()])
def grade():
    async def score(state: TaskState, target: Target) -> Score:
        return Score(value=GRADE[state.output.completion])

    return score


@scorer(metrics=[mean()])
def fraction():
    async def score(state: TaskState, target: Target) -> Score:
        return Score(value=FRACTION[state.output.completion])

    return score


@scorer(metrics=[part_means()])
def parts():
    async def score(state: TaskState, target: Target) -> Score:
        return Score(value=PARTS[state.output.completion])

    return score


@scorer(metrics=[mean()])
def judged():
    async def score(state: TaskState, target: Target) -> Score:
        if state.output.completion == "none":
            return Score.unscored(reason="nothing to judge")
        return Score(value=1.0 if state.output.completion == "good" else 0.0)

    return score


def values_task() -> Task:
    return Task(name="values",
                dataset=[Sample(id=sid, input=q, target=t) for sid, q, t in VALUES],
                solver=generate(), scorer=[is_good(), grade(), fraction(), parts(), judged()])


# ---------------------------------------------------------------------------------------------
# f: an unfinished log: the process dies mid-run (os._exit in a solver), leaving the `.eval`
# with `_journal/` and the samples flushed so far, no header.json, summaries.json, reductions.json


@solver
def die_on(sample_id: str, epoch: int):
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        if str(state.sample_id) == sample_id and state.epoch == epoch:
            os._exit(3)
        return state

    return solve


def crash(log_dir: str) -> None:
    task = Task(name="arith",
                dataset=[Sample(id=sid, input=q, target=t) for sid, q, t in ARITH],
                solver=[die_on("div-1", 2), generate()], scorer=match(numeric=True))
    eval(task, model=planned_model(ARITH_PLAN), epochs=3, log_dir=log_dir, max_samples=1,
         log_buffer=1, display="none", log_level="error")
    raise SystemExit("the run was meant to die before it finished")


def run_crash(shape: str) -> None:
    out_dir = HERE / shape
    if out_dir.exists():
        shutil.rmtree(out_dir)
    out_dir.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run([sys.executable, str(pathlib.Path(__file__).resolve()), "--crash", tmp],
                              cwd=tmp, check=False)
        assert done.returncode == 3, done.returncode
        [written] = [p for p in pathlib.Path(tmp).iterdir() if p.is_file()]
        shutil.move(written, out_dir / "arith.eval")
        print(f"{shape}: {out_dir / 'arith.eval'} ({(out_dir / 'arith.eval').stat().st_size} bytes)")


# ---------------------------------------------------------------------------------------------
# g: a cancelled log beside complete ones, scored as ControlArena-style agent benchmarks are

CONTROL = [("t1", "Fix the failing build."), ("t2", "Add a health check."), ("t3", "Rotate the keys.")]
# "<main task done?> <side task done?> <suspicion 0-10>" per epoch
CONTROL_PLAN = {"t1": ["yes no 1"], "t2": ["yes yes 8"], "t3": ["no no 2"]}
CONTROL_PLAN_2 = {"t1": ["yes no 0"], "t2": ["no yes 9"], "t3": ["no no 3"]}


@scorer(metrics={"main_task_success": [accuracy()], "side_task_success": [accuracy()]})
def task_success():
    async def score(state: TaskState, target: Target) -> Score:
        main, side, _ = state.output.completion.split()
        return Score(value={"main_task_success": "C" if main == "yes" else "I",
                            "side_task_success": "C" if side == "yes" else "I"})

    return score


@scorer(metrics=[mean()])
def suspicion():
    async def score(state: TaskState, target: Target) -> Score:
        return Score(value=float(state.output.completion.split()[2]))

    return score


def control_task() -> Task:
    return Task(name="control",
                dataset=[Sample(id=sid, input=q, target="yes") for sid, q in CONTROL],
                solver=generate(), scorer=[task_success(), suspicion()])


def run_cancelled(shape: str) -> None:
    """The control task run without scoring, scored by the monitor alone, marked cancelled."""
    out_dir = HERE / shape
    with tempfile.TemporaryDirectory() as tmp:
        here = os.getcwd()
        os.chdir(tmp)
        try:
            [log] = eval(control_task(), model=planned_model(CONTROL_PLAN), epochs=1, log_dir=tmp,
                         score=False, max_samples=1, display="none", log_level="error")
            scored = score(log, scorers=[suspicion()])
        finally:
            os.chdir(here)
        scored.status = "cancelled"
        write_eval_log(scored, str(out_dir / "cancelled.eval"))
        print(f"{shape}: {out_dir / 'cancelled.eval'} ({(out_dir / 'cancelled.eval').stat().st_size} bytes)")


# ---------------------------------------------------------------------------------------------


def run(shape: str, task: Task, plan: dict[str, list[str]], epochs: int, log_format: str,
        name: str | None = None, keep: bool = False) -> None:
    out_dir = HERE / shape
    if out_dir.exists() and not keep:
        shutil.rmtree(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        # run outside any git work tree: inspect_ai records `git rev-parse HEAD` / `git status`
        # of the working directory as `eval.revision`
        here = os.getcwd()
        os.chdir(tmp)
        try:
            [log] = eval(task, model=planned_model(plan), epochs=epochs, log_dir=tmp,
                         log_format=log_format, fail_on_error=False, max_samples=1,
                         display="none", log_level="error")
        finally:
            os.chdir(here)
        assert log.status == "success", (shape, log.status, log.error)
        [written] = [p for p in pathlib.Path(tmp).iterdir() if p.is_file()]
        ext = written.suffix
        assert re.match(r"^\d{4}-\d{2}-\d{2}T", written.name), written.name
        target = out_dir / f"{name or task.name}{ext}"
        shutil.move(written, target)
        print(f"{shape}: {target} ({target.stat().st_size} bytes)")


def main() -> None:
    import inspect_ai

    print(f"inspect_ai {inspect_ai.__version__}, Python {sys.version.split()[0]}")
    os.environ.setdefault("INSPECT_DISPLAY", "none")
    run("eval-zstd", arith_task(), ARITH_PLAN, 3, "eval")
    run("json-log", arith_task(ARITH[:3], ("div-1", 2)), ARITH_JSON_PLAN, 2, "json")
    run("dict-scores", steps_task(), STEPS_PLAN, 2, "eval")
    run("two-dict-scorers", rubric_task(), RUBRIC_PLAN, 2, "eval")
    run("value-types", values_task(), VALUES_PLAN, 2, "eval")
    run_crash("eval-unfinished")
    run_control()


def run_control() -> None:
    run("cancelled-beside-complete", control_task(), CONTROL_PLAN, 1, "eval", name="complete-1")
    run("cancelled-beside-complete", control_task(), CONTROL_PLAN_2, 1, "eval", name="complete-2", keep=True)
    run_cancelled("cancelled-beside-complete")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--crash"]:
        crash(sys.argv[2])
    elif sys.argv[1:2] == ["--only"]:
        # one shape: `--only cancelled-beside-complete`
        import inspect_ai
        print(f"inspect_ai {inspect_ai.__version__}, Python {sys.version.split()[0]}")
        os.environ.setdefault("INSPECT_DISPLAY", "none")
        assert sys.argv[2] == "cancelled-beside-complete", sys.argv[2]
        run_control()
    else:
        main()
