#![doc = include_str!("../README.md")]

pub mod bytes;
pub mod check;
pub mod damage;
pub mod fields;
pub mod file;
mod format;
pub mod identity;
pub mod json;
mod options;

pub mod keys;
pub mod naming;
mod outputs;
mod registry;
pub mod scan;
pub mod sixteen;
mod unit;
mod unread;
pub mod walk;
mod write;

pub use file::{read_file, read_file_if};
pub use format::{Claim, Folder, Format, Input, Resemblance, file_name, has_extension, names_above, utf8};
pub use keys::Keys;
pub use options::{Options, Purpose, Scoring};
pub use outputs::{FileValidation, Read, Records, Shown, Validated};
pub use registry::{DiscoverError, Discovered, FilesFound, Registry};
pub use unit::{Scratch, Unit};
pub use walk::WalkedFile;
pub use write::{Writer, Written};
