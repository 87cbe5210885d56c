//! Background work: the dispatcher turns effects into tasks that answer with `Msg`s; the event
//! poller long-polls the queue. Nothing here touches the state.

use crate::api::*;
use crate::app::{Answer, Effect, Failure, Job, Msg, Narrow, SendFailure, Verify};
use crate::archive::Anchored;
use crate::backoff::Backoff;
use std::time::Duration;
use tokio::sync::mpsc::UnboundedSender;
use tokio::task::JoinHandle;

mod backfill;
pub mod cache;
mod calls;
pub mod drafts;
mod effects;
pub mod images;
mod open;
mod patient;
mod poll;
pub use open::{Openers, in_browser};
mod reads;
mod reconcile;
mod silence;

/// Runs effects. The UI task calls `run` and never awaits.
pub struct Dispatcher {
    client: Client,
    tx: UnboundedSender<Msg>,
    /// Writes drafts to disk in the order asked; `None` keeps them in memory only.
    drafts: Option<drafts::Writer>,
    /// The private folder downloaded attachments go to (default: a fresh private folder in
    /// the system's temporary directory for each).
    downloads: Option<std::path::PathBuf>,
    /// Who opens links (`None`: `$BROWSER` as it is at each link, else the system's opener).
    openers: Option<open::Openers>,
    /// The file the last session is kept in (none: not kept).
    cache: cache::Keeper,
    /// The folder pictures are kept in (`None`: fetched every time).
    images: Option<std::path::PathBuf>,
    poller: Option<JoinHandle<()>>,
    /// Says when the server leaves a request unanswered for seconds (`silence`).
    silence: JoinHandle<()>,
    /// Where every message fetched or told of goes, with the events that change them (`None`:
    /// no archive is kept).
    archive: Option<crate::archive::Archive>,
    /// Latest-wins for message fetches of the shown narrow.
    fetches: Vec<(Narrow, bool, JoinHandle<()>)>,
    /// The running `:archive` (`backfill`), ended by the next one or `:archive stop`.
    backfill: Option<JoinHandle<()>>,
    /// The check of the archive against the server (`reconcile`), started anew by each
    /// register.
    reconcile: Option<JoinHandle<()>>,
    /// Messages it asks per page.
    backfill_page: u64,
    /// Register without the optional event types, ping presence only, messages read told in
    /// batches (`--low-bandwidth`).
    low_bandwidth: bool,
    reads: reads::Reads,
}

impl Drop for Dispatcher {
    /// Drafts asked for reach the disk before the process goes.
    fn drop(&mut self) {
        self.silence.abort();
        self.backfill.take().inspect(JoinHandle::abort);
        self.reconcile.take().inspect(JoinHandle::abort);
        // Drafts asked for reach the disk (the writer is joined).
        self.drafts = None;
        // What the archive was sent is written, and the database closed, before the process
        // goes (a bounded wait): SQLite then leaves no `-wal` or `-shm` behind.
        if let Some(a) = self.archive.take() {
            a.close(Duration::from_secs(2));
        }
    }
}

/// Messages fetched on each side of a date anchor.
const PAGE_AROUND: u64 = 50;

/// A finished job's answer.
fn done(job: Job, result: Result<Answer, Failure>) -> Msg {
    Msg::Done { job, result }
}

/// A finished job that brings nothing back but success or an API error.
fn finished<T>(job: Job, result: Result<T, ApiError>) -> Msg {
    done(job, result.map(|_| Answer::Nothing).map_err(Failure::Api))
}

impl Dispatcher {
    pub fn new(client: Client, tx: UnboundedSender<Msg>) -> Self {
        Dispatcher {
            silence: silence::watch(client.clone(), tx.clone()),
            client,
            tx,
            drafts: None,
            cache: cache::Keeper::default(),
            downloads: None,
            openers: None,
            images: None,
            poller: None,
            archive: None,
            fetches: Vec::new(),
            backfill: None,
            reconcile: None,
            backfill_page: backfill::PAGE,
            low_bandwidth: false,
            reads: reads::Reads::default(),
        }
    }

    /// Keep every message seen in the archive at `path` (`crate::archive`), written on a
    /// thread of its own.
    pub fn with_archive(mut self, path: std::path::PathBuf) -> Self {
        let owner = crate::files::Owner::new(self.client.email(), self.client.site());
        self.archive = Some(crate::archive::Archive::start(path, owner));
        self
    }

    /// Spend as few bytes as the work allows (`app::settings::Settings::low_bandwidth`).
    pub fn with_low_bandwidth(mut self, low: bool) -> Self {
        self.low_bandwidth = low;
        self
    }

    /// Ask `:archive`'s pages `n` messages at a time (tests: several pages of a small org).
    pub fn with_backfill_page(mut self, n: u64) -> Self {
        self.backfill_page = n.clamp(1, 5000);
        self
    }

    /// Where this organization's tasks answer: for what the terminal side starts (a
    /// notification's click).
    pub fn answers(&self) -> UnboundedSender<Msg> {
        self.tx.clone()
    }

    /// Keep the last session in this file, and show it at start-up until the server answers.
    pub fn with_cache(mut self, file: std::path::PathBuf) -> Self {
        self.cache = cache::Keeper::new(file);
        self
    }

    /// Wait until what the archive was sent is written, at most `within`; false when it was
    /// not, or there is no archive.
    pub fn flush_archive(&self, within: Duration) -> bool {
        self.archive.as_ref().is_some_and(|a| a.flush(within))
    }

    /// Show the last session (answered by `Msg::Cached`, or not at all): the reading started
    /// early, or else the file read now.
    pub fn load_cache(&self, early: Option<&cache::Early>) {
        let tx = self.tx.clone();
        if let Some(reading) = early.and_then(cache::Early::take) {
            tokio::spawn(async move {
                match reading.await {
                    Ok(Ok(snapshot)) => drop(tx.send(Msg::Cached(Box::new(snapshot)))),
                    Ok(Err(why)) => tracing::info!("no last session shown: {why}"),
                    Err(_) => tracing::warn!("the last session could not be read"),
                }
            });
            return;
        }
        let Some(path) = self.cache.path() else { return };
        let (site, email) = (self.client.site().to_owned(), self.client.email().to_owned());
        tokio::task::spawn_blocking(move || match cache::load(&path, &site, &email) {
            Ok(snapshot) => drop(tx.send(Msg::Cached(Box::new(snapshot)))),
            Err(why) => tracing::info!("no last session shown: {why}"),
        });
    }

    /// Write the session now, before the process goes (the user quit).
    pub fn save_cache_now(&self, snapshot: &crate::app::session::Snapshot) {
        self.cache.keep(self.client.site(), self.client.email(), snapshot);
    }

    /// Keep `owner`'s drafts in this directory, and load the ones of theirs already there.
    pub fn with_drafts(mut self, dir: std::path::PathBuf, owner: crate::files::Owner) -> Self {
        self.drafts = Some(drafts::Writer::start(dir, owner, self.tx.clone()));
        self
    }

    /// Keep fetched pictures in this folder (pruned to `images::DISK_LIMIT`).
    pub fn with_images(mut self, dir: std::path::PathBuf) -> Self {
        self.images = Some(dir);
        self
    }

    /// Save downloaded attachments in this folder (made private: mode 0700).
    pub fn with_downloads(mut self, dir: std::path::PathBuf) -> Self {
        self.downloads = Some(dir);
        self
    }

    /// Open links with these programs instead of `$BROWSER` and the system's opener.
    pub fn with_openers(mut self, openers: open::Openers) -> Self {
        self.openers = Some(openers);
        self
    }

    /// Stop polling and delete the event queue (waiting at most two seconds for the server).
    pub async fn shutdown(&mut self, queue_id: Option<&str>) {
        if let Some(p) = self.poller.take() {
            p.abort();
        }
        self.reconcile.take().inspect(JoinHandle::abort);
        self.reads.flush(&self.client).await;
        if let Some(q) = queue_id {
            match tokio::time::timeout(Duration::from_secs(2), self.client.delete_queue(q)).await {
                Ok(Ok(_)) => tracing::debug!("event queue {q} deleted"),
                Ok(Err(e)) => tracing::debug!("event queue not deleted: {e}"),
                Err(_) => tracing::debug!("event queue not deleted: no answer in 2 s"),
            }
        }
    }

    /// Spawn a task that sends one `Msg` when `fut` completes.
    fn spawn<F>(&self, fut: F)
    where
        F: std::future::Future<Output = Msg> + Send + 'static,
    {
        let tx = self.tx.clone();
        tokio::spawn(async move {
            let _ = tx.send(fut.await);
        });
    }

    /// Start an effect. Returns false for `Quit`. One line an effect, but for register and
    /// the pages of messages; the longer ones are `Dispatcher` methods in `effects.rs`.
    pub fn run(&mut self, effect: Effect) -> bool {
        let c = self.client.clone();
        let low_bandwidth = self.low_bandwidth;
        match effect {
            Effect::Quit => return false,
            Effect::FetchImage { src } => self.fetch_image(src),
            Effect::Register => {
                if let Some(p) = self.poller.take() {
                    p.abort();
                }
                let archive = self.archive.clone();
                let low = self.low_bandwidth;
                let params = if low { lean_register_params() } else { register_params() };
                // What the archive keeps is checked against the server once it answers: while
                // the client was closed or its queue gone, nothing told of what changed.
                self.reconcile.take().inspect(JoinHandle::abort);
                let (answered, registered) = tokio::sync::oneshot::channel();
                if let Some(a) = self.archive.clone() {
                    let (c, tx) = (c.clone(), self.tx.clone());
                    self.reconcile = Some(tokio::spawn(reconcile::run(c, a, registered, tx)));
                }
                self.spawn(async move {
                    tracing::debug!(target: "topicterm::start", "register asked");
                    let registered =
                        if low { register_lean(&c, &params).await } else { c.register_whole(&params).await };
                    match registered {
                        Ok(r) => {
                            if let Some(a) = &archive {
                                a.registered(&r);
                            }
                            let _ = answered.send(());
                            Msg::Registered(Box::new(r))
                        }
                        Err(e) if e.is_auth() => Msg::AuthLost(e),
                        Err(e) => {
                            tracing::warn!("register failed: {e}");
                            Msg::RegisterFailed(e)
                        }
                    }
                });
            }
            Effect::FetchMessages { narrow, terms, anchor, before, after, older, epoch } => {
                self.fetches.retain(|(_, _, h)| !h.is_finished());
                let tx = self.tx.clone();
                let n = narrow.clone();
                let archive = self.archive.clone();
                let handle = tokio::spawn(async move {
                    let mut q = GetMessages::around(anchor, before, after).narrow(terms);
                    q.apply_markdown = Some(true);
                    q.client_gravatar = Some(true);
                    let asked = std::time::Instant::now();
                    let msg = match c.get_messages(&q).await {
                        Ok(resp) => {
                            archive.inspect(|a| a.page(&q.narrow, &Anchored::of(&q), &resp, asked));
                            Msg::Messages { narrow: n, resp: Box::new(resp), older, epoch }
                        }
                        Err(error) => Msg::MessagesFailed { narrow: n, error, older, epoch },
                    };
                    let _ = tx.send(msg);
                });
                self.fetches.push((narrow, older, handle));
            }
            Effect::SearchArchive { narrow, terms, limit, epoch } => {
                self.search_archive(narrow, terms, limit, epoch)
            }
            Effect::Backfill(targets) => self.backfill(targets),
            Effect::BackfillStop => drop(self.backfill.take().inspect(JoinHandle::abort)),
            Effect::LoadCache => self.load_cache(None),
            Effect::ReadUsers { epoch, roster } => self.read_users(epoch, roster),
            Effect::SaveCache(snapshot) => self.save_cache(snapshot),
            Effect::SaveDraft { key, text } => self.save_draft(key, text),
            Effect::JumpToDate { narrow, terms, date, epoch } => {
                self.jump_to_date(narrow, terms, date, epoch)
            }
            Effect::FetchTopics(channel) => self.fetch_topics(channel),
            // The main loop runs these on the terminal; elsewhere (whole-app tests) they go nowhere.
            Effect::Term(_) => {}
            Effect::OpenUrl { url, download } => self.open_url(url, download),
            Effect::Upload { path, target, max_bytes } => self.upload(path, target, max_bytes),
            Effect::ListFolder(dir) => self.list_folder(dir),
            Effect::DumpState { path, contents } => self.dump_state(path, contents),
            Effect::PushDraft { key, id, draft } => self.push_draft(key, id, draft),
            Effect::DeleteServerDraft(id) => self.delete_server_draft(id),
            Effect::Send { local_id, message, verify } => self.send(local_id, message, verify),
            Effect::Edit { message_id, content } => self.edit(message_id, content),
            Effect::EditTyping { message_id, start } => self.edit_typing(message_id, start),
            Effect::SetPolicy { channel, topic, policy } => self.set_policy(channel, topic, policy),
            // Flag changes are idempotent: through a flaky network they are retried until the
            // server has them, so what the client shows as read is read on the server too.
            Effect::MarkRead(ids) if low_bandwidth => self.mark_read_batched(ids),
            Effect::MarkRead(ids) => self.mark_read(ids),
            Effect::Star { id, add } => self.star(id, add),
            Effect::HidePreviews { id, hide } => self.hide_previews(id, hide),
            Effect::MarkTopicRead { channel, topic } => self.mark_topic_read(channel, topic),
            Effect::CountTopic { channel, topic } => self.count_topic(channel, topic),
            Effect::DeleteTopic { channel, topic, name } => self.delete_topic(channel, topic, name),
            Effect::MarkUnreadFrom { terms, anchor } => self.mark_unread_from(terms, anchor),
            Effect::MarkChannelRead { channel, name } => self.mark_channel_read(channel, name),
            Effect::Typing { to, start } => self.typing(to, start),
            Effect::Forget => self.forget(),
            Effect::MarkAllRead => self.mark_all_read(),
            Effect::SetChannelMuted { channel, name, muted } => self.set_channel_muted(channel, name, muted),
            Effect::React { message_id, emoji, add } => self.react(message_id, emoji, add),
            Effect::FetchReadReceipts(message_id) => self.read_receipts(message_id),
            Effect::FetchHistory(message_id) => self.history(message_id),
            Effect::FetchRaw { message_id, edit } => self.fetch_raw(message_id, edit),
            Effect::Api(call) => self.spawn(async move { calls::run_api(&c, call).await }),
            Effect::Ping { active, last_update_id } => self.ping(active, last_update_id),
            Effect::PollEvents { queue_id, last_event_id, timeout_secs } => {
                self.poll_events(poll::Queue { id: queue_id, last_event_id, timeout_secs })
            }
        }
        true
    }
}

/// Upload a file, telling the app how far it got (about every 5%) while it goes.
async fn upload(
    c: &Client,
    path: &str,
    max_bytes: Option<u64>,
    tx: &tokio::sync::mpsc::UnboundedSender<Msg>,
) -> Result<Answer, Failure> {
    let path = crate::files::expand_home(path);
    let read = |error| Failure::Read { path: path.clone(), error };
    let meta = tokio::fs::metadata(&path).await.map_err(read)?;
    if meta.is_dir() {
        return Err(read(std::io::Error::from(std::io::ErrorKind::IsADirectory)));
    }
    let size = meta.len();
    if let Some(max) = max_bytes.filter(|max| size > *max) {
        return Err(Failure::TooLarge { path, size, max });
    }
    let file = tokio::fs::File::open(&path).await.map_err(read)?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "file".into());
    let step = (size / 20).max(256 << 10);
    let (progress, shown) = (tx.clone(), name.clone());
    let chunks = futures_util::stream::unfold((file, 0u64, 0u64), move |(mut file, sent, told)| {
        let progress = progress.clone();
        let name = shown.clone();
        async move {
            use tokio::io::AsyncReadExt;
            let mut buf = vec![0u8; 64 << 10];
            match file.read(&mut buf).await {
                Ok(0) => None,
                Ok(n) => {
                    buf.truncate(n);
                    let sent = sent + n as u64;
                    let told = if sent - told >= step && sent < size {
                        let _ = progress.send(Msg::UploadProgress { name, sent, total: size });
                        sent
                    } else {
                        told
                    };
                    Some((Ok::<_, std::io::Error>(buf), (file, sent, told)))
                }
                Err(e) => Some((Err(e), (file, sent, told))),
            }
        }
    });
    let r = c.upload_file(&name, size, reqwest::Body::wrap_stream(chunks)).await?;
    Ok(Answer::Uploaded { name, url: r.url })
}

/// Run an idempotent request until it succeeds, backing off (with jitter) through network and
/// server faults for up to about ten minutes; refusals end it at once.
async fn with_retries<T, F, Fut>(mut call: F) -> Result<T, ApiError>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, ApiError>>,
{
    let mut attempt = 0;
    let mut waited = Duration::ZERO;
    loop {
        match call().await {
            Ok(v) => return Ok(v),
            Err(e) if e.is_transient() && waited < Duration::from_secs(600) => {
                attempt += 1;
                let wait = Backoff::NETWORK.delay(attempt, rand::random());
                tracing::debug!("retrying in {wait:?}: {e}");
                tokio::time::sleep(wait).await;
                waited += wait;
            }
            Err(e) => return Err(e),
        }
    }
}

/// Mark every message of a narrow read, in batches (the server takes at most 5,000 a call: go
/// on from the last one done), retrying through faults.
async fn mark_read_in(c: &Client, narrow: &[NarrowTerm]) -> Result<(), ApiError> {
    flag_narrow(c, narrow, Anchor::Oldest, true).await
}

/// Mark a narrow's messages from `anchor` on read (`add`) or unread, 5,000 at a time.
async fn flag_narrow(
    c: &Client,
    narrow: &[NarrowTerm],
    mut anchor: Anchor,
    add: bool,
) -> Result<(), ApiError> {
    loop {
        match with_retries(|| c.update_message_flags_for_narrow(&anchor, 0, 5000, narrow, add, Flag::Read))
            .await?
        {
            r if !r.found_newest && r.last_processed_id.is_some() => {
                anchor = Anchor::Id(r.last_processed_id.unwrap_or_default());
            }
            _ => return Ok(()),
        }
    }
}

/// Update a server draft (making it again if it was deleted elsewhere meanwhile) or create one.
async fn push_draft(c: &Client, id: Option<i64>, draft: &Draft) -> Result<i64, ApiError> {
    if let Some(id) = id {
        match c.edit_draft(id, draft).await {
            Ok(_) => return Ok(id),
            Err(e) if e.server().is_some_and(|s| s.status == 404) => {}
            Err(e) => return Err(e),
        }
    }
    let ids = c.create_drafts(std::slice::from_ref(draft)).await?;
    ids.first()
        .copied()
        .ok_or_else(|| ApiError::Decode { status: 200, message: "no draft ID returned".into() })
}

/// Classify a failed send: network and server faults are retried; refusals are final.
/// `checking`: the failure came from looking for an earlier attempt, which must be done again.
fn send_failure(e: ApiError, checking: bool) -> SendFailure {
    let (retry, maybe_sent) = (e.is_transient(), e.may_have_arrived());
    if checking && !retry {
        // The search was refused (e.g. the conversation became inaccessible): send, and let
        // the server say what is wrong with the message itself.
        return SendFailure { error: e, retry: true, maybe_sent: false, unsearchable: true };
    }
    SendFailure { error: e, retry, maybe_sent: maybe_sent || checking, unsearchable: false }
}

/// An earlier attempt of this send that reached the server: our newest messages in the
/// conversation with the same Markdown, newer than the send and not matched to another send.
async fn find_earlier_send(c: &Client, content: &str, v: &Verify) -> Result<Option<MessageId>, ApiError> {
    let mut q = GetMessages::around(Anchor::Newest, 20, 0).narrow(v.terms.clone());
    q.apply_markdown = Some(false);
    let resp = c.get_messages(&q).await?;
    Ok(resp
        .messages
        .iter()
        .filter(|m| m.id > v.after_id && !v.skip.contains(&m.id))
        .find(|m| stored_form(&m.content) == stored_form(content))
        .map(|m| m.id))
}

/// Markdown as a server stores it: trailing whitespace and leading blank lines removed.
fn stored_form(content: &str) -> &str {
    content.trim_end().trim_start_matches(['\n', '\r'])
}

/// What the client registers for.
pub fn register_params() -> RegisterParams {
    RegisterParams {
        apply_markdown: Some(true),
        client_gravatar: Some(true),
        include_subscribers: Some(IncludeSubscribers::False),
        slim_presence: Some(true),
        client_capabilities: Some(serde_json::json!({
            "notification_settings_null": true,
            "bulk_message_deletion": true,
            "user_avatar_url_field_optional": true,
            "stream_typing_notifications": true,
            "user_settings_object": true,
            "empty_topic_name": true,
            "simplified_presence_events": true,
        })),
        event_types: Some(EVENT_TYPES.iter().map(|s| s.to_string()).collect()),
        fetch_event_types: Some(FETCH_TYPES.iter().map(|s| s.to_string()).collect()),
        idle_queue_timeout: Some(IDLE_QUEUE_SECS),
        ..Default::default()
    }
}

/// What the client registers for with `--low-bandwidth`: none of the optional event types
/// (others' presence, typing, statuses), neither as events nor in the answer; and an answer
/// without the users and the user groups (`LISTS_NOT_FETCHED`), whose events still come (the
/// reference server's queue follows `event_types`, its answer `fetch_event_types`).
pub fn lean_register_params() -> RegisterParams {
    let mut p = register_params();
    let keep = |t: &&&str| !OPTIONAL_TYPES.contains(*t);
    let fetch = |t: &&&str| keep(t) && !LISTS_NOT_FETCHED.contains(*t);
    p.event_types = Some(EVENT_TYPES.iter().filter(keep).map(|s| s.to_string()).collect());
    p.fetch_event_types = Some(FETCH_TYPES.iter().filter(fetch).map(|s| s.to_string()).collect());
    p
}

/// The event types a low-bandwidth client does without.
pub const OPTIONAL_TYPES: &[&str] = &["presence", "typing", "typing_edit_message", "user_status"];

/// What a low-bandwidth register answer leaves out: the users and the user groups (in a large
/// organization most of its bytes), read when needed (`app::update::people_list`).
pub const LISTS_NOT_FETCHED: &[&str] = &["realm_user", "realm_user_groups"];

/// A low-bandwidth register: without `realm_user` the answer says nothing of the user
/// themself (their ID, name, email, role), so `GET /users/me` (one user) is asked alongside
/// and its answer put where register's would be.
async fn register_lean(c: &Client, params: &RegisterParams) -> Result<RegisterResponse, ApiError> {
    let (registered, me) = tokio::join!(c.register_whole(params), c.get_own_user());
    let (mut r, me) = (registered?, me?);
    r.user_id = Some(me.user_id);
    r.email = Some(me.email);
    r.full_name = Some(me.full_name);
    r.is_admin = Some(me.is_admin);
    r.is_owner = Some(me.is_owner);
    r.is_guest = Some(me.is_guest);
    r.role = me.role.or(r.role);
    Ok(r)
}

/// How long the server is asked to keep the queue without a poll (level 481): an hour, so a
/// laptop closed over lunch comes back to its queue and the events it missed, not to a new
/// register (the default is 10 minutes).
pub const IDLE_QUEUE_SECS: u64 = 3600;

/// The events the screens apply: every type the decoder knows (`heartbeat` always comes).
pub const EVENT_TYPES: &[&str] = REGISTERED_EVENT_TYPES;

/// The state the register answer carries (legacy `muted_topics` for servers before 170).
pub const FETCH_TYPES: &[&str] = &[
    "message",
    "update_message_flags",
    "realm",
    "realm_user",
    "realm_emoji",
    "realm_user_groups",
    "subscription",
    "user_topic",
    "muted_topics",
    "presence",
    "user_status",
    "scheduled_messages",
    "navigation_views",
    "recent_private_conversations",
    "realm_playgrounds",
    "drafts",
    "user_settings",
    "muted_users",
    "alert_words",
    "custom_profile_fields",
    "channel_folders",
    "reminders",
    "saved_snippets",
];
