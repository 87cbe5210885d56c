//! Palette and popup operations (`Effect::Api`): one `ApiCall` in, one request (or a few) to
//! the server, one `Msg::Done` out. `app/update/answers.rs` words the outcome.

use crate::api::*;
use crate::app::{Answer, ApiCall, Failure, Job, Msg, Unsubscribed};

/// Run one palette/popup operation; `app` words the outcome.
pub(super) async fn run_api(c: &Client, call: ApiCall) -> Msg {
    use ApiCall as A;
    let result: Result<Answer, ApiError> = match &call {
        A::SetStatus(u) => c.update_status(u).await.map(|_| Answer::Nothing),
        A::UserSetting { name, value, .. } => {
            c.update_user_setting(name, value).await.map(|_| Answer::Nothing)
        }
        A::Unsubscribe { channels, principals, names } => {
            // One request per person: the answer lists channels, not who left them.
            let who: Vec<(Option<UserId>, String)> = match principals {
                None => vec![(None, names.first().cloned().unwrap_or_else(|| "you".into()))],
                Some(ids) => ids
                    .iter()
                    .copied()
                    .map(Some)
                    .zip(names.iter().cloned().chain(std::iter::repeat_with(String::new)))
                    .collect(),
            };
            let mut done = Vec::new();
            let mut refused = None;
            for (id, name) in who {
                let p = id.map(|id| Principals::Ids(vec![id]));
                match c.unsubscribe(channels, p.as_ref()).await {
                    Ok(r) => done.push(Unsubscribed { name, removed: r.removed, not_removed: r.not_removed }),
                    Err(e) => {
                        refused = Some(e);
                        break;
                    }
                }
            }
            Ok(Answer::Unsubscribed { done, refused })
        }
        A::Deactivate { user, actions, .. } => {
            c.deactivate_user(*user, actions.as_ref(), None).await.map(|_| Answer::Nothing)
        }
        A::GroupMembers { group_id, update, .. } => {
            c.update_user_group_members(*group_id, update).await.map(|_| Answer::Nothing)
        }
        A::NavView { fragment, is_pinned, name } => {
            c.update_navigation_view(fragment, *is_pinned, name.as_deref()).await.map(|_| Answer::Nothing)
        }
        A::AddPlayground { name, language, template } => {
            c.add_playground(name, language, template).await.map(|_| Answer::Nothing)
        }
        A::PushDefault { channel, on } => {
            c.set_channel_push_default(*channel, *on).await.map(|_| Answer::Nothing)
        }
        A::ChannelEmail { channel, sender } => {
            c.get_channel_email(*channel, *sender).await.map(|r| Answer::Email(r.email))
        }
        A::Apns { token, appid } => c.add_apns_token(token, appid.as_deref()).await.map(|_| Answer::Nothing),
        A::Report { message_id, report_type, description } => {
            c.report_message(*message_id, report_type, description.as_deref()).await.map(|_| Answer::Nothing)
        }
        A::Schedule(m) => c.create_scheduled_message(m).await.map(|_| Answer::Nothing),
        A::UpdateScheduled { id, update } => {
            c.update_scheduled_message(*id, update).await.map(|_| Answer::Nothing)
        }
        A::DeleteScheduled(id) => c.delete_scheduled_message(*id).await.map(|_| Answer::Nothing),
        A::DeleteMessage(id) => c.delete_message(*id).await.map(|_| Answer::Nothing),
        A::MoveTopic { message_id, edit, .. } => {
            c.update_message(*message_id, edit).await.map(|_| Answer::Nothing)
        }
        A::MuteUser { user, mute: true, .. } => c.mute_user(*user).await.map(|_| Answer::Nothing),
        A::MuteUser { user, mute: false, .. } => c.unmute_user(*user).await.map(|_| Answer::Nothing),
        A::AlertWords { add: true, words } => {
            c.add_alert_words(words).await.map(|r| Answer::Words(r.alert_words))
        }
        A::AlertWords { add: false, words } => {
            c.remove_alert_words(words).await.map(|r| Answer::Words(r.alert_words))
        }
        A::Submessage { message_id, content } => {
            c.send_submessage(*message_id, content).await.map(|_| Answer::Nothing)
        }
        A::RecentMessages => {
            let q = GetMessages::around(Anchor::Newest, crate::app::RECENT_MESSAGES, 0);
            c.get_messages(&q).await.map(|r| Answer::Messages(r.messages))
        }
        A::Channels => c.get_streams(&StreamsQuery::default()).await.map(|r| Answer::Channels(r.streams)),
        A::ChannelDetails(channel) => {
            c.get_stream(*channel).await.map(|r| Answer::Channel(Box::new(r.stream)))
        }
        A::Profile(user) => c.get_user(*user, true).await.map(|r| Answer::User(Box::new(r.user))),
        A::User(user) => c.get_user(*user, false).await.map(|r| Answer::User(Box::new(r.user))),
        A::PeopleOf(id) => {
            let q = GetMessages::around(Anchor::Id(*id), 0, 0);
            c.get_messages(&q).await.map(|r| Answer::Messages(r.messages))
        }
        A::People => c.get_users().await.map(|r| Answer::People(r.members)),
        A::Groups => c.get_user_groups().await.map(|r| Answer::Groups(r.user_groups)),
        A::Subscribe { names } => {
            let refs: Vec<&str> = names.iter().map(String::as_str).collect();
            c.subscribe(&refs, None).await.map(Answer::Subscribed)
        }
        A::SubscriptionProperty { channel, property, value } => c
            .update_subscription_settings(&[(*channel, property, (*value).into())])
            .await
            .map(|_| Answer::Nothing),
        A::CreateChannel(new) => c.create_channel(new).await.map(|r| Answer::ChannelCreated(r.id)),
        A::Invite { emails, ids, .. } => c.send_invites(emails, ids).await.map(Answer::Invited),
        A::Remind { message_id, at, note, .. } => {
            c.create_message_reminder(*message_id, *at, note.as_deref()).await.map(|_| Answer::Nothing)
        }
        A::Reminders => c.get_reminders().await.map(|r| Answer::Reminders(r.reminders)),
        A::DeleteReminder(id) => c.delete_reminder(*id).await.map(|_| Answer::Nothing),
        A::Uploads => uploads(c).await,
        A::DeleteUpload { id, .. } => c.remove_attachment(*id).await.map(|_| Answer::Nothing),
        A::Snippets => c.get_saved_snippets().await.map(|r| Answer::Snippets(r.saved_snippets)),
        A::CreateSnippet { title, content } => {
            c.create_saved_snippet(title, content).await.map(|_| Answer::Nothing)
        }
        A::DeleteSnippet { id, .. } => c.delete_saved_snippet(*id).await.map(|_| Answer::Nothing),
        A::RenderPreview { content } => c.render_message(content).await.map(|r| Answer::Rendered(r.rendered)),
    };
    // The answer is built here, not by the parent's `done`: a child never names its parent.
    Msg::Done { job: Job::Api(Box::new(call)), result: result.map_err(Failure::Api) }
}

/// The most messages asked for to say where uploads are used (the newest that link to them).
const UPLOAD_MESSAGES: usize = 1000;

/// The user's uploads, and the messages that link to them, so their conversations can be
/// named: asked for by ID where the server takes that ([`levels::MESSAGE_IDS`]). Without them
/// the list still comes (the places it cannot name are counted).
async fn uploads(c: &Client) -> Result<Answer, ApiError> {
    let r = c.get_attachments().await?;
    let mut ids: Vec<MessageId> = r.attachments.iter().flat_map(|a| a.message_ids.iter().copied()).collect();
    ids.sort_unstable_by(|a, b| b.cmp(a));
    ids.dedup();
    ids.truncate(UPLOAD_MESSAGES);
    let mut messages = Vec::new();
    if !ids.is_empty() && c.level().has(levels::MESSAGE_IDS) {
        let q = GetMessages { message_ids: Some(ids), ..Default::default() };
        match c.get_messages(&q).await {
            Ok(page) => messages = page.messages,
            Err(e) => tracing::info!("the messages that link to uploads were not fetched: {e}"),
        }
    }
    Ok(Answer::Uploads { files: r.attachments, used: r.upload_space_used, messages })
}
