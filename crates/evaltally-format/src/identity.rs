//! Writing a unit's `Debug` form cheaply. The digest cache keys every unit by its `Debug`
//! form, on every run; the derived form escapes every character of every path. These write
//! each text as `name length:text`, so that two different units never read the same, and a
//! path that is not UTF-8 in its escaped `Debug` form.
//!
//! ```
//! use std::fmt;
//! use std::path::PathBuf;
//! struct Unit(PathBuf, String);
//! impl fmt::Debug for Unit {
//!     fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
//!         f.write_str("Unit")?;
//!         evaltally_format::identity::path(f, "file", Some(&self.0))?;
//!         evaltally_format::identity::text(f, "model", &self.1)
//!     }
//! }
//! let unit = Unit(PathBuf::from("runs/a b.json"), "m".into());
//! assert_eq!(format!("{unit:?}"), "Unit file 13:runs/a b.json model 1:m");
//! ```

use std::fmt;
use std::path::Path;

/// Writes ` name length:text`.
pub fn text(f: &mut fmt::Formatter<'_>, name: &str, s: &str) -> fmt::Result {
    write!(f, " {name} {}:", s.len())?;
    f.write_str(s)
}

/// Writes a path as [`text`] (` name -` when there is none; its escaped `Debug` form when
/// it is not UTF-8, which keeps its bytes apart).
#[allow(clippy::unnecessary_debug_formatting)]
pub fn path(f: &mut fmt::Formatter<'_>, name: &str, p: Option<&Path>) -> fmt::Result {
    match p.map(|p| (p, p.to_str())) {
        None => write!(f, " {name} -"),
        Some((_, Some(s))) => text(f, name, s),
        Some((p, None)) => write!(f, " {name} {p:?}"),
    }
}
