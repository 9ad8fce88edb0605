//! cargo-fuzz entry point; the body is [`targets::sfbench_report`].
#![no_main]

#[path = "../targets.rs"]
mod targets;

libfuzzer_sys::fuzz_target!(|data: &[u8]| targets::sfbench_report(data));
