#![doc = include_str!("../README.md")]

use std::sync::OnceLock;

use evaltally_format::Registry;

/// Every format, in the order the registry asks them: formats known by their place first
/// (BFCL), then the JSON documents from the most specific keys to the least, then XML; and
/// every shape `convert --to` writes.
pub fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        Registry::new(vec![
            &evaltally_bfcl::FORMAT,
            &evaltally_sfbench::SFBENCH,
            &evaltally_swebench::SWEBENCH,
            &evaltally_taubench::TAUBENCH,
            &evaltally_lmeval::LMEVAL,
            &evaltally_inspect::INSPECT,
            &evaltally_promptfoo::PROMPTFOO,
            &evaltally_helm::HELM,
            &evaltally_openai_evals::OPENAI_EVALS,
            &evaltally_gstack::FORMAT,
            &evaltally_junit::JUNIT,
        ])
        .with_writers(vec![
            &evaltally_convert::GSTACK,
            &evaltally_convert::GSTACK_LEGACY,
            &evaltally_junit::JUNIT_WRITER,
            &evaltally_convert::SFBENCH_V2,
            &evaltally_convert::SWEBENCH,
        ])
    })
}
