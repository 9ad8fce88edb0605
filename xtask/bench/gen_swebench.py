#!/usr/bin/env python3
"""Generate a deterministic synthetic workload of SWE-bench per-instance reports: the
report.json files the harness leaves for every instance it evaluated, for many runs of the same
instances.

Layout: OUT_DIR/logs/run_evaluation/<run_id>/<model>/<instance_id>/report.json, as the harness
writes it (../shared/notes/sfbench-swebench-format.md §2.2; testdata/swebench/runs): wrapped in
{instance_id: {...}}, indented by 4, with patch_is_None, patch_exists,
patch_successfully_applied, resolved and tests_status (FAIL_TO_PASS / PASS_TO_PASS success and
failure lists of test names, FAIL_TO_FAIL / PASS_TO_FAIL empty). Instance ids look like
`astropy__astropy-12907`, spread over the repositories of SWE-bench Verified in about its
proportions; a test's category is its repository (`astropy/astropy`), the model is the folder
name (`acme__swe-agent-7b`).

An unresolved instance failed its tests (most often), did not apply its patch (no tests_status)
or had no patch (patch_is_None). Now and then (0.5%) an instance has no report.json at all, as
when the harness hits an error before writing it: the run does not list it.

See gencommon.py for the command line shared by all generators and the ground truth (--expected).

Usage:
  gen_swebench.py --runs 20 --instances 500 --seed 7 OUT_DIR [--expected > truth.json]
"""
import json
import os

import gencommon

# Repository, share of SWE-bench Verified, range of issue numbers, test naming style.
REPOS = [("django/django", 231, (9000, 17100), "django"), ("sympy/sympy", 75, (11000, 26000), "pytest"),
         ("sphinx-doc/sphinx", 44, (7400, 11500), "pytest"), ("matplotlib/matplotlib", 34, (13900, 26500), "pytest"),
         ("scikit-learn/scikit-learn", 32, (10200, 26400), "pytest"), ("astropy/astropy", 22, (12000, 15000), "pytest"),
         ("pydata/xarray", 22, (2900, 7400), "pytest"), ("pytest-dev/pytest", 19, (5100, 11200), "pytest"),
         ("pylint-dev/pylint", 10, (4300, 8900), "pytest"), ("psf/requests", 8, (860, 6100), "pytest"),
         ("mwaskom/seaborn", 2, (2800, 3500), "pytest"), ("pallets/flask", 1, (4000, 5500), "pytest")]
MODELS = ["acme__swe-agent-7b", "acme__swe-agent-70b", "acme__swe-agent-405b"]
WORDS = ("parse format units table fit transform render index merge resample cache widget query "
         "migration admin form field model lookup session cookie header encode decode").split()
MISSING = 0.005


def test_name(rng, repo, style):
    if style == "django":
        cls = rng.choice(WORDS).capitalize() + rng.choice(["Tests", "TestCase", "Tests"])
        return f"test_{rng.choice(WORDS)}_{rng.choice(WORDS)} ({rng.choice(WORDS)}.tests.{cls})"
    pkg = repo.split("/")[1].replace("-", "_")
    param = f"[{rng.choice(WORDS)}-{rng.randrange(20)}]" if rng.random() < 0.4 else ""
    return f"{pkg}/tests/test_{rng.choice(WORDS)}.py::test_{rng.choice(WORDS)}_{rng.choice(WORDS)}{param}"


def plan(seed, n_instances):
    """[(instance_id, category, pass probability, FAIL_TO_PASS tests, PASS_TO_PASS tests)], by id."""
    rng = gencommon.stream(seed, "plan")
    probabilities = iter(gencommon.probabilities(rng, n_instances))
    styles = {repo: (span, style) for repo, _, span, style in REPOS}
    out = []
    for repo, count in gencommon.shares([(r, w) for r, w, _, _ in REPOS], n_instances):
        (lo, hi), style = styles[repo]
        numbers = sorted(rng.sample(range(lo, hi), count))
        for number in numbers:
            iid = f"{repo.replace('/', '__', 1)}-{number}"
            f2p = sorted({test_name(rng, repo, style) for _ in range(rng.randrange(1, 5))})
            p2p = sorted({test_name(rng, repo, style) for _ in range(int(rng.paretovariate(1.2) * 6))} - set(f2p))
            out.append((iid, repo, next(probabilities), f2p, p2p))
    return sorted(out)


def report(iid, resolved, f2p, p2p, rng):
    body = {"patch_is_None": False, "patch_exists": True, "patch_successfully_applied": True, "resolved": resolved}
    if not resolved:
        r = rng.random()
        if r < 0.05:
            return {iid: {"patch_is_None": True, "patch_exists": False, "patch_successfully_applied": False,
                          "resolved": False}}
        if r < 0.20:
            body["patch_successfully_applied"] = False
            return {iid: body}
    f2p_fail = [] if resolved else [t for t in f2p if rng.random() < 0.7] or [f2p[0]]
    p2p_fail = [] if resolved else [t for t in p2p if rng.random() < 0.05]
    body["tests_status"] = {
        "FAIL_TO_PASS": {"success": [t for t in f2p if t not in f2p_fail], "failure": f2p_fail},
        "PASS_TO_PASS": {"success": [t for t in p2p if t not in p2p_fail], "failure": p2p_fail},
        "FAIL_TO_FAIL": {"success": [], "failure": []},
        "PASS_TO_FAIL": {"success": [], "failure": []},
    }
    return {iid: body}


def main():
    ap = gencommon.parser(__doc__, 20)
    ap.add_argument("--instances", type=int, default=500, help="instances per run (default 500)")
    a = ap.parse_args()
    gencommon.check_args(ap, a)
    instances = plan(a.seed, a.instances)
    models = gencommon.model_names(MODELS, a.models, "acme__model-")
    truth = gencommon.Truth("swebench", a.seed)
    for model, ri, run, orng in gencommon.each_run(a, models, truth, min_width=3):
        crng = gencommon.stream(a.seed, "content", model, ri)
        for iid, repo, p, f2p, p2p in instances:
            if orng.random() < MISSING:
                continue
            resolved = orng.random() < p
            truth.record(model, run, repo, iid, resolved)
            if a.out:
                path = os.path.join(a.out, "logs", "run_evaluation", run, model, iid, "report.json")
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w") as f:
                    json.dump(report(iid, resolved, f2p, p2p, crng), f, indent=4)
        if a.out:
            gencommon.progress(ri + 1, a.runs, 5)
    if a.expected:
        truth.print()


if __name__ == "__main__":
    main()
