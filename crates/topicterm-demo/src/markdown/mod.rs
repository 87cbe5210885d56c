//! Markdown → HTML rendering for the demo server, imitating the HTML the
//! Zulip server produces (the classes and shapes clients rely on).
//!
//! One fragment of Markdown (a message, or the body of a `spoiler`/`quote`
//! fence, rendered recursively) goes through three steps:
//!
//! 1. `normalize_fences` lengthens the fences of `quote`/`spoiler` blocks
//!    that contain other fences, so that CommonMark parses Zulip's nesting
//!    (where an inner ```` ```python ```` opens a nested block rather than
//!    being content) the same way Zulip does.
//! 2. `Renderer::protect` finds, outside code, the Zulip syntax that
//!    Markdown would otherwise mangle (mentions, channel links, `$$math$$`,
//!    `<time:…>`) and replaces each with a placeholder made of private-use
//!    characters. It also turns every other `<` into `&lt;`, so raw HTML is
//!    shown as text and never reaches the output.
//! 3. pulldown-cmark parses the result and `Writer` turns its events into
//!    HTML, expanding placeholders, emoji and bare URLs in text.

mod fences;
mod inline;
mod links;
mod math;
mod placeholder;
#[cfg(test)]
mod tests;
mod text;
mod time;
mod writer;

pub use topicterm_api::markup::escape_html;
pub use writer::{RenderContext, Rendered};

use placeholder::{PH_END, PH_START};
use std::borrow::Cow;
use writer::Renderer;

/// Render a message's Markdown to HTML the way the Zulip server would.
pub fn render(markdown: &str, ctx: &dyn RenderContext) -> Rendered {
    // Placeholders are made of these private-use characters; the input must
    // not be able to forge one.
    let source = if markdown.contains([PH_START, PH_END]) {
        Cow::Owned(markdown.replace([PH_START, PH_END], "\u{FFFD}"))
    } else {
        Cow::Borrowed(markdown)
    };
    let mut renderer = Renderer { ctx, result: Rendered::default() };
    let html = renderer.render_fragment(&source, 0);
    Rendered { html, ..renderer.result }
}
