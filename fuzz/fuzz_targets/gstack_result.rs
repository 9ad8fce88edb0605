//! cargo-fuzz entry point; the body is [`targets::gstack_result`].
#![no_main]

#[path = "../targets.rs"]
mod targets;

libfuzzer_sys::fuzz_target!(|data: &[u8]| targets::gstack_result(data));
