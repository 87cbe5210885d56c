//! Widgets (Zulip's polls and to-do lists), read from a message's submessages as the web app
//! reads them: the first submessage makes the widget, each later one changes it.
//!
//! Poll: options from `extra_data.options` have keys `canned,I`; `new_option` adds one keyed
//! `SENDER,IDX`; `vote` (`vote`: 1 or -1) adds or takes away the sender's vote; `question`
//! (from the poll's author only) changes the question. To-do list: tasks from
//! `extra_data.tasks` have keys `I,canned`; `new_task` adds one keyed `KEY,SENDER`; `strike`
//! ticks a task or unticks it; `new_task_list_title` renames the list.

use crate::api::{Submessage, UserId};
use serde_json::Value;
use std::collections::BTreeSet;

#[derive(Debug, Clone, PartialEq)]
pub enum Widget {
    Poll(Poll),
    Todo(Todo),
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Poll {
    pub question: String,
    pub options: Vec<PollOption>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct PollOption {
    pub key: String,
    pub text: String,
    pub voters: BTreeSet<UserId>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Todo {
    pub title: String,
    pub tasks: Vec<Task>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Task {
    pub key: String,
    pub task: String,
    pub desc: String,
    pub done: bool,
}

/// Most options or tasks a widget keeps (a flood of submessages stays bounded).
const MAX_ITEMS: usize = 200;

fn text(v: &Value, key: &str) -> String {
    v.get(key).and_then(Value::as_str).unwrap_or_default().to_owned()
}

/// The widget of a message, if its submessages make one.
pub fn build(subs: &[Submessage]) -> Option<Widget> {
    let first = subs.iter().find(|s| s.msg_type == "widget")?;
    let head: Value = serde_json::from_str(&first.content).ok()?;
    let extra = head.get("extra_data").cloned().unwrap_or(Value::Null);
    let author = first.sender_id;
    let mut widget = match head.get("widget_type").and_then(Value::as_str)? {
        "poll" => Widget::Poll(Poll {
            question: text(&extra, "question"),
            options: extra
                .get("options")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .take(MAX_ITEMS)
                .enumerate()
                .map(|(i, o)| PollOption {
                    key: format!("canned,{i}"),
                    text: o.to_owned(),
                    voters: BTreeSet::new(),
                })
                .collect(),
        }),
        "todo" => Widget::Todo(Todo {
            title: text(&extra, "task_list_title"),
            tasks: extra
                .get("tasks")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .take(MAX_ITEMS)
                .enumerate()
                .map(|(i, t)| Task {
                    key: format!("{i},canned"),
                    task: text(t, "task"),
                    desc: text(t, "desc"),
                    done: false,
                })
                .collect(),
        }),
        _ => return None,
    };
    for s in subs.iter().filter(|s| s.msg_type == "widget" && s.id != first.id) {
        let Ok(change) = serde_json::from_str::<Value>(&s.content) else { continue };
        apply(&mut widget, author, s.sender_id, &change);
    }
    Some(widget)
}

/// One change from `sender`.
fn apply(widget: &mut Widget, author: UserId, sender: UserId, change: &Value) {
    let kind = change.get("type").and_then(Value::as_str).unwrap_or_default();
    match widget {
        Widget::Poll(p) => match kind {
            "vote" => {
                let key = text(change, "key");
                let Some(o) = p.options.iter_mut().find(|o| o.key == key) else { return };
                match change.get("vote").and_then(Value::as_i64) {
                    Some(1) => o.voters.insert(sender),
                    Some(-1) => o.voters.remove(&sender),
                    _ => false,
                };
            }
            "new_option" if p.options.len() < MAX_ITEMS => {
                let Some(idx) = change.get("idx").and_then(Value::as_i64) else { return };
                let key = format!("{sender},{idx}");
                let option = text(change, "option");
                if !option.trim().is_empty() && !p.options.iter().any(|o| o.key == key) {
                    p.options.push(PollOption { key, text: option, voters: BTreeSet::new() });
                }
            }
            "question" if sender == author => p.question = text(change, "question"),
            _ => {}
        },
        Widget::Todo(t) => match kind {
            "strike" => {
                let key = text(change, "key");
                if let Some(task) = t.tasks.iter_mut().find(|x| x.key == key) {
                    task.done = !task.done;
                }
            }
            "new_task" if t.tasks.len() < MAX_ITEMS => {
                let key = match change.get("key") {
                    Some(Value::Number(n)) => format!("{n},{sender}"),
                    Some(Value::String(k)) => format!("{k},{sender}"),
                    _ => return,
                };
                let task = text(change, "task");
                if !task.trim().is_empty() && !t.tasks.iter().any(|x| x.key == key) {
                    let done = change.get("completed").and_then(Value::as_bool).unwrap_or(false);
                    t.tasks.push(Task { key, task, desc: text(change, "desc"), done });
                }
            }
            "new_task_list_title" if sender == author => t.title = text(change, "title"),
            _ => {}
        },
    }
}

/// The submessage that choosing item `n` (0-based) sends for `me`: a vote (or taking one
/// back) in a poll, a tick (or untick) in a to-do list. `None`: no such item.
pub fn choose(widget: &Widget, n: usize, me: UserId) -> Option<Value> {
    match widget {
        Widget::Poll(p) => {
            let o = p.options.get(n)?;
            let vote = if o.voters.contains(&me) { -1 } else { 1 };
            Some(serde_json::json!({"type": "vote", "key": o.key, "vote": vote}))
        }
        Widget::Todo(t) => Some(serde_json::json!({"type": "strike", "key": t.tasks.get(n)?.key})),
    }
}

/// The submessage that adds `text` as `me`'s next option of a poll or task of a to-do list, as
/// the web app sends it: `new_option` with the next `idx` of this sender's options, `new_task`
/// with the next `key` of this sender's tasks (items are keyed per sender).
pub fn add_item(widget: &Widget, me: UserId, text: &str) -> Value {
    let mine = |key: &str, first: bool| -> Option<i64> {
        let (a, b) = key.split_once(',')?;
        let (n, who) = if first { (a, b) } else { (b, a) };
        (who == me.to_string()).then(|| n.parse().ok()).flatten()
    };
    match widget {
        Widget::Poll(p) => {
            let idx = p.options.iter().filter_map(|o| mine(&o.key, false)).max().unwrap_or(0) + 1;
            serde_json::json!({"type": "new_option", "idx": idx, "option": text})
        }
        Widget::Todo(t) => {
            let key = t.tasks.iter().filter_map(|x| mine(&x.key, true)).max().unwrap_or(0) + 1;
            let (task, desc) = task_and_description(text);
            serde_json::json!({"type": "new_task", "key": key, "task": task, "desc": desc, "completed": false})
        }
    }
}

/// A task as typed, `task: description`, split at the first `": "` — the rule of a `/todo`
/// message's lines (the reference server's, and the demo server's `org::widgets`), so
/// `:todo-add notes: write release notes` is the task "notes" with its description.
pub fn task_and_description(text: &str) -> (&str, &str) {
    let (task, desc) = text.split_once(": ").unwrap_or((text, ""));
    (task.trim(), desc.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sub(id: i64, sender: UserId, content: Value) -> Submessage {
        Submessage {
            msg_type: "widget".into(),
            content: content.to_string(),
            message_id: 1,
            sender_id: sender,
            id,
        }
    }

    #[test]
    fn a_poll_counts_votes_new_options_and_takes_votes_back() {
        let subs = vec![
            sub(
                1,
                10,
                serde_json::json!({"widget_type": "poll", "extra_data": {"question": "Lunch?", "options": ["pizza", "ramen"]}}),
            ),
            sub(2, 11, serde_json::json!({"type": "vote", "key": "canned,0", "vote": 1})),
            sub(3, 12, serde_json::json!({"type": "vote", "key": "canned,0", "vote": 1})),
            sub(4, 12, serde_json::json!({"type": "vote", "key": "canned,0", "vote": -1})),
            sub(5, 12, serde_json::json!({"type": "new_option", "idx": 1, "option": "tacos"})),
            sub(6, 11, serde_json::json!({"type": "vote", "key": "12,1", "vote": 1})),
            sub(7, 11, serde_json::json!({"type": "question", "question": "not the author"})),
            sub(8, 10, serde_json::json!({"type": "question", "question": "Lunch today?"})),
            sub(9, 11, serde_json::json!({"type": "vote", "key": "nope", "vote": 1})),
        ];
        let Some(Widget::Poll(p)) = build(&subs) else { panic!() };
        assert_eq!(p.question, "Lunch today?");
        let counts: Vec<(&str, usize)> =
            p.options.iter().map(|o| (o.text.as_str(), o.voters.len())).collect();
        assert_eq!(counts, vec![("pizza", 1), ("ramen", 0), ("tacos", 1)]);
        let w = Widget::Poll(p);
        assert_eq!(choose(&w, 0, 11).unwrap()["vote"], -1, "a second choice takes the vote back");
        assert_eq!(
            choose(&w, 1, 11).unwrap(),
            serde_json::json!({"type": "vote", "key": "canned,1", "vote": 1})
        );
        assert_eq!(choose(&w, 5, 11), None);
    }

    #[test]
    fn a_todo_list_ticks_and_adds_tasks() {
        let subs = vec![
            sub(
                1,
                10,
                serde_json::json!({"widget_type": "todo", "extra_data": {"task_list_title": "Ship", "tasks": [{"task": "tag", "desc": "v2"}]}}),
            ),
            sub(2, 11, serde_json::json!({"type": "strike", "key": "0,canned"})),
            sub(
                3,
                11,
                serde_json::json!({"type": "new_task", "key": 1, "task": "announce", "desc": "", "completed": false}),
            ),
            sub(4, 12, serde_json::json!({"type": "strike", "key": "1,11"})),
            sub(5, 12, serde_json::json!({"type": "strike", "key": "1,11"})),
        ];
        let Some(Widget::Todo(t)) = build(&subs) else { panic!() };
        assert_eq!(t.title, "Ship");
        let tasks: Vec<(&str, bool)> = t.tasks.iter().map(|x| (x.task.as_str(), x.done)).collect();
        assert_eq!(tasks, vec![("tag", true), ("announce", false)]);
    }

    #[test]
    fn no_widget_without_a_widget_submessage_or_with_bad_json() {
        assert_eq!(build(&[]), None);
        assert_eq!(build(&[sub(1, 1, serde_json::json!({"widget_type": "zform"}))]), None);
        let bad =
            Submessage { msg_type: "widget".into(), content: "{".into(), message_id: 1, sender_id: 1, id: 1 };
        assert_eq!(build(&[bad]), None);
    }

    #[test]
    fn an_added_item_takes_the_next_number_of_its_sender() {
        let poll = build(&[
            sub(
                1,
                11,
                serde_json::json!({"widget_type": "poll", "extra_data": {"question": "q", "options": ["a"]}}),
            ),
            sub(2, 12, serde_json::json!({"type": "new_option", "idx": 1, "option": "b"})),
            sub(3, 12, serde_json::json!({"type": "new_option", "idx": 4, "option": "c"})),
            sub(4, 13, serde_json::json!({"type": "new_option", "idx": 9, "option": "d"})),
        ])
        .unwrap();
        assert_eq!(
            add_item(&poll, 12, "e"),
            serde_json::json!({"type": "new_option", "idx": 5, "option": "e"})
        );
        assert_eq!(add_item(&poll, 14, "f")["idx"], 1);
        let todo = build(&[
            sub(1, 11, serde_json::json!({"widget_type": "todo", "extra_data": {"tasks": []}})),
            sub(2, 12, serde_json::json!({"type": "new_task", "key": 2, "task": "x", "desc": "", "completed": false})),
        ])
        .unwrap();
        assert_eq!(add_item(&todo, 12, "y")["key"], 3);
        assert_eq!(add_item(&todo, 11, "z")["key"], 1);
    }
}
