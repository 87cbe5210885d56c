//! Drafts stored on the server.

use super::error::Result;
use super::limits;
use super::models::*;
use super::transport::*;

#[cfg(feature = "http")]
use reqwest::Method;

#[cfg(feature = "http")]
impl Client {
    /// `GET /drafts`: the user's server-side drafts, most recently edited first. Refused
    /// (`BAD_REQUEST`) while `enable_drafts_synchronization` is off.
    pub async fn get_drafts(&self) -> Result<DraftsResponse> {
        self.call(Method::GET, "/drafts", Params::new()).await
    }

    /// `POST /drafts`: store drafts on the server; returns their IDs in the order given.
    /// Every draft is checked first; the server stores all of them or none.
    pub async fn create_drafts(&self, drafts: &[Draft]) -> Result<Vec<i64>> {
        let info = self.server_info();
        for d in drafts {
            limits::check_draft(d, info.max_message_length, info.max_topic_length)?;
        }
        let body: Vec<Draft> = drafts.iter().map(Draft::to_request).collect();
        let created: DraftsCreated =
            self.call(Method::POST, "/drafts", Params::new().json("drafts", &body)).await?;
        Ok(created.ids)
    }

    /// `PATCH /drafts/{id}`: replace a draft (its `id` field is not sent).
    pub async fn edit_draft(&self, id: i64, draft: &Draft) -> Result<Ack> {
        let info = self.server_info();
        limits::check_draft(draft, info.max_message_length, info.max_topic_length)?;
        let p = Params::new().json("draft", &draft.to_request());
        self.call(Method::PATCH, &format!("/drafts/{id}"), p).await
    }

    /// `DELETE /drafts/{id}`.
    pub async fn delete_draft(&self, id: i64) -> Result<Ack> {
        self.call(Method::DELETE, &format!("/drafts/{id}"), Params::new()).await
    }

    /// `PATCH /settings` `enable_drafts_synchronization`: turning it off deletes the drafts
    /// stored on the server (local copies are the client's business).
    pub async fn set_drafts_sync(&self, enabled: bool) -> Result<Ack> {
        let p = Params::new().add("enable_drafts_synchronization", enabled);
        self.call(Method::PATCH, "/settings", p).await
    }
}
