//! Message content as a document, free of any terminal layout: server HTML parsed (html5ever,
//! guarded against input that would make it slow) and read once into the document tree
//! ([`tree`]: what each part means, its spoilers numbered) — the only reader of HTML — and what
//! the client reads from it — links and code blocks as the message pane numbers them, the text
//! of a notification — plus [`sanitize`], which keeps control and escape characters of server
//! text away from the terminal, and [`display_width`].
//!
//! `app` (links to open, code to copy, notification text), `webhook` and `ui` use this module;
//! `ui::content` lays the tree out (wrapping, lists, quotes, tables, code, spoilers) into
//! styled lines. Entities are decoded by the parser, once; nothing here escapes or decodes
//! HTML by hand.

mod document;
pub mod guard;
pub(crate) mod html;
pub mod text;
pub mod tree;

pub use document::{CodeBlock, ContentContext, Document, LinkRef, Summary};
pub use document::{MAX_DEPTH, spoiler_open};
pub use html::highlighted_runs;
pub use text::{display_width, is_tag, is_unsafe_char, sanitize};
// Escaping and marking words: the API crate's, shared with the demo server.
pub use topicterm_api::markup::{escape_html, mark_words};
