//! A finished background job (`Msg::Done`) goes to the part that asked for it: the directory's
//! popups, saved snippets, the compose preview, the recent conversations, the reminders and
//! uploads lists, an upload's link. What the user reads of it is `answers`'s: the failures
//! handed on are worded there, and a job no part takes is answered there in words.

use super::answers;
use super::attach;
use super::directory;
use super::prelude::*;
use super::preview;
use super::recent;
use super::reminders;
use super::snippets;
use super::uploads;
use crate::app::msg::{Answer, Failure, Job};

/// A background job finished.
pub(super) fn on_done(st: &mut State, job: Job, result: Result<Answer, Failure>) -> Vec<Effect> {
    match (job, result) {
        (Job::Upload { target }, Ok(Answer::Uploaded { name, url })) => {
            attach::uploaded(st, target, &name, &url)
        }
        (Job::Api(call), result) => on_call(st, *call, result),
        // Not loading any more: the next look at the channel asks again.
        (job @ Job::FetchTopics(channel), result @ Err(_)) => {
            st.data.topics.on_failed(channel);
            answers::on_done(st, job, result)
        }
        (job, result) => answers::on_done(st, job, result),
    }
}

/// A palette operation or a popup's call finished.
fn on_call(st: &mut State, call: ApiCall, result: Result<Answer, Failure>) -> Vec<Effect> {
    match (call, result) {
        (call, result) if super::people_list::answers(&call) => {
            super::people_list::on_answer(st, call, result)
        }
        (call, result) if directory::answers(&call) => {
            let result = result.map_err(|f| answers::failure_for(st, &call, &f));
            directory::on_answer(st, call, result)
        }
        (ApiCall::Reminders, Ok(Answer::Reminders(list))) => {
            reminders::on_list(st, list);
            vec![]
        }
        (ApiCall::Uploads, Ok(Answer::Uploads { files, used, messages })) => {
            uploads::on_list(st, files, used, messages);
            vec![]
        }
        (call @ (ApiCall::Reminders | ApiCall::Uploads), result) => {
            if let Err(f) = result {
                answers::list_failed(st, &call, &f);
            }
            vec![]
        }
        (call, result) if snippets::answers(&call) => {
            let result = result.map_err(|f| answers::failure_for(st, &call, &f));
            snippets::on_answer(st, call, result)
        }
        (call @ ApiCall::RenderPreview { .. }, result) => {
            let result = result.map_err(|f| answers::failure_for(st, &call, &f));
            let ApiCall::RenderPreview { content } = &call else { return vec![] };
            preview::on_answer(st, content, result)
        }
        (call @ ApiCall::RecentMessages, result) => {
            let result = result.map_err(|f| answers::failure_for(st, &call, &f));
            recent::on_answer(st, result)
        }
        // The channel info popup may be waiting for it; else it is copied.
        (call @ ApiCall::ChannelEmail { .. }, Ok(Answer::Email(email))) => {
            match directory::take_email(st, Ok(email)) {
                Err(Ok(email)) => answers::on_done(st, Job::Api(Box::new(call)), Ok(Answer::Email(email))),
                _ => vec![],
            }
        }
        (call @ ApiCall::ChannelEmail { .. }, Err(f)) => {
            match directory::take_email(st, Err(answers::failure_here(st, &f))) {
                Ok(()) => vec![],
                Err(_) => answers::on_done(st, Job::Api(Box::new(call)), Err(f)),
            }
        }
        (ApiCall::CreateChannel(c), Ok(answer @ Answer::ChannelCreated(id))) => {
            let name = c.name.clone();
            let mut fx = answers::on_done(st, Job::Api(Box::new(ApiCall::CreateChannel(c))), Ok(answer));
            fx.extend(directory::open_created(st, &name, id));
            fx
        }
        (call @ ApiCall::DeleteReminder(id), Ok(answer)) => {
            reminders::deleted(st, id);
            answers::on_done(st, Job::Api(Box::new(call)), Ok(answer))
        }
        (call @ ApiCall::DeleteUpload { id, .. }, Ok(answer)) => {
            uploads::deleted(st, id);
            answers::on_done(st, Job::Api(Box::new(call)), Ok(answer))
        }
        (call, result) => answers::on_done(st, Job::Api(Box::new(call)), result),
    }
}
