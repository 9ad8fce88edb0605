//! The page: one HTML document with its style, script and data inline. It loads nothing:
//! no network, no other file (its Content-Security-Policy forbids both), so it opens the
//! same offline, from a CI artifact or an e-mail attachment.

use super::escape::{html_text, script_json};
use super::{Data, HtmlError};

const BODY: &str = include_str!("assets/body.html");
const STYLE: &str = include_str!("assets/page.css");
const SCRIPT: &str = include_str!("assets/page.js");

/// The script both evaltally pages load before their own (this one, and `evaltally-serve`'s
/// live page): the outcome colours and the DOM helpers, as the global `evaltallyCommon`.
pub const COMMON_SCRIPT: &str = include_str!("assets/common.js");

/// What the page holds besides its data and title, in bytes (for the size budget).
pub(crate) const TEMPLATE_BYTES: usize = BODY.len() + STYLE.len() + COMMON_SCRIPT.len() + SCRIPT.len() + 1024;

/// The `id` of the `<script type="application/json">` element that holds the data.
pub const DATA_ELEMENT_ID: &str = "evaltally-data";

/// The whole page for `data`.
pub fn page(data: &Data) -> Result<String, HtmlError> {
    let json = script_json(data).map_err(HtmlError::Json)?;
    let models: Vec<&str> = data.models.iter().map(|m| m.model.as_str()).collect();
    let title = if models.is_empty() {
        "evaltally report".to_string()
    } else {
        format!("evaltally report: {}", html_text(&models.join(", ")))
    };
    let mut out = String::with_capacity(TEMPLATE_BYTES + json.len() + title.len());
    out.push_str("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n",
    );
    out.push_str("<meta name=\"generator\" content=\"");
    out.push_str(&html_text(&data.generator));
    out.push_str("\">\n<title>");
    out.push_str(&title);
    out.push_str("</title>\n<style>\n");
    out.push_str(STYLE);
    out.push_str("</style>\n</head>\n<body>\n");
    out.push_str(BODY);
    out.push_str("<script type=\"application/json\" id=\"");
    out.push_str(DATA_ELEMENT_ID);
    out.push_str("\">");
    out.push_str(&json);
    out.push_str("</script>\n<script>\n");
    out.push_str(COMMON_SCRIPT);
    out.push_str(SCRIPT);
    out.push_str("</script>\n</body>\n</html>\n");
    Ok(out)
}
