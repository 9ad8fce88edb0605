#!/usr/bin/env python3
"""Generate a deterministic synthetic workload of SF-Bench result schema v2 reports: one
report.json per run folder, every run evaluating the same instances.

Layout: OUT_DIR/run-0001/report.json ... (as testdata/sfbench-runs; with --models 2 or more:
OUT_DIR/<model>/run-0001/report.json).

Each report is what SF-Bench's EvaluationReport.to_dict() writes (../shared/seeds/000_*,
../shared/notes/sfbench-swebench-format.md §1): schema_version "2.0", run_id
`<model>-<YYYYmmdd_HHMMSS>`, model_name and model_name_or_path, dataset, created_at /
start_time, end_time, evaluation_config / config, instances (every InstanceResult field, with a
full ValidationBreakdown whose points add up to total_score), the summary computed as
calculate_summary() does, the five id lists by the rules of schema.py and an empty environment;
indented by 2. Instance ids look like `apex-trigger-handler-007`; a test's category is the text
before the first `-` (`apex`).

An instance is resolved (deployment, unit tests and functional validation pass), failed (one of
them failed) or errored (status "error", error_type "execution_error"); a few tests are now and
then "skipped" (not executed: judged in no run, but listed in theirs).

See gencommon.py for the command line shared by all generators and the ground truth (--expected).

Usage:
  gen_sfbench.py --runs 200 --instances 300 --seed 7 OUT_DIR [--expected > truth.json]
"""
import datetime
import os

import gencommon

FAMILIES = [("apex", 0.3, ["trigger-handler", "integration", "batch", "queueable", "rest-service"]),
            ("lwc", 0.25, ["component", "wire", "datatable", "form"]),
            ("flow", 0.2, ["screen-component", "record-triggered", "scheduled"]),
            ("integration", 0.1, ["soap", "rest", "platform-event"]),
            ("data", 0.08, ["migration", "dedupe"]),
            ("architecture", 0.07, [])]
MODELS = ["acme/sf-model", "acme/sf-model-large", "acme/sf-model-mini"]
COMPONENTS = ["deployment", "unit_test", "functional", "bulk", "no_tweaks"]
POINTS = {"deployment": 10, "unit_test": 20, "functional": 50, "bulk": 10, "no_tweaks": 10}
FAIL_MESSAGES = ["Functional validation failed", "Deployment failed: FIELD_INTEGRITY_EXCEPTION",
                 "Unit tests failed: 3 of 15 assertions", "Business outcome not achieved"]
ERROR_MESSAGES = ["Scratch org creation timed out", "sf CLI exited with status 1", "Patch could not be applied"]


def plan(seed, n_instances):
    """[(instance_id, category, pass probability, skip probability)]."""
    rng = gencommon.stream(seed, "plan")
    probabilities = iter(gencommon.probabilities(rng, n_instances))
    out = []
    for family, count in gencommon.shares([(f, w) for f, w, _ in FAMILIES], n_instances):
        topics = next(t for f, _, t in FAMILIES if f == family)
        numbers = {}
        for _ in range(count):
            topic = rng.choice(topics) if topics else ""
            numbers[topic] = numbers.get(topic, 0) + 1
            iid = f"{family}-{topic}-{numbers[topic]:03d}" if topic else f"{family}-{numbers[topic]:03d}"
            skip = 0.2 if rng.random() < 0.02 else 0.0
            out.append((iid, family, next(probabilities), skip))
    return out


def validation(status, rng):
    v = {}
    if status in ("error", "skipped"):
        states = dict.fromkeys(COMPONENTS, "skipped")
    elif status == "resolved":
        states = {"deployment": "pass", "unit_test": "pass", "functional": "pass",
                  "bulk": rng.choice(["pass", "pass", "fail"]), "no_tweaks": rng.choice(["pass", "fail"])}
    else:
        broken = rng.choice(["deployment", "unit_test", "functional", "functional"])
        states = {"deployment": "fail" if broken == "deployment" else "pass",
                  "unit_test": "fail" if broken == "unit_test" else "skipped" if broken == "deployment" else "pass",
                  "functional": "fail" if broken in ("functional", "unit_test") else "skipped",
                  "bulk": rng.choice(["skipped", "fail", "pass"]), "no_tweaks": rng.choice(["pass", "fail"])}
    unit_total = rng.randrange(5, 30)
    unit_failed = 0 if states["unit_test"] != "fail" else rng.randrange(1, unit_total)
    for c in COMPONENTS:
        v[f"{c}_status"] = states[c]
        v[f"{c}_message"] = {"pass": "ok", "fail": f"{c.replace('_', ' ')} failed", "skipped": ""}[states[c]]
        if c == "unit_test":
            ran = states[c] != "skipped"
            v["unit_test_passed"] = unit_total - unit_failed if ran else 0
            v["unit_test_failed"] = unit_failed
            v["unit_test_total"] = unit_total if ran else 0
        if c == "functional":
            v["functional_details"] = {} if states[c] == "skipped" else {
                "validation_level": "functional",
                "steps": [{"step": f"step {i + 1}", "passed": states[c] == "pass" or i > 0} for i in range(3)]}
        if c == "bulk":
            v["bulk_records_processed"] = 200 if states[c] == "pass" else rng.randrange(0, 200) if states[c] == "fail" else 0
            v["bulk_records_expected"] = 200
        v[f"{c}_points"] = POINTS[c] if states[c] == "pass" else 0
    v["total_score"] = sum(v[f"{c}_points"] for c in COMPONENTS)
    return v


def instance(iid, model, model_safe, run_id, status, started, rng):
    ran = status != "skipped"
    duration = round(rng.uniform(30, 600), 1) if ran else 0.0
    begin = started + datetime.timedelta(seconds=rng.randrange(0, 3000))
    return {
        "instance_id": iid,
        "model_name": model,
        "status": status,
        "resolved": status == "resolved",
        "validation": validation(status, rng),
        "duration_seconds": duration,
        "scratch_org_username": f"test-{rng.getrandbits(32):08x}@example.com" if ran else None,
        "scratch_org_creation_time": round(rng.uniform(20, 90), 1) if ran else 0.0,
        "error_message": rng.choice(ERROR_MESSAGES) if status == "error"
        else rng.choice(FAIL_MESSAGES) if status == "fail" else None,
        "error_type": "execution_error" if status == "error" else None,
        "start_time": begin.isoformat(timespec="microseconds"),
        "end_time": (begin + datetime.timedelta(seconds=duration)).isoformat(timespec="microseconds") if ran else None,
        "log_path": f"logs/run_evaluation/{run_id}/{model_safe}/{iid}/run_instance.log",
        "solution_patch": f"diff --git a/force-app/{iid}.cls b/force-app/{iid}.cls\n+// fix\n" if ran else None,
    }


def summary(instances):
    """calculate_summary() of SF-Bench's schema.py."""
    n = len(instances)
    scores = [i["validation"]["total_score"] for i in instances]
    functional = [i["validation"]["functional_points"] for i in instances if i["validation"]["functional_points"] > 0]
    durations = [i["duration_seconds"] for i in instances if i["duration_seconds"] > 0]
    resolved = sum(1 for i in instances if i["resolved"])
    failed = sum(1 for i in instances if i["status"] == "fail")
    errors = sum(1 for i in instances if i["status"] == "error")
    empty = sum(1 for i in instances if not (i["solution_patch"] or "").strip())

    def rate(component):
        return sum(1 for i in instances if i["validation"][f"{component}_status"] == "pass") / n

    return {
        "total_instances": n, "instances_submitted": n, "instances_completed": n - errors,
        "resolved_instances": resolved, "instances_resolved": resolved,
        "instances_unresolved": sum(1 for i in instances if not i["resolved"] and i["status"] == "fail"),
        "failed_instances": failed, "error_instances": errors, "instances_error": errors,
        "instances_empty_patch": empty,
        "resolve_rate": resolved / n, "resolution_rate": resolved / n * 100.0,
        "avg_score": sum(scores) / n,
        "avg_functional_score": sum(functional) / len(functional) if functional else 0.0,
        "median_score": sorted(scores)[n // 2], "min_score": min(scores), "max_score": max(scores),
        "deployment_pass_rate": rate("deployment"), "unit_test_pass_rate": rate("unit_test"),
        "functional_pass_rate": rate("functional"), "bulk_pass_rate": rate("bulk"),
        "no_tweaks_pass_rate": rate("no_tweaks"),
        "avg_duration_seconds": sum(durations) / len(durations) if durations else 0.0,
        "total_duration_seconds": sum(durations),
    }


def report(model, ri, instances_plan, statuses, rng):
    model_safe = model.replace("/", "-").replace(" ", "_")
    started = datetime.datetime(2026, 1, 1, 12) + datetime.timedelta(hours=2 * ri)
    run_id = f"{model_safe}-{started:%Y%m%d_%H%M%S}"
    instances = [instance(iid, model, model_safe, run_id, status, started, rng)
                 for (iid, _, _, _), status in zip(instances_plan, statuses)]
    config = {"tasks_file": "data/tasks/verified.json", "validation_mode": "functional", "max_workers": 2,
              "functional_validation": True, "scratch_org_alias": f"sfbench-{run_id}"}

    def ids(keep):
        return sorted(i["instance_id"] for i in instances if keep(i))

    return {
        "schema_version": "2.0",
        "run_id": run_id,
        "model_name_or_path": model,
        "model_name": model,
        "dataset": "verified",
        "created_at": started.isoformat(),
        "start_time": started.isoformat(),
        "end_time": (started + datetime.timedelta(minutes=95)).isoformat(),
        "evaluation_config": config,
        "config": config,
        "instances": instances,
        "summary": summary(instances),
        "resolved_ids": ids(lambda i: i["resolved"]),
        "unresolved_ids": ids(lambda i: not i["resolved"] and i["status"] == "fail"),
        "error_ids": ids(lambda i: i["status"] == "error"),
        "empty_patch_ids": ids(lambda i: not (i["solution_patch"] or "").strip()),
        "completed_ids": ids(lambda i: i["status"] != "error"),
        "environment": {},
    }


def main():
    ap = gencommon.parser(__doc__, 200)
    ap.add_argument("--instances", type=int, default=300, help="instances per report (default 300)")
    a = ap.parse_args()
    gencommon.check_args(ap, a)
    instances = plan(a.seed, a.instances)
    models = gencommon.model_names(MODELS, a.models, "acme/model-")
    truth = gencommon.Truth("sfbench", a.seed)

    def safe(model):
        return model.replace("/", "-").replace(" ", "_")

    def run_id(model, ri):
        started = datetime.datetime(2026, 1, 1, 12) + datetime.timedelta(hours=2 * ri)
        return f"{safe(model)}-{started:%Y%m%d_%H%M%S}"

    for model, ri, run, orng in gencommon.each_run(a, models, truth, name=run_id):
        statuses = []
        for iid, family, p, skip in instances:
            if orng.random() < skip:
                status = "skipped"
            elif orng.random() < p:
                status = "resolved"
            else:
                status = "error" if orng.random() < 0.2 else "fail"
            truth.record(model, run, family, iid, None if status == "skipped" else status == "resolved",
                         listed=True)
            statuses.append(status)
        if a.out:
            folder = os.path.join(a.out, safe(model)) if a.models > 1 else a.out
            doc = report(model, ri, instances, statuses, gencommon.stream(a.seed, "content", model, ri))
            assert doc["run_id"] == run
            gencommon.write_json(os.path.join(folder, gencommon.run_label(a, ri), "report.json"), doc, 2)
            gencommon.progress(ri + 1, a.runs, 50)
    if a.expected:
        truth.print()


if __name__ == "__main__":
    main()
