//! How the demo organization lets people log in (`demo-server --auth`) and what its sign-ins
//! hold: login tokens not yet redeemed and web sessions (`handlers::sso` serves them).

use std::collections::HashMap;

/// How the organization lets people log in (`demo-server --auth`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AuthMode {
    /// Email and password (the default).
    #[default]
    Password,
    /// A username and password, as an LDAP organization (`require_email_format_usernames` false).
    Ldap,
    /// Only the demo's single sign-on.
    Sso,
    /// Password and single sign-on.
    Both,
}

impl AuthMode {
    pub fn passwords(self) -> bool {
        !matches!(self, AuthMode::Sso)
    }
    pub fn sso(self) -> bool {
        matches!(self, AuthMode::Sso | AuthMode::Both)
    }
    pub fn ldap(self) -> bool {
        self == AuthMode::Ldap
    }
}

/// A login token lives this long (`ExternalAuthResult.LOGIN_KEY_EXPIRATION_SECONDS`).
pub const LOGIN_TOKEN_SECONDS: i64 = 15;

/// The sign-in state: the mode, tokens not yet redeemed, and sessions.
#[derive(Debug, Default)]
pub struct Logins {
    pub mode: AuthMode,
    /// Token → (user, when it was made).
    pub tokens: HashMap<String, (i64, i64)>,
    /// Session ID → (user, CSRF token).
    pub sessions: HashMap<String, (i64, String)>,
}

/// `finish_desktop_flow`: hex of a 12-byte IV and the AES-256-GCM ciphertext of the token (with
/// its tag), under the app's one-time key.
pub fn encrypt_for_app(otp_hex: &str, token: &str) -> Option<String> {
    use ring::aead::{AES_256_GCM, Aad, LessSafeKey, Nonce, UnboundKey};
    let key = hex::decode(otp_hex).ok()?;
    let key = LessSafeKey::new(UnboundKey::new(&AES_256_GCM, &key).ok()?);
    let iv: [u8; 12] = rand::random();
    let mut sealed = token.as_bytes().to_vec();
    key.seal_in_place_append_tag(Nonce::assume_unique_for_key(iv), Aad::empty(), &mut sealed).ok()?;
    let mut out = iv.to_vec();
    out.extend(sealed);
    Some(hex::encode(out))
}
