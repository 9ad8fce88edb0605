//! The model of a results file. EvalPlus never writes it into the file: it is only in the
//! name of the samples the file was evaluated from, which the result file's name repeats.

use std::path::{Path, PathBuf};

/// The backends EvalPlus's code generation names its samples after
/// (`evalplus/provider/__init__.py`, `make_model`).
const BACKENDS: [&str; 9] =
    ["hf_gaudi", "gptqmodel", "anthropic", "bedrock", "google", "ollama", "openai", "vllm", "hf"];

/// Sample file stems that name no model: EvalPlus's documentation's `samples.jsonl`.
const NO_MODEL: [&str; 2] = ["samples", "sample"];

/// The name EvalPlus gave the samples a results file was evaluated from, when the file's
/// name holds it: `<samples>_eval_results.json` (evalplus 0.1.3 on), `<samples>.eval_results.json`
/// (git master since 2025-01-06), also in the backups `--i-just-wanna-run` renames them to
/// (`<name>.bak`, `<name>.bak.bak`, …); `None` for `eval_results.json` (samples given as a
/// folder) and for any other name.
pub(crate) fn samples_name(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_string_lossy();
    let mut name: &str = &name;
    while let Some(older) = name.strip_suffix(".bak") {
        name = older;
    }
    let id = name.strip_suffix("_eval_results.json").or_else(|| name.strip_suffix(".eval_results.json"))?;
    (!id.is_empty()).then(|| id.to_string())
}

/// The model a results file is of.
///
/// From the samples' name in the file's name, as EvalPlus's code generation writes it,
/// `<model with / as -->_<backend>_temp_<temperature>` (evalplus 0.3.0 on; `-sanitized`
/// after it once sanitized): `meta-llama--Meta-Llama-3-8B_vllm_temp_0.0-sanitized_eval_results.json`
/// is `meta-llama/Meta-Llama-3-8B`. Before 0.3.0 its generator named sample folders
/// `<model>_temp_<temperature>`, which gives `<model>`. Any other samples name is the model
/// as written. The temperature and the backend stay in the run's name, the file's stem.
///
/// A file whose name holds no samples name (`eval_results.json`, written into the samples
/// folder; a copy renamed by hand, read with `--as evalplus`), or only EvalPlus's default
/// `samples` or a generic word (`results`, see [`evaltally_format::naming::is_generic`]),
/// takes the name of its folder by the project's naming rule
/// ([`evaltally_format::naming::folder_names`]), read the same way.
///
/// ```
/// use std::path::Path;
/// use evaltally_evalplus::model;
/// let m = |p: &str| model(Path::new(p));
/// assert_eq!(m("r/meta-llama--Meta-Llama-3-8B_vllm_temp_0.0-sanitized_eval_results.json"), "meta-llama/Meta-Llama-3-8B");
/// assert_eq!(m("r/acme--coder-7b_hf_gaudi_temp_0.8.eval_results.json"), "acme/coder-7b");
/// assert_eq!(m("r/codegen-2b_temp_0.2/eval_results.json"), "codegen-2b");
/// assert_eq!(m("r/codet5_2b_samples_eval_results.json"), "codet5_2b_samples");
/// assert_eq!(m("runs/70-bad/samples_eval_results.json"), "70-bad");
/// assert_eq!(m("runs/gpt-4o-mini/3.json"), "gpt-4o-mini");
/// ```
pub fn model(path: &Path) -> String {
    let own = samples_name(path).map(|id| decode(&id)).filter(|id| names_a_model(id));
    own.unwrap_or_else(|| {
        let folder = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let name = evaltally_format::naming::folder_names(&[PathBuf::from(folder)]).pop().unwrap_or_default();
        decode(&name)
    })
}

/// Whether a samples name names a model rather than EvalPlus's default or a kind of file.
fn names_a_model(id: &str) -> bool {
    !id.is_empty() && !NO_MODEL.contains(&id) && !evaltally_format::naming::is_generic(id)
}

/// The model in a samples name (see [`model`]).
fn decode(id: &str) -> String {
    let id = id.strip_suffix("-sanitized").unwrap_or(id);
    let Some(at) = id.rfind("_temp_") else { return id.to_string() };
    let (head, tail) = (&id[..at], &id[at + "_temp_".len()..]);
    // The temperature as Python prints a float (`0.0`, `0.8`), then an optional `-…` (the
    // old generator's `-contract-<type>`, code generation's `-<evalperf type>`).
    let number = tail.bytes().take_while(|c| c.is_ascii_digit() || *c == b'.').count();
    if head.is_empty() || number == 0 || !(number == tail.len() || tail[number..].starts_with('-')) {
        return id.to_string();
    }
    let with_backend =
        BACKENDS.iter().find_map(|b| head.strip_suffix(b).and_then(|m| m.strip_suffix('_'))).filter(|m| !m.is_empty());
    match with_backend {
        // `model.strip("./").replace("/", "--")`.
        Some(model) => model.replace("--", "/"),
        None => head.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_names_as_evalplus_writes_them() {
        for (id, want) in [
            ("meta-llama--Meta-Llama-3.1-70B-Instruct_vllm_temp_0.0", "meta-llama/Meta-Llama-3.1-70B-Instruct"),
            (
                "custom_finetuned_models--llama3_base_dpo_vllm_temp_0.0-sanitized",
                "custom_finetuned_models/llama3_base_dpo",
            ),
            (
                "data1--chh--models--meta-llama--Meta-Llama-3-8B-Instruct_hf_temp_0.0",
                "data1/chh/models/meta-llama/Meta-Llama-3-8B-Instruct",
            ),
            ("gpt-4o_openai_temp_0.0-perf-instruct", "gpt-4o"),
            ("codegen-2b_temp_0.8-contract-docstring", "codegen-2b"),
            ("a--b_temp_0.2", "a--b"),
            ("x_vllm_temp_", "x_vllm_temp_"),
            ("_vllm_temp_0.0", "_vllm"),
            ("vllm_temp_0.0", "vllm"),
            ("x_temp_hot", "x_temp_hot"),
            ("mbppplus_mistralcode_samples", "mbppplus_mistralcode_samples"),
        ] {
            assert_eq!(decode(id), want, "{id}");
        }
    }

    #[test]
    fn names_without_a_model_take_the_folder() {
        let m = |p: &str| model(Path::new(p));
        assert_eq!(m("a/acme-7b_vllm_temp_0.0-sanitized/eval_results.json"), "acme-7b");
        assert_eq!(m("a/b/results_eval_results.json"), "b");
        assert_eq!(m("a/b/sample_eval_results.json"), "b");
        assert_eq!(m("a/b/_eval_results.json"), "b");
        assert_eq!(m("a/b/x.eval_results.json"), "x");
        assert_eq!(m("a/b/results.json"), "b");
        // A backup `--i-just-wanna-run` left, read with `--as evalplus`.
        assert_eq!(m("a/b/acme--coder-7b_hf_temp_0.0_eval_results.json.bak.bak"), "acme/coder-7b");
        assert_eq!(m("a/b/samples_eval_results.json.bak"), "b");
        // A file given by its name alone is in the current folder, which has a name.
        let here = std::env::current_dir().unwrap();
        assert_eq!(m("eval_results.json"), here.file_name().unwrap().to_string_lossy());
    }
}
