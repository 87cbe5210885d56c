//! Channels: subscriptions, topics, topic visibility (and legacy muting), channel email.

use super::error::{LimitError, Result};
use super::limits;
use super::models::*;
use super::transport::*;

#[cfg(feature = "http")]
use reqwest::Method;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;

/// Channel by ID or by name (legacy muting).
#[derive(Debug, Clone, Default)]
pub struct LegacyMute {
    pub stream_id: Option<ChannelId>,
    pub stream: Option<String>,
    pub topic: String,
    /// `true` mutes (`op=add`), `false` unmutes (`op=remove`).
    pub mute: bool,
}

/// Who to unsubscribe (operation 7).
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum Principals {
    Ids(Vec<UserId>),
    Emails(Vec<String>),
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct UnsubscribeResponse {
    #[serde(default)]
    pub removed: Vec<String>,
    #[serde(default)]
    pub not_removed: Vec<String>,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct SubscribeResponse {
    #[serde(default)]
    pub subscribed: Value,
    #[serde(default)]
    pub already_subscribed: Value,
    #[serde(default)]
    pub unauthorized: Vec<String>,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct TopicsResponse {
    pub topics: Vec<TopicEntry>,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct EmailResponse {
    pub email: String,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

/// `include_subscribers` of get-subscriptions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IncludeSubscribers {
    True,
    False,
    /// Feature level 412.
    Partial,
}

impl fmt::Display for IncludeSubscribers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IncludeSubscribers::True => "true",
            IncludeSubscribers::False => "false",
            IncludeSubscribers::Partial => "partial",
        })
    }
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct SubscriptionsResponse {
    pub subscriptions: Vec<Subscription>,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

/// Which channels `GET /streams` lists (unset flags take the server's defaults: public and
/// subscribed channels, archived ones left out).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StreamsQuery {
    pub include_public: Option<bool>,
    pub include_web_public: Option<bool>,
    pub include_subscribed: Option<bool>,
    pub exclude_archived: Option<bool>,
    /// Every channel the user has metadata access to (all of them for administrators).
    pub include_all: Option<bool>,
    pub include_default: Option<bool>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct StreamsResponse {
    pub streams: Vec<BasicChannel>,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct StreamResponse {
    pub stream: BasicChannel,
    #[serde(default)]
    pub ignored_parameters_unsupported: Vec<String>,
}

#[cfg(feature = "http")]
impl Client {
    /// `GET /streams`: the channels the user can see, as the query selects them.
    pub async fn get_streams(&self, q: &StreamsQuery) -> Result<StreamsResponse> {
        let p = Params::new()
            .opt("include_public", q.include_public)
            .opt("include_web_public", q.include_web_public)
            .opt("include_subscribed", q.include_subscribed)
            .opt("exclude_archived", q.exclude_archived)
            .opt("include_all", q.include_all)
            .opt("include_default", q.include_default);
        self.call(Method::GET, "/streams", p).await
    }

    /// `GET /streams/{id}`: one channel the user can see.
    pub async fn get_stream(&self, stream_id: ChannelId) -> Result<StreamResponse> {
        self.call(Method::GET, &format!("/streams/{stream_id}"), Params::new()).await
    }

    /// `PATCH /streams/{id}` with `default_push_notifications` (level 507; organization
    /// administrators): whether new subscribers get mobile notifications for the channel.
    pub async fn set_channel_push_default(&self, stream_id: ChannelId, on: bool) -> Result<Value> {
        self.level().require(
            super::levels::DEFAULT_PUSH_NOTIFICATIONS,
            "a channel's push default",
            "Zulip 13.0",
        )?;
        let p = Params::new().add("default_push_notifications", on);
        self.call(Method::PATCH, &format!("/streams/{stream_id}"), p).await
    }

    /// Operation 3: `POST /user_topics`. Below feature level 170 muting falls back to the legacy
    /// operation (only none and muted exist there).
    pub async fn update_user_topic(
        &self,
        stream_id: ChannelId,
        topic: &str,
        policy: VisibilityPolicy,
    ) -> Result<Ack> {
        let value = i64::from(policy);
        limits::check_visibility_policy(value)?;
        limits::check_topic_length(topic, self.server_info().max_topic_length)?;
        if policy == VisibilityPolicy::Followed {
            let (what, version) = super::levels::FOLLOWING;
            self.level().require(super::levels::FOLLOWED_TOPICS, what, version)?;
        }
        if !self.level().has(super::levels::USER_TOPICS)
            && matches!(policy, VisibilityPolicy::None | VisibilityPolicy::Muted)
        {
            let legacy = LegacyMute {
                stream_id: Some(stream_id),
                stream: None,
                topic: topic.to_owned(),
                mute: policy == VisibilityPolicy::Muted,
            };
            return self.mute_topic_legacy(&legacy).await;
        }
        let p = Params::new().add("stream_id", stream_id).add("topic", topic).add("visibility_policy", value);
        self.call(Method::POST, "/user_topics", p).await
    }

    /// Operation 4: `PATCH /users/me/subscriptions/muted_topics` (deprecated since 170).
    pub async fn mute_topic_legacy(&self, m: &LegacyMute) -> Result<Ack> {
        if m.stream_id.is_some() == m.stream.is_some() {
            return Err(LimitError::LegacyMuteChannel.into());
        }
        limits::check_topic_length(&m.topic, self.server_info().max_topic_length)?;
        let p = Params::new()
            .opt("stream_id", m.stream_id)
            .opt("stream", m.stream.as_ref())
            .add("topic", &m.topic)
            .add("op", if m.mute { "add" } else { "remove" });
        self.call(Method::PATCH, "/users/me/subscriptions/muted_topics", p).await
    }

    /// `POST /streams/{id}/delete_topic` (administrators): deletes the topic's messages, in
    /// batches on large topics — `complete: false` asks for another call (feature level 211;
    /// older servers say nothing and finish in one).
    pub async fn delete_topic(&self, stream_id: ChannelId, topic_name: &str) -> Result<DeleteTopic> {
        let p = Params::new().add("topic_name", topic_name);
        self.call(Method::POST, &format!("/streams/{stream_id}/delete_topic"), p).await
    }

    /// Operation 7: `DELETE /users/me/subscriptions`.
    pub async fn unsubscribe(
        &self,
        subscriptions: &[String],
        principals: Option<&Principals>,
    ) -> Result<UnsubscribeResponse> {
        let p = Params::new().json("subscriptions", &subscriptions).opt_json("principals", principals);
        self.call(Method::DELETE, "/users/me/subscriptions", p).await
    }

    /// Operation 15: `GET /users/me/{stream_id}/topics`.
    pub async fn get_topics(
        &self,
        stream_id: ChannelId,
        allow_empty_topic_name: bool,
    ) -> Result<TopicsResponse> {
        // Not to a server before it, which does not know the parameter.
        let known = self.level().has(super::levels::EMPTY_TOPIC);
        let p = Params::new().opt("allow_empty_topic_name", known.then_some(allow_empty_topic_name));
        self.call(Method::GET, &format!("/users/me/{stream_id}/topics"), p).await
    }

    /// Operation 20: `GET /streams/{id}/email_address`.
    pub async fn get_channel_email(
        &self,
        stream_id: ChannelId,
        sender_id: Option<UserId>,
    ) -> Result<EmailResponse> {
        let p = Params::new().opt("sender_id", sender_id);
        self.call(Method::GET, &format!("/streams/{stream_id}/email_address"), p).await
    }

    /// Operation 22: `GET /users/me/subscriptions`. Servers below feature level 412 do not know
    /// `partial`; they are asked for the full lists instead (a superset of any partial list).
    pub async fn get_subscriptions(
        &self,
        include_subscribers: Option<IncludeSubscribers>,
    ) -> Result<SubscriptionsResponse> {
        let include = match include_subscribers {
            Some(IncludeSubscribers::Partial) if !self.level().has(super::levels::PARTIAL_SUBSCRIBERS) => {
                Some(IncludeSubscribers::True)
            }
            other => other,
        };
        let p = Params::new().opt("include_subscribers", include);
        self.call(Method::GET, "/users/me/subscriptions", p).await
    }

    /// `POST /users/me/subscriptions/properties`: `(stream_id, property, value)` triples.
    pub async fn update_subscription_settings(&self, changes: &[(ChannelId, &str, Value)]) -> Result<Ack> {
        let data: Vec<Value> = changes
            .iter()
            .map(|(id, prop, v)| serde_json::json!({"stream_id": id, "property": prop, "value": v}))
            .collect();
        let p = Params::new().json("subscription_data", &data);
        self.call(Method::POST, "/users/me/subscriptions/properties", p).await
    }

    /// `POST /users/me/subscriptions`: subscribe to channels by name (created if missing).
    pub async fn subscribe(
        &self,
        names: &[&str],
        principals: Option<&Principals>,
    ) -> Result<SubscribeResponse> {
        let subs: Vec<Value> = names.iter().map(|n| serde_json::json!({"name": n})).collect();
        // Not fatal: the server subscribes to what it may and lists the rest in `unauthorized`
        // (by default the reference refuses the whole request over one private channel).
        let p = Params::new()
            .json("subscriptions", &subs)
            .opt_json("principals", principals)
            .add("authorization_errors_fatal", false);
        self.call(Method::POST, "/users/me/subscriptions", p).await
    }

    /// `POST /channels/create`: a new channel with the user as its one subscriber. Before
    /// [`super::levels::CREATE_CHANNEL`], `POST /users/me/subscriptions` with the new name (which would
    /// join a channel of that name instead: the caller checks the name is free).
    pub async fn create_channel(&self, c: &NewChannel) -> Result<CreatedChannel> {
        limits::check_channel_name(&c.name)?;
        let flags = |p: Params| {
            p.add("invite_only", c.private)
                .add("history_public_to_subscribers", true)
                .opt("description", (!c.description.is_empty()).then_some(&c.description))
        };
        if self.level().has(super::levels::CREATE_CHANNEL) {
            let p = flags(Params::new().add("name", &c.name).json("subscribers", &c.subscribers));
            return self.call(Method::POST, "/channels/create", p).await;
        }
        let sub = serde_json::json!([{"name": c.name, "description": c.description}]);
        let p = flags(Params::new().json("subscriptions", &sub));
        let _: SubscribeResponse = self.call(Method::POST, "/users/me/subscriptions", p).await?;
        Ok(CreatedChannel { id: None })
    }
}

/// A channel to create: its name, description (Markdown) and whether it is private (invite
/// only, its history public to subscribers as the web app makes it).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NewChannel {
    pub name: String,
    /// Its first subscribers (the creator); a server before [`super::levels::CREATE_CHANNEL`]
    /// subscribes only the creator.
    pub subscribers: Vec<UserId>,
    pub description: String,
    pub private: bool,
}

/// The answer of `create_channel`: the new channel's ID (a server before
/// [`super::levels::CREATE_CHANNEL`] does not say it).
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
pub struct CreatedChannel {
    #[serde(default)]
    pub id: Option<ChannelId>,
}

/// The answer of `delete_topic`: `complete` false when messages are left to delete.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct DeleteTopic {
    #[serde(default)]
    pub complete: Option<bool>,
}
