//! `export --format parquet`, read back by DuckDB and pandas with the queries of
//! docs/export.md. Needs `python3` with `duckdb`, `pandas` and `pyarrow` (`.ci/run` installs
//! them): without them the test skips with a notice, except under `CI=true`, where it fails.

mod common;

use common::evaltally_in;
use evaltally_testkit::workspace_root;

/// Whether python3 can import the modules; panics under CI=true when it cannot.
fn python_ready() -> bool {
    let ok = std::process::Command::new("python3")
        .args(["-c", "import duckdb, pandas, pyarrow"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "python3 with duckdb, pandas and pyarrow is needed under CI=true (.ci/run installs them)"
        );
        #[allow(clippy::print_stderr)]
        {
            eprintln!("skipped: python3 cannot import duckdb, pandas and pyarrow (pip install duckdb pandas pyarrow)");
        }
    }
    ok
}

#[test]
fn parquet_export_reads_in_duckdb_and_pandas_as_docs_say() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("tests.parquet");
    let run = evaltally_in(
        &workspace_root(),
        &["export", "testdata/bfcl/v4", "testdata/gstack/evals", "--format", "parquet", "-o", file.to_str().unwrap()],
        &[],
    );
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(run.stdout.starts_with(&format!("wrote {} (Parquet): ", file.display())), "{}", run.stdout);
    let bytes = std::fs::read(&file).unwrap();
    assert!(bytes.starts_with(b"PAR1") && bytes.ends_with(b"PAR1"));
    let jsonl = evaltally_in(&workspace_root(), &["export", "testdata/bfcl/v4", "testdata/gstack/evals"], &[]);
    let lines = jsonl.stdout.lines().count();

    // Parquet needs a file: without -o it is a usage error.
    let stdout = evaltally_in(&workspace_root(), &["export", "testdata/bfcl/v4", "--format", "parquet"], &[]);
    assert_eq!(stdout.code, 2, "{}", stdout.transcript());

    if !python_ready() {
        return;
    }
    let script = r#"
import sys, duckdb, pandas as pd
path = sys.argv[1]
con = duckdb.connect()
total = con.execute(f"SELECT count(*) FROM '{path}'").fetchone()[0]
flaky = con.execute(f"""
    SELECT model, category, id,
           count(*) FILTER (outcome = 'pass') AS passes,
           count(*) FILTER (outcome = 'fail') AS fails
    FROM '{path}'
    WHERE source_format = 'bfcl'
    GROUP BY model, category, id
    HAVING passes > 0 AND fails > 0
    ORDER BY fails DESC, model, id""").fetchall()
types = dict(con.execute(f"SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM '{path}')").fetchall())
branches = con.execute(f"SELECT DISTINCT git_branch FROM '{path}' WHERE source_format = 'gstack'").fetchall()
df = pd.read_parquet(path)
print(total, len(flaky), types['duration_ms'], types['input_tokens'], types['outcome'], branches[0][0],
      len(df), str(df['cost_usd'].dtype), int(df['outcome'].eq('pass').sum()))
"#;
    let out = std::process::Command::new("python3").args(["-c", script, file.to_str().unwrap()]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let got = String::from_utf8(out.stdout).unwrap();
    let fields: Vec<&str> = got.split_whitespace().collect();
    let passes = jsonl.stdout.lines().filter(|l| l.contains(r#""outcome":"pass""#)).count();
    assert_eq!(
        fields,
        [
            lines.to_string().as_str(),
            "9",
            "DOUBLE",
            "BIGINT",
            "VARCHAR",
            "main",
            lines.to_string().as_str(),
            "float64",
            passes.to_string().as_str()
        ],
        "{got}"
    );
}

/// An `-o` file named `.parquet` is Parquet without `--format`; `--format jsonl` still wins.
#[test]
fn a_parquet_name_chooses_parquet() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("rows.parquet");
    let run = evaltally_in(&workspace_root(), &["export", "testdata/bfcl/v4", "-o", file.to_str().unwrap()], &[]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(std::fs::read(&file).unwrap().starts_with(b"PAR1"));
    let asked = evaltally_in(
        &workspace_root(),
        &["export", "testdata/bfcl/v4", "--format", "jsonl", "-o", file.to_str().unwrap()],
        &[],
    );
    assert_eq!(asked.code, 0, "{}", asked.transcript());
    assert!(std::fs::read(&file).unwrap().starts_with(b"{\"schema\""));
}
