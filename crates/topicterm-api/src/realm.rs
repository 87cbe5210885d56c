//! The organization and server: server settings, API keys, realm settings, saved views, playgrounds.

use super::error::{LimitError, Result};
use super::limits;
use super::models::*;
use super::transport::*;

#[cfg(feature = "http")]
use reqwest::Method;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct IdResponse {
    pub id: i64,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct NavigationViewsResponse {
    pub navigation_views: Vec<NavigationView>,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct ServerSettings {
    #[serde(default)]
    pub zulip_version: String,
    #[serde(default)]
    pub zulip_feature_level: i64,
    #[serde(default)]
    pub realm_name: Option<String>,
    #[serde(default)]
    pub realm_url: Option<String>,
    /// Legacy name of `realm_url`. Servers send both, so it cannot be a serde alias (that
    /// fails as a duplicate field); use [`ServerSettings::url`].
    #[serde(default)]
    pub realm_uri: Option<String>,
    #[serde(default)]
    pub authentication_methods: Value,
    #[serde(default)]
    pub require_email_format_usernames: Option<bool>,
    /// Single sign-on methods (each read alone: one the client cannot read is left out).
    #[serde(default)]
    pub external_authentication_methods: Vec<Value>,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

impl ServerSettings {
    /// The organization's URL, from either spelling.
    pub fn url(&self) -> Option<&str> {
        self.realm_url.as_deref().or(self.realm_uri.as_deref())
    }

    /// The single sign-on methods the client can read.
    pub fn external_methods(&self) -> Vec<ExternalAuthMethod> {
        self.external_authentication_methods
            .iter()
            .filter_map(|m| serde_json::from_value(m.clone()).ok())
            .collect()
    }

    /// Whether the organization takes passwords (email or LDAP username).
    pub fn passwords(&self) -> bool {
        self.authentication_methods.get("password").and_then(Value::as_bool) != Some(false)
    }
}

/// One of `server_settings`' `external_authentication_methods`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ExternalAuthMethod {
    /// `google`, `github`, `saml:idp`, `oidc`, …
    pub name: String,
    /// "GitHub", "Demo SSO", …: the button says "Log in with {display_name}".
    pub display_name: String,
    /// Where the browser starts, relative to the server.
    pub login_url: String,
    #[serde(default)]
    pub signup_url: Option<String>,
}

/// `Debug` never shows the key.
#[derive(Clone, Deserialize, Serialize)]
pub struct ApiKeyResponse {
    pub api_key: String,
    pub email: String,
    #[serde(default)]
    pub user_id: Option<UserId>,
}

impl fmt::Debug for ApiKeyResponse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ApiKeyResponse")
            .field("api_key", &"<redacted>")
            .field("email", &self.email)
            .field("user_id", &self.user_id)
            .finish()
    }
}

#[cfg(feature = "http")]
impl Client {
    /// Operation 18: `PATCH /navigation_views/{fragment}`; the fragment may contain slashes.
    pub async fn update_navigation_view(
        &self,
        fragment: &str,
        is_pinned: Option<bool>,
        name: Option<&str>,
    ) -> Result<Ack> {
        if is_pinned.is_none() && name.is_none() {
            return Err(LimitError::NothingToChange.into());
        }
        let p = Params::new().opt("is_pinned", is_pinned).opt("name", name);
        let path = format!("/navigation_views/{}", crate::urls::path(fragment));
        self.call(Method::PATCH, &path, p).await
    }

    /// Operation 19: `POST /realm/playgrounds`.
    pub async fn add_playground(
        &self,
        name: &str,
        pygments_language: &str,
        url_template: &str,
    ) -> Result<IdResponse> {
        limits::check_playground_template(url_template)?;
        let p = Params::new()
            .add("name", name)
            .add("pygments_language", pygments_language)
            .add("url_template", url_template);
        self.call(Method::POST, "/realm/playgrounds", p).await
    }

    /// `GET /navigation_views`.
    pub async fn get_navigation_views(&self) -> Result<NavigationViewsResponse> {
        self.call(Method::GET, "/navigation_views", Params::new()).await
    }

    /// `PATCH /realm` (administrators): organization settings as raw parameters.
    pub async fn update_realm(&self, params: Params) -> Result<Ack> {
        self.call(Method::PATCH, "/realm", params).await
    }

    /// `GET /server_settings` (no authentication needed).
    pub async fn server_settings(&self) -> Result<ServerSettings> {
        self.call(Method::GET, "/server_settings", Params::new()).await
    }

    /// `POST /fetch_api_key` with a password.
    pub async fn fetch_api_key(&self, username: &str, password: &str) -> Result<ApiKeyResponse> {
        let p = Params::new().add("username", username).add("password", password);
        self.call(Method::POST, "/fetch_api_key", p).await
    }
}
