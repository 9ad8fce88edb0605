//! cargo-fuzz entry point; the body is [`targets::terminal_bench`].
#![no_main]

#[path = "../targets.rs"]
mod targets;

libfuzzer_sys::fuzz_target!(|data: &[u8]| targets::terminal_bench(data));
