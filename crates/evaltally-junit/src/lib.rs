#![doc = include_str!("../README.md")]

mod convert;
mod error;
mod escape;
mod fast;
mod format;
mod model;
mod naming;
mod producer;
mod read;
mod seconds;
mod sniff;
mod write;

pub use convert::FORMAT;
pub use error::JunitError;
pub use escape::{escape_attr, escape_text, xml_safe};
pub use format::{JUNIT, JUNIT_WRITER, Junit, JunitWriter, KNOWN};
pub use model::{
    CaseStatus, Declared, JunitCase, JunitRun, JunitSuite, NOT_RUN_TYPE, Problem, ProblemKind, Property, UNSCORED_TYPE,
};
pub use producer::Producer;
pub use read::{MAX_DEPTH, read, read_bytes, read_file};
pub use sniff::looks_like_junit;
pub use write::{HEADLINE_CHARS, write};
