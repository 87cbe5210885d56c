//! Real-Zulip behaviour seen on screen: search results mark what matched.

use crate::harness::*;
use crossterm::event::KeyCode;
use ratatui::style::Color;

/// Each place `word` is drawn (any case), and whether it is drawn as a search match.
fn marked(buf: &ratatui::buffer::Buffer, pane: ratatui::layout::Rect, word: &str) -> Vec<bool> {
    let word: Vec<String> = word.chars().map(|c| c.to_string()).collect();
    let mut out = Vec::new();
    for y in pane.y..pane.y + pane.height {
        let cells: Vec<String> = (0..buf.area.width).map(|x| buf[(x, y)].symbol().to_lowercase()).collect();
        for x in pane.x as usize..cells.len().saturating_sub(word.len()) {
            if cells[x..x + word.len()] == word[..] {
                out.push(buf[(x as u16, y)].bg == Color::Yellow);
            }
        }
    }
    out
}

#[tokio::test]
async fn search_results_mark_the_matched_words_in_text_and_topic() {
    let mut app = App::start("member").await;
    app.key(KeyCode::Char('/')).await;
    app.keys("flaky").await;
    app.key(KeyCode::Enter).await;
    let view = &app.st.data.narrows[&app.st.ui.narrow];
    assert!(!view.ids.is_empty(), "the seed talks of flaky tests");
    assert!(
        view.matches
            .values()
            .any(|m| m.content.as_deref().is_some_and(|c| c.contains("class=\"highlight\""))),
        "the server marked what matched"
    );
    let id = view.ids[0];
    // The first result, with its topic's header above it.
    app.select(id);
    let pane = app.draw(160, 48).pane;
    let buf = app.buffer(160, 48);
    let seen = marked(&buf, pane, "flaky");
    assert!(!seen.is_empty() && seen.iter().all(|m| *m), "the topic's match drawn marked: {seen:?}");
    // A result that matched in its text.
    let in_text = *app.st.data.narrows[&app.st.ui.narrow]
        .ids
        .iter()
        .find(|id| app.st.data.messages[id].content.to_lowercase().contains("flaky"))
        .expect("a result with the word in its text");
    app.select(in_text);
    let buf = app.buffer(160, 48);
    let seen = marked(&buf, pane, "flaky");
    assert!(!seen.is_empty() && seen.iter().all(|m| *m), "the text's match drawn marked: {seen:?}");
    // The same message outside the search is drawn plain.
    let m = app.st.data.messages[&in_text].clone();
    assert!(m.match_content.is_none(), "what matched stays with the search, not the message");
    app.open(topicterm::app::Narrow::Topic(m.stream_id.unwrap(), m.subject.clone())).await;
    app.select(in_text);
    let buf = app.buffer(160, 48);
    let seen = marked(&buf, pane, "flaky");
    assert!(!seen.is_empty() && seen.iter().all(|m| !m), "no marks outside the search: {seen:?}");
}
