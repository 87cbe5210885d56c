//! The browser half of a single sign-on login, for tests: what a person does with the address
//! `topicterm login` prints — open the demo server's sign-in page, sign in, copy the token the
//! page shows — over real HTTP. And, to test a token used twice, what only the app should be able
//! to do: decrypt it with the one-time key the address carries.

#![allow(dead_code)]

/// The one-time key (`desktop_flow_otp`) in a sign-in address.
pub fn otp_of(url: &str) -> String {
    let url = reqwest::Url::parse(url).expect("a sign-in address");
    url.query_pairs()
        .find(|(k, _)| k == "desktop_flow_otp")
        .map(|(_, v)| v.into_owned())
        .expect("a one-time key")
}

/// The first sign-in address in what login printed.
pub fn address_in(printed: &str) -> Option<String> {
    printed
        .split_whitespace()
        .rev()
        .find(|w| w.starts_with("http") && w.contains("desktop_flow_otp="))
        .map(str::to_owned)
}

/// Open the sign-in page at `url`, sign in, and return what the page shows to copy.
pub async fn sign_in(url: &str, email: &str, password: &str) -> Result<String, String> {
    let http = reqwest::Client::new();
    let page = http.get(url).send().await.map_err(|e| e.to_string())?;
    let (status, body) = (page.status(), page.text().await.map_err(|e| e.to_string())?);
    if !status.is_success() || !body.contains("<form") {
        return Err(format!("no sign-in form ({status}): {body}"));
    }
    let otp = otp_of(url);
    let form = [("desktop_flow_otp", otp.as_str()), ("email", email), ("password", password)];
    let done = http.post(url).form(&form).send().await.map_err(|e| e.to_string())?;
    let (status, body) = (done.status(), done.text().await.map_err(|e| e.to_string())?);
    let start = "<pre id=\"desktop-data\">";
    match (body.find(start), body.find("</pre>")) {
        (Some(a), Some(b)) if status.is_success() && a < b => Ok(body[a + start.len()..b].to_owned()),
        _ => Err(format!("not signed in ({status}): {body}")),
    }
}

/// The login token inside what the page showed, by the key in the address (AES-256-GCM, a
/// 12-byte IV first).
pub fn decrypt(otp_hex: &str, shown: &str) -> String {
    use ring::aead::{AES_256_GCM, Aad, LessSafeKey, Nonce, UnboundKey};
    let key = LessSafeKey::new(UnboundKey::new(&AES_256_GCM, &hex::decode(otp_hex).unwrap()).unwrap());
    let bytes = hex::decode(shown.trim()).unwrap();
    let (iv, sealed) = bytes.split_at(12);
    let mut sealed = sealed.to_vec();
    let plain =
        key.open_in_place(Nonce::try_assume_unique_for_key(iv).unwrap(), Aad::empty(), &mut sealed).unwrap();
    String::from_utf8(plain.to_vec()).unwrap()
}
