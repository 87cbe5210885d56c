use super::*;
use crate::content::guard::parse_too_costly;
use crate::content::sanitize;
use ratatui::style::{Color, Modifier};

struct Ctx {
    open: Vec<usize>,
}

impl ContentContext for Ctx {
    fn format_time(&self, ts: i64) -> String {
        chrono::DateTime::from_timestamp(ts, 0)
            .map(|d| d.format("%a %d %b %H:%M").to_string())
            .unwrap_or_default()
    }
    fn spoiler_open(&self, index: usize) -> bool {
        self.open.contains(&index)
    }
}

const CLOSED: Ctx = Ctx { open: Vec::new() };

fn render(html: &str, width: u16) -> RenderedContent {
    render_with(html, width, &CLOSED)
}

fn render_open(html: &str, width: u16, open: &[usize]) -> RenderedContent {
    render_with(html, width, &Ctx { open: open.to_vec() })
}

/// Renders, and checks that the document model finds the links and code blocks the layout
/// numbers (the app opens and copies them by those numbers).
fn render_with(html: &str, width: u16, ctx: &Ctx) -> RenderedContent {
    let r = render_html(html, width, ctx);
    let s = crate::content::Document::parse(html).summary(ctx);
    assert_eq!(s.links, r.links, "links of {html:?}");
    let code: Vec<(String, Option<String>)> =
        s.code_blocks.into_iter().map(|c| (c.code, c.language)).collect();
    let shown: Vec<(String, Option<String>)> =
        r.code_blocks.iter().cloned().zip(r.code_languages.iter().cloned()).collect();
    assert_eq!(code, shown, "code blocks of {html:?}");
    r
}

/// Short code for a style: fg colour, then b(old) i(talic) u(nderline) s(trike) d(im).
fn style_code(s: Style) -> String {
    let mut parts = Vec::new();
    if let Some(fg) = s.fg {
        parts.push(format!("{fg:?}").to_lowercase());
    }
    if let Some(bg) = s.bg {
        parts.push(format!("bg-{bg:?}").to_lowercase());
    }
    let m = s.add_modifier;
    for (flag, code) in [
        (Modifier::BOLD, "b"),
        (Modifier::ITALIC, "i"),
        (Modifier::UNDERLINED, "u"),
        (Modifier::CROSSED_OUT, "s"),
        (Modifier::DIM, "d"),
    ] {
        if m.contains(flag) {
            parts.push(code.to_owned());
        }
    }
    parts.join(",")
}

/// Plain-text dump of the lines; styled spans are shown as «style:text».
fn dump(r: &RenderedContent) -> String {
    r.lines
        .iter()
        .map(|l| {
            l.spans
                .iter()
                .map(|s| {
                    let code = style_code(s.style);
                    if code.is_empty() { s.content.to_string() } else { format!("«{code}:{}»", s.content) }
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The text only, without styles.
fn plain(r: &RenderedContent) -> String {
    r.lines
        .iter()
        .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

fn all_text(r: &RenderedContent) -> String {
    let mut s = plain(r);
    for l in &r.links {
        s.push('\n');
        s.push_str(&l.url);
        s.push('\n');
        s.push_str(&l.text);
    }
    s
}

fn assert_fits(r: &RenderedContent, width: usize, what: &str) {
    for (i, l) in r.lines.iter().enumerate() {
        let w = line_width(l);
        assert!(w <= width, "{what}: line {i} is {w} > {width} wide: {l:?}");
    }
    assert!(r.lines.last().is_none_or(|l| !is_blank(l)), "{what}: trailing blank line");
    assert!(r.lines.first().is_none_or(|l| !is_blank(l)), "{what}: leading blank line");
}

// ---------------------------------------------------------------------------------------------
// sanitize / display_width
// ---------------------------------------------------------------------------------------------

#[test]
fn sanitize_strips_escape_sequences() {
    let s = sanitize("\x1b[31mred\x1b[0m \x1b]52;c;aGk=\x07");
    assert!(!s.contains('\x1b'));
    assert!(!s.contains('\x07'));
    assert_eq!(s, "[31mred[0m ]52;c;aGk=");
}

#[test]
fn sanitize_strips_c1_del_and_bidi() {
    assert_eq!(sanitize("a\u{9b}31mb\u{85}c\u{7f}d"), "a31mbcd");
    assert_eq!(sanitize("abc\u{202E}fed\u{202C}"), "abcfed");
    assert_eq!(
        sanitize("\u{2066}x\u{2067}y\u{2068}z\u{2069}\u{200E}\u{200F}\u{061C}\u{202A}\u{202B}\u{202D}"),
        "xyz"
    );
    assert_eq!(sanitize("a\nb\tc\rd\0e"), "abcde");
}

#[test]
fn sanitize_keeps_normal_unicode() {
    for s in [
        "日本語のテキスト",
        "مرحبا بالعالم",
        "👨‍👩‍👧‍👦 family",
        "🏳️‍🌈 ❤️ 👍🏽",
        "e\u{301}le\u{300}ve",
        "🏴󠁧󠁢󠁳󠁣󠁴󠁿",
        "नमस्ते",
        "a\u{200D}b\u{200C}c",
        "non\u{A0}breaking",
    ] {
        assert_eq!(sanitize(s), s);
    }
}

#[test]
fn display_width_is_grapheme_aware() {
    assert_eq!(display_width("hello"), 5);
    assert_eq!(display_width("日本"), 4);
    assert_eq!(display_width("e\u{301}"), 1);
    assert_eq!(display_width("👍"), 2);
    assert_eq!(display_width("👨‍👩‍👧"), 2);
    assert_eq!(display_width("❤\u{FE0F}"), 2);
    assert_eq!(display_width("a\u{200D}"), 1);
    assert_eq!(display_width("\x1b"), 0);
    assert_eq!(display_width(""), 0);
}

// ---------------------------------------------------------------------------------------------
// Paragraphs, wrapping, inline styles
// ---------------------------------------------------------------------------------------------

#[test]
fn paragraphs_and_line_breaks() {
    let r = render("<p>First para.</p>\n<p>Second<br>\nline two</p>\n<p>third<br></p>", 40);
    assert_eq!(plain(&r), "First para.\n\nSecond\nline two\n\nthird");
}

#[test]
fn word_wrap_respects_width() {
    let text = "The quick brown fox jumps over the lazy dog and keeps running far away";
    let r = render(&format!("<p>{text}</p>"), 20);
    assert_eq!(plain(&r), "The quick brown fox\njumps over the lazy\ndog and keeps\nrunning far away");
    assert_fits(&r, 20, "wrap");
}

#[test]
fn long_word_is_hard_broken() {
    let hash: String = "0123456789abcdef".repeat(19).chars().take(300).collect();
    let r = render(&format!("<p>commit {hash} done</p>"), 33);
    assert_fits(&r, 33, "hash");
    let joined: String = plain(&r).split('\n').collect();
    assert!(joined.contains(&hash), "hash must survive intact: {joined}");
    assert!(r.lines.len() >= 10);
    // The hash starts on the first line (room is left after "commit").
    assert!(plain(&r).starts_with("commit 0123"));
}

#[test]
fn cjk_wraps_between_characters() {
    let r = render("<p>Hello 这是一个很长的中文句子没有空格但是需要换行显示</p>", 20);
    assert_fits(&r, 20, "cjk");
    let p = plain(&r);
    assert!(p.starts_with("Hello 这是一个"), "{p}");
    assert_eq!(p.replace('\n', ""), "Hello 这是一个很长的中文句子没有空格但是需要换行显示");
}

#[test]
fn inline_styles() {
    let r = render(
        "<p><strong>bold</strong> <em>it</em> <del>gone</del> <code>x = 1</code> <strong><em>both</em></strong></p>",
        80,
    );
    assert_eq!(dump(&r), "«b:bold» «i:it» «s:gone» «yellow:x = 1» «b,i:both»");
}

#[test]
fn whitespace_collapses_and_nbsp_stays() {
    let r = render("<p>  a \n\n  b\t\tc&nbsp;d  </p>", 40);
    assert_eq!(plain(&r), "a b c\u{a0}d");
}

#[test]
fn headings() {
    let r = render("<h1>Title</h1><h3>Sub</h3><p>text</p>", 40);
    assert_eq!(dump(&r), "«b,u:Title»\n\n«b:Sub»\n\ntext");
}

#[test]
fn blockquotes_nest() {
    let r = render(
        "<blockquote>\n<p>outer quote that wraps around</p>\n<blockquote>\n<p>inner</p>\n</blockquote>\n</blockquote>",
        20,
    );
    assert_eq!(plain(&r), "▎ outer quote that\n▎ wraps around\n▎\n▎ ▎ inner");
    assert_eq!(r.lines[0].spans[0].style, Theme::default().quote_bar);
    assert_fits(&r, 20, "quote");
}

#[test]
fn lists_nest_and_number() {
    let html = "<ul>\n<li>one</li>\n<li>two is a longer item that wraps\n<ul>\n<li>nested</li>\n<li>deeper\n<ul><li>third level</li></ul></li>\n</ul>\n</li>\n</ul>\n<ol start=\"9\">\n<li>nine</li>\n<li>ten</li>\n</ol>";
    let r = render(html, 24);
    assert_eq!(
        plain(&r),
        "• one\n\
         • two is a longer item\n  that wraps\n  \
         ◦ nested\n  \
         ◦ deeper\n    \
         ▪ third level\n\
         \n \
         9. nine\n\
         10. ten"
    );
    assert_fits(&r, 24, "lists");
}

#[test]
fn loose_list_items_with_paragraphs() {
    let r =
        render("<ol>\n<li>\n<p>para one</p>\n<p>para two</p>\n</li>\n<li>\n<p>next</p>\n</li>\n</ol>", 30);
    assert_eq!(plain(&r), "1. para one\n\n   para two\n2. next");
}

#[test]
fn horizontal_rule() {
    let r = render("<p>a</p><hr><p>b</p>", 12);
    assert_eq!(plain(&r), "a\n\n────────────\n\nb");
}

// ---------------------------------------------------------------------------------------------
// Code
// ---------------------------------------------------------------------------------------------

#[test]
fn code_block_with_language_and_highlighting() {
    let html = "<div class=\"codehilite\" data-code-language=\"Rust\"><pre><span></span><code><span class=\"k\">fn</span> <span class=\"nf\">main</span>() {\n    <span class=\"c1\">// hi</span>\n\tx  y\n}\n</code></pre></div>";
    let r = render(html, 40);
    assert_eq!(plain(&r), "╭─ rust\n│ fn main() {\n│     // hi\n│     x  y\n│ }\n╰─");
    assert_eq!(r.code_blocks, vec!["fn main() {\n    // hi\n\tx  y\n}".to_owned()]);
    let t = Theme::default();
    let fn_span = &r.lines[1].spans[1];
    assert_eq!(fn_span.content, "fn");
    assert_eq!(fn_span.style, t.code_text.patch(t.code_keyword));
}

#[test]
fn code_block_long_lines_hard_wrap() {
    let long = "x".repeat(25);
    let html = format!("<pre><code>{long}\n  short</code></pre>");
    let r = render(&html, 12);
    assert_eq!(plain(&r), "╭─\n│ xxxxxxxxxx\n┆ xxxxxxxxxx\n┆ xxxxx\n│   short\n╰─");
    assert_fits(&r, 12, "code");
    assert_eq!(r.code_blocks, vec![format!("{long}\n  short")]);
}

#[test]
fn code_block_language_from_class_and_escape_removed() {
    let r = render("<pre><code class=\"language-python\">print(\"\x1b[31m\")\n</code></pre>", 30);
    assert_eq!(plain(&r), "╭─ python\n│ print(\"[31m\")\n╰─");
    assert_eq!(r.code_blocks, vec!["print(\"[31m\")".to_owned()]);
}

#[test]
fn code_blocks_in_order() {
    let r = render("<pre>a</pre><p>x</p><pre>b\n\nc</pre>", 30);
    assert_eq!(r.code_blocks, vec!["a".to_owned(), "b\n\nc".to_owned()]);
    assert_eq!(plain(&r), "╭─\n│ a\n╰─\n\nx\n\n╭─\n│ b\n│\n│ c\n╰─");
}

// ---------------------------------------------------------------------------------------------
// Tables
// ---------------------------------------------------------------------------------------------

const TABLE: &str = "<table>\n<thead>\n<tr>\n<th>Name</th>\n<th style=\"text-align: right;\">Qty</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td><strong>apple</strong></td>\n<td style=\"text-align: right;\">3</td>\n</tr>\n<tr>\n<td>kiwi</td>\n<td style=\"text-align: right;\">12</td>\n</tr>\n</tbody>\n</table>";

#[test]
fn table_aligned_when_it_fits() {
    let r = render(TABLE, 40);
    assert_eq!(
        dump(&r),
        "«b:Name» «darkgray: │ »«b:Qty»\n\
         «darkgray:──────┼────»\n\
         «b:apple»«darkgray: │ »  3\n\
         kiwi «darkgray: │ » 12"
    );
}

#[test]
fn table_falls_back_when_too_wide() {
    let html = "<table><thead><tr><th>Key</th><th>Description</th></tr></thead><tbody>\
        <tr><td>a</td><td>a fairly long description that cannot fit</td></tr>\
        <tr><td>b</td><td>short</td></tr></tbody></table>";
    let r = render(html, 20);
    assert_eq!(
        plain(&r),
        "Key: a\nDescription:\n  a fairly long\n  description that\n  cannot fit\n\nKey: b\nDescription: short"
    );
    assert_fits(&r, 20, "table fallback");
}

#[test]
fn table_with_links_and_br_in_cells() {
    let html = "<table><tr><th>A</th><th>B</th></tr><tr><td><a href=\"https://x.org\">x</a></td><td>l1<br>l2</td></tr></table>";
    let r = render(html, 30);
    assert_eq!(plain(&r), "A    │ B\n─────┼───\nx[1] │ l1\n     │ l2");
    assert_eq!(r.links.len(), 1);
    assert_eq!(r.marks, vec![LinkMark { line: 2, col: 1, width: 3, number: 1 }], "a number in a table cell");
}

// ---------------------------------------------------------------------------------------------
// Links, mentions, channels
// ---------------------------------------------------------------------------------------------

#[test]
fn links_are_numbered_and_deduplicated() {
    let html = "<p><a href=\"https://a.example\">first</a>, <a href=\"https://b.example\">second</a> and <a href=\"https://a.example\">again</a> \
        <a class=\"message-link\" href=\"/#narrow/channel/9-general/topic/t/near/12\">#general &gt; t @ 💬</a></p>";
    let r = render(html, 80);
    assert_eq!(plain(&r), "first[1], second[2] and again[1] #general > t @ 💬[3]");
    assert_eq!(
        r.links,
        vec![
            LinkRef { url: "https://a.example".into(), text: "first".into(), is_image: false },
            LinkRef { url: "https://b.example".into(), text: "second".into(), is_image: false },
            LinkRef {
                url: "/#narrow/channel/9-general/topic/t/near/12".into(),
                text: "#general > t @ 💬".into(),
                is_image: false
            },
        ]
    );
    let t = Theme::default();
    assert_eq!(r.lines[0].spans[0].style, t.link);
    assert_eq!(r.lines[0].spans[1].content, "[1]");
    assert_eq!(r.lines[0].spans[1].style.fg, t.link_marker.fg);
    assert_eq!(r.lines[0].spans[1].style.add_modifier, t.link_marker.add_modifier);
    // Where each number is drawn, for link hints.
    assert_eq!(r.marks[0], LinkMark { line: 0, col: 5, width: 3, number: 1 });
    assert_eq!(r.marks.iter().map(|m| m.number).collect::<Vec<_>>(), vec![1, 2, 1, 3]);
    let wide = "first[1], second[2] and again[1] #general > t @ 💬";
    assert_eq!(r.marks[3].col as usize, display_width(wide), "columns count wide characters as two");
}

#[test]
fn channel_links_are_styled_and_numbered_to_open_here() {
    let html = "<p>see <a class=\"stream\" data-stream-id=\"9\" href=\"/#narrow/channel/9-general\">#general</a> and \
        <a class=\"stream-topic\" data-stream-id=\"9\" href=\"/#narrow/channel/9-general/topic/lunch\">#general &gt; lunch</a></p>";
    let r = render(html, 80);
    assert_eq!(dump(&r), "see «lightgreen:#general»«cyan:[1]» and «lightgreen:#general > lunch»«cyan:[2]»");
    let urls: Vec<&str> = r.links.iter().map(|l| l.url.as_str()).collect();
    assert_eq!(urls, ["/#narrow/channel/9-general", "/#narrow/channel/9-general/topic/lunch"]);
}

#[test]
fn mentions() {
    let html = "<p><span class=\"user-mention\" data-user-id=\"7\">@King Hamlet</span> \
        <span class=\"user-mention silent\" data-user-id=\"8\">Iago</span> \
        <span class=\"user-group-mention\" data-user-group-id=\"3\">@support</span> \
        <span class=\"user-group-mention silent\" data-user-group-id=\"3\">support</span> \
        <span class=\"topic-mention\">@topic</span> \
        <span class=\"user-mention channel-wildcard-mention\" data-user-id=\"*\">@channel</span></p>";
    let r = render(html, 80);
    assert_eq!(
        dump(&r),
        "«lightblue,b:@King Hamlet» «blue:Iago» «lightmagenta,b:@support» «magenta:support» \
         «lightyellow,b:@topic» «lightyellow,b:@channel»"
    );
    assert!(r.links.is_empty());
}

#[test]
fn mentions_do_not_break_inside() {
    let r =
        render("<p>hello there <span class=\"user-mention\" data-user-id=\"7\">@King Hamlet</span></p>", 20);
    assert_eq!(plain(&r), "hello there\n@King Hamlet");
}

// ---------------------------------------------------------------------------------------------
// Emoji, time, math, images
// ---------------------------------------------------------------------------------------------

#[test]
fn emoji() {
    let html = "<p><span aria-label=\"thumbs up\" class=\"emoji emoji-1f44d\" role=\"img\" title=\"thumbs up\">:thumbs_up:</span> \
        <span class=\"emoji emoji-1f468-200d-1f469-200d-1f467\" title=\"family\">:family:</span> \
        <span class=\"emoji emoji-2764\" title=\"heart\">:heart:</span> \
        <img alt=\":shipit:\" class=\"emoji\" src=\"/user_avatars/2/emoji/images/1.png\" title=\"shipit\"> \
        <span class=\"emoji emoji-zulip\" title=\"zulip\">:zulip:</span> \
        <span class=\"emoji emoji-d800\">:bad:</span></p>";
    let r = render(html, 80);
    assert_eq!(dump(&r), "👍 👨\u{200d}👩\u{200d}👧 ❤\u{fe0f} «lightyellow::shipit:» :zulip: :bad:");
    assert!(r.links.is_empty());
}

#[test]
fn time_uses_context() {
    let r = render("<p>Meet at <time datetime=\"2026-11-25T15:00:00Z\">2026-11-25T15:00:00Z</time>!</p>", 80);
    assert_eq!(dump(&r), "Meet at «lightcyan:Wed 25 Nov 15:00»!");
    let bad = render("<p><time datetime=\"garbage\">raw</time></p>", 80);
    assert_eq!(plain(&bad), "raw");
}

fn katex(tex: &str, display: bool) -> String {
    let inner = format!(
        "<span class=\"katex\"><span class=\"katex-mathml\"><math xmlns=\"http://www.w3.org/1998/Math/MathML\"><semantics><mrow><msup><mi>x</mi><mn>2</mn></msup></mrow>\
         <annotation encoding=\"application/x-tex\">{tex}</annotation></semantics></math></span>\
         <span class=\"katex-html\" aria-hidden=\"true\"><span class=\"base\"><span class=\"mord mathnormal\">x</span><span class=\"msupsub\">DUPLICATE</span></span></span></span>"
    );
    if display { format!("<span class=\"katex-display\">{inner}</span>") } else { inner }
}

#[test]
fn katex_shows_only_tex() {
    let html =
        format!("<p>Inline {} math.</p>\n<p>{}</p>", katex("x^2", false), katex("\\sum_{i=1}^n i", true));
    let r = render(&html, 80);
    assert_eq!(plain(&r), "Inline $$x^2$$ math.\n\n$$\\sum_{i=1}^n i$$");
    assert!(!all_text(&r).contains("DUPLICATE"));
    assert!(!all_text(&r).contains("x2"));
    assert_eq!(r.lines[0].spans[1].style, Theme::default().math);
}

#[test]
fn inline_images_reference_links() {
    let html = "<p><a href=\"https://x.org\">x</a> <a href=\"/user_uploads/2/ab/pasted.png\">pasted.png</a></p>\n\
        <div class=\"message_inline_image\"><a href=\"/user_uploads/2/ab/pasted.png\" title=\"pasted.png\">\
        <img data-original-dimensions=\"640x480\" src=\"/user_uploads/thumbnail/2/ab/pasted.png/840x560.webp\"></a></div>\
        <div class=\"message_inline_image\"><a href=\"https://example.com/cat.jpg\"><img src=\"https://example.com/cat.jpg\"></a></div>\
        <div class=\"youtube-video message_inline_image\"><a data-id=\"dQw\" href=\"https://www.youtube.com/watch?v=dQw\">\
        <img src=\"https://i.ytimg.com/vi/dQw/default.jpg\"></a></div>";
    let r = render(html, 60);
    // Pictures are numbered as `I` shows them, apart from links; each label ends in its link's
    // number, as a link's text does.
    assert_eq!(
        plain(&r),
        "x[1] pasted.png[2]\n[image 1] pasted.png[2]\n[image 2] https://example.com/cat.jpg[3]\n[video] https://www.youtube.com/watch?v=dQw[4]"
    );
    let previews = crate::content::Document::parse(html).summary(&CLOSED).previews;
    assert_eq!(previews.len(), 2, "`I` shows the two pictures, in the labels' order: {previews:?}");
    assert_eq!(r.links.len(), 4);
    assert!(r.links[1].is_image);
    assert_eq!(r.links[1].text, "pasted.png");
    assert!(r.links[2].is_image);
    assert!(!r.links[3].is_image);
}

#[test]
fn audio_and_video_elements() {
    let html = "<p><audio controls preload=\"metadata\" src=\"/user_uploads/2/a/song.mp3\" title=\"song.mp3\">fallback</audio></p>\
        <div class=\"message_inline_image message_inline_video\"><a href=\"/user_uploads/2/b/clip.mp4\" title=\"clip.mp4\">\
        <video preload=\"metadata\" src=\"/user_uploads/2/b/clip.mp4\"></video></a></div>";
    let r = render(html, 40);
    assert_eq!(plain(&r), "[audio] song.mp3[1]\n[video] clip.mp4[2]");
    assert!(!r.links[0].is_image && !r.links[1].is_image);
}

#[test]
fn bare_img_is_numbered() {
    // Not an inline image's picture (`I` does not show it): only its link's number.
    let r = render("<p>look <img src=\"https://x.org/a.png\" alt=\"a cat\"></p>", 40);
    assert_eq!(plain(&r), "look [image] a cat[1]");
    assert!(r.links[0].is_image);
}

// ---------------------------------------------------------------------------------------------
// Spoilers
// ---------------------------------------------------------------------------------------------

const SPOILER: &str = "<div class=\"spoiler-block\"><div class=\"spoiler-header\">\n<p>Plot <strong>twist</strong></p>\n</div><div class=\"spoiler-content\" aria-hidden=\"true\">\n\
    <p>The butler SECRETWORD did it <a href=\"https://hidden.example\">proof</a></p>\n</div></div>\n\
    <p>after</p>\n\
    <div class=\"spoiler-block\"><div class=\"spoiler-header\">\n</div><div class=\"spoiler-content\" aria-hidden=\"true\">\n<p>second HIDDEN2</p>\n</div></div>";

#[test]
fn spoiler_hint_dropped_when_too_narrow() {
    // Width 10 leaves 8 columns for the header: no room for " (spoiler)", even on its own line.
    let r = render(
        "<div class=\"spoiler-block\"><div class=\"spoiler-header\"><p>Headline</p></div><div class=\"spoiler-content\"><p>x</p></div></div>",
        10,
    );
    assert_eq!(plain(&r), "▶ Headline");
    let r =
        render("<div class=\"spoiler-block\"><div class=\"spoiler-header\"><p>Headline</p></div></div>", 12);
    assert_eq!(plain(&r), "▶ Headline\n  (spoiler)");
}

#[test]
fn spoiler_closed_hides_content() {
    let r = render(SPOILER, 40);
    assert_eq!(r.spoilers, 2);
    assert_eq!(plain(&r), "▶ Plot twist (spoiler)\n\nafter\n\n▶ Spoiler (spoiler)");
    let text = all_text(&r);
    assert!(!text.contains("SECRETWORD"));
    assert!(!text.contains("HIDDEN2"));
    assert!(!text.contains("hidden.example"));
    assert!(r.links.is_empty());
}

#[test]
fn spoiler_open_shows_content() {
    let r = render_open(SPOILER, 40, &[0]);
    assert_eq!(r.spoilers, 2);
    assert_eq!(
        plain(&r),
        "▼ Plot twist (spoiler)\n┊ The butler SECRETWORD did it proof[1]\n\nafter\n\n▶ Spoiler (spoiler)"
    );
    assert!(!all_text(&r).contains("HIDDEN2"));
    assert_eq!(r.links.len(), 1);
    let r = render_open(SPOILER, 40, &[1]);
    assert!(all_text(&r).contains("HIDDEN2"));
    assert!(!all_text(&r).contains("SECRETWORD"));
}

#[test]
fn nested_spoiler_indices_are_stable() {
    let html = "<div class=\"spoiler-block\"><div class=\"spoiler-header\"><p>outer</p></div><div class=\"spoiler-content\">\
        <div class=\"spoiler-block\"><div class=\"spoiler-header\"><p>inner</p></div><div class=\"spoiler-content\"><p>DEEP</p></div></div>\
        </div></div><div class=\"spoiler-block\"><div class=\"spoiler-header\"><p>last</p></div><div class=\"spoiler-content\"><p>LAST</p></div></div>";
    let closed = render(html, 40);
    assert_eq!(closed.spoilers, 3);
    // Opening spoiler 2 (the last one) works whether or not the outer one is open.
    let r = render_open(html, 40, &[2]);
    assert!(all_text(&r).contains("LAST") && !all_text(&r).contains("DEEP"));
    let r = render_open(html, 40, &[0, 2]);
    assert!(all_text(&r).contains("LAST") && !all_text(&r).contains("DEEP"));
    assert!(all_text(&r).contains("inner"));
    let r = render_open(html, 40, &[0, 1]);
    assert!(all_text(&r).contains("DEEP") && !all_text(&r).contains("LAST"));
}

#[test]
fn malformed_spoilers_do_not_leak() {
    // Stray content, stray text inside the block, content wrapped in another element.
    let html = "<div class=\"spoiler-content\"><p>STRAY</p></div>\
        <div class=\"spoiler-block\">LOOSE<div><div class=\"spoiler-content\">WRAPPED</div></div></div>\
        <span class=\"spoiler-block\"><span class=\"spoiler-header\">h</span><span class=\"spoiler-content\">INLINE</span></span>";
    let r = render(html, 40);
    let text = all_text(&r);
    for word in ["STRAY", "LOOSE", "WRAPPED", "INLINE"] {
        assert!(!text.contains(word), "{word} leaked: {text}");
    }
    assert_eq!(r.spoilers, 4);
}

#[test]
fn deep_spoilers_do_not_leak_in_flat_mode() {
    let deep = "<div>".repeat(60);
    let html = format!(
        "{deep}<p>visible</p>{SPOILER}<div class=\"spoiler-content\"><p>STRAYDEEP</p></div>{}",
        "</div>".repeat(60)
    );
    let r = render(&html, 40);
    let text = all_text(&r);
    assert!(text.contains("visible"));
    assert!(text.contains("Plot twist"));
    for word in ["SECRETWORD", "HIDDEN2", "hidden.example", "STRAYDEEP"] {
        assert!(!text.contains(word), "{word} leaked: {text}");
    }
    assert_eq!(r.spoilers, 3);
    let open = render_open(&html, 40, &[0, 1, 2]);
    let text = all_text(&open);
    for word in ["SECRETWORD", "HIDDEN2", "hidden.example", "STRAYDEEP"] {
        assert!(text.contains(word), "{word} missing: {text}");
    }
    assert_eq!(open.links.len(), 1);
}

// ---------------------------------------------------------------------------------------------
// Unknown elements, comments, scripts
// ---------------------------------------------------------------------------------------------

#[test]
fn unknown_elements_scripts_and_comments() {
    let html = "<p>a <custom-tag>inside</custom-tag> <!-- hidden comment --> b</p>\
        <script>alert('x')</script><style>p{color:red}</style><p>c<noscript>nos</noscript></p>";
    let r = render(html, 40);
    assert_eq!(plain(&r), "a inside b\n\nc");
}

#[test]
fn entities_are_decoded() {
    let r = render("<p>&lt;b&gt; &amp; &quot;q&quot; &#x1F600; &eacute;</p>", 40);
    assert_eq!(plain(&r), "<b> & \"q\" 😀 é");
}

#[test]
fn bidi_and_escapes_in_html_text_are_removed() {
    let r = render(
        "<p>evil \u{202E}txt.exe\u{202C} \x1b[2J<a href=\"https://x\u{1b}.org\">l\u{9b}ink</a></p>",
        40,
    );
    let text = all_text(&r);
    for bad in ['\u{202E}', '\u{202C}', '\x1b', '\u{9b}'] {
        assert!(!text.contains(bad));
    }
    assert_eq!(plain(&r), "evil txt.exe [2Jlink[1]");
    assert_eq!(r.links[0].url, "https://x.org");
}

#[test]
fn empty_and_whitespace_input() {
    assert!(render("", 40).lines.is_empty());
    assert!(render("  \n <p> </p> <br>", 40).lines.is_empty());
}

// ---------------------------------------------------------------------------------------------
// Real-world Zulip messages
// ---------------------------------------------------------------------------------------------

#[test]
fn zulip_quote_and_reply() {
    let html = "<p><span class=\"user-mention silent\" data-user-id=\"10\">Othello, the Moor of Venice</span> <a href=\"http://zulip.example/#narrow/channel/3-Denmark/topic/castle/near/70\">said</a>:</p>\n\
        <blockquote>\n<p>We should meet at <time datetime=\"2026-11-25T15:00:00Z\">2026-11-25T15:00:00Z</time> to discuss <code>deploy.sh</code> <span class=\"emoji emoji-1f680\" title=\"rocket\">:rocket:</span></p>\n</blockquote>\n\
        <p>Sounds good <span class=\"user-mention\" data-user-id=\"10\">@Othello, the Moor of Venice</span>!</p>";
    let r = render(html, 40);
    assert_eq!(
        dump(&r),
        "«blue:Othello, the Moor of Venice» «cyan,u:said»«cyan:[1]»:\n\
         \n\
         «darkgray:▎ »We should meet at «lightcyan:Wed 25 Nov 15:00» to\n\
         «darkgray:▎ »discuss «yellow:deploy.sh» 🚀\n\
         \n\
         Sounds good\n\
         «lightblue,b:@Othello, the Moor of Venice»!"
    );
    assert_eq!(r.links[0].text, "said");
    assert_fits(&r, 40, "quote reply");
}

#[test]
fn zulip_release_notes_message() {
    let html = "<h2>Release 2.0</h2>\n<p>Highlights for <span class=\"user-group-mention\" data-user-group-id=\"5\">@backend</span>:</p>\n\
        <ul>\n<li><strong>Faster</strong> sync (<a href=\"https://github.com/example/repo/pull/123\">#123</a>)</li>\n\
        <li>New <code>--json</code> flag</li>\n</ul>\n\
        <div class=\"codehilite\" data-code-language=\"Bash\"><pre><span></span><code>cargo<span class=\"w\"> </span>install<span class=\"w\"> </span>topicterm\n</code></pre></div>\n\
        <p>Discuss in <a class=\"stream-topic\" data-stream-id=\"4\" href=\"/#narrow/channel/4-releases/topic/2.2E0\">#releases &gt; 2.0</a>.</p>";
    let r = render(html, 40);
    assert_eq!(
        plain(&r),
        "Release 2.0\n\
         \n\
         Highlights for @backend:\n\
         \n\
         • Faster sync (#123[1])\n\
         • New --json flag\n\
         \n\
         ╭─ bash\n\
         │ cargo install topicterm\n\
         ╰─\n\
         \n\
         Discuss in #releases > 2.0[2]."
    );
    assert_eq!(r.code_blocks, vec!["cargo install topicterm".to_owned()]);
    assert_eq!(r.links.len(), 2, "the topic link opens here");
    assert_fits(&r, 40, "release notes");
}

#[test]
fn zulip_message_embed_preview() {
    let html = "<p><a href=\"https://example.com/post\">https://example.com/post</a></p>\n\
        <div class=\"message_embed\"><a class=\"message_embed_image\" href=\"https://example.com/post\" style=\"background-image: url(&quot;https://example.com/i.png&quot;)\"></a>\
        <div class=\"data-container\"><div class=\"message_embed_title\"><a href=\"https://example.com/post\" title=\"A Post\">A Post</a></div>\
        <div class=\"message_embed_description\">Some description.</div></div></div>";
    let r = render(html, 60);
    assert_eq!(plain(&r), "https://example.com/post[1]\n\nA Post[1]\n\nSome description.");
    assert_eq!(r.links.len(), 1);
}

// ---------------------------------------------------------------------------------------------
// Width invariant and robustness
// ---------------------------------------------------------------------------------------------

fn corpus() -> Vec<String> {
    let mut v: Vec<String> = vec![
        "<p>日本語のテキストはスペースなしで長く続きます。これは折り返しのテストです。</p>".into(),
        "<p>👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦 emoji 🏳️‍🌈🏳️‍🌈🏳️‍🌈🏳️‍🌈🏳️‍🌈🏳️‍🌈🏳️‍🌈 👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽</p>".into(),
        "<p>Ze\u{301}\u{302}\u{303}lgo\u{308}\u{309} te\u{301}xt wi\u{336}th co\u{301}mbining ma\u{300}rks</p>".into(),
        format!("<p>{}</p>", "a".repeat(300)),
        format!("<p>x {} y</p>", "日".repeat(100)),
        format!("<p><a href=\"https://example.com/{0}\">https://example.com/{0}</a></p>", "p".repeat(200)),
        TABLE.into(),
        "<table><tr><th>日本語の見出し</th><th>emoji 👍</th><th>c</th></tr><tr><td>長いセルの内容がここにあります</td><td>👨‍👩‍👧</td><td>x</td></tr></table>".into(),
        "<div class=\"codehilite\" data-code-language=\"VeryLongLanguageNameForTesting\"><pre><code>\tindented 日本語 code with a very long line that must wrap somewhere 👍👍👍\n</code></pre></div>".into(),
        "<blockquote><blockquote><blockquote><blockquote><blockquote><p>deep quote text here</p></blockquote></blockquote></blockquote></blockquote></blockquote>".into(),
        "<ol start=\"99999\"><li><ul><li><ul><li><ul><li><ul><li>deep list item 日本</li></ul></li></ul></li></ul></li></ul></li></ol>".into(),
        SPOILER.into(),
        format!("<p>{}</p>", katex("\\frac{a}{b} + \\sqrt{x^2 + y^2} + \\int_0^\\infty e^{-x} dx", true)),
        "<p><span class=\"user-mention\" data-user-id=\"1\">@Someone With A Really Long Display Name</span></p>".into(),
        "<h1>A heading that is long enough to wrap</h1><hr><p>ｶﾞｷﾞｸﾞ halfwidth</p>".into(),
        "<p>\u{FFFD}\u{200B}\u{200B}\u{200B}zero width\u{200D}\u{200D}joiners</p>".into(),
    ];
    v.push(v.concat());
    v
}

#[test]
fn every_line_fits_for_all_widths() {
    for html in corpus() {
        for width in [0u16, 1, 3, 9, 10, 11, 13, 20, 33, 80] {
            for open in [&[][..], &[0, 1, 2, 3][..]] {
                let r = render_open(&html, width, open);
                let w = usize::from(width).max(10);
                assert_fits(&r, w, &format!("width {width}: {html}"));
            }
        }
    }
}

#[test]
fn deep_nesting_completes() {
    for tag in ["blockquote", "div", "ul", "li", "span", "strong", "table", "a href=x"] {
        let close = tag.split(' ').next().unwrap_or(tag);
        let html =
            format!("{}deep text{}", format!("<{tag}>").repeat(10_000), format!("</{close}>").repeat(10_000));
        let r = render(&html, 20);
        let text = plain(&r).replace('\n', "");
        assert!(text.contains("deep") && text.contains("text"), "{tag}: {text}");
        assert_fits(&r, 20, tag);
    }
}

#[test]
fn deep_mixed_nesting_keeps_features() {
    let open = "<blockquote><ul><li>".repeat(40);
    let close = "</li></ul></blockquote>".repeat(40);
    let html = format!(
        "{open}<p>text <strong>bold</strong> <a href=\"https://deep.example\">deep</a> {}</p><pre>code</pre>{close}",
        katex("y", false)
    );
    let r = render(&html, 80);
    let text = all_text(&r);
    assert!(text.contains("deep[1]"), "{text}");
    assert!(text.contains("$$y$$"));
    assert!(!text.contains("DUPLICATE"));
    assert_eq!(r.code_blocks, vec!["code".to_owned()]);
    assert_fits(&r, 80, "mixed");
}

#[test]
fn malformed_html_does_not_panic() {
    for html in [
        "<p><b>unclosed <i>tags <a href='x'>here",
        "</p></div></blockquote>",
        "<table><td>cell<tr><th>x</table>stuff",
        "<ul><p>not an item</p>text<li>item",
        "<div class=\"spoiler-block\"><div class=\"spoiler-header\">",
        "<pre><code>",
        "<<<>>><a href=>&&&;&#xFFFFFFFF;&#0;",
        "<span class=\"emoji emoji-\">x</span><span class=\"emoji emoji-110000\">y</span>",
        "<ol start=\"-9223372036854775808\"><li>a</li><li>b</li></ol>",
        "<ol start=\"9223372036854775807\"><li>a</li><li>b</li></ol>",
        "<time datetime=\"9999999-99-99\">t</time>",
        "<table></table><table><tr></tr></table>",
        "<img><img src=\"\"><img class=\"emoji\">",
    ] {
        for width in [0, 10, 33] {
            let r = render(html, width);
            assert_fits(&r, usize::from(width).max(10), html);
        }
    }
}

#[test]
fn large_input_is_fast() {
    let words = "lorem ipsum dolor sit amet 日本語 👍 ".repeat(30_000);
    let inputs = [
        format!("<p>{words}</p>"),
        format!("<p>{}</p>", "x".repeat(1 << 20)),
        format!("<pre><code>{}</code></pre>", "let x = 1;\n".repeat(100_000)),
        format!("<table>{}</table>", "<tr><td>a</td><td><b>b</b></td></tr>".repeat(20_000)),
        "<p><a href=\"https://x.org\">link</a> <strong>b</strong></p>".repeat(20_000),
    ];
    for html in &inputs {
        let start = std::time::Instant::now();
        let r = render(html, 80);
        let elapsed = start.elapsed();
        assert!(!r.lines.is_empty());
        assert_fits(&r, 80, "large");
        if !cfg!(debug_assertions) {
            assert!(
                elapsed < std::time::Duration::from_millis(900),
                "took {elapsed:?} for {} bytes",
                html.len()
            );
        }
    }
}

#[test]
fn theme_is_applied() {
    let theme = Theme { strong: Style::new().fg(Color::Red), ..Theme::default() };
    let r = render_html_with_theme("<p><strong>x</strong></p>", 20, &CLOSED, &theme);
    assert_eq!(dump(&r), "«red:x»");
}

#[test]
fn pathological_nesting_is_refused_quickly() {
    let n = 200_000;
    let inputs = [
        "<div>".repeat(n / 5),
        "<ul><li>".repeat(n / 8),
        "<em><div>".repeat(n / 9),
        (0..n / 12).map(|i| format!("<b id={i}>")).collect::<String>(),
        (0..n / 14).map(|i| format!("<p><b id={i}>x")).collect::<String>(),
        format!("<p{}>x</p>", (0..n / 7).map(|i| format!(" a{i}")).collect::<String>()),
        format!("{}{}", "<span>".repeat(n / 12), "</x>".repeat(n / 8)),
    ];
    for html in &inputs {
        assert!(parse_too_costly(html), "{}", &html[..40]);
        let r = render(html, 40);
        assert_eq!(plain(&r).replace('\n', " "), TOO_COMPLEX);
        assert!(r.links.is_empty() && r.spoilers == 0);
    }
}

#[test]
fn normal_content_is_not_refused() {
    let message = format!(
        "{TABLE}{SPOILER}<blockquote><ul><li>a<ol><li>b</li></ol></li></ul></blockquote>\
         <p><b>x</b><a href=\"https://x.org\" title=\"t\">y</a><span class=\"user-mention\" data-user-id=\"1\">@z</span></p>{}",
        katex("x", true)
    );
    assert!(!parse_too_costly(&message.repeat(2_000)));
    for tag in ["div", "blockquote", "ul", "span", "b", "table"] {
        let html = format!("{}x{}", format!("<{tag}>").repeat(10_000), format!("</{tag}>").repeat(10_000));
        assert!(!parse_too_costly(&html), "{tag}");
    }
    // Markup-looking text inside raw-text elements and comments is not markup.
    let html = format!("<script>{}</script><!--{}-->", "<div>".repeat(100_000), "<div>".repeat(100_000));
    assert!(!parse_too_costly(&html));
}

#[test]
fn sanitize_cuts_stacked_combining_marks() {
    let zalgo = format!("Z{}a", "\u{301}".repeat(100_001));
    let clean = sanitize(&zalgo);
    assert_eq!(clean, format!("Z{}a", "\u{301}".repeat(8)));
    assert_eq!(display_width(&clean), 2);
}

#[test]
fn spoiler_numbering_ignores_what_is_not_walked() {
    // A spoiler inside math (whose content is never walked) still takes its index, so the last
    // spoiler is number 2 whether or not the first is open (found by fuzzing).
    let html = "<div class=\"spoiler-block\"><div class=\"spoiler-content\"><span class=\"katex\">\
        <div class=\"spoiler-block\"></div></span></div></div>\
        <div class=\"spoiler-block\"><div class=\"spoiler-header\"><p>last</p></div>\
        <div class=\"spoiler-content\"><p>LAST</p></div></div>";
    assert_eq!(render(html, 40).spoilers, 3);
    assert_eq!(render_open(html, 40, &[0]).spoilers, 3);
    assert!(all_text(&render_open(html, 40, &[0, 2])).contains("LAST"));
    assert!(!all_text(&render_open(html, 40, &[0, 1])).contains("LAST"));
    // An `<html>` tag only gives the root attributes: not a spoiler, nothing hidden.
    let r = render("<html class=\"spoiler-content\"><p>shown</p>", 40);
    assert_eq!((plain(&r).as_str(), r.spoilers), ("shown", 0));
}

#[test]
fn spoilers_inside_code_math_and_media_stay_hidden() {
    // Never Zulip's markup, but elements rendered without walking them must not show what a
    // spoiler in them hides (found by fuzzing).
    let hide = |x: &str| format!("<span class=\"spoiler-content\">{x}</span>");
    let html = format!(
        "<pre><code class=\"spoiler-content language-LANGX\">CODEX</code>{}</pre>\
         <p><span class=\"katex\"><annotation encoding=\"application/x-tex\">y{}</annotation></span></p>\
         <div class=\"message_inline_image\"><a class=\"spoiler-content\" href=\"https://hidden.example\">i</a>\
         <a href=\"https://shown.example\">s</a></div>",
        hide("SECRET1"),
        hide("SECRET2")
    );
    let r = render(&html, 60);
    let text = all_text(&r);
    for word in ["langx", "CODEX", "SECRET1", "SECRET2", "hidden.example"] {
        assert!(!text.contains(word), "{word} leaked: {text}");
    }
    assert!(text.contains("$$y$$") && text.contains("shown.example"), "{text}");
}

/// Markdown image syntax from level 437: an `<img class="inline-image">` whose `src` is a
/// thumbnail, or the loading spinner until the thumbnail is made. Its link is the file
/// (`data-original-src`), never the spinner or the thumbnail.
#[test]
fn an_inline_image_links_its_file_not_its_thumbnail_or_the_spinner() {
    for (class, src) in [
        ("inline-image", "/user_uploads/thumbnail/2/ab/x.png/840x560.webp"),
        ("inline-image image-loading-placeholder", "/static/images/loading/loader-black.svg"),
    ] {
        let html = format!(
            "<ul><li><img alt=\"chart\" class=\"{class}\" data-original-dimensions=\"1050x700\" data-original-src=\"/user_uploads/2/ab/x.png\" src=\"{src}\"></li></ul>"
        );
        let r = render(&html, 40);
        assert_eq!(r.links.len(), 1, "{html}");
        assert_eq!(r.links[0].url, "/user_uploads/2/ab/x.png", "{class}");
        assert!(plain(&r).contains("[image] chart[1]"), "{}", plain(&r));
    }
    // A spinner with no file named is no link at all.
    let r = render(
        "<p><img class=\"image-loading-placeholder\" alt=\"x\" src=\"/static/images/loading/loader-black.svg\"></p>",
        40,
    );
    assert!(r.links.is_empty(), "{:?}", r.links);
}
