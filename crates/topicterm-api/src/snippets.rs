//! Saved snippets: reusable texts of the user's own, inserted into the compose box (Zulip 10.0,
//! feature level 297). Register's `saved_snippets` and the `saved_snippets` events keep a
//! client's list current; `GET /saved_snippets` reads it where register did not.

use super::error::Result;
use super::levels::SAVED_SNIPPETS;
use super::limits;
use super::models::Ack;
use super::transport::*;

#[cfg(feature = "http")]
use reqwest::Method;
use serde::{Deserialize, Serialize};

/// One saved snippet: a title and its Markdown.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct SavedSnippet {
    pub id: i64,
    pub title: String,
    pub content: String,
    #[serde(default)]
    pub date_created: i64,
}

/// `GET /saved_snippets`.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct SavedSnippetsResponse {
    pub saved_snippets: Vec<SavedSnippet>,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

/// `POST /saved_snippets`.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct SavedSnippetCreated {
    pub saved_snippet_id: i64,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

/// What a server at `level`, older than saved snippets, is refused (before it is asked).
pub fn no_snippets_here(level: Option<i64>) -> Result<()> {
    Ok(super::levels::Level(level).require(SAVED_SNIPPETS, "saved snippets", "Zulip 10.0")?)
}

#[cfg(feature = "http")]
impl Client {
    /// Refused before asking a server older than saved snippets.
    fn has_snippets(&self) -> Result<()> {
        no_snippets_here(self.level().0)
    }

    /// `GET /saved_snippets`: the user's saved snippets.
    pub async fn get_saved_snippets(&self) -> Result<SavedSnippetsResponse> {
        self.has_snippets()?;
        self.call(Method::GET, "/saved_snippets", Params::new()).await
    }

    /// `POST /saved_snippets`: a title (at most 60 characters) and a text (a message's length at
    /// most), neither blank.
    pub async fn create_saved_snippet(&self, title: &str, content: &str) -> Result<SavedSnippetCreated> {
        self.has_snippets()?;
        limits::check_snippet(title, content, self.server_info().max_message_length)?;
        let p = Params::new().add("title", title).add("content", content);
        self.call(Method::POST, "/saved_snippets", p).await
    }

    /// `DELETE /saved_snippets/{id}`.
    pub async fn delete_saved_snippet(&self, id: i64) -> Result<Ack> {
        self.has_snippets()?;
        self.call(Method::DELETE, &format!("/saved_snippets/{id}"), Params::new()).await
    }
}
