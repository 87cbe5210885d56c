//! One organization open in the window ([`Open`]): how it is opened ([`Organization`],
//! [`start_org`]), closed when the server refuses its account ([`close`]) and opened anew
//! ([`reopen`]). Knows nothing of the terminal's input or of the loop's turn; start at
//! [`start_org`].

use crate::api::Client;
use crate::app::{self, Effect, Msg, State};
use crate::net::Dispatcher;
use crate::ui::{self, RenderCache};
use std::time::Duration;
use tokio::sync::mpsc;

/// Current UNIX time.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// One organization to open: its client, and where its drafts and last session are kept.
#[derive(Clone)]
pub struct Organization {
    /// The account's name (`topicterm accounts`): shown when several are open.
    pub name: String,
    pub client: Client,
    /// Whose files these are: the drafts are named for it (`files::Owner`; the demo
    /// organization's site is `demo`).
    pub owner: crate::files::Owner,
    pub drafts_dir: Option<std::path::PathBuf>,
    pub cache_file: Option<std::path::PathBuf>,
    /// The last session, being read since before the client was made (else it is read when the
    /// organization opens).
    pub kept: Option<crate::net::cache::Early>,
    /// Where fetched pictures are kept (pruned to `net::images::DISK_LIMIT`).
    pub images_dir: Option<std::path::PathBuf>,
    /// The private folder attachments are downloaded to (`None`: a fresh private folder in
    /// the temporary directory for each).
    pub downloads_dir: Option<std::path::PathBuf>,
    /// The account's archive (`crate::archive`; `None`: history is not kept).
    pub archive_file: Option<std::path::PathBuf>,
    /// Where the credentials come from: what the user is told to fix when the server refuses
    /// them.
    pub account: app::orgs::AccountSource,
    /// Reads the credentials again, to reopen the organization once the user has fixed them
    /// (`None`: they cannot be read again).
    pub reread: Option<Reread>,
}

/// Reads an organization's credentials again (the account store, a zuliprc).
pub type Reread = std::sync::Arc<dyn Fn() -> anyhow::Result<crate::api::Credentials> + Send + Sync>;

impl Organization {
    /// An organization with nothing kept on disk, named after its server.
    pub fn new(client: Client) -> Organization {
        let name = crate::urls::host_of(client.site());
        let owner = crate::files::Owner::new(client.email(), client.site());
        Organization {
            name,
            client,
            owner,
            drafts_dir: None,
            cache_file: None,
            kept: None,
            images_dir: None,
            downloads_dir: None,
            archive_file: None,
            account: app::orgs::AccountSource::Given,
            reread: None,
        }
    }
}

/// How pictures are drawn, as the main loop is given it.
pub enum GraphicsSource {
    /// Known from the start (tests; `images = "off"` or `"halfblocks"`).
    Known(ui::Graphics),
    /// Asked of the terminal (which answers within a second) once the first frame that shows
    /// the organization is drawn, or [`ASK_GRAPHICS_BY`] after the loop starts, whichever is
    /// first: the question holds the terminal to itself, and the first frame does not wait
    /// for it. Until then pictures are not drawn ([`ui::Graphics::unknown`]).
    Ask(Box<dyn FnOnce() -> ui::Graphics + Send>),
}

impl From<ui::Graphics> for GraphicsSource {
    fn from(graphics: ui::Graphics) -> Self {
        GraphicsSource::Known(graphics)
    }
}

/// The latest the terminal's graphics are asked, while the first screen is still loading.
pub const ASK_GRAPHICS_BY: Duration = Duration::from_millis(200);

/// The messages every organization holds.
pub(super) fn held(open: &[Open]) -> usize {
    open.iter().map(|o| o.st.data.messages.len()).sum()
}

/// An organization open in the window: its state, its own network tasks and event queue, and
/// what its last frame laid out.
pub(super) struct Open {
    /// How it was opened, to open it again.
    pub(super) org: Organization,
    pub(super) st: State,
    pub(super) dispatcher: Dispatcher,
    pub(super) cache: RenderCache,
    /// Its row as the others last showed it; worked out again at most once a second.
    pub(super) stale: bool,
    /// Stopped: the server refused the account. Its screen says how to reopen it.
    pub(super) closed: bool,
    /// Which opening this is: answers of the tasks of an earlier one are dropped.
    pub(super) generation: u64,
    /// Effects held until the next frame is drawn: reading the users (tens of milliseconds of
    /// a processor) does not share one with the first screen of the answer that asked for it.
    pub(super) after_frame: Vec<Effect>,
    /// Its first screen (not the loading one) is drawn.
    pub(super) shown: bool,
}

/// Where every organization's tasks answer: its index and generation with each message.
pub(super) type Answers = mpsc::UnboundedSender<(usize, u64, Msg)>;

/// Open organization `i` (again, as `generation`): its tasks answer through `tx`; the last
/// session is read while the server is asked.
pub(super) fn start_org(
    i: usize,
    org: Organization,
    generation: u64,
    tx: &Answers,
    settings: &app::settings::Settings,
    graphics: &ui::Graphics,
) -> Open {
    // Its tasks answer on a channel of their own, forwarded with its index and generation.
    let (org_tx, mut org_rx) = mpsc::unbounded_channel::<Msg>();
    let all = tx.clone();
    tokio::spawn(async move {
        while let Some(m) = org_rx.recv().await {
            if all.send((i, generation, m)).is_err() {
                break;
            }
        }
    });
    let client = org.client.clone();
    let mut dispatcher = Dispatcher::new(client.clone(), org_tx);
    if let Some(dir) = org.drafts_dir.clone() {
        dispatcher = dispatcher.with_drafts(dir, org.owner.clone());
    }
    if let Some(dir) = org.images_dir.clone() {
        dispatcher = dispatcher.with_images(dir);
    }
    if let Some(dir) = org.downloads_dir.clone() {
        dispatcher = dispatcher.with_downloads(dir);
    }
    if let Some(file) = org.archive_file.clone() {
        dispatcher = dispatcher.with_archive(file);
    }
    dispatcher = dispatcher.with_low_bandwidth(settings.low_bandwidth);
    let mut st = State {
        now: now(),
        site: client.site().to_owned(),
        insecure: client.insecure(),
        keep_session: org.cache_file.is_some(),
        account: org.account.clone(),
        ..Default::default()
    };
    st.ui.people.show(settings.show_people);
    st.settings = settings.clone();
    st.ui.conn.connecting();
    // The last session is read while the server is asked: whichever comes first is drawn.
    if let Some(file) = org.cache_file.clone() {
        dispatcher = dispatcher.with_cache(file);
        dispatcher.load_cache(org.kept.as_ref());
    }
    // Register, and the first page with it.
    for effect in app::start(&mut st) {
        dispatcher.run(effect);
    }
    let mut cache = RenderCache::default();
    cache.pictures.graphics = graphics.clone();
    Open {
        org,
        st,
        dispatcher,
        cache,
        stale: true,
        closed: false,
        generation,
        after_frame: Vec::new(),
        shown: false,
    }
}

/// Close organization `i` (the server refused its account): its tasks stop. If it was on
/// screen and another is still open, that one takes its place and says so; alone, it stays on
/// screen, saying how to reopen it.
pub(super) async fn close(open: &mut [Open], i: usize, active: &mut usize) {
    open[i].closed = true;
    open[i].stale = true;
    open[i].dispatcher.shutdown(None).await;
    let name = open[i].org.name.clone();
    let why = open[i].st.ui.conn.fatal().map(str::to_owned).unwrap_or_default();
    if *active == i
        && let Some(next) = (1..open.len()).map(|k| (i + k) % open.len()).find(|&k| !open[k].closed)
    {
        *active = next;
    }
    tracing::warn!("{name} is closed: {why}");
    if *active != i {
        app::update(&mut open[*active].st, Msg::OrganizationClosed { name, why });
    }
}

/// Reopen closed organization `i`: its credentials read again (the user has logged in again
/// meanwhile) and the organization opened anew, as at start; or, when they cannot be read,
/// why not, on its screen.
pub(super) async fn reopen(
    open: &mut [Open],
    i: usize,
    tx: &Answers,
    settings: &app::settings::Settings,
    graphics: &ui::Graphics,
) {
    let read = match open[i].org.reread.clone() {
        Some(read) => tokio::task::spawn_blocking(move || read())
            .await
            .unwrap_or_else(|e| Err(anyhow::anyhow!("{e}")))
            .and_then(|creds| Client::new(&creds).map_err(anyhow::Error::from)),
        None => Err(anyhow::anyhow!("this organization's credentials cannot be read again")),
    };
    match read {
        Ok(client) => {
            tracing::info!("reopening {}", open[i].org.name);
            let org = Organization { client, ..open[i].org.clone() };
            let orgs = open[i].st.ui.orgs.clone();
            open[i] = start_org(i, org, open[i].generation + 1, tx, settings, graphics);
            open[i].st.ui.orgs = orgs;
        }
        Err(e) => {
            tracing::warn!("{} not reopened: {e:#}", open[i].org.name);
            app::update(&mut open[i].st, Msg::ReopenFailed(format!("{e:#}")));
        }
    }
}
