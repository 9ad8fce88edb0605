#![doc = include_str!("../README.md")]

pub mod compare;
pub mod cost;
pub mod html;
mod json;
pub mod plan;
pub mod show;
pub mod stability;
mod style;
pub mod subset;
pub mod summary;
pub mod trend;
pub mod validate;

use json::pretty_json;
pub use style::{Listed, OUTCOMES_MAX, RUN_LIST_MAX, Style, outcomes_text, run_list};
use style::{diagnostics_markdown, group_digits, thousands, width_of};
