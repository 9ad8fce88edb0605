//! One module per subcommand.

pub(crate) mod cache;
pub(crate) mod compare;
pub(crate) mod completions;
pub(crate) mod convert;
pub(crate) mod cost;
pub(crate) mod export;
pub(crate) mod formats;
pub(crate) mod plan;
pub(crate) mod push;
pub(crate) mod report;
pub(crate) mod serve;
pub(crate) mod show;
pub(crate) mod stability;
pub(crate) mod subset;
pub(crate) mod summary;
pub(crate) mod trend;
pub(crate) mod validate;
