//! PLACEHOLDER: replaced by the real HTML renderer.

use ratatui::text::Line;

pub trait ContentContext {
    fn format_time(&self, ts: i64) -> String;
    fn spoiler_open(&self, index: usize) -> bool;
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct RenderedContent {
    pub lines: Vec<Line<'static>>,
    pub links: Vec<LinkRef>,
    pub spoilers: usize,
    pub code_blocks: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkRef {
    pub url: String,
    pub text: String,
    pub is_image: bool,
}

pub fn render_html(html: &str, width: u16, _ctx: &dyn ContentContext) -> RenderedContent {
    let frag = scraper::Html::parse_fragment(html);
    let text: String = frag.root_element().text().collect();
    let w = width.max(10) as usize;
    let mut lines = Vec::new();
    for para in sanitize(&text).split('\n') {
        let chars: Vec<char> = para.chars().collect();
        for chunk in chars.chunks(w) {
            lines.push(Line::from(chunk.iter().collect::<String>()));
        }
    }
    RenderedContent { lines, ..Default::default() }
}

pub fn sanitize(s: &str) -> String {
    s.chars().filter(|c| !c.is_control() || *c == '\n').collect()
}

pub fn display_width(s: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(s)
}
