//! The routes: the page and its two files, the JSON views, the change events; and the one
//! guard every request passes (method, size, host, token, time).
//!
//! Nothing here touches the file system: the page's files are compiled in, and the views
//! are computed from the snapshot in memory (the test view asks the [`crate::Source`],
//! which reads only what it serves).

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{Query, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use evaltally_core::schema::SortedKeys;
use serde::Serialize;

use crate::api;
use crate::query::{MAX_WINDOW, Params};
use crate::shared::Shared;
use crate::state::{Snapshot, View, shown_test};

/// The longest a request may take (the change events excepted).
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// The longest request target.
const MAX_TARGET: usize = 4096;
/// The cookie a token is kept in once given in the URL.
const COOKIE: &str = "evaltally_token";

const INDEX: &str = include_str!("assets/index.html");
const SCRIPT: &str = include_str!("assets/app.js");
/// The colours and DOM helpers the report file shares, loaded before `app.js`.
const COMMON_SCRIPT: &str = evaltally_report::html::COMMON_SCRIPT;
const STYLE: &str = include_str!("assets/app.css");

/// The page may load its own script and style and ask its own server, nothing else.
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                   connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

pub(crate) fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/", get(|| async { page(INDEX, "text/html; charset=utf-8") }))
        .route("/common.js", get(|| async { page(COMMON_SCRIPT, "text/javascript; charset=utf-8") }))
        .route("/app.js", get(|| async { page(SCRIPT, "text/javascript; charset=utf-8") }))
        .route("/app.css", get(|| async { page(STYLE, "text/css; charset=utf-8") }))
        .route("/api/summary", get(summary))
        .route("/api/heatmap", get(heatmap))
        .route("/api/tests", get(tests))
        .route("/api/cell", get(cell))
        .route("/api/test", get(test))
        .route("/api/trend", get(trend))
        .route("/api/cost", get(cost))
        .route("/api/compare", get(compare))
        .route("/api/events", get(events))
        .fallback(|| async { failure(StatusCode::NOT_FOUND, "no such page") })
        .layer(middleware::from_fn_with_state(Arc::clone(&shared), guard))
        .with_state(shared)
}

fn page(body: &'static str, kind: &'static str) -> Response {
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

fn failure(status: StatusCode, message: &str) -> Response {
    json_response(status, body(&api::Error { schema: api::ERROR, error: message }))
}

/// A document as an answer's body: its keys sorted, the `schema` key first.
fn body(doc: &impl Serialize) -> Vec<u8> {
    serde_json::to_vec(&SortedKeys(doc)).unwrap_or_default()
}

fn json_response(status: StatusCode, body: Vec<u8>) -> Response {
    let mut response = (status, body).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// Every request: GET (or HEAD) only, no body, a short target; on a loopback server, a
/// `Host` naming the loopback (so that a page of another site cannot reach it through DNS
/// rebinding); the token when there is one; answered within [`REQUEST_TIMEOUT`].
async fn guard(State(shared): State<Arc<Shared>>, request: Request, next: Next) -> Response {
    if request.method() != Method::GET && request.method() != Method::HEAD {
        let mut response = failure(StatusCode::METHOD_NOT_ALLOWED, "this server only answers GET");
        response.headers_mut().insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        return secured(response);
    }
    if request.uri().to_string().len() > MAX_TARGET {
        return secured(failure(StatusCode::URI_TOO_LONG, "the request's target is too long"));
    }
    let has_body = request.headers().get(header::CONTENT_LENGTH).is_some_and(|v| v.as_bytes() != b"0")
        || request.headers().contains_key(header::TRANSFER_ENCODING);
    if has_body {
        return secured(failure(StatusCode::PAYLOAD_TOO_LARGE, "this server takes no request bodies"));
    }
    if shared.loopback && !loopback_host(request.headers(), shared.port) {
        return secured(failure(StatusCode::FORBIDDEN, "this server answers requests for its loopback address only"));
    }
    if let Some(token) = &shared.token {
        match token_given(&request, token) {
            Given::No => {
                return secured(failure(
                    StatusCode::UNAUTHORIZED,
                    "this server needs its token: open the URL `evaltally serve` printed",
                ));
            }
            // In the URL of the page: kept in a cookie, and taken out of the address bar
            // (a link copied from there carries no token).
            Given::InUrl if request.uri().path() == "/" => {
                let rest = without_token(request.uri().query().unwrap_or(""));
                let location = if rest.is_empty() { "/".to_string() } else { format!("/?{rest}") };
                let mut response = StatusCode::SEE_OTHER.into_response();
                let cookie = format!("{COOKIE}={token}; HttpOnly; SameSite=Strict; Path=/");
                if let (Ok(cookie), Ok(location)) = (HeaderValue::from_str(&cookie), HeaderValue::from_str(&location)) {
                    response.headers_mut().insert(header::SET_COOKIE, cookie);
                    response.headers_mut().insert(header::LOCATION, location);
                }
                return secured(response);
            }
            Given::InUrl | Given::Kept => {}
        }
    }
    let response = if request.uri().path() == "/api/events" {
        next.run(request).await
    } else {
        match tokio::time::timeout(REQUEST_TIMEOUT, next.run(request)).await {
            Ok(response) => response,
            Err(_) => failure(StatusCode::SERVICE_UNAVAILABLE, "the answer took too long"),
        }
    };
    secured(response)
}

/// Headers every answer carries.
fn secured(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    response
}

/// Whether `Host` names this server by a loopback name: `127.0.0.1`, `localhost` or `[::1]`
/// with its port.
fn loopback_host(headers: &HeaderMap, port: u16) -> bool {
    let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()) else { return false };
    let Some((name, given)) = host.rsplit_once(':') else { return false };
    given.parse::<u16>() == Ok(port)
        && matches!(name.to_ascii_lowercase().as_str(), "127.0.0.1" | "localhost" | "[::1]")
}

enum Given {
    No,
    InUrl,
    Kept,
}

/// Where the request carries the token: its URL's `token` parameter, the cookie, or an
/// `Authorization: Bearer` header.
fn token_given(request: &Request, token: &str) -> Given {
    let same = |given: &str| {
        given.len() == token.len() && given.bytes().zip(token.bytes()).fold(0, |d, (a, b)| d | (a ^ b)) == 0
    };
    let query = request.uri().query().unwrap_or("");
    if query.split('&').filter_map(|p| p.strip_prefix("token=")).any(same) {
        return Given::InUrl;
    }
    let cookies = request.headers().get_all(header::COOKIE).iter().filter_map(|v| v.to_str().ok());
    let in_cookie = cookies
        .flat_map(|c| c.split(';'))
        .filter_map(|c| c.trim().strip_prefix(COOKIE).and_then(|c| c.strip_prefix('=')))
        .any(same);
    let bearer = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .is_some_and(same);
    if in_cookie || bearer { Given::Kept } else { Given::No }
}

fn without_token(query: &str) -> String {
    query.split('&').filter(|p| !p.is_empty() && !p.starts_with("token=")).collect::<Vec<_>>().join("&")
}

/// Answers a JSON view from the snapshot, computed on a blocking thread (an analysis of
/// thousands of runs takes a while the first time it is asked for).
async fn view(
    shared: Arc<Shared>,
    query: HashMap<String, String>,
    make: impl FnOnce(&Shared, &Snapshot, &Params) -> Answer + Send + 'static,
) -> Response {
    let params = match Params::new(query) {
        Ok(p) => p,
        Err(e) => return failure(StatusCode::BAD_REQUEST, &e),
    };
    let answer = tokio::task::spawn_blocking(move || {
        let snapshot = shared.snapshot();
        make(&shared, &snapshot, &params)
    })
    .await;
    match answer {
        Ok(Ok(body)) => json_response(StatusCode::OK, body),
        Ok(Err((status, message))) => failure(status, &message),
        Err(_) => failure(StatusCode::INTERNAL_SERVER_ERROR, "the view could not be computed"),
    }
}

/// A view's answer: the body of its document, or the status and message of a failure.
type Answer = Result<Vec<u8>, (StatusCode, String)>;

fn bad(message: String) -> (StatusCode, String) {
    (StatusCode::BAD_REQUEST, message)
}

/// The model a request names, or a 404 naming the models there are.
fn model<'a>(
    snapshot: &'a Snapshot,
    params: &Params,
) -> Result<(usize, &'a crate::state::ModelState), (StatusCode, String)> {
    snapshot.model(params.get("model")).ok_or_else(|| {
        let names: Vec<String> = snapshot.models.iter().map(|m| m.shown().into_owned()).collect();
        let message = if names.is_empty() {
            "no runs are loaded yet".to_string()
        } else {
            format!("no model {:?}; models: {}", params.get("model").unwrap_or(""), names.join(", "))
        };
        (StatusCode::NOT_FOUND, message)
    })
}

async fn summary(State(shared): State<Arc<Shared>>, Query(q): Query<HashMap<String, String>>) -> Response {
    view(shared, q, |shared, snapshot, params| -> Answer {
        let status = shared.status().clone();
        let status = api::Status {
            loading: status.loading,
            error: status.error,
            watching: status.watching,
            polling: status.polling,
            loaded_at: status.loaded_at,
        };
        let header = (format!("evaltally {}", env!("CARGO_PKG_VERSION")), shared.inputs.as_slice(), status);
        let model = snapshot.model(params.get("model"));
        let view: Option<std::sync::Arc<View>> = model.map(|(index, _)| snapshot.view(index, &params.run_filter()));
        let shown = model.zip(view.as_deref()).map(|((_, state), view)| (state, view));
        Ok(body(&snapshot.summary(header, shown)))
    })
    .await
}

async fn heatmap(State(shared): State<Arc<Shared>>, Query(q): Query<HashMap<String, String>>) -> Response {
    view(shared, q, |_, snapshot, params| -> Answer {
        let (index, state) = model(snapshot, params)?;
        let window = [
            params.number("row", 0, usize::MAX / 2).map_err(bad)?,
            params.number("rows", 100, MAX_WINDOW).map_err(bad)?,
            params.number("col", 0, usize::MAX / 2).map_err(bad)?,
            params.number("cols", 200, MAX_WINDOW).map_err(bad)?,
        ];
        let view = snapshot.view(index, &params.run_filter());
        Ok(body(&view.heatmap(state, &params.test_filter(), window, snapshot.generation)))
    })
    .await
}

async fn tests(State(shared): State<Arc<Shared>>, Query(q): Query<HashMap<String, String>>) -> Response {
    view(shared, q, |_, snapshot, params| -> Answer {
        let (index, state) = model(snapshot, params)?;
        let view = snapshot.view(index, &params.run_filter());
        Ok(body(&view.tests(state, &params.test_filter(), params.page().map_err(bad)?)))
    })
    .await
}

async fn cell(State(shared): State<Arc<Shared>>, Query(q): Query<HashMap<String, String>>) -> Response {
    view(shared, q, |_, snapshot, params| -> Answer {
        let (_, state) = model(snapshot, params)?;
        let (Some(category), Some(id), Some(run)) = (params.get("category"), params.get("id"), params.get("run"))
        else {
            return Err(bad("give category, id and run".into()));
        };
        let cell = state.cell(category, id, run);
        cell.map(|c| body(&c)).ok_or_else(|| (StatusCode::NOT_FOUND, "no such test in that run".to_string()))
    })
    .await
}

async fn test(State(shared): State<Arc<Shared>>, Query(q): Query<HashMap<String, String>>) -> Response {
    view(shared, q, |shared, snapshot, params| -> Answer {
        let Some(id) = params.get("id") else { return Err(bad("give the test's id".into())) };
        let (_, state) = model(snapshot, params)?;
        let raw = state.raw_id(id).to_string();
        let shown = shared.source.show(&raw).map_err(|e| (StatusCode::INTERNAL_SERVER_ERROR, e.0))?;
        Ok(body(&shown_test(id, &state.shown(), &shown)))
    })
    .await
}

async fn trend(State(shared): State<Arc<Shared>>, Query(q): Query<HashMap<String, String>>) -> Response {
    view(shared, q, |_, snapshot, params| -> Answer {
        let (index, state) = model(snapshot, params)?;
        let view = snapshot.view(index, &params.run_filter());
        let last = params.number("last", 10, usize::MAX / 2).map_err(bad)?;
        let status = params.get("trend");
        let page = params.page().map_err(bad)?;
        let report = view.trend_of(state, last);
        Ok(body(&View::trend(&report, state, &params.test_filter(), status, page)))
    })
    .await
}

async fn cost(State(shared): State<Arc<Shared>>, Query(q): Query<HashMap<String, String>>) -> Response {
    view(shared, q, |_, snapshot, params| -> Answer {
        let (index, state) = model(snapshot, params)?;
        let view = snapshot.view(index, &params.run_filter());
        Ok(body(&view.cost(state, params.page().map_err(bad)?)))
    })
    .await
}

async fn compare(State(shared): State<Arc<Shared>>, Query(q): Query<HashMap<String, String>>) -> Response {
    view(shared, q, |_, snapshot, params| -> Answer {
        let (_, state) = model(snapshot, params)?;
        let base = params.side("base").map_err(bad)?;
        let new = params.side("new").map_err(bad)?;
        state.compare(&base, &new).map(|c| body(&c)).map_err(|e| (StatusCode::UNPROCESSABLE_ENTITY, e))
    })
    .await
}

/// Server-sent events: `changed` with a counter, each time a load ends (or fails), so that
/// open pages fetch what they show again.
async fn events(State(shared): State<Arc<Shared>>) -> Response {
    let changes = shared.changes.subscribe();
    let stream = futures_util::stream::unfold(changes, |mut changes| async move {
        changes.changed().await.ok()?;
        let n = *changes.borrow_and_update();
        Some((Ok::<_, Infallible>(Event::default().event("changed").data(n.to_string())), changes))
    });
    let mut response = Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))).into_response();
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_names_with_the_port_pass() {
        let host = |h: &str| {
            let mut m = HeaderMap::new();
            m.insert(header::HOST, HeaderValue::from_str(h).unwrap());
            loopback_host(&m, 8123)
        };
        assert!(host("127.0.0.1:8123") && host("localhost:8123") && host("[::1]:8123") && host("LOCALHOST:8123"));
        assert!(!host("127.0.0.1:8124") && !host("evil.example:8123") && !host("127.0.0.1"));
        assert!(!loopback_host(&HeaderMap::new(), 8123));
    }

    #[test]
    fn the_token_is_taken_out_of_the_query() {
        assert_eq!(without_token("token=abc&tab=heatmap"), "tab=heatmap");
        assert_eq!(without_token("token=abc"), "");
    }
}
