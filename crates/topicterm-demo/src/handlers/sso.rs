//! Logging in another way than with a password, as the reference server runs its desktop flow
//! (`zerver/views/auth.py`): a sign-in page of the demo's own ("Demo SSO", offered as a generic
//! OpenID Connect method), the token it encrypts for the app with the app's one-time key
//! (`finish_desktop_flow`), the token redeemed once within 15 s for a session
//! (`log_into_subdomain`), and the session's `POST /json/fetch_api_key`. Also the LDAP-style
//! login by username (`--auth ldap`).

use super::common::Res;
use crate::error::{ApiErr, success};
use crate::logins::{AuthMode, LOGIN_TOKEN_SECONDS};
use crate::org::DEMO_PASSWORD;
use crate::shared::{Anon, Shared, reply};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use serde_json::json;
use std::collections::HashMap;
use std::sync::Arc;

/// The method `server_settings` lists (`external_authentication_methods`).
pub fn external_methods(mode: AuthMode) -> serde_json::Value {
    if !mode.sso() {
        return json!([]);
    }
    json!([{
        "name": "oidc",
        "display_name": "Demo SSO",
        "display_icon": null,
        "login_url": "/accounts/login/social/oidc",
        "signup_url": "/accounts/register/social/oidc",
    }])
}

/// A desktop one-time key: 32 bytes as 64 hex digits (`validate_otp_params`).
fn valid_otp(otp: &str) -> bool {
    otp.len() == 64 && otp.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The reference's API key format: 32 letters and digits (`has_api_key_format`).
fn has_api_key_format(token: &str) -> bool {
    token.len() == 32 && token.bytes().all(|b| b.is_ascii_alphanumeric())
}

fn page(status: StatusCode, title: &str, body: &str) -> Response {
    let html = format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>{title}</title></head><body><h1>{title}</h1>{body}</body></html>"
    );
    (status, Html(html)).into_response()
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// `GET /accounts/login/social/oidc?desktop_flow_otp=…`: the sign-in page.
pub async fn sign_in_page(
    State(s): State<Arc<Shared>>,
    Path(backend): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    if backend != "oidc" || !s.logins().mode.sso() {
        return page(
            StatusCode::NOT_FOUND,
            "Not found",
            "<p>This organization has no such login method.</p>",
        );
    }
    let otp = q.get("desktop_flow_otp").map(String::as_str).unwrap_or_default();
    if !valid_otp(otp) {
        return page(
            StatusCode::BAD_REQUEST,
            "Demo SSO",
            "<p>Invalid OTP: this sign-in page serves only the desktop login flow (desktop_flow_otp).</p>",
        );
    }
    let form = format!(
        "<form method=\"post\"><input type=\"hidden\" name=\"desktop_flow_otp\" value=\"{}\">\
         <label>Email <input name=\"email\"></label> <label>Password <input type=\"password\" name=\"password\"></label>\
         <button>Log in with Demo SSO</button></form><p>The demo password is {DEMO_PASSWORD}.</p>",
        escape(otp)
    );
    page(StatusCode::OK, "Log in with Demo SSO", &form)
}

/// `POST /accounts/login/social/oidc`: signed in; the token for the app, encrypted with its key.
pub async fn sign_in(State(s): State<Arc<Shared>>, Path(backend): Path<String>, a: Anon) -> Response {
    if backend != "oidc" || !s.logins().mode.sso() {
        return page(
            StatusCode::NOT_FOUND,
            "Not found",
            "<p>This organization has no such login method.</p>",
        );
    }
    let otp = a.p.opt_str("desktop_flow_otp").unwrap_or_default();
    let email = a.p.opt_str("email").unwrap_or_default();
    let password = a.p.opt_str("password").unwrap_or_default();
    if !valid_otp(&otp) {
        return page(StatusCode::BAD_REQUEST, "Demo SSO", "<p>Invalid OTP.</p>");
    }
    let (user, now) = {
        let org = s.lock();
        let user = org.user_by_email(email.trim()).filter(|u| !u.is_bot() && u.is_active).map(|u| u.id);
        (user, org.now())
    };
    let Some(user) = user.filter(|_| password == DEMO_PASSWORD) else {
        return page(StatusCode::UNAUTHORIZED, "Log in with Demo SSO", "<p>Wrong email or password.</p>");
    };
    let token = crate::token::token(32);
    s.logins().tokens.insert(token.clone(), (user, now));
    let Some(data) = crate::logins::encrypt_for_app(&otp, &token) else {
        return page(StatusCode::INTERNAL_SERVER_ERROR, "Demo SSO", "<p>Could not encrypt the token.</p>");
    };
    page(
        StatusCode::OK,
        "Logged in",
        &format!(
            "<p>Copy this login token and return to your Zulip app to finish logging in:</p><pre id=\"desktop-data\">{data}</pre>"
        ),
    )
}

/// `GET /accounts/login/subdomain/{token}`: a token redeemed once, within 15 s, for a session.
pub async fn log_into_subdomain(State(s): State<Arc<Shared>>, Path(token): Path<String>) -> Response {
    if !has_api_key_format(&token) {
        return StatusCode::BAD_REQUEST.into_response();
    }
    let now = s.lock().now();
    let mut logins = s.logins();
    let user = match logins.tokens.remove(&token) {
        Some((user, made)) if now - made <= LOGIN_TOKEN_SECONDS => user,
        _ => {
            drop(logins);
            return page(
                StatusCode::BAD_REQUEST,
                "Invalid or expired login session",
                "<p>The login token was invalid or expired. Please try logging in again.</p>",
            );
        }
    };
    let (session, csrf) = (crate::token::token(32), crate::token::token(32));
    logins.sessions.insert(session.clone(), (user, csrf.clone()));
    let mut headers = HeaderMap::new();
    for cookie in [
        format!("sessionid={session}; HttpOnly; Path=/; SameSite=Lax"),
        format!("csrftoken={csrf}; Path=/; SameSite=Lax"),
    ] {
        if let Ok(v) = HeaderValue::from_str(&cookie) {
            headers.append(header::SET_COOKIE, v);
        }
    }
    headers.insert(header::LOCATION, HeaderValue::from_static("/"));
    (StatusCode::FOUND, headers).into_response()
}

fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// `POST /json/fetch_api_key`: the session's user's key. Where passwords are on, the password
/// too ("Password is incorrect."). The session needs Django's CSRF check: the `X-CSRFToken`
/// header equal to the `csrftoken` cookie.
pub async fn json_fetch_api_key(State(s): State<Arc<Shared>>, headers: HeaderMap, a: Anon) -> Res {
    let (user, csrf) = {
        let logins = s.logins();
        match cookie(&headers, "sessionid").and_then(|id| logins.sessions.get(id)) {
            Some(found) => found.clone(),
            None => {
                return Err(ApiErr::new(
                    StatusCode::UNAUTHORIZED,
                    "UNAUTHORIZED",
                    "Not logged in: API authentication or user session required",
                ));
            }
        }
    };
    let sent = headers.get("x-csrftoken").and_then(|v| v.to_str().ok());
    if sent != Some(csrf.as_str()) || cookie(&headers, "csrftoken") != Some(csrf.as_str()) {
        return Err(ApiErr::new(
            StatusCode::FORBIDDEN,
            "CSRF_FAILED",
            "CSRF error: CSRF token missing or incorrect.",
        ));
    }
    let passwords = s.logins().mode.passwords();
    if passwords && a.p.opt_str("password").as_deref() != Some(DEMO_PASSWORD) {
        return Err(ApiErr::bad("Password is incorrect."));
    }
    let org = s.lock();
    let u = org.users.get(&user).ok_or_else(|| ApiErr::bad("Account is deactivated"))?;
    Ok(reply(&a.p, success(json!({"api_key": u.api_key, "email": u.email}))))
}
