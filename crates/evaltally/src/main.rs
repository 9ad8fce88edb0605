//! `evaltally`: the command-line front end (see the library half, `lib.rs`).

fn main() -> std::process::ExitCode {
    with_huge_pages();
    keep_freed_memory();
    evaltally::main()
}

/// Starts this program again with glibc's allocator told to back its heaps with
/// transparent huge pages (`GLIBC_TUNABLES=glibc.malloc.hugetlb=1`, read only when a
/// program starts), unless `EVALTALLY_HUGE_PAGES` is set (the restart sets it, so it
/// happens once even where glibc drops the tunable; set it yourself to keep 4 KiB pages),
/// `GLIBC_TUNABLES` already says something of that tunable, or the kernel has huge pages
/// off. Analysing a few hundred thousand results touches tens of megabytes of fresh memory;
/// taken 4 KiB at a time, a fault per page cost a fifth of a warm run. The second start
/// costs about a millisecond; warm runs are faster (`cargo xtask bench` measures them),
/// peak memory a few MiB more. Same process, arguments and descriptors: `exec` returns only when
/// it failed, and then this run goes on as it is.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn with_huge_pages() {
    use std::os::unix::process::CommandExt;
    const TUNABLE: &str = "glibc.malloc.hugetlb";
    const ONCE: &str = "EVALTALLY_HUGE_PAGES";
    if std::env::var_os(ONCE).is_some() {
        return;
    }
    let tunables = std::env::var_os("GLIBC_TUNABLES").unwrap_or_default();
    if tunables.as_encoded_bytes().windows(TUNABLE.len()).any(|w| w == TUNABLE.as_bytes()) {
        return;
    }
    let mode = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled").unwrap_or_default();
    if !mode.contains("[always]") && !mode.contains("[madvise]") {
        return;
    }
    let Ok(exe) = std::env::current_exe() else { return };
    let mut args = std::env::args_os();
    let arg0 = args.next().unwrap_or_default();
    let mut value = tunables;
    if !value.is_empty() {
        value.push(":");
    }
    value.push(TUNABLE);
    value.push("=1");
    let _ = std::process::Command::new(exe).arg0(arg0).args(args).env("GLIBC_TUNABLES", value).env(ONCE, "1").exec();
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn with_huge_pages() {}

/// Tells glibc's allocator to keep memory the program frees for its next allocations.
/// Reading thousands of files on every core allocates and frees buffers and vectors per
/// file: by default glibc maps the larger ones afresh each time (page faults on every
/// reuse), grows each thread's arena a few pages at a time (thousands of `mprotect` calls)
/// and gives freed memory back at once. With these settings the largest workloads run
/// faster with the same peak memory. Only the binary chooses; the library crates and the
/// Python module leave their allocator to their user.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
fn keep_freed_memory() {
    const M_TRIM_THRESHOLD: i32 = -1;
    const M_TOP_PAD: i32 = -2;
    const M_MMAP_THRESHOLD: i32 = -3;
    unsafe extern "C" {
        fn mallopt(param: i32, value: i32) -> i32;
    }
    // SAFETY: `mallopt` only sets glibc's allocator parameters (a value it refuses leaves the
    // default); it is called first thing in `main`, before any other thread exists.
    unsafe {
        mallopt(M_MMAP_THRESHOLD, 32 << 20);
        mallopt(M_TOP_PAD, 16 << 20);
        mallopt(M_TRIM_THRESHOLD, 64 << 20);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn keep_freed_memory() {}
