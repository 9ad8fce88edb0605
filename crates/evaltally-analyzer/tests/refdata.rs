//! Acceptance tests on real public BFCL runs in `../shared/refdata/bfcl` (never copied into
//! the repository). Expected values are the ones verified by hand in
//! `../shared/notes/bfcl-format.md` section 2; each test says which.

use evaltally_analyzer::stability::{self, CategoryStability, StabilityReport};
use evaltally_analyzer::{Filter, Loaded, NoProgress, load};
use evaltally_testkit::refdata;

fn load(rel: &str) -> Option<Loaded> {
    let path = refdata(rel)?;
    // The verified tables count inference errors as failures, as BFCL does officially.
    let official = Filter { errors_as_failures: true, ..Filter::default() };
    let mut loaded = load::load(&[path], &official, &NoProgress).expect("reference data loads");
    unclaimed(&mut loaded);
    Some(loaded)
}

/// Takes the facts that files holding no test's outcome are not read (BFCL's `data_*.csv`
/// leaderboard summaries, an index a submitter wrote) out of `loaded`'s diagnostics, and
/// returns those files' names; none is a JSON or XML file, which a format is always asked
/// about.
fn unclaimed(loaded: &mut Loaded) -> Vec<String> {
    const FACTS: [&str; 2] =
        ["not read: no format evaltally reads takes", "not read: a BFCL leaderboard summary (each model's accuracy"];
    let (facts, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut loaded.diagnostics)
        .into_iter()
        .partition(|d| d.is_info() && FACTS.iter().any(|f| d.message.starts_with(f)));
    loaded.diagnostics = rest;
    let read_by_content = |d: &&evaltally_core::Diagnostic| {
        d.path.extension().is_some_and(|e| ["json", "jsonl", "xml"].iter().any(|x| e.eq_ignore_ascii_case(x)))
    };
    assert!(!facts.iter().any(|d| read_by_content(&d)), "{facts:#?}");
    let names: Vec<String> =
        facts.iter().map(|d| d.path.file_name().unwrap_or_default().to_string_lossy().into_owned()).collect();
    names
}

fn category<'a>(report: &'a StabilityReport, model: &str, category: &str) -> &'a CategoryStability {
    let m = report.models.iter().find(|m| m.model == model).unwrap_or_else(|| panic!("model {model} missing"));
    m.categories.iter().find(|c| c.category == category).unwrap_or_else(|| panic!("{category} missing"))
}

/// `bfcl-format.md` §2, table "gpt-oss-120b, 5 runs": tests, stable pass, flaky, stable
/// fail, and `correct_count` per run listed as (v0.10.2, v0.11.0, main, hf, hf2).
#[test]
fn bbrowning_gpt_oss_120b_matches_the_verified_table() {
    let Some(path) = refdata("bfcl/bbrowning-bfcl-vllm-results/results") else {
        return;
    };
    let official = Filter { errors_as_failures: true, ..Filter::default() };
    let mut loaded = load::load(&[path], &official, &NoProgress).expect("reference data loads");
    // BFCL's six leaderboard summaries per run (`data_overall.csv`, …) are named as not read.
    let mut summaries = unclaimed(&mut loaded);
    summaries.sort();
    summaries.dedup();
    assert_eq!(
        summaries,
        [
            "data_agentic.csv",
            "data_format_sensitivity.csv",
            "data_live.csv",
            "data_multi_turn.csv",
            "data_non_live.csv",
            "data_overall.csv"
        ]
    );
    assert!(loaded.diagnostics.is_empty(), "{:#?}", loaded.diagnostics);
    let report = stability::analyze(&loaded.runs);
    #[rustfmt::skip]
    let table: [(&str, [usize; 4], [usize; 5]); 7] = [
        ("live_simple",       [258, 184, 38, 36],  [205, 207, 207, 205, 206]),
        ("live_relevance",    [16, 11, 1, 4],      [12, 11, 12, 12, 11]),
        ("live_parallel",     [16, 0, 0, 16],      [0, 0, 0, 0, 0]),
        ("simple_python",     [400, 321, 44, 35],  [351, 345, 347, 344, 343]),
        ("irrelevance",       [240, 203, 12, 25],  [208, 207, 209, 209, 210]),
        ("simple_javascript", [50, 16, 16, 18],    [24, 26, 25, 22, 24]),
        ("multi_turn_base",   [200, 40, 113, 47],  [83, 84, 100, 124, 124]),
    ];
    // Runs come in natural name order; the table lists them chronologically.
    let natural = ["2025-11-12-harmony-fixes", "2025-11-12-harmony-fixes-2", "2025-11-12-main", "v0.10.2", "v0.11.0"];
    let table_pos = [3, 4, 2, 0, 1]; // position in the table of each run in natural order
    for (name, [total, sp, fl, sf], correct) in table {
        let c = category(&report, "openai_gpt-oss-120b", name);
        assert_eq!(c.runs, natural, "{name}");
        assert_eq!((c.total, c.stable_pass, c.flaky, c.stable_fail), (total, sp, fl, sf), "{name}");
        let expected: Vec<usize> = table_pos.iter().map(|&i| correct[i]).collect();
        assert_eq!(c.correct, expected, "{name}");
    }
    let m120 = report.models.iter().find(|m| m.model == "openai_gpt-oss-120b").unwrap();
    assert_eq!(
        (m120.overall.total, m120.overall.stable_pass, m120.overall.flaky, m120.overall.stable_fail),
        (1180, 775, 224, 181)
    );

    let m20 = report.models.iter().find(|m| m.model == "openai_gpt-oss-20b").expect("20b is its own model");
    assert_eq!(m20.runs, ["2025-11-12-harmony-fixes", "2025-11-12-main"]);
    assert_eq!(
        m20.categories.iter().map(|c| c.category.as_str()).collect::<Vec<_>>(),
        ["live_simple", "simple_python"]
    );
    assert_eq!(report.models.len(), 2);
}

/// `bfcl-format.md` §2: the early `result-<run>/`, `score-<run>/` layout holds 3 runs of
/// `live_simple`.
#[test]
fn bbrowning_pairs_layout_finds_three_runs() {
    let Some(loaded) = load("bfcl/bbrowning-bfcl-vllm-results-324a9eb") else {
        return;
    };
    assert!(loaded.diagnostics.is_empty(), "{:#?}", loaded.diagnostics);
    let report = stability::analyze(&loaded.runs);
    let c = category(&report, "openai_gpt-oss-120b", "live_simple");
    assert_eq!(c.runs, ["baseline", "chat-tool-fix", "non-strict-parser"]);
    assert_eq!(c.total, 258);
    assert_eq!(c.stable_pass + c.flaky + c.stable_fail, 258);
}

/// The v3 irrelevance score file has 1-based integer ids and the real id in `prompt.id`;
/// its summary says 152 of 240 correct.
#[test]
fn oxayman_integer_ids_are_mapped_through_prompt_id() {
    let Some(loaded) = load("bfcl/0xayman-llm-berkeley-fc-eval") else {
        return;
    };
    // The score file ends without a final newline (PROVENANCE.md: no-final-NL); nothing else is odd.
    assert!(
        loaded.diagnostics.iter().all(|d| d.message.starts_with("no newline at the end")),
        "{:#?}",
        loaded.diagnostics
    );
    let run = &loaded.runs[0];
    assert_eq!((run.category.as_str(), run.len(), run.passed(), run.failed()), ("irrelevance", 240, 152, 88));
    // Line 2 of the score file is `{"id": 8, …, "prompt": {"id": "irrelevance_7", …}}`.
    let t = run.tests().find(|t| t.id == "irrelevance_7").unwrap();
    assert_eq!(t.outcome, evaltally_core::Outcome::Fail);
    assert_eq!(t.error_type.map(evaltally_core::ErrorType::as_str), Some("irrelevance_error:decoder_success"));
}

/// The v1 dumps key result lines by `idx` and number score ids from 1; both summaries'
/// `correct_count` must come out of the mapping.
#[test]
fn huanzhimao_v1_ids_map_by_position() {
    let Some(loaded) = load("bfcl/HuanzhiMao-BFCL-Result") else {
        return;
    };
    assert!(loaded.diagnostics.iter().all(|d| !d.is_error()), "{:#?}", loaded.diagnostics);
    assert!(
        loaded
            .diagnostics
            .iter()
            .all(|d| !d.message.contains("summary says") && !d.message.contains("not in the result")),
        "{:#?}",
        loaded.diagnostics
    );
    let runs: Vec<_> = loaded.runs.iter().map(|r| (r.run.as_str(), r.len())).collect();
    assert_eq!(runs, [("2024-07-20", 400), ("2024-08-11", 400)]);
    assert_eq!(loaded.runs[0].passed(), 353); // summary: {"accuracy": 0.8825, "correct_count": 353, "total_count": 400}
}

/// PR #1319: an odd flat layout under a nested org folder, no score files, one 0-byte
/// result file. Everything is read; problems are warnings, not errors.
#[test]
fn gorilla_pr1319_gives_warnings_not_failures() {
    let Some(loaded) = load("bfcl/gorilla-pr1319-airev") else {
        return;
    };
    assert!(loaded.diagnostics.iter().all(|d| !d.is_error()), "{:#?}", loaded.diagnostics);
    let has =
        |file: &str, text: &str| loaded.diagnostics.iter().any(|d| d.path.ends_with(file) && d.message.contains(text));
    assert!(has("BFCL_v4_format_sensitivity_result.json", "empty result file"));
    for cat in ["live_parallel", "live_relevance", "memory", "web_search"] {
        assert!(has(&format!("BFCL_v4_{cat}_result.json"), "without its score file"), "{cat}");
    }
    // The empty file is said once: with no test in it, there is nothing left unscored.
    assert!(!has("BFCL_v4_format_sensitivity_result.json", "without its score file"));
    assert_eq!(loaded.runs.len(), 5);
    assert!(loaded.runs.iter().all(|r| !r.scored));
    // `result/airev-ai/AIREV-Agent-0.8B/`: the registry name's `/` kept as a folder.
    assert!(loaded.runs.iter().all(|r| r.model == "airev-ai_AIREV-Agent-0.8B"), "{:?}", loaded.runs[0].model);
    let report = stability::analyze(&loaded.runs);
    let memory = category(&report, "airev-ai_AIREV-Agent-0.8B", "memory");
    assert_eq!((memory.total, memory.unscored_tests), (0, 155));
}

/// vgangal101 committed score files only: each is left out with a warning naming it.
#[test]
fn vgangal101_scores_without_results_are_left_out() {
    let Some(loaded) = load("bfcl/vgangal101-gorilla_bfcl") else {
        return;
    };
    assert!(loaded.runs.is_empty());
    assert_eq!(loaded.diagnostics.len(), 3);
    assert!(loaded.diagnostics.iter().all(|d| d.message.contains("score file without its result file")));
}

/// `bfcl-format.md` §2, "Pairwise compares (verified)".
#[test]
fn bbrowning_pairwise_compares_match_the_verified_values() {
    let Some(root) = refdata("bfcl/bbrowning-bfcl-vllm-results/results") else { return };
    let filter = Filter { models: vec!["openai_gpt-oss-120b".into()], errors_as_failures: true, ..Filter::default() };
    let side = |run: &str| load::load(&[root.join(run)], &filter, &NoProgress).unwrap().runs;
    let cases = [
        ("v0.11.0", "2025-11-12-harmony-fixes", "multi_turn_base", 18, 58, 40),
        ("v0.10.2", "v0.11.0", "live_simple", 7, 9, 2),
        ("2025-11-12-main", "2025-11-12-harmony-fixes-2", "simple_python", 12, 8, -4),
    ];
    for (base, new, category, regressions, improvements, net) in cases {
        let report = evaltally_analyzer::compare::compare(&side(base), &side(new));
        assert_eq!(report.mode, evaltally_analyzer::compare::Mode::Runs);
        let c = report.models[0].categories.iter().find(|c| c.category == category).unwrap();
        assert_eq!(
            (c.regressions.len(), c.improvements.len(), c.summary.net),
            (regressions, improvements, net),
            "{base} → {new}"
        );
        assert!(c.only_in_base.is_empty() && c.only_in_new.is_empty());
        if category == "multi_turn_base" {
            assert_eq!(
                &c.regressions[..5],
                [
                    "multi_turn_base_0",
                    "multi_turn_base_2",
                    "multi_turn_base_25",
                    "multi_turn_base_36",
                    "multi_turn_base_37"
                ]
            );
            assert_eq!((c.summary.base_passed, c.summary.new_passed), (84.0, 124.0));
            // Exact two-sided binomial p for 18 vs 58 (scipy binomtest), see stats.rs.
            assert!((c.summary.p_value - 4.713_242_239_575_157e-6).abs() < 1e-15);
            let by_type: usize = c.summary.regressions_by_error_type.values().sum();
            assert_eq!(by_type, 18, "every single-turn and multi-turn error shape yields a type");
        }
    }
}

/// Single-turn failures carry `error` as a list and `error_type` at the top level (the
/// seed's compare script crashes on them): every `live_simple` regression gets its type.
#[test]
fn single_turn_error_shapes_are_grouped_by_type() {
    let Some(root) = refdata("bfcl/bbrowning-bfcl-vllm-results/results") else { return };
    let filter = Filter {
        models: vec!["openai_gpt-oss-120b".into()],
        categories: vec!["live_simple".into()],
        ..Filter::default()
    };
    let side = |run: &str| load::load(&[root.join(run)], &filter, &NoProgress).unwrap().runs;
    let report = evaltally_analyzer::compare::compare(&side("v0.10.2"), &side("v0.11.0"));
    let s = &report.models[0].overall;
    assert_eq!(s.regressions_by_error_type.values().sum::<usize>(), 7);
    assert_eq!(s.improvements_by_error_type.values().sum::<usize>(), 9);
    assert_eq!(
        s.regressions_by_error_family.values().sum::<usize>(),
        s.regressions_by_error_type.values().sum::<usize>()
    );
}

/// `swebench/PROVENANCE.md` §4: 371 of the 500 unwrapped per-instance reports resolve
/// (74.2%), as `results_summary.json` there says.
#[test]
fn mini_swe_agent_500_reports_give_371_resolved() {
    let Some(loaded) = load("swebench/mini-swe-agent-gemini3pro-verified-500") else { return };
    // The summary beside the reports is said to be skipped, and nothing else is said.
    let (notes, said): (Vec<_>, Vec<_>) = loaded.diagnostics.iter().partition(|d| d.is_note());
    assert!(said.is_empty(), "{said:#?}");
    assert_eq!(notes.len(), 1, "{notes:#?}");
    assert!(notes[0].path.ends_with("results_summary.json") && notes[0].message.starts_with("skipped: "), "{notes:#?}");
    let total: usize = loaded.runs.iter().map(evaltally_core::CategoryRun::len).sum();
    let passed: usize = loaded.runs.iter().map(evaltally_core::CategoryRun::passed).sum();
    assert_eq!((total, passed), (500, 371));
    assert!(loaded.runs.iter().all(|r| r.run == "mini-swe-agent-gemini3pro-verified-500"));
    let django = loaded.runs.iter().find(|r| r.category == "django/django").unwrap();
    assert_eq!(django.len(), 231);
}

/// `swebench/PROVENANCE.md` §3: the 11 distinct ten-instance run reports, pooled as one
/// system, classify the 10 instances as the per-instance tally there implies: 12907, 13236,
/// 13453 and 14309 resolve in some runs only; the other six never resolve.
#[test]
fn tdad_first10_runs_split_into_flaky_and_failing() {
    let Some(path) = refdata("swebench/tdad-verified-first10-runs/ten_instance") else { return };
    let filter = Filter { pool_models: true, ..Filter::default() };
    let mut loaded = load::load(&[path], &filter, &NoProgress).unwrap();
    assert_eq!(unclaimed(&mut loaded), ["INDEX.tsv"]);
    assert!(loaded.diagnostics.is_empty(), "{:#?}", loaded.diagnostics);
    let report = stability::analyze(&loaded.runs);
    assert_eq!(report.models.len(), 1);
    let m = &report.models[0];
    assert_eq!(m.runs.len(), 11, "every distinct run report is a run: {:?}", m.runs);
    let c = category(&report, evaltally_analyzer::POOLED, "astropy/astropy");
    assert_eq!((c.total, c.stable_pass, c.flaky, c.stable_fail), (10, 0, 4, 6));
    let flaky: Vec<&str> = c.ids.flaky.iter().map(String::as_str).collect();
    assert_eq!(
        flaky,
        ["astropy__astropy-12907", "astropy__astropy-13236", "astropy__astropy-13453", "astropy__astropy-14309"]
    );
    // Without pooling, each file is its own model (the file names do not share one).
    let separate = load::load(
        &[refdata("swebench/tdad-verified-first10-runs/ten_instance").unwrap()],
        &Filter::default(),
        &NoProgress,
    )
    .unwrap();
    assert_eq!(stability::analyze(&separate.runs).models.len(), 11);
}

/// The batch25 layout holds run reports beside their per-instance reports: each run is
/// counted once (from the run report), and its per-instance `resolved` flags agree.
#[test]
fn tdad_batch25_run_reports_and_instance_reports_are_one_run() {
    let Some(path) = refdata("swebench/tdad-verified-batch25-with-instance-reports/20260310_233300_batch25") else {
        return;
    };
    let loaded = load::load(&[path], &Filter::default(), &NoProgress).unwrap();
    // One fact: the per-instance reports are the run report's, which is read.
    let said: Vec<String> = loaded.diagnostics.iter().map(ToString::to_string).collect();
    assert_eq!(said.len(), 1, "{said:#?}");
    assert!(loaded.diagnostics[0].is_info() && said[0].contains("not read: 7 per-instance reports"), "{said:#?}");
    let runs: std::collections::BTreeSet<&str> = loaded.runs.iter().map(|r| r.run.as_str()).collect();
    assert_eq!(runs.into_iter().collect::<Vec<_>>(), ["eval_20260311_034331"]);
    // PROVENANCE.md table: 25 submitted; 6 resolved, 1 unresolved, 15 empty patch, 3 errors.
    let total: usize = loaded.runs.iter().map(evaltally_core::CategoryRun::len).sum();
    let passed: usize = loaded.runs.iter().map(evaltally_core::CategoryRun::passed).sum();
    assert_eq!((total, passed), (25, 6));
}

/// The worked example of `docs/statistics.md`: per category the mean pass rate over the 5
/// runs of gpt-oss-120b, its naive and clustered (by test) standard errors, the variance
/// components and the runs a 0.01 SE needs, as `xtask/stats/fixtures.py` computes them
/// with statsmodels and scipy from the BFCL files directly (inference errors as failures,
/// BFCL's counting).
#[test]
fn bbrowning_precision_matches_statsmodels() {
    use evaltally_analyzer::plan;
    let Some(loaded) = load("bfcl/bbrowning-bfcl-vllm-results/results") else {
        return;
    };
    let report = stability::analyze(&loaded.runs);
    #[rustfmt::skip]
    let table: [(&str, f64, f64, f64, f64, f64, usize); 6] = [
        // category, mean, se naive, se clustered, between, within, runs for SE 0.01
        ("irrelevance", 0.869_166_666_666_666_6, 0.009_738_703_480_088_082, 0.020_798_157_193_158_62,
         0.101_231_868_898_186_54, 0.012_916_666_666_666_668, 1),
        ("live_relevance", 0.725, 0.050_236_781_119_167_95, 0.110_867_789_130_417_24,
         0.192_916_666_666_666_7, 0.018_750_000_000_000_003, 12),
        ("live_simple", 0.798_449_612_403_100_8, 0.011_173_497_016_386_79, 0.022_724_091_553_618_74,
         0.126_172_895_363_919, 0.035_271_317_829_457_37, 2),
        ("multi_turn_base", 0.515, 0.015_812_179_641_814_87, 0.026_159_061_191_335_937,
         0.108_459_296_482_412_22, 0.142_000_000_000_000_02, 8),
        ("simple_javascript", 0.484, 0.031_669_985_030_107_45, 0.061_833_218_732_130_685,
         0.175_567_346_938_775_57, 0.078_000_000_000_000_01, 16),
        ("simple_python", 0.865, 0.007_643_082_385_672_481, 0.015_476_961_615_644_375,
         0.090_514_536_340_852_7, 0.0265, 1),
    ];
    let plans = plan::plan(&report, 0.01);
    let plans = &plans.models.iter().find(|m| m.model == "openai_gpt-oss-120b").unwrap().categories;
    for (name, mean, naive, clustered, between, within, runs) in table {
        let p = &category(&report, "openai_gpt-oss-120b", name).precision;
        let c = p.components.unwrap();
        for (what, got, want) in [
            ("mean", p.mean.unwrap(), mean),
            ("se naive", p.se_naive.unwrap(), naive),
            ("se clustered", p.se_clustered.unwrap(), clustered),
            ("between", c.between, between),
            ("within", c.within, within),
        ] {
            assert!((got - want).abs() < 1e-12, "{name} {what}: {got} vs {want}");
        }
        let plan = plans.iter().find(|p| p.category == name).unwrap();
        assert_eq!(plan.runs_needed, Some(runs), "{name}");
    }
    // live_parallel: every run failed every test; nothing varies and nothing divides by zero.
    let lp = &category(&report, "openai_gpt-oss-120b", "live_parallel").precision;
    assert_eq!((lp.mean, lp.se_naive, lp.se_clustered, lp.run_share), (Some(0.0), Some(0.0), Some(0.0), None));
    let m = report.models.iter().find(|m| m.model == "openai_gpt-oss-120b").unwrap();
    assert!((m.precision.mean.unwrap() - 0.762_203_389_830_508_5).abs() < 1e-12);
    assert!((m.precision.se_naive.unwrap() - 0.005_543_053_490_683_169_5).abs() < 1e-12);
    assert!((m.precision.se_clustered.unwrap() - 0.011_039_679_391_091_65).abs() < 1e-12);
    assert!((m.se_by_category.unwrap() - 0.066_160_601_525_743_34).abs() < 1e-12);
    // BFCL's overall score of the 5-run means, the 15 categories not run counted as 0.
    let bfcl = m.bfcl.as_ref().expect("BFCL categories");
    assert!((bfcl.overall - 0.108_572_964_470_762_4).abs() < 1e-12, "{}", bfcl.overall);
    assert_eq!(bfcl.missing.len(), 15);
}
