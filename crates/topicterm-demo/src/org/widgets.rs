//! Widgets made from message content, as the reference server makes them: `/poll Question`
//! with one option per line, `/todo Title` with one task per line (`task: description`). The
//! widget is the message's first submessage.

use serde_json::{Value, json};

/// The widget submessage for a message's Markdown, if it makes one.
pub fn from_content(content: &str) -> Option<Value> {
    let mut lines = content.lines();
    let first = lines.next()?.trim_end();
    let rest: Vec<&str> = lines.map(str::trim).filter(|l| !l.is_empty()).collect();
    let arg = |cmd: &str| {
        first.strip_prefix(cmd).filter(|r| r.is_empty() || r.starts_with(char::is_whitespace)).map(str::trim)
    };
    if let Some(question) = arg("/poll") {
        return Some(json!({
            "widget_type": "poll",
            "extra_data": {"question": question, "options": rest},
        }));
    }
    if let Some(title) = arg("/todo") {
        let tasks: Vec<Value> = rest
            .iter()
            .map(|l| {
                let (task, desc) = l.split_once(": ").unwrap_or((l, ""));
                json!({"task": task.trim(), "desc": desc.trim()})
            })
            .collect();
        let title = if title.is_empty() { "Task list" } else { title };
        return Some(json!({
            "widget_type": "todo",
            "extra_data": {"task_list_title": title, "tasks": tasks},
        }));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polls_and_todo_lists_from_content() {
        let p = from_content("/poll Lunch?\npizza\n\n ramen \n").unwrap();
        assert_eq!(
            p,
            json!({"widget_type": "poll", "extra_data": {"question": "Lunch?", "options": ["pizza", "ramen"]}})
        );
        let t = from_content("/todo Launch\nwrite notes: the changelog\ntag").unwrap();
        assert_eq!(t["extra_data"]["task_list_title"], "Launch");
        assert_eq!(
            t["extra_data"]["tasks"],
            json!([{"task": "write notes", "desc": "the changelog"}, {"task": "tag", "desc": ""}])
        );
        assert_eq!(from_content("/polling is not a poll"), None);
        assert_eq!(from_content("a /poll inside"), None);
    }
}
