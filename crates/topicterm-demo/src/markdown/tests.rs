//! The renderer's tests, through `render` and the helpers they pin down.

use super::fences::MAX_FENCE_DEPTH;
use super::links::encode_hash_component;
use super::math::katex_html;
use super::*;
use std::time::{Duration, Instant};

/// Alice Smith (7), Bob (8); group backend (3); channels design (9) and
/// general chat (10); custom emoji party_parrot.
struct TestContext;

const USERS: [(i64, &str); 2] = [(7, "Alice Smith"), (8, "Bob")];

impl RenderContext for TestContext {
    fn user_by_name(&self, full_name: &str) -> Option<(i64, String)> {
        USERS
            .iter()
            .find(|(_, name)| name.eq_ignore_ascii_case(full_name))
            .map(|&(id, name)| (id, name.to_owned()))
    }
    fn user_by_id(&self, id: i64) -> Option<String> {
        USERS.iter().find(|(i, _)| *i == id).map(|(_, name)| (*name).to_owned())
    }
    fn group_by_name(&self, name: &str) -> Option<(i64, String)> {
        (name == "backend").then(|| (3, name.to_owned()))
    }
    fn channel_by_name(&self, name: &str) -> Option<(i64, String)> {
        match name {
            "design" => Some((9, name.to_owned())),
            "general chat" => Some((10, name.to_owned())),
            _ => None,
        }
    }
    fn realm_emoji(&self, name: &str) -> Option<(String, String)> {
        (name == "party_parrot").then(|| ("1".to_owned(), "/user_avatars/2/emoji/images/1.gif".to_owned()))
    }
    fn upload_dimensions(&self, href: &str) -> Option<(u32, u32)> {
        (href == "/user_uploads/2/ef/dot.png").then_some((64, 48))
    }
}

fn full(markdown: &str) -> Rendered {
    let rendered = render(markdown, &TestContext);
    assert_well_formed(&rendered.html);
    rendered
}

fn html(markdown: &str) -> String {
    full(markdown).html
}

/// Every element closes in order, `<a>` never nests, and no placeholder
/// leaks. Text never holds a raw `<`, so a tag scan is enough.
fn assert_well_formed(html: &str) {
    let mut stack: Vec<&str> = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find('<') {
        let end = start + rest[start..].find('>').expect("unterminated tag");
        let tag = &rest[start + 1..end];
        rest = &rest[end + 1..];
        let name = tag.trim_start_matches('/').split(' ').next().unwrap_or("");
        assert!(
            !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric()),
            "bad tag {tag:?} in {html}"
        );
        if matches!(name, "br" | "hr" | "img") {
            continue;
        }
        if tag.starts_with('/') {
            assert_eq!(stack.pop(), Some(name), "misnested </{name}> in {html}");
        } else {
            assert!(!(name == "a" && stack.contains(&"a")), "nested <a> in {html}");
            stack.push(name);
        }
    }
    assert!(stack.is_empty(), "unclosed {stack:?} in {html}");
    assert!(!html.contains([PH_START, PH_END]), "placeholder leaked: {html}");
}

#[test]
fn paragraphs_and_inline_formatting() {
    assert_eq!(
        html("Hello **bold** *it* ~~gone~~\n\nNext"),
        "<p>Hello <strong>bold</strong> <em>it</em> <del>gone</del></p>\n<p>Next</p>"
    );
}

#[test]
fn single_newline_is_a_line_break() {
    assert_eq!(html("one\ntwo"), "<p>one<br>\ntwo</p>");
}

#[test]
fn single_tilde_stays_literal() {
    assert_eq!(html("~a~ and ~~b~~"), "<p>~a~ and <del>b</del></p>");
}

#[test]
fn inline_code() {
    assert_eq!(html("use `a < b` here"), "<p>use <code>a &lt; b</code> here</p>");
}

#[test]
fn code_spans_are_not_processed() {
    let rendered =
        full("`@**Alice Smith**` `#**design**` `:smile:` `https://x.org` `$$x$$` `<time:2026-01-01>`");
    assert_eq!(
        rendered.html,
        "<p><code>@**Alice Smith**</code> <code>#**design**</code> <code>:smile:</code> <code>https://x.org</code> <code>$$x$$</code> <code>&lt;time:2026-01-01&gt;</code></p>"
    );
    assert!(rendered.mentioned_user_ids.is_empty() && !rendered.has_link);
}

#[test]
fn headings_and_rule() {
    assert_eq!(html("# One\n###### Six\n\n---"), "<h1>One</h1>\n<h6>Six</h6>\n<hr>");
}

#[test]
fn blockquote() {
    assert_eq!(html("> quoted\n> more"), "<blockquote>\n<p>quoted<br>\nmore</p>\n</blockquote>");
}

#[test]
fn nested_lists() {
    assert_eq!(
        html("- a\n  - b\n    1. c\n- d"),
        "<ul>\n<li>a<ul>\n<li>b<ol>\n<li>c</li>\n</ol>\n</li>\n</ul>\n</li>\n<li>d</li>\n</ul>"
    );
    assert_eq!(html("3. x\n4. y"), "<ol start=\"3\">\n<li>x</li>\n<li>y</li>\n</ol>");
}

#[test]
fn table() {
    assert_eq!(
        html("| a | b |\n|:--|--:|\n| 1 | **2** |"),
        "<table>\n<thead>\n<tr>\n<th style=\"text-align: left;\">a</th>\n<th style=\"text-align: right;\">b</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td style=\"text-align: left;\">1</td>\n<td style=\"text-align: right;\"><strong>2</strong></td>\n</tr>\n</tbody>\n</table>"
    );
}

#[test]
fn links() {
    let rendered = full("[docs](https://example.com/a?b=1&c=2 \"T\")");
    assert_eq!(rendered.html, "<p><a href=\"https://example.com/a?b=1&amp;c=2\" title=\"T\">docs</a></p>");
    assert!(rendered.has_link && !rendered.has_image && !rendered.has_attachment);
    assert_eq!(html("[x](example.com)"), "<p><a href=\"http://example.com\">x</a></p>");
    assert_eq!(html("[me](me@example.com)"), "<p><a href=\"mailto:me@example.com\">me</a></p>");
    assert_eq!(html("<https://a.org/x>"), "<p><a href=\"https://a.org/x\">https://a.org/x</a></p>");
    assert_eq!(html("<me@x.org>"), "<p><a href=\"mailto:me@x.org\">me@x.org</a></p>");
}

#[test]
fn bare_urls_are_linked() {
    let rendered =
        full("see https://x.y/z. and (www.rust-lang.org) or https://en.wikipedia.org/wiki/Rust_(language)");
    assert_eq!(
        rendered.html,
        "<p>see <a href=\"https://x.y/z\">https://x.y/z</a>. and (<a href=\"http://www.rust-lang.org\">www.rust-lang.org</a>) or <a href=\"https://en.wikipedia.org/wiki/Rust_(language)\">https://en.wikipedia.org/wiki/Rust_(language)</a></p>"
    );
    assert!(rendered.has_link);
    assert_eq!(html("xhttp://a.b and http://"), "<p>xhttp://a.b and http://</p>");
    // Not inside link text.
    assert_eq!(html("[https://a.b](https://c.d)"), "<p><a href=\"https://c.d\">https://a.b</a></p>");
}

#[test]
fn unsafe_links_are_not_linked() {
    let rendered = full("[click](javascript:alert(1)) <javascript:alert(2)>");
    assert_eq!(rendered.html, "<p>click javascript:alert(2)</p>");
    assert!(!rendered.has_link);
    assert_eq!(html("![x](javascript:alert(1))"), "<p>x</p>");
}

#[test]
fn fenced_code() {
    let rendered =
        full("```Rust\nfn main() { let x = 1 < 2; }\n// @**Alice Smith** :smile: https://x.y\n```");
    assert_eq!(
        rendered.html,
        "<div class=\"codehilite\" data-code-language=\"Rust\"><pre><span></span><code>fn main() { let x = 1 &lt; 2; }\n// @**Alice Smith** :smile: https://x.y\n</code></pre></div>"
    );
    assert!(rendered.mentioned_user_ids.is_empty() && !rendered.has_link);
    assert_eq!(
        html("```\nplain\n```"),
        "<div class=\"codehilite\"><pre><span></span><code>plain\n</code></pre></div>"
    );
    assert_eq!(
        html("    indented"),
        "<div class=\"codehilite\"><pre><span></span><code>indented\n</code></pre></div>"
    );
}

#[test]
fn unbalanced_fences() {
    assert_eq!(
        html("```python\nx = 1"),
        "<div class=\"codehilite\" data-code-language=\"python\"><pre><span></span><code>x = 1\n</code></pre></div>"
    );
    assert_eq!(
        html("```spoiler Open\nhidden"),
        "<div class=\"spoiler-block\"><div class=\"spoiler-header\">\n<p>Open</p>\n</div><div class=\"spoiler-content\" aria-hidden=\"true\">\n<p>hidden</p>\n</div></div>"
    );
    assert_eq!(
        html("```quote\n```python\nx\n```"),
        "<blockquote>\n<div class=\"codehilite\" data-code-language=\"python\"><pre><span></span><code>x\n</code></pre></div>\n</blockquote>"
    );
    assert_eq!(
        html("text\n```"),
        "<p>text</p>\n<div class=\"codehilite\"><pre><span></span><code></code></pre></div>"
    );
    for source in
        ["```", "~~~~\n```", "```quote\n~~~spoiler\n```math", "> ```quote\n> x", "- ```spoiler\n  - ```"]
    {
        html(source);
    }
}

#[test]
fn image() {
    let rendered = full("Look ![a cat](https://img.example/cat.png) here\n\nafter");
    assert_eq!(
        rendered.html,
        "<p>Look <a href=\"https://img.example/cat.png\">a cat</a> here</p>\n<div class=\"message_inline_image\"><a href=\"https://img.example/cat.png\" title=\"a cat\"><img src=\"https://img.example/cat.png\"></a></div>\n<p>after</p>"
    );
    assert!(rendered.has_image && rendered.has_link && !rendered.has_attachment);
    // Inside a list, the preview follows the whole list.
    assert_eq!(
        html("- ![](/i.gif)"),
        "<ul>\n<li><a href=\"/i.gif\">/i.gif</a></li>\n</ul>\n<div class=\"message_inline_image\"><a href=\"/i.gif\"><img src=\"/i.gif\"></a></div>"
    );
    // An image in a link doesn't nest anchors.
    assert_eq!(
        html("[![alt](/p.png)](https://x.y)"),
        "<p><a href=\"https://x.y\">alt</a></p>\n<div class=\"message_inline_image\"><a href=\"/p.png\" title=\"alt\"><img src=\"/p.png\"></a></div>"
    );
}

#[test]
fn uploaded_files() {
    let rendered = full("[report.pdf](/user_uploads/2/ab/report.pdf)");
    assert_eq!(rendered.html, "<p><a href=\"/user_uploads/2/ab/report.pdf\">report.pdf</a></p>");
    assert!(rendered.has_attachment && rendered.has_link && !rendered.has_image);
    let rendered = full("[shot.png](/user_uploads/2/cd/shot.png)");
    assert!(rendered.has_attachment && rendered.has_image);
    assert!(rendered.html.ends_with(
        "<div class=\"message_inline_image\"><a href=\"/user_uploads/2/cd/shot.png\" title=\"shot.png\"><img src=\"/user_uploads/2/cd/shot.png\"></a></div>"
    ));
    let rendered = full("https://x.org/a.JPG");
    assert!(rendered.has_image && rendered.html.contains("<img src=\"https://x.org/a.JPG\">"));
    // A picture whose size the server knows says it, as Zulip does.
    let rendered = full("[dot.png](/user_uploads/2/ef/dot.png)");
    assert!(rendered.html.ends_with(
        "<a href=\"/user_uploads/2/ef/dot.png\" title=\"dot.png\"><img data-original-dimensions=\"64x48\" src=\"/user_uploads/2/ef/dot.png\"></a></div>"
    ), "{}", rendered.html);
}

#[test]
fn user_mentions() {
    let rendered = full("hi @**alice smith** and @_**Bob**, @**Bob|8** again (@**Alice Smith**)");
    assert_eq!(
        rendered.html,
        "<p>hi <span class=\"user-mention\" data-user-id=\"7\">@Alice Smith</span> and <span class=\"user-mention silent\" data-user-id=\"8\">Bob</span>, <span class=\"user-mention\" data-user-id=\"8\">@Bob</span> again (<span class=\"user-mention\" data-user-id=\"7\">@Alice Smith</span>)</p>"
    );
    assert_eq!(rendered.mentioned_user_ids, vec![7, 8]);
    assert!(!rendered.wildcard_mention);
    assert_eq!(html("@**|7**"), "<p><span class=\"user-mention\" data-user-id=\"7\">@Alice Smith</span></p>");
    // Silent mentions don't notify.
    assert!(full("@_**Bob**").mentioned_user_ids.is_empty());
}

#[test]
fn mention_needs_a_known_user_and_a_boundary() {
    // Like Zulip, a failed mention is ordinary Markdown.
    let rendered = full("@**Nobody** @**Bob|7** mail@**Bob**");
    assert_eq!(
        rendered.html,
        "<p>@<strong>Nobody</strong> @<strong>Bob|7</strong> mail@<strong>Bob</strong></p>"
    );
    assert!(rendered.mentioned_user_ids.is_empty());
    assert_eq!(html("@**Nobody"), "<p>@**Nobody</p>");
    assert_eq!(html("\\@**Bob**"), "<p>@<strong>Bob</strong></p>");
}

#[test]
fn wildcard_mentions() {
    for name in ["all", "everyone", "channel", "stream"] {
        let rendered = full(&format!("@**{name}**"));
        assert_eq!(
            rendered.html,
            format!("<p><span class=\"user-mention\" data-user-id=\"*\">@{name}</span></p>")
        );
        assert!(rendered.wildcard_mention);
    }
    let rendered = full("@**topic**");
    assert_eq!(rendered.html, "<p><span class=\"topic-mention\">@topic</span></p>");
    assert!(rendered.wildcard_mention);
    let rendered = full("@_**all**");
    assert_eq!(rendered.html, "<p><span class=\"user-mention silent\" data-user-id=\"*\">all</span></p>");
    assert!(!rendered.wildcard_mention);
}

#[test]
fn group_mentions() {
    let rendered = full("@*backend* and @_*backend* but not @*frontend*");
    assert_eq!(
        rendered.html,
        "<p><span class=\"user-group-mention\" data-user-group-id=\"3\">@backend</span> and <span class=\"user-group-mention silent\" data-user-group-id=\"3\">backend</span> but not @<em>frontend</em></p>"
    );
    assert_eq!(rendered.mentioned_group_ids, vec![3]);
    assert!(rendered.mentioned_user_ids.is_empty());
}

#[test]
fn channel_and_topic_links() {
    let rendered = full("#**design** #**general chat>q3 plan.md** #**design>x@123** #**nope**");
    assert_eq!(
        rendered.html,
        "<p><a class=\"stream\" data-stream-id=\"9\" href=\"/#narrow/channel/9-design\">#design</a> \
         <a class=\"stream-topic\" data-stream-id=\"10\" href=\"/#narrow/channel/10-general-chat/topic/q3.20plan.2Emd\">#general chat &gt; q3 plan.md</a> \
         <a class=\"message-link\" href=\"/#narrow/channel/9-design/topic/x/near/123\">#design &gt; x @ 💬</a> \
         #<strong>nope</strong></p>"
    );
    assert!(!rendered.has_link);
    assert_eq!(encode_hash_component("a/b ü"), "a.2Fb.20.C3.BC");
    // No nested anchors inside a link.
    assert_eq!(html("[see #**design**](https://x.y)"), "<p><a href=\"https://x.y\">see #design</a></p>");
}

#[test]
fn emoji() {
    assert_eq!(
        html("ok :+1: :smile:"),
        "<p>ok <span aria-label=\"+1\" class=\"emoji emoji-1f44d\" role=\"img\" title=\"+1\">:+1:</span> <span aria-label=\"smile\" class=\"emoji emoji-1f642\" role=\"img\" title=\"smile\">:smile:</span></p>"
    );
    // Zulip's names and aliases, not gemoji's: `:thumbsup:` stays text, as on Zulip.
    assert_eq!(
        html(":thumbs_up: :thumbsup:"),
        "<p><span aria-label=\"thumbs up\" class=\"emoji emoji-1f44d\" role=\"img\" title=\"thumbs up\">:thumbs_up:</span> :thumbsup:</p>"
    );
    // U+FE0F is left out of the code; underscores become spaces in titles.
    assert_eq!(
        html(":heart::red_circle:"),
        "<p><span aria-label=\"heart\" class=\"emoji emoji-2764\" role=\"img\" title=\"heart\">:heart:</span><span aria-label=\"red circle\" class=\"emoji emoji-1f534\" role=\"img\" title=\"red circle\">:red_circle:</span></p>"
    );
    assert_eq!(
        html(":hash:"),
        "<p><span aria-label=\"hash\" class=\"emoji emoji-0023-20e3\" role=\"img\" title=\"hash\">:hash:</span></p>"
    );
    assert_eq!(
        html(":party_parrot:"),
        "<p><img alt=\":party_parrot:\" class=\"emoji\" src=\"/user_avatars/2/emoji/images/1.gif\" title=\"party parrot\"></p>"
    );
    assert_eq!(
        html(":zulip:"),
        "<p><img alt=\":zulip:\" class=\"emoji\" src=\"/static/generated/emoji/images/emoji/unicode/zulip.png\" title=\"zulip\"></p>"
    );
    assert_eq!(html(":not_an_emoji: at 10:30:45 ::"), "<p>:not_an_emoji: at 10:30:45 ::</p>");
    assert_eq!(html("literal 👍"), "<p>literal 👍</p>");
}

/// The test organization on a server of a given feature level.
struct AtLevel(i64);

impl RenderContext for AtLevel {
    fn user_by_name(&self, full_name: &str) -> Option<(i64, String)> {
        TestContext.user_by_name(full_name)
    }
    fn user_by_id(&self, id: i64) -> Option<String> {
        TestContext.user_by_id(id)
    }
    fn group_by_name(&self, name: &str) -> Option<(i64, String)> {
        TestContext.group_by_name(name)
    }
    fn channel_by_name(&self, name: &str) -> Option<(i64, String)> {
        TestContext.channel_by_name(name)
    }
    fn realm_emoji(&self, name: &str) -> Option<(String, String)> {
        TestContext.realm_emoji(name)
    }
    fn feature_level(&self) -> i64 {
        self.0
    }
}

/// Before level 451 a time the server cannot read is an error span; from 451 the tag is left
/// as text; from 503 only ISO 8601 is read (a UNIX timestamp is text too).
#[test]
fn global_times_by_level() {
    let at = |level: i64, md: &str| render(md, &AtLevel(level)).html;
    let error_span = "<p><span class=\"timestamp-error\">Invalid time format: soon</span></p>";
    assert_eq!(at(450, "<time:soon>"), error_span);
    assert_eq!(at(451, "<time:soon>"), "<p>&lt;time:soon&gt;</p>");
    assert_eq!(at(503, "<time:soon>"), "<p>&lt;time:soon&gt;</p>");
    let unix = "<p><time datetime=\"2024-11-30T20:53:20Z\">1733000000</time></p>";
    assert_eq!(at(502, "<time:1733000000>"), unix);
    assert_eq!(at(503, "<time:1733000000>"), "<p>&lt;time:1733000000&gt;</p>");
    let iso = "<p><time datetime=\"2026-11-25T15:00:00Z\">2026-11-25T10:00-05:00</time></p>";
    assert_eq!(at(503, "<time:2026-11-25T10:00-05:00>"), iso);
    assert_eq!(at(420, "<time:2026-11-25T10:00-05:00>"), iso);
}

/// The forms a server before level 451 reads (the test organization at level 450).
#[test]
fn global_times() {
    let html = |md: &str| render(md, &AtLevel(450)).html;
    assert_eq!(
        html("at <time:2026-11-25T15:00:00+00:00>!"),
        "<p>at <time datetime=\"2026-11-25T15:00:00Z\">2026-11-25T15:00:00+00:00</time>!</p>"
    );
    assert_eq!(
        html("<time:2026-11-25T10:30-05:00> <time:2024-02-29 23:00:00.25+0100>"),
        "<p><time datetime=\"2026-11-25T15:30:00Z\">2026-11-25T10:30-05:00</time> <time datetime=\"2024-02-29T22:00:00.250000Z\">2024-02-29 23:00:00.25+0100</time></p>"
    );
    assert_eq!(html("<time:1733000000>"), "<p><time datetime=\"2024-11-30T20:53:20Z\">1733000000</time></p>");
    assert_eq!(html("<time:1969-12-31>"), "<p><time datetime=\"1969-12-31T00:00:00Z\">1969-12-31</time></p>");
    assert_eq!(
        html("<time:2023-02-29>"),
        "<p><span class=\"timestamp-error\">Invalid time format: 2023-02-29</span></p>"
    );
    assert_eq!(
        html("<time:soon>"),
        "<p><span class=\"timestamp-error\">Invalid time format: soon</span></p>"
    );
    assert_eq!(html("<time:2026-01-01"), "<p>&lt;time:2026-01-01</p>");
    assert_eq!(html("\\<time:2026-01-01>"), "<p>&lt;time:2026-01-01&gt;</p>");
}

#[test]
fn spoilers() {
    let rendered = full("```spoiler Plot **twist**\nIt was @**Bob**.\n\n- all along\n```");
    assert_eq!(
        rendered.html,
        "<div class=\"spoiler-block\"><div class=\"spoiler-header\">\n<p>Plot <strong>twist</strong></p>\n</div><div class=\"spoiler-content\" aria-hidden=\"true\">\n<p>It was <span class=\"user-mention\" data-user-id=\"8\">@Bob</span>.</p>\n<ul>\n<li>all along</li>\n</ul>\n</div></div>"
    );
    assert_eq!(rendered.mentioned_user_ids, vec![8]);
    assert_eq!(
        html("~~~spoiler\nx\n~~~"),
        "<div class=\"spoiler-block\"><div class=\"spoiler-header\">\n\n</div><div class=\"spoiler-content\" aria-hidden=\"true\">\n<p>x</p>\n</div></div>"
    );
}

#[test]
fn fences_nest_as_in_zulip() {
    // The inner ``` closes the python block, not the spoiler.
    assert_eq!(
        html("```spoiler Code\n```python\nprint(1)\n```\ntext\n```\nafter"),
        "<div class=\"spoiler-block\"><div class=\"spoiler-header\">\n<p>Code</p>\n</div><div class=\"spoiler-content\" aria-hidden=\"true\">\n<div class=\"codehilite\" data-code-language=\"python\"><pre><span></span><code>print(1)\n</code></pre></div>\n<p>text</p>\n</div></div>\n<p>after</p>"
    );
    assert_eq!(
        html("```quote\n```quote\ninner\n```\n```"),
        "<blockquote>\n<blockquote>\n<p>inner</p>\n</blockquote>\n</blockquote>"
    );
    // Inside a plain code block, fences are just text.
    assert_eq!(
        html("```\n```quote\n```"),
        "<div class=\"codehilite\"><pre><span></span><code>```quote\n</code></pre></div>"
    );
}

#[test]
fn quote_fence() {
    let rendered = full("```quote\n**said** :smile:\n```");
    assert_eq!(
        rendered.html,
        "<blockquote>\n<p><strong>said</strong> <span aria-label=\"smile\" class=\"emoji emoji-1f642\" role=\"img\" title=\"smile\">:smile:</span></p>\n</blockquote>"
    );
}

#[test]
fn math() {
    assert_eq!(html("so $$a_1 < b^*$$ ok"), format!("<p>so {} ok</p>", katex_html("a_1 < b^*", false)));
    assert_eq!(
        katex_html("x<1", false),
        "<span class=\"katex\"><span class=\"katex-mathml\"><math xmlns=\"http://www.w3.org/1998/Math/MathML\"><semantics><mrow></mrow><annotation encoding=\"application/x-tex\">x&lt;1</annotation></semantics></math></span><span class=\"katex-html\" aria-hidden=\"true\">x&lt;1</span></span>"
    );
    assert_eq!(
        html("```math\n\\frac{1}{2}\n\ny\n```"),
        format!(
            "<p><span class=\"katex-display\">{}</span></p>\n<p><span class=\"katex-display\">{}</span></p>",
            katex_html("\\frac{1}{2}", true),
            katex_html("y", true)
        )
    );
    // Prices are not math.
    assert_eq!(html("$$5 and $$10"), "<p>$$5 and $$10</p>");
    assert_eq!(html("a$$x$$ $$$y$$$"), "<p>a$$x$$ $$$y$$$</p>");
}

#[test]
fn raw_html_is_escaped() {
    assert_eq!(
        html("<script>alert('x')</script> <b onclick=\"x\">hi</b>"),
        "<p>&lt;script&gt;alert('x')&lt;/script&gt; &lt;b onclick=&quot;x&quot;&gt;hi&lt;/b&gt;</p>"
    );
    assert_eq!(
        html("<div>\n**md**\n</div>"),
        "<p>&lt;div&gt;<br>\n<strong>md</strong><br>\n&lt;/div&gt;</p>"
    );
    assert_eq!(html("<!-- c --> \\<b> 1 < 2 & 3"), "<p>&lt;!-- c --&gt; &lt;b&gt; 1 &lt; 2 &amp; 3</p>");
    assert_eq!(html("[a](https://x.y \"<b>\")"), "<p><a href=\"https://x.y\" title=\"&lt;b&gt;\">a</a></p>");
    assert_eq!(html("[a](<https://x.y/a b>)"), "<p><a href=\"https://x.y/a%20b\">a</a></p>");
    assert_eq!(html("](<b>x</b>"), "<p>](&lt;b&gt;x&lt;/b&gt;</p>");
}

#[test]
fn forged_placeholders_are_neutralized() {
    let source = format!("@**Bob** {PH_START}0{PH_END}");
    let rendered = full(&source);
    assert_eq!(
        rendered.html,
        "<p><span class=\"user-mention\" data-user-id=\"8\">@Bob</span> \u{FFFD}0\u{FFFD}</p>"
    );
}

#[test]
fn placeholders_in_urls_are_restored() {
    assert_eq!(html("[x](https://a.b/@**Bob**)"), "<p><a href=\"https://a.b/@**Bob**\">x</a></p>");
    assert_eq!(
        html("<https://a.b/@**Bob**>"),
        "<p><a href=\"https://a.b/@**Bob**\">https://a.b/@**Bob**</a></p>"
    );
    assert!(full("[x](https://a.b/@**Bob**)").mentioned_user_ids.is_empty());
}

#[test]
fn deep_nesting_does_not_overflow() {
    let quotes = format!("{} deep", ">".repeat(1000));
    let out = html(&quotes);
    assert_eq!(out.matches("<blockquote>").count(), out.matches("</blockquote>").count());
    let mut lists = String::new();
    for depth in 0..1000 {
        lists.push_str(&"  ".repeat(depth));
        lists.push_str("- item\n");
    }
    html(&lists);
    html(&"[".repeat(10_000));
    html(&"*a ".repeat(10_000));
    // Spoilers past the depth limit are shown as code.
    let mut spoilers = String::new();
    for depth in 0..50 {
        spoilers.push_str(&"`".repeat(60 - depth));
        spoilers.push_str("spoiler\n");
    }
    spoilers.push_str("core\n");
    for depth in (0..50).rev() {
        spoilers.push_str(&"`".repeat(60 - depth));
        spoilers.push('\n');
    }
    let out = html(&spoilers);
    assert_eq!(out.matches("class=\"spoiler-block\"").count(), MAX_FENCE_DEPTH);
    assert!(out.contains("data-code-language=\"spoiler\""));
    // Zulip-style nesting, deeper than the limit.
    let nested = format!("{}core\n{}", "```quote\n".repeat(100), "```\n".repeat(100));
    html(&nested);
}

#[test]
fn huge_inputs_render_quickly() {
    let megabyte = 1 << 20;
    let samples = [
        "Some *text* with @**Alice Smith**, :smile:, https://x.y/z and `code`.\n\n",
        "@**",
        "@*",
        "#**",
        "$$",
        "$$a",
        "<time:",
        "<",
        "\\",
        ":",
        ":a",
        "http://",
        "```\n",
        "```quote\n",
        "> ",
        "- ",
        "|a|\n",
        "[a](",
        "![",
        ")",
    ];
    for sample in samples {
        let source = sample.repeat(megabyte / sample.len());
        let started = Instant::now();
        let rendered = render(&source, &TestContext);
        let elapsed = started.elapsed();
        assert!(elapsed < Duration::from_secs(20), "{sample:?} took {elapsed:?}");
        assert!(!rendered.html.is_empty());
    }
}

/// Random mixes of syntax never panic and always give well-formed HTML.
#[test]
fn random_inputs_are_well_formed() {
    const TOKENS: [&str; 44] = [
        "@**Alice Smith**",
        "@_**Bob**",
        "@**all**",
        "@*backend*",
        "#**design**",
        "#**design>t**",
        ":smile:",
        ":party_parrot:",
        "$$x_1$$",
        "<time:2026-01-01T00:00Z>",
        "https://x.y/a.png",
        "www.a.b",
        "```",
        "```spoiler h",
        "```quote",
        "```math",
        "~~~",
        "\n",
        "\n\n",
        "> ",
        "- ",
        "1. ",
        "  ",
        "*",
        "**",
        "_",
        "~~",
        "~",
        "`",
        "[",
        "]",
        "(",
        ")",
        "![",
        "](/u.png)",
        "|",
        "|---|",
        "<b>",
        "</b>",
        "&amp;",
        "\\",
        "# ",
        "text",
        "**bold**",
    ];
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..3000 {
        let len = next() % 40;
        let source: String = (0..len).map(|_| TOKENS[(next() % TOKENS.len() as u64) as usize]).collect();
        let rendered = render(&source, &TestContext);
        assert_well_formed(&rendered.html);
    }
}

/// MP4 and WebM links are previewed as videos at every level, QuickTime (`.mov`) from 495.
#[test]
fn inline_videos_by_level() {
    let at = |level: i64, md: &str| render(md, &AtLevel(level)).html;
    let video = |href: &str, title: &str| {
        format!(
            "<div class=\"message_inline_image message_inline_video\"><a href=\"{href}\" title=\"{title}\"><video preload=\"metadata\" src=\"{href}\"></video></a></div>"
        )
    };
    let mp4 = at(420, "[clip.mp4](/user_uploads/2/ab/clip.mp4)");
    assert!(mp4.ends_with(&video("/user_uploads/2/ab/clip.mp4", "clip.mp4")), "{mp4}");
    let mov = "[clip.mov](/user_uploads/2/ab/clip.mov)";
    assert!(!at(494, mov).contains("<video"), "{}", at(494, mov));
    assert!(at(495, mov).ends_with(&video("/user_uploads/2/ab/clip.mov", "clip.mov")), "{}", at(495, mov));
    assert!(render(mov, &AtLevel(495)).has_image);
}
