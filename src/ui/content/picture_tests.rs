//! Room for the pictures of inline images: how many rows, and where.

use super::*;

/// Draws no picture.
struct NoPictures;

impl ContentContext for NoPictures {
    fn format_time(&self, _: i64) -> String {
        String::new()
    }
    fn spoiler_open(&self, _: usize) -> bool {
        false
    }
}

/// Draws the pictures of the server at `/` (relative addresses), opens the spoilers listed.
struct Pictures(Vec<usize>);

impl ContentContext for Pictures {
    fn format_time(&self, _: i64) -> String {
        String::new()
    }
    fn spoiler_open(&self, index: usize) -> bool {
        self.0.contains(&index)
    }
    fn image(&self, src: &str) -> bool {
        src.starts_with('/')
    }
}

const UPLOAD: &str = "<div class=\"message_inline_image\"><a href=\"/user_uploads/2/ab/pasted.png\" title=\"pasted.png\">\
    <img data-original-dimensions=\"640x480\" src=\"/user_uploads/thumbnail/2/ab/pasted.png/840x560.webp\"></a></div>";

#[test]
fn room_is_kept_under_an_inline_image_for_its_thumbnail() {
    let html = format!("<p>see</p>\n{UPLOAD}\n<p>after</p>");
    let r = render_html(&html, 60, &Pictures(vec![]));
    let rows = image_rows(60);
    assert_eq!(r.images.len(), 1);
    let img = &r.images[0];
    assert_eq!(
        img.src, "/user_uploads/thumbnail/2/ab/pasted.png/840x560.webp",
        "the thumbnail, not the original"
    );
    assert_eq!((img.rows, img.col), (rows, 0));
    let text = |lines: &[Line]| lines.iter().map(|l| l.to_string()).collect::<Vec<_>>().join("\n");
    assert_eq!(text(&r.lines[img.line - 1..img.line]), "[image 1] pasted.png[1]");
    assert!(!img.sized, "this context knows no picture's size: the most rows");
    // The kept rows are blank (no mark left in them), and the text goes on after them.
    let kept = &r.lines[img.line..img.line + usize::from(rows)];
    assert!(kept.iter().all(|l| l.spans.iter().all(|s| s.content.trim().is_empty())), "{kept:?}");
    assert!(text(&r.lines[img.line + usize::from(rows)..]).contains("after"));
    // Narrow screens keep fewer rows, wide ones more, within bounds.
    assert_eq!((image_rows(20), image_rows(400)), (4, 12));
    // Without pictures (the context says no, or another server's image): no room at all.
    assert!(render_html(&html, 60, &NoPictures).images.is_empty());
    let elsewhere = UPLOAD.replace("/user_uploads/thumbnail", "https://img.example/thumbnail");
    assert!(render_html(&elsewhere, 60, &Pictures(vec![])).images.is_empty());
}

/// Draws pictures as [`Pictures`] does and knows their size: from the message, else from the
/// pictures held (`held`), at 10×20 pixel cells.
struct Sized(Vec<(&'static str, (u32, u32))>);

impl ContentContext for Sized {
    fn format_time(&self, _: i64) -> String {
        String::new()
    }
    fn spoiler_open(&self, _: usize) -> bool {
        false
    }
    fn image(&self, src: &str) -> bool {
        src.starts_with('/')
    }
    fn picture_rows(&self, src: &str, pixels: Option<(u32, u32)>, width: u16, most: u16) -> Option<u16> {
        let held = self.0.iter().find(|(s, _)| *s == src).map(|(_, p)| *p);
        pixels.or(held).map(|p| crate::ui::image::inline_rows(p, (10, 20), width, most))
    }
}

#[test]
fn a_small_picture_takes_the_rows_of_its_size_and_no_more() {
    let small = UPLOAD.replace("640x480", "64x48");
    let html = format!("<p>see</p>\n{small}\n<p>after</p>");
    let r = render_html(&html, 60, &Sized(vec![]));
    let img = &r.images[0];
    // 64×48 pixels are 6×2 cells of 10×20: two rows, then the text goes on.
    assert_eq!((img.rows, img.sized), (2, true));
    let after = r.lines.iter().position(|l| l.to_string() == "after").unwrap();
    assert_eq!(after, img.line + 3, "two rows, the paragraph's blank line, then the text");
    // A large one is held to the most rows.
    let r = render_html(&format!("<p>see</p>\n{UPLOAD}"), 60, &Sized(vec![]));
    assert_eq!((r.images[0].rows, r.images[0].sized), (image_rows(60), true));
    // Without its size in the message: the most rows until the picture is held, then its own.
    let no_size = small.replace(" data-original-dimensions=\"64x48\"", "");
    let src = "/user_uploads/thumbnail/2/ab/pasted.png/840x560.webp";
    let before = render_html(&no_size, 60, &Sized(vec![]));
    assert_eq!((before.images[0].rows, before.images[0].sized), (image_rows(60), false));
    let held = render_html(&no_size, 60, &Sized(vec![(src, (64, 48))]));
    assert_eq!((held.images[0].rows, held.images[0].sized), (2, true));
}

#[test]
fn an_image_in_a_closed_spoiler_gets_no_room_until_opened() {
    let html = format!(
        "<div class=\"spoiler-block\"><div class=\"spoiler-header\"><p>cat</p></div>\
         <div class=\"spoiler-content\" aria-hidden=\"true\">{UPLOAD}</div></div>"
    );
    assert!(render_html(&html, 60, &Pictures(vec![])).images.is_empty(), "nothing of it shows");
    assert!(crate::content::Document::parse(&html).summary(&Pictures(vec![])).previews.is_empty());
    let open = render_html(&html, 60, &Pictures(vec![0]));
    assert_eq!(open.images.len(), 1);
    assert_eq!(crate::content::Document::parse(&html).summary(&Pictures(vec![0])).previews.len(), 1);
}

#[test]
fn videos_and_loading_placeholders_get_no_room() {
    let video = "<div class=\"message_inline_image message_inline_video\"><a href=\"/user_uploads/2/b/clip.mp4\">\
        <video src=\"/user_uploads/2/b/clip.mp4\"></video></a></div>";
    let loading = "<div class=\"message_inline_image\"><a href=\"/user_uploads/2/c/big.png\">\
        <img class=\"image-loading-placeholder\" src=\"/static/images/loading/loader-black.svg\"></a></div>";
    for html in [video, loading] {
        assert!(render_html(html, 60, &Pictures(vec![])).images.is_empty(), "{html}");
    }
}
