"""What the ref_*.py baselines share: the walk over a folder, the summary they print.

`status` maps (model, category) to {test: [passes, runs]}, `runs_seen` to the runs that judged
the category, `correct` to the passes per run. Prints one JSON object:
  {"models": {model: {category: {"runs", "total", "stable_pass", "flaky", "stable_fail", "correct": [...]}}}}
"""
import json
import os
import sys


def print_summary(status, runs_seen, correct):
    out = {"models": {}}
    for (model, cat), per in sorted(status.items()):
        sp = sum(1 for p, n in per.values() if p == n)
        sf = sum(1 for p, n in per.values() if p == 0)
        out["models"].setdefault(model, {})[cat] = {
            "runs": runs_seen[(model, cat)], "total": len(per), "stable_pass": sp,
            "flaky": len(per) - sp - sf, "stable_fail": sf, "correct": correct[(model, cat)]}
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    print()


def walk(root):
    """Every file below `root` as (folder, name), folders and names in sorted order."""
    for dirpath, dirnames, names in os.walk(root):
        dirnames.sort()
        for name in sorted(names):
            yield dirpath, name
