#!/usr/bin/env python3
"""Generate a deterministic synthetic workload of JUnit XML reports: one report per run, every
run holding the same test cases, in the dialect vitest-evals writes (testdata/junit/).

Layout: OUT_DIR/run-0001.xml ... (with --models 2 or more: OUT_DIR/<model>/run-0001.xml).

Each report is a <testsuites> root (no name, so the run is named after the file) with a few
<testsuite>s, each carrying declared counts (tests, failures, errors, skipped) that match its
cases, a timestamp, a hostname and a `model` property. A <testcase> has classname, name (with
characters that need escaping: `>`, `'`, `&`) and time; a failed one holds a <failure message
type> or, less often, an <error message type> with a stack trace as text; a skipped one a
<skipped message>. Some cases carry eval <properties> (scores, tokens, cost) or <system-out>.

A test's category is its suite's name. Besides its hidden pass probability every test has a
skip probability: most never skip, some skip now and then, a few always do (they count in no
run and so not at all in the ground truth).

See gencommon.py for the command line shared by all generators and the ground truth (--expected).

Usage:
  gen_junit.py --runs 1000 --tests 100 --seed 7 OUT_DIR [--expected > truth.json]
"""
import datetime
import os
from xml.sax.saxutils import escape, quoteattr

import gencommon

SUITES = [("evals/tool-use.eval.ts", 0.25), ("evals/retrieval.eval.ts", 0.2), ("evals/reasoning.eval.ts", 0.2),
          ("evals/summarization.eval.ts", 0.15), ("evals/safety.eval.ts", 0.2)]
MODELS = ["acme-eval-7b", "acme-eval-70b", "acme-eval-405b"]
TOPICS = ("weather in Seattle|flights to Paris|the Q3 invoice|a refund for order 1182|R&D budget|"
          "Bob's calendar|the <div> layout bug|unit prices > $20|yesterday's standup notes|the GDPR policy|"
          "a SQL injection|the onboarding doc|stock price of ACME|the 2019 tax return|a recipe for ramen").split("|")
VERBS = ["answers", "summarises", "refuses", "calls the tool for", "cites sources on", "plans a trip around",
         "extracts fields from", "compares", "translates"]
FAILURES = [("AssertionError", "Score: {s} below threshold: 0.6"),
            ("AssertionError", "expected output to contain '{w}'"),
            ("ToolCallMismatch", "expected call get_{w}(), got search({w!r})")]
ERRORS = [("TimeoutError", "Request timed out after 30000 ms"), ("RateLimitError", "429 Too Many Requests"),
          ("APIConnectionError", "Connection reset by peer")]
SKIPS = ["rate limited: retry budget exhausted", "needs a browser", "disabled: flaky upstream tool"]


def skip_probability(rng):
    r = rng.random()
    if r < 0.90:
        return 0.0
    if r < 0.97:
        return 0.1
    return 1.0


def plan(seed, n_tests):
    rng = gencommon.stream(seed, "plan")
    probabilities = iter(gencommon.probabilities(rng, n_tests))
    suites = []
    for suite, count in gencommon.shares(SUITES, n_tests):
        title = suite.split("/")[-1].split(".")[0].replace("-", " ").capitalize()
        cases = []
        for i in range(count):
            name = f"{title} > {rng.choice(VERBS)} {rng.choice(TOPICS)} (case {i + 1})"
            cases.append((name, next(probabilities), skip_probability(rng)))
        suites.append((suite, cases))
    return suites


def testcase(suite, name, outcome, rng):
    """(XML, seconds, "failure" / "error" / None) of one <testcase>; `outcome` is "pass", "fail"
    or "skip"."""
    seconds = 0.0 if outcome == "skip" else round(rng.uniform(0.05, 12), 3)
    attrs = f"classname={quoteattr(suite)} name={quoteattr(name)} time=\"{seconds:.3f}\""
    body = []
    kind = None
    if outcome == "skip":
        body.append(f"      <skipped message={quoteattr(rng.choice(SKIPS))}/>\n")
    elif rng.random() < 0.4:
        props = [("evals.scores.score_0.value", f"{rng.random():.2f}"),
                 ("evals.input_tokens", str(rng.randrange(200, 6000))),
                 ("evals.output_tokens", str(rng.randrange(20, 800))),
                 ("evals.cost", f"{rng.uniform(0.0001, 0.02):.5f}")]
        body.append("      <properties>\n" + "".join(
            f"        <property name={quoteattr(k)} value={quoteattr(v)}/>\n" for k, v in props) + "      </properties>\n")
    if outcome == "fail":
        kind, choices = ("error", ERRORS) if rng.random() < 0.2 else ("failure", FAILURES)
        etype, message = rng.choice(choices)
        message = message.format(s=f"{rng.uniform(0, 0.6):.2f}", w=rng.choice(["weather", "refund", "budget"]))
        trace = "\n".join([f"{etype}: {message}"] + [
            f"    at {rng.choice(['runEval', 'scoreOutput', 'callModel', 'toolRouter'])} "
            f"(/app/{suite}:{rng.randrange(10, 400)}:{rng.randrange(1, 40)})" for _ in range(rng.randrange(2, 6))])
        body.append(f"      <{kind} message={quoteattr(message)} type={quoteattr(etype)}>{escape(trace)}</{kind}>\n")
    if outcome != "skip" and rng.random() < 0.1:
        body.append(f"      <system-out>{escape('model said: ' + rng.choice(TOPICS))}</system-out>\n")
    if not body:
        return f"    <testcase {attrs}/>\n", seconds, kind
    return f"    <testcase {attrs}>\n{''.join(body)}    </testcase>\n", seconds, kind


def report(model, ri, suites, outcomes, rng):
    started = datetime.datetime(2026, 2, 1, 3) + datetime.timedelta(hours=3 * ri)
    parts = []
    totals = [0, 0, 0, 0]
    seconds = 0.0
    for (suite, cases), results in zip(suites, outcomes):
        made = [testcase(suite, name, outcome, rng) for (name, _, _), outcome in zip(cases, results)]
        time = sum(t for _, t, _ in made)
        kinds = [k for _, _, k in made]
        counts = [len(results), kinds.count("failure"), kinds.count("error"), results.count("skip")]
        totals = [a + b for a, b in zip(totals, counts)]
        seconds += time
        parts.append(
            f"  <testsuite name={quoteattr(suite)} timestamp=\"{started:%Y-%m-%dT%H:%M:%S}.000Z\" hostname=\"ci-{ri % 3}\" "
            f"tests=\"{counts[0]}\" failures=\"{counts[1]}\" errors=\"{counts[2]}\" skipped=\"{counts[3]}\" "
            f"time=\"{time:.3f}\">\n"
            f"    <properties>\n      <property name=\"model\" value={quoteattr(model)}/>\n    </properties>\n"
            + "".join(x for x, _, _ in made) + "  </testsuite>\n")
    head = (f"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites tests=\"{totals[0]}\" failures=\"{totals[1]}\" "
            f"errors=\"{totals[2]}\" skipped=\"{totals[3]}\" time=\"{seconds:.3f}\">\n")
    return head + "".join(parts) + "</testsuites>\n"


def main():
    ap = gencommon.parser(__doc__, 1000)
    ap.add_argument("--tests", type=int, default=100, help="test cases per report (default 100)")
    a = ap.parse_args()
    gencommon.check_args(ap, a)
    suites = plan(a.seed, a.tests)
    models = gencommon.model_names(MODELS, a.models, "model-")
    truth = gencommon.Truth("junit", a.seed)
    for model, ri, run, orng in gencommon.each_run(a, models, truth):
        outcomes = []
        for suite, cases in suites:
            results = []
            for name, p, skip in cases:
                outcome = "skip" if orng.random() < skip else "pass" if orng.random() < p else "fail"
                truth.record(model, run, suite, name, None if outcome == "skip" else outcome == "pass")
                results.append(outcome)
            outcomes.append(results)
        if a.out:
            folder = os.path.join(a.out, model) if a.models > 1 else a.out
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, f"{run}.xml"), "w") as f:
                f.write(report(model, ri, suites, outcomes, gencommon.stream(a.seed, "content", model, ri)))
            gencommon.progress(ri + 1, a.runs, 250)
    if a.expected:
        truth.print()


if __name__ == "__main__":
    main()
