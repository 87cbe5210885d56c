//! `topicterm search SEARCH`: the messages matching a search, one line each (or one JSON object
//! each), oldest first — from the account's archive (`crate::archive`: what the client has
//! seen, without the server), or with `--server` from the server.
//!
//! SEARCH is read by the client's own search parser (`app::narrow::parse_search`); against the
//! archive its names are looked up in what the archive has seen, against the server in a
//! register answer, as `tail` does.

use super::common::{Common, EXIT_HELP, Exit, Failure, Out, client, names_and_search};
use super::lines::{Style, json_of, text_line};
use crate::api::{Anchor, Credentials, GetMessages, Message};
use crate::archive::query;

/// Search the messages kept on this machine (or the server's).
#[derive(clap::Args, Debug, Clone)]
#[command(after_help = EXIT_HELP)]
pub struct SearchArgs {
    /// The search, in the client's `/` search syntax: channel:NAME, topic:"a topic",
    /// sender:EMAIL, dm:NAME, dm-with:NAME, is:starred, is:mentioned, is:unread, is:dm,
    /// has:link, has:attachment, has:image, -negated:operators, "quoted phrases" and words (the
    /// last one matches as a prefix; any number of words; quote what the shell would split).
    #[arg(value_name = "SEARCH", required = true)]
    pub search: Vec<String>,
    /// At most this many messages: the newest that match, printed oldest first.
    #[arg(short = 'n', long, value_name = "N", default_value_t = 100)]
    pub limit: u32,
    /// Ask the server instead of the archive kept on this machine.
    #[arg(long)]
    pub server: bool,
    #[command(flatten)]
    pub common: Common,
}

/// `topicterm search`: the same lines and JSON from the archive and the server (both HTML,
/// `script::lines`), dated unless every match is from today.
pub async fn run(args: SearchArgs, creds: anyhow::Result<Credentials>, out: &mut Out) -> Result<(), Failure> {
    let query = args.search.join(" ");
    let (found, empty_topic) = if args.server {
        on_server(creds, &query, args.limit).await?
    } else {
        let creds = creds.map_err(|e| Failure::credentials(&e))?;
        let files = crate::kept::Folders::of_user()
            .ok_or_else(|| Failure::new(Exit::Other, "cannot find your home directory"))?
            .account(&creds.email, &creds.site);
        tokio::task::spawn_blocking(move || {
            // What an older version kept under a name another account could share is moved once.
            for m in files.migrate() {
                tracing::warn!("{m}");
            }
            in_archive(&files.archive, &files.owner, &query, args.limit)
        })
        .await
        .map_err(|e| Failure::new(Exit::Other, format!("the search failed: {e}")))??
    };
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let style = Style::new(&empty_topic, true).for_messages(found.iter(), i64::try_from(now).unwrap_or(0));
    for m in &found {
        let line = if args.common.json { json_of(m, &style) } else { text_line(m, &style) };
        if !out.line(&line) {
            break;
        }
    }
    Ok(())
}

/// Search `owner`'s archive at `path` (one that names another account is not read); the
/// matches and the empty topic's name.
fn in_archive(
    path: &std::path::Path,
    owner: &crate::files::Owner,
    query: &str,
    limit: u32,
) -> Result<(Vec<Message>, String), Failure> {
    let unreadable =
        |e: rusqlite::Error| Failure::new(Exit::Other, format!("the archive cannot be read: {e}"));
    let store = crate::archive::store::open_existing(path, owner).map_err(unreadable)?.ok_or_else(|| {
        Failure::new(
            Exit::Other,
            "no archive of this account on this machine yet: the client keeps one as it runs (history = true); \
             --server asks the server",
        )
    })?;
    let known = query::Known::of(&store).map_err(unreadable)?;
    let terms = query::parse(query, &known).map_err(|e| Failure::search(&e))?;
    // A search the archive cannot answer (`is:` of what it does not keep) is the command
    // line's fault; one it cannot read is not.
    let me = store.me().map_err(unreadable)?.unwrap_or(-1);
    query::translate(&terms, me).map_err(|e| Failure::new(Exit::Usage, e))?;
    let found = query::search(&store, &terms, limit).map_err(|e| Failure::new(Exit::Other, e))?;
    let empty_topic = store.empty_topic_name().map_err(unreadable)?.unwrap_or_else(|| "general chat".into());
    Ok((found.into_iter().map(|f| f.message).collect(), empty_topic))
}

/// Search on the server: its names looked up in a register answer, the newest `limit`
/// matches fetched as HTML (as the archive keeps them); the empty topic's name.
async fn on_server(
    creds: anyhow::Result<Credentials>,
    query: &str,
    limit: u32,
) -> Result<(Vec<Message>, String), Failure> {
    let client = client(creds)?;
    let (data, terms) = names_and_search(&client, query).await?;
    let mut q = GetMessages::around(Anchor::Newest, u64::from(limit.clamp(1, 5000)), 0).narrow(terms);
    q.apply_markdown = Some(true);
    let page = client.get_messages(&q).await.map_err(|e| Failure::api("cannot search the messages", &e))?;
    Ok((page.messages, data.realm.empty_topic_name.clone()))
}
