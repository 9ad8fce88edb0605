//! `evaltally`: the command-line front end (see the library half, `lib.rs`).

fn main() -> std::process::ExitCode {
    evaltally::main()
}
