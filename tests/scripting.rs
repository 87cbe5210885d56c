//! The scripting subcommands (`send`, `tail`, `unread`): the real binary against the demo
//! server over loopback, with what it did read back through the API. Waits are on the
//! binary's output (each bounded, so a failure fails rather than hangs), never fixed sleeps.

#[path = "support/rewriter.rs"]
mod rewriter;

use rewriter::{Reply, Rewriter};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, Command};
use topicterm::api::{Anchor, Client, GetMessages, Message, NarrowTerm, OutgoingMessage};
use topicterm::server::{DemoServer, ServerOptions};

/// The longest any one wait may take before the test fails.
const BOUND: Duration = Duration::from_secs(60);

struct Env {
    server: DemoServer,
    dir: tempfile::TempDir,
}

async fn env() -> Env {
    let server = DemoServer::start(ServerOptions::default()).await.expect("demo server");
    let dir = tempfile::tempdir().unwrap();
    server.write_zuliprcs(&dir.path().join("rc")).unwrap();
    Env { server, dir }
}

/// What a finished run gave: status, standard output, standard error.
struct Ran {
    code: i32,
    out: String,
    err: String,
}

impl Env {
    fn rc(&self, who: &str) -> PathBuf {
        self.dir.path().join("rc").join(format!("{who}.zuliprc"))
    }

    /// A zuliprc of `who` on another site (a proxy, or nothing at all).
    fn rc_at(&self, who: &str, site: &str) -> PathBuf {
        let mut c = self.server.credentials(who).unwrap();
        c.site = site.to_owned();
        let path = self.dir.path().join(format!("{who}-elsewhere.zuliprc"));
        topicterm::api::zuliprc::write(&path, &c).unwrap();
        path
    }

    fn client(&self, who: &str) -> Client {
        Client::new(&self.server.credentials(who).unwrap()).unwrap()
    }

    /// The binary, its home and config in the test's folder (no accounts, no ~/.zuliprc).
    fn command(&self, args: &[&str]) -> Command {
        let home = self.dir.path().join("home");
        let mut c = Command::new(env!("CARGO_BIN_EXE_topicterm"));
        c.args(args)
            .env("HOME", &home)
            .env("XDG_CONFIG_HOME", home.join("config"))
            .env("XDG_STATE_HOME", home.join("state"))
            .env("XDG_CACHE_HOME", home.join("cache"))
            .env("XDG_DATA_HOME", home.join("data"))
            .kill_on_drop(true);
        c
    }

    async fn run(&self, args: &[&str], stdin: Option<&str>) -> Ran {
        let mut cmd = self.command(args);
        cmd.stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().expect("runs");
        if let Some(text) = stdin {
            let mut input = child.stdin.take().unwrap();
            input.write_all(text.as_bytes()).await.unwrap();
            drop(input);
        }
        let out = tokio::time::timeout(BOUND, child.wait_with_output()).await.expect("ends").unwrap();
        Ran {
            code: out.status.code().unwrap_or(-1),
            out: String::from_utf8_lossy(&out.stdout).into_owned(),
            err: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }

    /// The newest messages matching `terms`, as the server has them (raw Markdown).
    async fn newest(&self, terms: Vec<NarrowTerm>, n: u64) -> Vec<Message> {
        let mut q = GetMessages::around(Anchor::Newest, n, 0).narrow(terms);
        q.apply_markdown = Some(false);
        self.client("member").get_messages(&q).await.unwrap().messages
    }
}

fn channel(name: &str) -> NarrowTerm {
    NarrowTerm::new("channel", name)
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The recipients of a direct message, by email, sorted.
fn dm_emails(m: &Message) -> Vec<String> {
    let v = serde_json::to_value(&m.display_recipient).unwrap();
    let mut emails: Vec<String> =
        v.as_array().unwrap().iter().map(|u| u["email"].as_str().unwrap().to_owned()).collect();
    emails.sort();
    emails
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn send_to_a_channel_and_to_people_with_the_text_from_args_or_stdin() {
    let env = env().await;
    let rc = env.rc("member");
    let member = env.server.credentials("member").unwrap().email;
    let alice = env.server.credentials("alice").unwrap().email;
    let bob = env.server.credentials("bob").unwrap().email;

    // A channel whose topic holds a '>': split at the first one.
    let r = env.run(&["send", "-c", path(&rc), "#general>scripts > cron", "hello **there**"], None).await;
    assert_eq!((r.code, r.err.as_str()), (0, ""), "{}", r.out);
    let id: i64 = r.out.trim().parse().expect("the ID");
    let got = env.newest(vec![channel("general"), NarrowTerm::new("topic", "scripts > cron")], 1).await;
    assert_eq!(got.len(), 1);
    assert_eq!(
        (got[0].id, got[0].content.as_str(), got[0].sender_email.as_str()),
        (id, "hello **there**", &*member)
    );

    // From standard input, to a person by full name; the top-level -c is taken too.
    let r = env.run(&["-c", path(&rc), "send", "@Alice Okafor"], Some("from stdin\nsecond line\n")).await;
    assert_eq!(r.code, 0, "{}", r.err);
    let id: i64 = r.out.trim().parse().unwrap();
    let got = env.newest(vec![NarrowTerm::new("dm-including", alice.as_str())], 1).await;
    assert_eq!(got[0].id, id);
    assert_eq!(got[0].content, "from stdin\nsecond line");
    assert_eq!(dm_emails(&got[0]), {
        let mut v = vec![alice.clone(), member.clone()];
        v.sort();
        v
    });

    // Several people, by full name and by email; --json.
    let r = env
        .run(&["send", "--json", "-c", path(&rc), &format!("@Alice Okafor,@{bob}"), "group news"], None)
        .await;
    assert_eq!(r.code, 0, "{}", r.err);
    let v: Value = serde_json::from_str(r.out.trim()).expect("JSON");
    assert_eq!(v["result"], "success");
    let id = v["id"].as_i64().unwrap();
    let got = env.newest(vec![NarrowTerm::new("dm-including", serde_json::json!(bob))], 1).await;
    assert_eq!((got[0].id, got[0].content.as_str()), (id, "group news"));
    assert_eq!(dm_emails(&got[0]), {
        let mut v = vec![alice, bob, member];
        v.sort();
        v
    });

    // The server's link to the message (level 508), as it gives it.
    let r = env.run(&["send", "--json", "-c", path(&rc), "#general>links", "linked"], None).await;
    let v: Value = serde_json::from_str(r.out.trim()).expect("JSON");
    let id = v["id"].as_i64().unwrap();
    let general = env.server.shared.lock().channel_named("general").map(|c| c.id).unwrap();
    assert_eq!(
        v["message_url"],
        format!("{}/#narrow/channel/{general}-general/topic/links/near/{id}", env.server.url)
    );
    assert_eq!(v["message_link"], format!("#**general>links@{id}**"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_target_is_said_with_its_status_and_nothing_is_sent() {
    let env = env().await;
    let rc = env.rc("member");
    let before = env.newest(vec![], 1).await[0].id;
    for (target, code, says) in [
        ("@Nobody Atall", 5, "no one is named \"Nobody Atall\""),
        ("@D", 5, "no one is named \"D\"; did you mean Dave Kowalski ("),
        // Neither a prefix nor an email's local part picks a recipient.
        ("@alice", 5, "no one is named \"alice\"; did you mean Alice Okafor ("),
        ("#no such channel>x", 5, "no channel named #no such channel"),
        ("#general", 2, "a channel message needs a topic"),
        ("general>x", 2, "is not a target"),
    ] {
        let r = env.run(&["send", "-c", path(&rc), target, "never sent"], None).await;
        assert_eq!(r.code, code, "{target}: {}", r.err);
        assert!(r.err.starts_with("topicterm send: ") && r.err.contains(says), "{target}: {}", r.err);
        assert_eq!(r.err.lines().count(), 1, "one line: {}", r.err);
        assert!(r.out.is_empty() && !r.err.contains("panicked"), "{}", r.out);
    }
    // An empty message is a usage error; --json says it on standard output too.
    let r = env.run(&["send", "--json", "-c", path(&rc), "#general>x"], Some("  \n")).await;
    assert_eq!(r.code, 2, "{}", r.err);
    let v: Value = serde_json::from_str(r.out.trim()).unwrap();
    assert_eq!((v["result"].as_str(), v["code"].as_i64()), (Some("error"), Some(2)));
    assert_eq!(env.newest(vec![], 1).await[0].id, before, "nothing was sent");
    // No account at all (an empty home): status 3, and what to do.
    let r = env.run(&["send", "#general>x", "hi"], None).await;
    assert_eq!(r.code, 3, "{}", r.err);
    assert!(r.err.contains("topicterm login"), "{}", r.err);
}

/// `who` asks for a new full name, as any member may: the server's status.
async fn rename(env: &Env, who: &str, name: &str) -> u16 {
    let c = env.server.credentials(who).unwrap();
    let r = reqwest::Client::new()
        .patch(format!("{}/api/v1/settings", env.server.url))
        .basic_auth(&c.email, Some(&c.api_key))
        .form(&[("full_name", name)])
        .send()
        .await
        .unwrap();
    r.status().as_u16()
}

/// Issue 51, item 5: a full name with a comma is a recipient, bare or quoted; a text that is
/// both one person's name and a list of others is refused (status 5) and nothing is sent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn send_takes_a_full_name_with_a_comma() {
    let env = env().await;
    let rc = env.rc("member");
    let alice = env.server.credentials("alice").unwrap().email;
    let bob = env.server.credentials("bob").unwrap().email;
    assert_eq!(rename(&env, "alice", "Othello, the Moor of Venice").await, 200);
    for target in [
        "@Othello, the Moor of Venice".to_owned(),
        "@\"Othello, the Moor of Venice\"".to_owned(),
        "@othello, the moor of venice, @Bob Nakamura".to_owned(),
    ] {
        let r = env.run(&["send", "-c", path(&rc), &target, "hi"], None).await;
        assert_eq!(r.code, 0, "{target}: {}", r.err);
        let got = env.newest(vec![NarrowTerm::new("dm-including", serde_json::json!(alice))], 1).await;
        assert_eq!(got[0].id, r.out.trim().parse::<i64>().unwrap(), "{target}");
        assert_eq!(dm_emails(&got[0]).contains(&bob), target.contains("Bob"), "{target}");
    }
    assert_eq!(rename(&env, "bob", "Othello").await, 200);
    assert_eq!(rename(&env, "carol", "the Moor of Venice").await, 200);
    let before = env.newest(vec![], 1).await[0].id;
    let r = env.run(&["send", "-c", path(&rc), "@Othello, the Moor of Venice", "hi"], None).await;
    assert_eq!(r.code, 5, "{}", r.err);
    assert!(r.err.contains("is one person's name and also a list of people"), "{}", r.err);
    assert_eq!(env.newest(vec![], 1).await[0].id, before, "nothing was sent");
    let r = env.run(&["send", "-c", path(&rc), "@\"Othello\",@\"the Moor of Venice\"", "hi"], None).await;
    assert_eq!(r.code, 0, "{}", r.err);
    let got = env.newest(vec![], 1).await;
    assert!(dm_emails(&got[0]).contains(&bob) && !dm_emails(&got[0]).contains(&alice));
}

/// Issue 37, hole 1: a look-alike name never takes someone else's messages. Alice renames
/// herself after Bob, then after Bob's email: a send by Bob's name is refused naming both (status
/// 5), a send by Bob's email reaches Bob alone, and an ID or the mention form picks one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_look_alike_name_never_takes_someone_elses_direct_messages() {
    let env = env().await;
    let rc = env.rc("member");
    let alice = env.server.credentials("alice").unwrap().email;
    let bob = env.server.credentials("bob").unwrap().email;
    let before = env.newest(vec![], 1).await[0].id;

    assert_eq!(rename(&env, "alice", "Bob Nakamura").await, 200);
    for _ in 0..3 {
        let r = env.run(&["send", "-c", path(&rc), "@Bob Nakamura", "secret"], None).await;
        assert_eq!(r.code, 5, "{}", r.err);
        assert!(r.err.contains("2 people are named \"Bob Nakamura\""), "{}", r.err);
        assert!(r.err.contains(&alice) && r.err.contains(&bob), "both, with their emails: {}", r.err);
    }
    assert_eq!(env.newest(vec![], 1).await[0].id, before, "nothing was sent");

    // A name that looks like an email is refused by the server, as the reference server does
    // (`@` is not allowed in names); the client's rule does not rely on it (`app::people`).
    for name in [bob.as_str(), "Bob Nakamura|12", "**Bob**"] {
        assert_eq!(rename(&env, "alice", name).await, 400, "{name}");
    }
    // An email names the user whose email it is.
    let r = env.run(&["send", "-c", path(&rc), &format!("@{bob}"), "secret"], None).await;
    assert_eq!(r.code, 0, "{}", r.err);
    let got = env.newest(vec![NarrowTerm::new("dm", serde_json::json!([bob.clone()]))], 1).await;
    assert_eq!(got[0].id, r.out.trim().parse::<i64>().unwrap());
    assert!(!dm_emails(&got[0]).contains(&alice));
    // The mention form's ID decides, whatever the name says.
    let users = env.client("member").get_users().await.unwrap().members;
    let bob_id = users.iter().find(|u| u.email == bob).unwrap().user_id;
    let r = env.run(&["send", "-c", path(&rc), &format!("@**Alice Okafor|{bob_id}**"), "by id"], None).await;
    assert_eq!(r.code, 0, "{}", r.err);
    let got = env.newest(vec![], 1).await;
    assert!(dm_emails(&got[0]).contains(&bob) && !dm_emails(&got[0]).contains(&alice));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_send_whose_answer_is_lost_is_found_and_not_sent_twice() {
    let env = env().await;
    let proxy = Rewriter::start(&env.server.url, vec![]).await;
    // The server takes the message; its answer is cut after a few bytes.
    proxy.arm(Box::new(|ex| {
        (ex.is("POST", "/messages") && ex.status == 200).then(|| Reply::CutAfter(ex.body.clone(), 3))
    }));
    let rc = env.rc_at("member", &proxy.url);
    let r = env.run(&["send", "-c", path(&rc), "#general>exactly once", "only one of me"], None).await;
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(proxy.rewritten(), 1, "the answer was lost");
    let got = env.newest(vec![channel("general"), NarrowTerm::new("topic", "exactly once")], 10).await;
    assert_eq!(got.len(), 1, "sent once: {got:?}");
    assert_eq!(r.out.trim(), got[0].id.to_string(), "the ID printed is the message's");
}

/// A running `tail`, its output read line by line.
struct Tail {
    child: Child,
    lines: tokio::io::Lines<BufReader<tokio::process::ChildStdout>>,
}

impl Tail {
    fn start(env: &Env, args: &[&str]) -> Tail {
        let mut child = env
            .command(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("runs");
        let lines = BufReader::new(child.stdout.take().unwrap()).lines();
        Tail { child, lines }
    }

    async fn line(&mut self) -> String {
        tokio::time::timeout(BOUND, self.lines.next_line())
            .await
            .expect("a line in time")
            .unwrap()
            .expect("a line")
    }

    /// SIGINT; its status and standard error.
    async fn interrupt(mut self) -> (i32, String) {
        let pid = self.child.id().unwrap().to_string();
        let killed = Command::new("kill").args(["-INT", &pid]).status().await.unwrap();
        assert!(killed.success());
        let mut err = String::new();
        let mut stderr = self.child.stderr.take().unwrap();
        tokio::io::AsyncReadExt::read_to_string(&mut stderr, &mut err).await.unwrap();
        let status = tokio::time::timeout(BOUND, self.child.wait()).await.expect("ends").unwrap();
        (status.code().unwrap_or(-1), err)
    }
}

/// `HH:MM ` and the rest of a text line.
fn after_time(line: &str) -> &str {
    // `HH:MM `, or `YYYY-MM-DD HH:MM ` once a message printed is not from today.
    let at = if line.as_bytes().get(4) == Some(&b'-') { 11 } else { 0 };
    let (time, rest) = line.split_at(at + 6);
    assert!(time.as_bytes()[at + 2] == b':' && time.ends_with(' '), "{line}");
    rest
}

async fn send_as(env: &Env, who: &str, channel_name: &str, topic: &str, text: &str) -> i64 {
    let c = env.client(who);
    let id = env.newest(vec![channel(channel_name)], 1).await[0].stream_id.unwrap();
    c.send_message(&OutgoingMessage::channel(id, topic, text)).await.unwrap().id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tail_prints_the_last_messages_then_each_new_one_of_its_search_and_ends_on_sigint() {
    let env = env().await;
    let rc = env.rc("member");
    let last_two = env.newest(vec![channel("general")], 2).await;
    let mut tail = Tail::start(&env, &["tail", "-c", path(&rc), "--since", "2", "channel:general"]);
    for m in &last_two {
        let line = tail.line().await;
        // The empty topic as the organization names it (issue 51.10), not blank.
        let topic = if m.subject.is_empty() { "general chat" } else { m.subject.as_str() };
        assert!(
            after_time(&line).starts_with(&format!("#general > {topic}  {}: ", m.sender_full_name)),
            "{line}"
        );
    }
    // Another channel's message is not printed; the next line is the general one after it.
    send_as(&env, "alice", "random", "elsewhere", "not for the tail").await;
    send_as(&env, "alice", "general", "live", "live\n\x1b[31mwords").await;
    assert_eq!(after_time(&tail.line().await), "#general > live  Alice Okafor: live [31mwords");
    // A direct message to member is not in channel:general either.
    let bob = env.client("bob");
    let member = env.server.credentials("member").unwrap().email;
    let me: Vec<i64> =
        vec![env.newest(vec![NarrowTerm::new("sender", member.as_str())], 1).await[0].sender_id];
    bob.send_message(&OutgoingMessage::direct(me, "psst")).await.unwrap();
    send_as(&env, "bob", "general", "live", "second").await;
    assert_eq!(after_time(&tail.line().await), "#general > live  Bob Nakamura: second");
    let (code, err) = tail.interrupt().await;
    assert_eq!((code, err.as_str()), (0, ""));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tail_json_lines_parse_and_a_search_the_events_cannot_filter_is_fetched() {
    let env = env().await;
    let rc = env.rc("member");
    // `search` words are beyond register's narrow: the events say that something came.
    let old = send_as(&env, "alice", "general", "fruit", "an old pineapple").await;
    let mut tail = Tail::start(
        &env,
        &["tail", "--json", "-c", path(&rc), "--since", "1", "channel:general", "pineapple"],
    );
    let first: Value = serde_json::from_str(&tail.line().await).expect("a JSON line");
    assert_eq!((first["id"].as_i64(), first["display_recipient"].as_str()), (Some(old), Some("general")));
    send_as(&env, "alice", "general", "fruit", "no fruit here").await;
    let id = send_as(&env, "alice", "general", "fruit", "a pineapple pizza").await;
    let v: Value = serde_json::from_str(&tail.line().await).expect("a JSON line");
    assert_eq!((v["id"].as_i64(), v["content"].as_str()), (Some(id), Some("a pineapple pizza")));
    // `search --json`'s shape: `content` is Markdown here, and says so; `text` is the line's.
    assert_eq!(
        (v["content_type"].as_str(), v["text"].as_str()),
        (Some("text/x-markdown"), Some("a pineapple pizza"))
    );
    let (code, err) = tail.interrupt().await;
    assert_eq!((code, err.as_str()), (0, ""));
}

/// Register's `narrow` in each register a run made (`None`: none given).
type Narrows = std::sync::Arc<std::sync::Mutex<Vec<Option<Vec<Vec<String>>>>>>;

/// `tail channel:general` on a server before the `channel` operator (level 218, where the
/// reference server refuses it in register's narrow: "Operator channel not supported.") and on
/// one after it: the queue's narrow says `stream` before, `channel` from the level on, and the
/// tail follows the channel on both.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tail_speaks_the_channel_operator_in_the_servers_terms_at_each_level() {
    for level in [218, topicterm::api::levels::CHANNEL_OPERATOR] {
        let server = DemoServer::start(ServerOptions { feature_level: level, ..Default::default() })
            .await
            .expect("demo server");
        let dir = tempfile::tempdir().unwrap();
        server.write_zuliprcs(&dir.path().join("rc")).unwrap();
        let env = Env { server, dir };
        let proxy = Rewriter::start(&env.server.url, vec![]).await;
        let narrows: Narrows = Default::default();
        let seen = narrows.clone();
        proxy.arm_before(Box::new(move |ex| {
            if !ex.is("POST", "/register") {
                return None;
            }
            let narrow = url::form_urlencoded::parse(&ex.body)
                .find(|(k, _)| k == "narrow")
                .map(|(_, v)| serde_json::from_str::<Vec<Vec<String>>>(&v).expect("pairs"));
            let refused = level < topicterm::api::levels::CHANNEL_OPERATOR
                && narrow.iter().flatten().any(|term| term[0] == "channel");
            seen.lock().unwrap().push(narrow);
            refused.then(|| {
                let body =
                    r#"{"result":"error","code":"BAD_REQUEST","msg":"Operator channel not supported."}"#;
                Reply::Body(400, body.as_bytes().to_vec())
            })
        }));
        let rc = env.rc_at("member", &proxy.url);
        let mut tail = Tail::start(&env, &["tail", "-c", path(&rc), "--since", "1", "channel:general"]);
        tail.line().await;
        // Sent in the server's terms (`stream` as the type before level 248).
        let alice = env.client("alice");
        let mut info = alice.server_info();
        info.feature_level = Some(level);
        alice.set_server_info(info);
        let general = env.newest(vec![channel("general")], 1).await[0].stream_id.unwrap();
        alice.send_message(&OutgoingMessage::channel(general, "levels", "at this level")).await.unwrap();
        assert_eq!(
            after_time(&tail.line().await),
            "#general > levels  Alice Okafor: at this level",
            "{level}"
        );
        let (code, err) = tail.interrupt().await;
        assert_eq!((code, err.as_str()), (0, ""), "{level}");
        let operator = if level == 218 { "stream" } else { "channel" };
        assert_eq!(
            *narrows.lock().unwrap(),
            vec![None, Some(vec![vec![operator.to_owned(), "general".to_owned()]])],
            "level {level}: the names read first, then the queue followed"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tail_fills_the_gap_when_its_queue_expires_without_printing_twice() {
    let env = env().await;
    let proxy = Rewriter::start(&env.server.url, vec![]).await;
    let rc = env.rc_at("member", &proxy.url);
    let mut tail = Tail::start(&env, &["tail", "-c", path(&rc), "--since", "1", "channel:general"]);
    tail.line().await;
    // The poll that brings the next message answers that the queue is gone instead.
    proxy.arm(Box::new(|ex| {
        ex.has_message_event().then(|| {
            let body = r#"{"result":"error","code":"BAD_EVENT_QUEUE_ID","msg":"Bad event queue ID: x","queue_id":"x"}"#;
            Reply::Body(400, body.as_bytes().to_vec())
        })
    }));
    send_as(&env, "alice", "general", "gap", "in the gap").await;
    assert_eq!(after_time(&tail.line().await), "#general > gap  Alice Okafor: in the gap");
    assert_eq!(proxy.rewritten(), 1);
    send_as(&env, "alice", "general", "gap", "after the gap").await;
    assert_eq!(after_time(&tail.line().await), "#general > gap  Alice Okafor: after the gap", "once each");
    let (code, err) = tail.interrupt().await;
    assert_eq!((code, err.as_str()), (0, ""));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tail_into_a_pipe_that_closes_early_ends_quietly_with_status_0() {
    let env = env().await;
    let rc = env.rc("member");
    for json in [false, true] {
        let script = format!(
            "set -o pipefail; \"$0\" tail -c \"$1\" --since 5 {} | head -1",
            if json { "--json" } else { "" }
        );
        let mut sh = Command::new("bash");
        sh.args(["-c", &script, env!("CARGO_BIN_EXE_topicterm"), path(&rc)])
            .env("HOME", env.dir.path().join("home"))
            .env("XDG_STATE_HOME", env.dir.path().join("home/state"))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        // No message comes: tail must see its reader go by itself.
        let out = tokio::time::timeout(BOUND, sh.output()).await.expect("tail ends with its reader").unwrap();
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert_eq!(out.status.code(), Some(0), "{stderr}");
        assert_eq!(stderr, "", "nothing on standard error");
        assert_eq!(stdout.lines().count(), 1, "{stdout}");
        if json {
            serde_json::from_str::<Value>(stdout.trim()).expect("a JSON line");
        }
    }
}

/// The counts as the server has them (its `unread_msgs`).
/// The counts as the client's screen has them: the total outside muted channels and topics
/// (`Data::unread_total`, from the same register answer the client applies), mentions, DMs, the
/// channel #general with its muted topics, and every unread message (`--include-muted`).
async fn server_counts(env: &Env, who: &str) -> (u64, usize, usize, usize, u64) {
    let r = env
        .client(who)
        .register(&topicterm::api::RegisterParams {
            fetch_event_types: Some(vec![
                "message".into(),
                "update_message_flags".into(),
                "subscription".into(),
                "user_topic".into(),
            ]),
            ..Default::default()
        })
        .await
        .unwrap();
    let mut st = topicterm::app::State::default();
    let _ = topicterm::app::register_at_once(&mut st, r.clone());
    let shown = st.data.unread_total() as u64;
    let u = r.unread_msgs.unwrap();
    let general = r.subscriptions.unwrap().iter().find(|s| s.name == "general").unwrap().stream_id;
    let dms = u.direct().iter().map(|d| d.unread_message_ids.len()).sum::<usize>()
        + u.huddles.iter().map(|h| h.unread_message_ids.len()).sum::<usize>();
    let in_general =
        u.streams.iter().filter(|s| s.stream_id == general).map(|s| s.unread_message_ids.len()).sum();
    let every = dms + u.streams.iter().map(|s| s.unread_message_ids.len()).sum::<usize>();
    (shown, u.mentions.len(), dms, in_general, every as u64)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unread_prints_the_servers_counts_by_template_or_json() {
    let env = env().await;
    let rc = env.rc("member");
    let (total, mentions, dms, general, every) = server_counts(&env, "member").await;
    // What the client's screen counts (muted left out), unless asked for everything (issue 40:
    // `unread` said 37 where the client said 33).
    assert!(every > total, "the seed has unread messages in muted topics");
    let r = env.run(&["unread", "-c", path(&rc)], None).await;
    assert_eq!((r.code, r.out.as_str(), r.err.as_str()), (0, format!("{total}\n").as_str(), ""));
    let r = env.run(&["unread", "-c", path(&rc), "--include-muted"], None).await;
    assert_eq!((r.code, r.out.as_str()), (0, format!("{every}\n").as_str()), "{}", r.err);
    let r = env.run(&["unread", "-c", path(&rc), "--json"], None).await;
    let v: Value = serde_json::from_str(r.out.trim()).unwrap();
    assert_eq!(
        (v["total"].as_u64(), v["mentions"].as_u64(), v["dms"].as_u64(), v["channels"]["general"].as_u64()),
        (Some(total), Some(mentions as u64), Some(dms as u64), Some(general as u64))
    );
    // A new direct message to member counts at once.
    let member_id = env
        .newest(vec![NarrowTerm::new("sender", env.server.credentials("member").unwrap().email)], 1)
        .await[0]
        .sender_id;
    env.client("carol").send_message(&OutgoingMessage::direct(vec![member_id], "ping")).await.unwrap();
    let r = env
        .run(
            &["unread", "-c", path(&rc), "-f", "✉ {total} @{mentions} dm {dms} {{g}} {channel:General}"],
            None,
        )
        .await;
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(r.out, format!("✉ {} @{mentions} dm {} {{g}} {general}\n", total + 1, dms + 1));
    assert_eq!(server_counts(&env, "member").await, (total + 1, mentions, dms + 1, general, every + 1));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unread_fails_quietly_with_a_placeholder_and_a_status() {
    let env = env().await;
    // Nothing listens on port 1.
    let gone = env.rc_at("member", "http://127.0.0.1:1");
    let r = env.run(&["unread", "-c", path(&gone)], None).await;
    assert_eq!((r.code, r.out.as_str(), r.err.as_str()), (4, "?\n", ""));
    let r = env.run(&["unread", "-c", path(&gone), "--placeholder", "✉ -", "-v"], None).await;
    assert_eq!((r.code, r.out.as_str()), (4, "✉ -\n"));
    assert!(r.err.starts_with("topicterm unread: ") && r.err.lines().count() == 1, "{}", r.err);
    // No account; a key the server refuses; a template with a mistake; a channel not one's own.
    let mut refused = env.server.credentials("member").unwrap();
    refused.api_key = "wrong".into();
    let wrong_key = env.dir.path().join("wrong.zuliprc");
    topicterm::api::zuliprc::write(&wrong_key, &refused).unwrap();
    let rc = env.rc("member");
    for (args, code) in [
        (vec!["unread"], 3),
        (vec!["unread", "-c", path(&wrong_key)], 3),
        (vec!["unread", "-c", path(&rc), "-f", "{totl}"], 2),
        (vec!["unread", "-c", path(&rc), "-f", "{channel:nowhere}"], 5),
    ] {
        let r = env.run(&args, None).await;
        assert_eq!((r.code, r.out.as_str(), r.err.as_str()), (code, "?\n", ""), "{args:?}");
    }
    // The server was reached and refused the key: said so (issue 40: it read "cannot reach the
    // organization: Invalid API key").
    let r = env.run(&["unread", "-c", path(&wrong_key), "-v"], None).await;
    assert_eq!(r.code, 3);
    assert!(r.err.starts_with("topicterm unread: the server refused: "), "{}", r.err);
    assert!(!r.err.contains("cannot reach"), "{}", r.err);
    // A key file others can read: the fix on a line of its own, ready to copy (issue 40: it
    // was one run-on line).
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let open = env.dir.path().join("open.zuliprc");
        std::fs::copy(&rc, &open).unwrap();
        std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o644)).unwrap();
        let r = env.run(&["unread", "-c", path(&open), "-v"], None).await;
        assert_eq!(r.code, 3, "{}", r.err);
        let lines: Vec<&str> = r.err.lines().collect();
        assert!(
            lines[0].starts_with("topicterm unread: ") && lines[0].contains("other users can read it"),
            "{}",
            r.err
        );
        let fix =
            lines.iter().any(|l| l.trim().starts_with("chmod 600 ") && l.trim().ends_with("open.zuliprc"));
        assert!(fix, "the fix on a line of its own: {}", r.err);
    }
}
