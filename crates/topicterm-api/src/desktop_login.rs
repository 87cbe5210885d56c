//! Logging in through an organization's single sign-on (Google, GitHub, SAML, OpenID Connect…)
//! from a terminal, by the reference server's desktop flow (`zerver/views/auth.py`): the app
//! makes a one-time 256-bit key and opens the method's `login_url` with `desktop_flow_otp=<key
//! as 64 hex digits>` in a browser; after the sign-in the page shows a token, encrypted for the
//! app (`finish_desktop_flow`: hex of a 12-byte IV and the AES-256-GCM ciphertext); the app
//! decrypts it and redeems it once, within 15 s, at `/accounts/login/subdomain/<token>` for a
//! web session, whose `POST /json/fetch_api_key` gives the API key.

use super::error::{ApiError, ServerError};
use super::realm::ApiKeyResponse;
pub use super::realm::ExternalAuthMethod;
use super::transport::Client;
use std::fmt;
use std::sync::Arc;

/// A pasted token that is not one this login can use.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    #[error("that is not the token the sign-in page showed (a long line of digits and the letters a–f)")]
    NotHex,
    #[error("that token was not made for this login (it was made for another, or was changed): start again")]
    NotForThisLogin,
}

/// The app's one-time key for one desktop login. `Debug` never shows it.
pub struct DesktopKey([u8; 32]);

impl fmt::Debug for DesktopKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("DesktopKey(<redacted>)")
    }
}

impl DesktopKey {
    /// A fresh key from the system's random source.
    pub fn new() -> std::result::Result<DesktopKey, ring::error::Unspecified> {
        let mut key = [0u8; 32];
        ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut key)?;
        Ok(DesktopKey(key))
    }

    /// Where the browser signs in: the method's `login_url` on the user's own server (an
    /// address elsewhere is refused: the key and the sign-in stay on that server), with the key.
    pub fn login_url(&self, site: &str, method: &ExternalAuthMethod) -> std::result::Result<String, String> {
        let base =
            url::Url::parse(site.trim_end_matches('/')).map_err(|e| format!("invalid server URL: {e}"))?;
        let mut url = base.join(&method.login_url).map_err(|e| format!("invalid login address: {e}"))?;
        if url.origin() != base.origin() {
            return Err(format!(
                "{} signs in at another server ({}): not followed",
                method.display_name,
                url.origin().ascii_serialization()
            ));
        }
        url.query_pairs_mut().append_pair("desktop_flow_otp", &hex::encode(self.0));
        Ok(url.to_string())
    }

    /// The login token inside what the sign-in page showed.
    pub fn decrypt(&self, pasted: &str) -> std::result::Result<String, TokenError> {
        use ring::aead::{AES_256_GCM, Aad, LessSafeKey, Nonce, UnboundKey};
        let pasted: String = pasted.chars().filter(|c| !c.is_whitespace()).collect();
        let bytes = hex::decode(&pasted).map_err(|_| TokenError::NotHex)?;
        // The IV, then at least the 16-byte tag.
        if bytes.len() < 12 + 16 {
            return Err(TokenError::NotHex);
        }
        let (iv, sealed) = bytes.split_at(12);
        let key = LessSafeKey::new(
            UnboundKey::new(&AES_256_GCM, &self.0).map_err(|_| TokenError::NotForThisLogin)?,
        );
        let nonce = Nonce::try_assume_unique_for_key(iv).map_err(|_| TokenError::NotHex)?;
        let mut sealed = sealed.to_vec();
        let plain =
            key.open_in_place(nonce, Aad::empty(), &mut sealed).map_err(|_| TokenError::NotForThisLogin)?;
        let token = String::from_utf8(plain.to_vec()).map_err(|_| TokenError::NotForThisLogin)?;
        // The reference's tokens have the API key's format (`has_api_key_format`); nothing else
        // goes into the address.
        if token.len() != 32 || !token.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(TokenError::NotForThisLogin);
        }
        Ok(token)
    }
}

/// Why a token was not redeemed.
#[derive(Debug, thiserror::Error)]
pub enum RedeemError {
    /// Used already, or more than 15 s old, or unknown.
    #[error(
        "the server refused the token: a token works once, within 15 seconds of signing in — start again"
    )]
    Refused,
    /// Passwords are on too: the session's key needs the password (`Password is incorrect.`).
    #[error(
        "this organization also takes passwords, and gives the key of a signed-in session only with the password: {0}"
    )]
    NeedsPassword(String),
    #[error(transparent)]
    Api(#[from] ApiError),
}

impl Client {
    /// Redeem a login token for a session and the session's API key (`password`: where the
    /// organization also takes passwords, which `POST /json/fetch_api_key` then asks for).
    /// The session lives only in this call.
    pub async fn redeem_login_token(
        &self,
        token: &str,
        password: Option<&str>,
    ) -> std::result::Result<ApiKeyResponse, RedeemError> {
        let site = self.site().trim_end_matches('/').to_owned();
        let jar = Arc::new(reqwest::cookie::Jar::default());
        let http = self
            .builder_for_login()?
            .cookie_provider(jar.clone())
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(ApiError::from)?;
        let r = http
            .get(format!("{site}/accounts/login/subdomain/{token}"))
            .send()
            .await
            .map_err(ApiError::from)?;
        if !r.status().is_redirection() && !r.status().is_success() {
            return Err(RedeemError::Refused);
        }
        let parsed = url::Url::parse(&site).map_err(|e| ApiError::Transport {
            message: format!("invalid server URL {site:?}: {e}"),
            timeout: false,
            connect: false,
        })?;
        let cookies = reqwest::cookie::CookieStore::cookies(&*jar, &parsed);
        let csrf = cookies
            .as_ref()
            .and_then(|v| v.to_str().ok())
            .and_then(|v| {
                v.split(';').filter_map(|kv| kv.trim().split_once('=')).find(|(k, _)| *k == "csrftoken")
            })
            .map(|(_, v)| v.to_owned())
            .ok_or(RedeemError::Refused)?;
        let mut form = vec![];
        if let Some(p) = password {
            form.push(("password", p));
        }
        let r = http
            .post(format!("{site}/json/fetch_api_key"))
            .header("X-CSRFToken", csrf)
            .header(reqwest::header::REFERER, format!("{site}/"))
            .form(&form)
            .send()
            .await
            .map_err(ApiError::from)?;
        let status = r.status().as_u16();
        let body: serde_json::Value = r.json().await.map_err(ApiError::from)?;
        if status == 200 && body["result"] == "success" {
            return serde_json::from_value(body).map_err(|_| RedeemError::Refused);
        }
        let e = ServerError::from_body(status, &body, None);
        if e.msg.contains("Password") || e.msg.contains("password") {
            return Err(RedeemError::NeedsPassword(e.msg));
        }
        Err(RedeemError::Api(ApiError::Server(Box::new(e))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn method(login_url: &str) -> ExternalAuthMethod {
        ExternalAuthMethod {
            name: "oidc".into(),
            display_name: "Demo SSO".into(),
            login_url: login_url.into(),
            signup_url: None,
        }
    }

    /// What the server's page shows: hex of a 12-byte IV and the sealed token (`finish_desktop_flow`).
    fn sealed_for(key: &DesktopKey, token: &str) -> String {
        use ring::aead::{AES_256_GCM, Aad, LessSafeKey, Nonce, UnboundKey};
        let k = LessSafeKey::new(UnboundKey::new(&AES_256_GCM, &key.0).unwrap());
        let iv = [7u8; 12];
        let mut sealed = token.as_bytes().to_vec();
        k.seal_in_place_append_tag(Nonce::assume_unique_for_key(iv), Aad::empty(), &mut sealed).unwrap();
        hex::encode([iv.to_vec(), sealed].concat())
    }

    #[test]
    fn the_sign_in_address_is_on_the_users_own_server_and_carries_the_key() {
        let key = DesktopKey::new().unwrap();
        let url = key.login_url("https://chat.example.com/", &method("/accounts/login/social/oidc")).unwrap();
        assert_eq!(
            url,
            format!(
                "https://chat.example.com/accounts/login/social/oidc?desktop_flow_otp={}",
                hex::encode(key.0)
            )
        );
        for elsewhere in [
            "https://evil.example/login",
            "//evil.example/login",
            "http://chat.example.com/x",
            "https://chat.example.com:444/x",
        ] {
            let e = key.login_url("https://chat.example.com", &method(elsewhere)).unwrap_err();
            assert!(e.contains("signs in at another server"), "{elsewhere}: {e}");
        }
        assert_eq!(format!("{key:?}"), "DesktopKey(<redacted>)");
    }

    #[test]
    fn a_token_opens_only_with_its_own_key_and_only_in_the_servers_format() {
        let key = DesktopKey::new().unwrap();
        let token = "a".repeat(16) + &"B7".repeat(8);
        let shown = sealed_for(&key, &token);
        assert_eq!(key.decrypt(&shown).unwrap(), token);
        // Pasted with line breaks and spaces around it.
        let wrapped = format!("  {}\n{}  ", &shown[..40], &shown[40..]);
        assert_eq!(key.decrypt(&wrapped).unwrap(), token);
        assert_eq!(DesktopKey::new().unwrap().decrypt(&shown), Err(TokenError::NotForThisLogin));
        assert_eq!(key.decrypt("not a token"), Err(TokenError::NotHex));
        assert_eq!(key.decrypt("abcd"), Err(TokenError::NotHex));
        let mut changed = shown.clone().into_bytes();
        let last = changed.len() - 1;
        changed[last] = if changed[last] == b'0' { b'1' } else { b'0' };
        assert_eq!(key.decrypt(std::str::from_utf8(&changed).unwrap()), Err(TokenError::NotForThisLogin));
        // A token that would put something else into the redeeming address is refused.
        assert_eq!(
            key.decrypt(&sealed_for(&key, "../../api/v1/users/me?x=1234567")),
            Err(TokenError::NotForThisLogin)
        );
    }
}
