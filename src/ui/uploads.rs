//! The uploads popup: the user's files, newest first — name, size, date uploaded, where each is
//! used — and what they take, with the organization's quota where the server has one.

use super::common::{centered, clip};
use super::theme::Theme;
use crate::app::{State, UploadList, size_text};
use crate::content::{display_width, sanitize};
use ratatui::Frame;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

/// Rows a file takes: name, size and date; where it is used.
const ROWS: usize = 2;

/// Where a file is used: the conversations of the messages that link to it (each as `name`
/// says it), as far as they are known, and how many others.
pub(super) fn used_in(
    st: &State,
    list: &UploadList,
    file: &crate::api::Attachment,
    name: impl Fn(&State, &crate::app::Narrow) -> String,
) -> String {
    if file.message_ids.is_empty() {
        return "not used".into();
    }
    let mut places: Vec<String> = Vec::new();
    let mut unknown = 0;
    for id in &file.message_ids {
        match list.places.get(id) {
            Some(n) => {
                let title = name(st, n);
                if !places.contains(&title) {
                    places.push(title);
                }
            }
            None => unknown += 1,
        }
    }
    let messages = |n: usize| if n == 1 { "1 message".to_owned() } else { format!("{n} messages") };
    match (places.is_empty(), unknown) {
        (true, n) => format!("used in {}", messages(n)),
        (false, 0) => format!("used in {}", places.join(", ")),
        (false, n) => format!("used in {} and {} more", places.join(", "), messages(n)),
    }
}

/// What the files take, then the organization's uploads against its quota, if the server says.
pub(super) fn totals(st: &State, list: &UploadList) -> Vec<String> {
    let count =
        if list.files.len() == 1 { "1 file".to_owned() } else { format!("{} files", list.files.len()) };
    let mut out = vec![format!("{count}, {}", size_text(list.total))];
    match (list.used, st.data.realm.limits.upload_quota_bytes) {
        (Some(used), Some(quota)) => {
            out.push(format!("the organization's uploads: {} of {}", size_text(used), size_text(quota)))
        }
        (Some(used), None) => out.push(format!("the organization's uploads: {}", size_text(used))),
        (None, Some(quota)) => out.push(format!("the organization's quota: {}", size_text(quota))),
        (None, None) => {}
    }
    out
}

pub(super) fn draw_uploads(f: &mut Frame, st: &State, t: &Theme, selected: usize, list: Option<&UploadList>) {
    let area = centered(f.area(), 120, f.area().height.saturating_sub(4));
    f.render_widget(Clear, area);
    let width = area.width.saturating_sub(2) as usize;
    let mut block =
        Block::default().borders(Borders::ALL).title(" Uploaded files — enter/o open, d delete, esc close ");
    if let Some(list) = list {
        block = block
            .title_bottom(Line::styled(clip(&format!(" {} ", totals(st, list).join(" · ")), width), t.dim));
    }
    let inner = block.inner(area);
    f.render_widget(block, area);
    let Some(list) = list else {
        f.render_widget(Paragraph::new(Line::styled("Loading your uploads…", t.dim)), inner);
        return;
    };
    if list.files.is_empty() {
        let empty = "You have not uploaded any files. :attach PATH (ctrl+t in the compose box) uploads one.";
        f.render_widget(Paragraph::new(Line::styled(clip(empty, width), t.dim)), inner);
        return;
    }
    let fit = (inner.height as usize / ROWS).max(1);
    let start = selected.saturating_sub(fit - 1);
    let mut lines = Vec::new();
    for (i, file) in list.files.iter().enumerate().skip(start).take(fit) {
        let style = if i == selected { t.selected } else { Style::new() };
        let size = size_text(file.size);
        let date = st.tz.format(file.uploaded_at(), "%-d %b %Y");
        let right = format!("  {size:>10}  {date:>11}");
        let name = clip(&sanitize(&file.name), width.saturating_sub(display_width(&right)));
        let pad = " ".repeat(width.saturating_sub(display_width(&name) + display_width(&right)));
        lines.push(Line::from(vec![
            Span::styled(name, style.patch(t.header)),
            Span::styled(pad, style),
            Span::styled(right, style.patch(t.dim)),
        ]));
        let used = sanitize(&used_in(st, list, file, super::recent::title));
        lines.push(Line::styled(clip(&format!("  {used}"), width), style));
    }
    f.render_widget(Paragraph::new(lines), inner);
}
