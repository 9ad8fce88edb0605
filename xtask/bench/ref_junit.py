#!/usr/bin/env python3
"""Reference stability analysis over JUnit XML reports, written the plain way a user would in
Python: every *.xml file below ROOT is parsed with xml.etree.ElementTree.

It is the baseline for speed comparisons and a second opinion on counts.

Each report is a run, named after the file. The model is the `model` property of its first
suite that has one; a test's category is the name of the <testsuite> around it. A test case
with <failure> or <error> failed, one with <skipped> did not run, any other passed. A test is a
stable pass when it passed in every run that ran it, a stable fail when it failed in all of
them, otherwise flaky. Prints one JSON object:
  {"models": {model: {category: {"runs", "total", "stable_pass", "flaky", "stable_fail", "correct": [...]}}}}

Usage: ref_junit.py ROOT
"""
import os
import sys

import refcommon
import xml.etree.ElementTree as ET


def main():
    root = sys.argv[1]
    status = {}  # (model, category) -> {name: [passes, runs]}
    runs_seen = {}
    correct = {}
    for dirpath, name in refcommon.walk(root):
        if not name.endswith(".xml"):
            continue
        tree = ET.parse(os.path.join(dirpath, name))
        run = name[: -len(".xml")]
        suites = list(tree.iter("testsuite"))
        model = next((p.get("value") for s in suites for p in s.findall("properties/property")
                      if p.get("name") == "model"), "unknown")
        for suite in suites:
            key = (model, suite.get("name"))
            passed_here = listed = 0
            for case in suite.findall("testcase"):
                if case.find("skipped") is not None:
                    continue
                ok = case.find("failure") is None and case.find("error") is None
                s = status.setdefault(key, {}).setdefault(case.get("name"), [0, 0])
                s[1] += 1
                s[0] += ok
                passed_here += ok
                listed += 1
            if listed:
                runs_seen.setdefault(key, []).append(run)
                correct.setdefault(key, []).append(passed_here)
    refcommon.print_summary(status, runs_seen, correct)


if __name__ == "__main__":
    main()
