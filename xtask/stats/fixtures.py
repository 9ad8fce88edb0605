#!/usr/bin/env python3
"""Reference values for evaltally's statistics, computed with scipy and statsmodels.

The Rust unit tests hold the numbers this script prints (they never run Python). Run it to
check or regenerate them:

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install scipy statsmodels pandas
    /tmp/venv/bin/python xtask/stats/fixtures.py [../shared/refdata]

Each section names the Rust test that holds its values. With a refdata folder (default
`../shared/refdata` beside the checkout) it also computes the worked example of
docs/statistics.md on the bbrowning gpt-oss-120b runs, from the BFCL files directly.
"""

import csv
import glob
import json
import math
import os
import sys

import numpy as np
import statsmodels.api as sm
from scipy import stats
from statsmodels.stats.multitest import multipletests


def expand(tallies):
    """(passed, judged) per cluster -> observations y and cluster labels g."""
    y, g = [], []
    for i, (p, n) in enumerate(tallies):
        y += [1.0] * p + [0.0] * (n - p)
        g += [i] * n
    return np.array(y), np.array(g)


def ses(tallies):
    y, g = expand(tallies)
    x = np.ones((len(y), 1))
    naive = sm.OLS(y, x).fit().bse[0]
    clus = sm.OLS(y, x).fit(cov_type="cluster", cov_kwds={"groups": g}).bse[0]
    return naive, clus


def anova(tallies):
    """One-way random-effects components; F cross-checked with scipy's f_oneway."""
    groups = [np.array([1.0] * p + [0.0] * (n - p)) for p, n in tallies if n > 0]
    n_i = np.array([len(a) for a in groups], dtype=float)
    N, T = n_i.sum(), len(groups)
    grand = np.concatenate(groups).mean()
    ssw = sum(((a - a.mean()) ** 2).sum() for a in groups)
    ssb = sum(len(a) * (a.mean() - grand) ** 2 for a in groups)
    msw, msb = ssw / (N - T), ssb / (T - 1)
    if msw > 0:
        f = stats.f_oneway(*groups).statistic
        assert abs(f - msb / msw) < 1e-9 * max(1, f), (f, msb / msw)
    n0 = (N - (n_i ** 2).sum() / N) / (T - 1)
    return max(0.0, (msb - msw) / n0), msw


CASES = [
    [(4, 4), (1, 4), (0, 4)],
    [(5, 5), (5, 5), (3, 5), (0, 5), (1, 5), (2, 5)],
    [(83, 100), (40, 60), (7, 40), (20, 20)],
    [(3, 5), (2, 3), (0, 4), (4, 4), (1, 2)],
]


def section(name):
    print(f"\n## {name}")


def main():
    refdata = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../../../shared/refdata")

    section("se (stats::se::tests::matches_statsmodels)")
    for c in CASES:
        n, cl = ses(c)
        print(f"{c}: naive {n!r}, clustered {cl!r}")
    print("doc: naive(84/200) =", ses([(1, 1)] * 84 + [(0, 1)] * 116)[0])

    section("variance (stats::variance::tests::matches_the_anova_reference)")
    for c in CASES:
        b, w = anova(c)
        print(f"{c}: between {b!r}, within {w!r}")

    section("holm (stats::multiple::tests::matches_statsmodels)")
    for p in [[4.713242239575157e-6, 0.803619384765625, 0.5034446716308594, 0.0625, 0.02], [0.5, 0.5, 0.01],
              [0.01, 0.04, 0.03, 0.005]]:
        print(p, "->", list(multipletests(p, method="holm")[1]))

    section("bh (stats::multiple::tests::benjamini_hochberg_matches_statsmodels)")
    for p in ([4.713242239575157e-6, 0.803619384765625, 0.5034446716308594, 0.0625, 0.02],
              [0.01, 0.04, 0.03, 0.005]):
        print(p, "->", list(multipletests(p, method="fdr_bh")[1]))

    section("fisher (stats::tests::fisher_matches_scipy)")
    for table in ([[19, 1], [3, 17]], [[10, 2], [3, 9]], [[1000, 10], [900, 110]], [[5, 0], [5, 0]]):
        print(table, "->", repr(stats.fisher_exact(table)[1]))

    section("normal (stats::normal::tests::matches_scipy)")
    for z in [0.0, 1.0, 3.0, -1.5, 6.0, 1.959963984540054]:
        print(f"sf({z}) = {stats.norm.sf(z)!r}")
    print("two_sided_p(-2.5) =", 2 * stats.norm.sf(2.5))
    print("z80 =", stats.norm.ppf(0.8), "z975 =", stats.norm.ppf(0.975))
    print("mde(0.02) =", (stats.norm.ppf(0.975) + stats.norm.ppf(0.8)) * 0.02)

    section("paired (stats::se paired difference, compare)")
    # Paired SE of the mean difference: sqrt((var A + var B - 2 cov) / n), sample moments.
    a = np.array([1, 1, 0, 1, 0, 0, 1, 1, 1, 0], float)
    b = np.array([1, 0, 0, 1, 1, 1, 1, 1, 1, 1], float)
    cov = np.cov(a, b, ddof=1)
    se = math.sqrt((cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]) / len(a))
    print("paired se", se, "ttest_rel p", stats.ttest_rel(b, a).pvalue, "sem of diff", stats.sem(b - a))

    bfcl_leaderboard(refdata)
    bbrowning(refdata)


# --- BFCL's overall score, as bfcl_eval/eval_checker/eval_runner_helper.py computes it ---

LIVE_SIZES = {"live_simple": 258, "live_multiple": 1053, "live_parallel": 16, "live_parallel_multiple": 24}


def bfcl_overall(acc, counts=None):
    """acc: category -> accuracy in [0, 1] (missing: 0, as BFCL counts it)."""
    a = lambda c: acc.get(c, 0.0)
    counts = counts or {}
    simple = (a("simple_python") + a("simple_java") + a("simple_javascript")) / 3
    non_live = (simple + a("multiple") + a("parallel") + a("parallel_multiple")) / 4
    n = {c: counts.get(c, LIVE_SIZES[c]) for c in LIVE_SIZES}
    live = sum(a(c) * n[c] for c in LIVE_SIZES) / sum(n.values())
    irrelevance = (a("irrelevance") + a("live_irrelevance")) / 2
    multi = sum(a(c) for c in ["multi_turn_base", "multi_turn_miss_func", "multi_turn_miss_param",
                               "multi_turn_long_context"]) / 4
    web = (a("web_search_base") + a("web_search_no_snippet")) / 2
    mem = (a("memory_kv") + a("memory_vector") + a("memory_rec_sum")) / 3
    agentic = (web + mem) / 2
    return 0.1 * non_live + 0.1 * live + 0.1 * irrelevance + 0.3 * multi + 0.4 * agentic


def pct(s):
    return 0.0 if s.strip() == "N/A" else float(s.strip().rstrip("%")) / 100


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def bfcl_leaderboard(refdata):
    section("bfcl overall (bfcl_score::tests::reproduces_the_leaderboard)")
    d = os.path.join(refdata, "bfcl/gorilla-gh-pages")
    if not os.path.isdir(d):
        print("(no refdata)")
        return
    overall = {r["Model"]: r for r in rows(f"{d}/data_overall.csv")}
    nl = {r["Model"]: r for r in rows(f"{d}/data_non_live.csv")}
    lv = {r["Model"]: r for r in rows(f"{d}/data_live.csv")}
    mt = {r["Model"]: r for r in rows(f"{d}/data_multi_turn.csv")}
    ag = {r["Model"]: r for r in rows(f"{d}/data_agentic.csv")}
    worst = 0.0
    picked = []
    for i, (model, o) in enumerate(overall.items()):
        acc = {
            "simple_python": pct(nl[model]["Python Simple AST"]), "simple_java": pct(nl[model]["Java Simple AST"]),
            "simple_javascript": pct(nl[model]["JavaScript Simple AST"]), "multiple": pct(nl[model]["Multiple AST"]),
            "parallel": pct(nl[model]["Parallel AST"]), "parallel_multiple": pct(nl[model]["Parallel Multiple AST"]),
            "irrelevance": pct(nl[model]["Irrelevance Detection"]),
            "live_simple": pct(lv[model]["Python Simple AST"]), "live_multiple": pct(lv[model]["Python Multiple AST"]),
            "live_parallel": pct(lv[model]["Python Parallel AST"]),
            "live_parallel_multiple": pct(lv[model]["Python Parallel Multiple AST"]),
            "live_irrelevance": pct(lv[model]["Irrelevance Detection"]),
            "multi_turn_base": pct(mt[model]["Base"]), "multi_turn_miss_func": pct(mt[model]["Miss Func"]),
            "multi_turn_miss_param": pct(mt[model]["Miss Param"]), "multi_turn_long_context": pct(mt[model]["Long Context"]),
            "web_search_base": pct(ag[model]["Web Search Base"]), "web_search_no_snippet": pct(ag[model]["Web Search No Snippet"]),
            "memory_kv": pct(ag[model]["Memory KV"]), "memory_vector": pct(ag[model]["Memory Vector"]),
            "memory_rec_sum": pct(ag[model]["Memory Recursive Summarization"]),
        }
        got = bfcl_overall(acc)
        want = pct(o["Overall Acc"])
        worst = max(worst, abs(got - want))
        if i in (0, 1, 50, len(overall) - 1):
            picked.append((model, acc, want, got))
    print(f"{len(overall)} models; worst |recomputed - published| = {worst:.6f} (CSV values have 2 decimals)")
    for model, acc, want, got in picked:
        print(f"{model}: published {want}, recomputed {got!r}")
        print("   ", json.dumps(acc))


# --- the worked example: bbrowning gpt-oss-120b, 5 runs ---

def bfcl_pass_fail(run_dir, model):
    """category -> {id: 1 pass / 0 fail}; inference errors count as failures (official)."""
    out = {}
    for res in glob.glob(f"{run_dir}/result/{model}/**/BFCL_v4_*_result.json", recursive=True):
        cat = os.path.basename(res)[len("BFCL_v4_"):-len("_result.json")]
        score = res.replace("/result/", "/score/").replace("_result.json", "_score.json")
        ids = [json.loads(l)["id"] for l in open(res) if l.strip()]
        failed = {json.loads(l)["id"] for l in list(open(score))[1:] if l.strip()}
        out[cat] = {i: 0 if i in failed else 1 for i in ids}
    return out


def bbrowning(refdata):
    section("worked example (docs/statistics.md; evaltally-analyzer/tests/refdata.rs)")
    root = os.path.join(refdata, "bfcl/bbrowning-bfcl-vllm-results/results")
    if not os.path.isdir(root):
        print("(no refdata)")
        return
    model = "openai_gpt-oss-120b"
    runs = ["2025-11-12-harmony-fixes", "2025-11-12-harmony-fixes-2", "2025-11-12-main", "v0.10.2", "v0.11.0"]
    data = {r: bfcl_pass_fail(f"{root}/{r}", model) for r in runs}
    cats = sorted(data[runs[0]])
    all_tallies, by_cat = [], []
    means = {}
    for c in cats:
        ids = sorted(data[runs[0]][c])
        tallies = [(sum(data[r][c][i] for r in runs), len(runs)) for i in ids]
        all_tallies += tallies
        y, g = expand(tallies)
        naive, clus = ses(tallies)
        b, w = anova(tallies)
        T = len(tallies)
        share1 = w / (b + w) if b + w > 0 else float("nan")
        run_scores = [sum(data[r][c].values()) / T for r in runs]
        sd1 = math.sqrt(w / T)
        need = math.ceil(w / (T * 0.01 ** 2)) if w > 0 else 1
        mde = (stats.norm.ppf(0.975) + stats.norm.ppf(0.8)) * math.sqrt(2 * w / (T * 5))
        means[c] = y.mean()
        print(f"{c}: T={T} mean={y.mean()!r} se_naive={naive!r} se_clustered={clus!r} between={b!r} within={w!r} "
              f"run_share(1)={share1!r} sd1={sd1!r} runs_needed(0.01)={need} mde(5 runs)={mde!r} "
              f"run scores={[round(s, 4) for s in run_scores]}")
        by_cat.append((c, tallies))
    y, _ = expand(all_tallies)
    naive, clus = ses(all_tallies)
    # Overall clustered by category: every result of a category in one cluster.
    ycat = np.concatenate([expand(t)[0] for _, t in by_cat])
    gcat = np.concatenate([[k] * sum(n for _, n in t) for k, (_, t) in enumerate(by_cat)])
    by_category = sm.OLS(ycat, np.ones((len(ycat), 1))).fit(cov_type="cluster", cov_kwds={"groups": gcat}).bse[0]
    print(f"overall: mean={y.mean()!r} se_naive={naive!r} se_clustered(test)={clus!r} se_by_category={by_category!r}")
    print("BFCL overall of the 5-run means (missing categories 0):", bfcl_overall(means))

    # Pairwise: v0.11.0 -> harmony-fixes, multi_turn_base (single runs).
    a, bb = data["v0.11.0"]["multi_turn_base"], data["2025-11-12-harmony-fixes"]["multi_turn_base"]
    ids = sorted(a)
    xa = np.array([a[i] for i in ids], float)
    xb = np.array([bb[i] for i in ids], float)
    reg = int(((xa == 1) & (xb == 0)).sum())
    imp = int(((xa == 0) & (xb == 1)).sum())
    print(f"compare v0.11.0 -> harmony-fixes multi_turn_base: b={reg} c={imp} "
          f"McNemar exact p={stats.binomtest(min(reg, imp), reg + imp, 0.5).pvalue!r} "
          f"diff={(xb - xa).mean()!r} paired se={stats.sem(xb - xa)!r}")


if __name__ == "__main__":
    main()
