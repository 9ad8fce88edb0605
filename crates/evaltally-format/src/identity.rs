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

/// Writes ` name length:text`, piece by piece (the cache writes thousands of these per
/// run, and `write!` goes through the formatting machinery for each).
pub fn text(f: &mut fmt::Formatter<'_>, name: &str, s: &str) -> fmt::Result {
    f.write_str(" ")?;
    f.write_str(name)?;
    f.write_str(" ")?;
    number(f, s.len() as u64)?;
    f.write_str(":")?;
    f.write_str(s)
}

/// Writes `n` in decimal.
pub fn number(f: &mut fmt::Formatter<'_>, mut n: u64) -> fmt::Result {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    f.write_str(std::str::from_utf8(&digits[at..]).unwrap_or_default())
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
