#![doc = include_str!("../README.md")]

use std::sync::OnceLock;

use evaltally_format::{Format, Registry, Writer};

/// Every format this build has (its Cargo features; all by default), in the order the
/// registry asks them: formats known by their place first (BFCL), then the JSON documents
/// from the most specific keys to the least, then XML; and every shape `convert --to`
/// writes (feature `convert`).
pub fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let formats: &[&'static dyn Format] = &[
            #[cfg(feature = "bfcl")]
            &evaltally_bfcl::FORMAT,
            #[cfg(feature = "sfbench")]
            &evaltally_sfbench::SFBENCH,
            #[cfg(feature = "swebench")]
            &evaltally_swebench::SWEBENCH,
            #[cfg(feature = "taubench")]
            &evaltally_taubench::TAUBENCH,
            #[cfg(feature = "terminal-bench")]
            &evaltally_terminal_bench::TERMINAL_BENCH,
            #[cfg(feature = "lmeval")]
            &evaltally_lmeval::LMEVAL,
            #[cfg(feature = "lighteval")]
            &evaltally_lighteval::LIGHTEVAL,
            #[cfg(feature = "inspect")]
            &evaltally_inspect::INSPECT,
            #[cfg(feature = "promptfoo")]
            &evaltally_promptfoo::PROMPTFOO,
            #[cfg(feature = "helm")]
            &evaltally_helm::HELM,
            #[cfg(feature = "openai-evals")]
            &evaltally_openai_evals::OPENAI_EVALS,
            #[cfg(feature = "evalplus")]
            &evaltally_evalplus::EVALPLUS,
            #[cfg(feature = "gstack")]
            &evaltally_gstack::FORMAT,
            #[cfg(feature = "junit")]
            &evaltally_junit::JUNIT,
        ];
        let writers: &[&'static dyn Writer] = &[
            #[cfg(feature = "convert")]
            &evaltally_convert::GSTACK,
            #[cfg(feature = "convert")]
            &evaltally_convert::GSTACK_LEGACY,
            #[cfg(all(feature = "convert", feature = "junit"))]
            &evaltally_junit::JUNIT_WRITER,
            #[cfg(feature = "convert")]
            &evaltally_convert::SFBENCH_V2,
            #[cfg(feature = "convert")]
            &evaltally_convert::SWEBENCH,
        ];
        Registry::new(formats.to_vec()).with_writers(writers.to_vec())
    })
}
