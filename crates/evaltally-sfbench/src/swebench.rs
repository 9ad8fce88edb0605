//! SWE-bench harness reports.
