//! Files this machine keeps (drafts, accounts, the last session, downloads): the client's rules
//! for them — its folders kept private, a fresh file never written over another, which
//! downloads may be opened, a folder's entries for completion. Writing itself is
//! `topicterm_api::files`' (re-exported here), the one way files are written.

use std::path::{Path, PathBuf};

// Written atomically into private folders, and `~/` read as home: the API crate's, with the
// zuliprc that needs them.
pub use topicterm_api::files::{expand_home, private_folder, write_atomic};

/// How deep under each of the client's own folders the folders in it are made private too:
/// `data/drafts/ACCOUNT` (and whatever an older version made deeper), `data/archive`,
/// `cache/images`, `cache/downloads`.
const PRIVATE_DEPTH: usize = 4;

/// Make the client's own folders (config, data, cache, state) and every folder in them, four
/// levels down, the user's alone again where they exist with group or other access (an older version
/// made them 0755, `drafts/` and each account's folder in it too; other users could list the
/// accounts and which conversations have drafts). Symlinks are not followed. Each folder that
/// cannot be corrected is returned with why, for the log.
pub fn keep_private(dirs: &[&Path]) -> Vec<(PathBuf, std::io::Error)> {
    fn walk(dir: &Path, depth: usize, failed: &mut Vec<(PathBuf, std::io::Error)>) {
        if !std::fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir()) {
            return;
        }
        if let Err(e) = private_folder(dir) {
            failed.push((dir.to_path_buf(), e));
            return;
        }
        let Some(depth) = depth.checked_sub(1) else { return };
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for entry in entries.flatten() {
            // The entry's own type: a symlink to a folder is not a folder here.
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                walk(&entry.path(), depth, failed);
            }
        }
    }
    let mut failed = Vec::new();
    for dir in dirs {
        walk(dir, PRIVATE_DEPTH, &mut failed);
    }
    failed
}

/// The account a kept file belongs to: its server (as the client reaches it, without a
/// trailing `/`; `demo` for the `--demo` organization) and its email, exactly. Every file kept
/// per account names it inside (a draft, the last session's stamp, the archive's `meta`), and
/// one that names another is refused.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Owner {
    pub site: String,
    pub email: String,
}

impl Owner {
    pub fn new(email: &str, site: &str) -> Owner {
        Owner { site: crate::api::site_of(site).to_owned(), email: email.to_owned() }
    }
}

impl std::fmt::Display for Owner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} on {}", self.email, self.site)
    }
}

/// The most characters of an account's name that are there to be read (`email@host`); the
/// digest after them is what tells accounts apart.
const READABLE: usize = 64;

/// The name an account's own files are kept under (its drafts folder, its last session, its
/// archive), one for each account and never one for two: a readable part — `email@host_port`,
/// every character but letters, digits, `@`, `.`, `-` and `_` made `_`, at most 64 — then `-`
/// and 32 hexadecimal digits of the SHA-256 of the exact site and email. The readable part
/// alone may be the same for two accounts (`j+doe` and `j_doe`); the digest is not. Stable:
/// every later version finds the files again under it.
pub fn account_key(owner: &Owner) -> String {
    use sha2::{Digest, Sha256};
    let host = owner.site.split_once("://").map_or(owner.site.as_str(), |(_, rest)| rest);
    let readable: String = format!("{}@{host}", owner.email)
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '@' | '.' | '-' | '_') { c } else { '_' })
        .take(READABLE)
        .collect();
    // The site's length first: no other site and email give the same bytes.
    let mut hash = Sha256::new();
    hash.update(format!("{}:{}\n{}", owner.site.len(), owner.site, owner.email));
    let digest: String = hash.finalize()[..16].iter().map(|b| format!("{b:02x}")).collect();
    format!("{readable}-{digest}")
}

/// Open the log file `path` to append to: created mode 0600, and made 0600 again where an
/// older version left it readable by others (it names accounts, servers and conversations).
pub fn open_private_log(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.create(true).append(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let file = options.open(path)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if file.metadata()?.permissions().mode() & 0o077 != 0 {
            file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
        }
    }
    Ok(file)
}

/// Create a new file named `name` in `dir` — or `name (2)`, `name (3)`, … when that is taken —
/// exclusively: never over an existing file, never through a symlink, mode 0600.
pub fn create_fresh(
    dir: &std::path::Path,
    name: &str,
) -> std::io::Result<(std::path::PathBuf, std::fs::File)> {
    let (stem, ext) = match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => (stem, format!(".{ext}")),
        _ => (name, String::new()),
    };
    for n in 1..=999 {
        let path = dir.join(if n == 1 { name.to_owned() } else { format!("{stem} ({n}){ext}") });
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        match options.open(&path) {
            Ok(file) => return Ok((path, file)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::other(format!("{} has too many files named {name}", dir.display())))
}

/// The inert kinds of file an attachment may be opened as: the user's opener shows them
/// (an image viewer, a PDF reader, a text editor, a player) without running anything of theirs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Inert {
    Picture,
    Pdf,
    Text,
    Audio,
    Video,
}

/// Why a downloaded attachment was saved and not opened: the core's type (it words the
/// notice), judged here.
pub use crate::app::Kept;

/// Whether a file's contents are of a type (its magic bytes).
type Test = fn(&[u8]) -> bool;

/// The allow-list: each extension (lowercase) that may be opened, its kind, and the test its
/// contents must pass. Nothing else is ever opened.
const INERT: &[(&str, Inert, Test)] = &[
    ("png", Inert::Picture, infer::image::is_png),
    ("jpg", Inert::Picture, infer::image::is_jpeg),
    ("jpeg", Inert::Picture, infer::image::is_jpeg),
    ("gif", Inert::Picture, infer::image::is_gif),
    ("webp", Inert::Picture, is_webp),
    ("pdf", Inert::Pdf, is_pdf),
    ("txt", Inert::Text, is_plain_text),
    ("text", Inert::Text, is_plain_text),
    ("log", Inert::Text, is_plain_text),
    ("mp3", Inert::Audio, infer::audio::is_mp3),
    ("m4a", Inert::Audio, infer::audio::is_m4a),
    ("ogg", Inert::Audio, infer::audio::is_ogg),
    ("oga", Inert::Audio, infer::audio::is_ogg),
    ("opus", Inert::Audio, infer::audio::is_ogg),
    ("flac", Inert::Audio, infer::audio::is_flac),
    ("wav", Inert::Audio, infer::audio::is_wav),
    ("mp4", Inert::Video, infer::video::is_mp4),
    ("m4v", Inert::Video, |b| infer::video::is_m4v(b) || infer::video::is_mp4(b)),
    ("mov", Inert::Video, infer::video::is_mov),
    ("webm", Inert::Video, infer::video::is_webm),
    ("mkv", Inert::Video, infer::video::is_mkv),
    ("ogv", Inert::Video, infer::audio::is_ogg),
];

/// Archives: saved and named, never opened (an archive manager may run what it unpacks).
const ARCHIVES: &[&str] = &["zip", "tar", "gz", "tgz", "bz2", "xz", "zst", "7z", "rar"];

/// May a downloaded attachment named `name` holding `bytes` be opened? Only when its extension
/// is on the allow-list of inert types and its contents are of that type, and nothing in its
/// head reads as a web page or script (which the system's opener, sniffing the contents, would
/// give to a browser or an interpreter). Everything else is saved and not opened.
pub fn judge(name: &str, bytes: &[u8]) -> Result<Inert, Kept> {
    let ext = match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => ext.to_ascii_lowercase(),
        _ => return Err(Kept::NotInert),
    };
    if ARCHIVES.contains(&ext.as_str()) {
        return Err(Kept::Archive);
    }
    let Some((_, kind, is)) = INERT.iter().find(|(e, _, _)| *e == ext) else {
        return Err(Kept::NotInert);
    };
    if !is(bytes) || reads_as_page(bytes) {
        return Err(Kept::Contents(ext));
    }
    Ok(*kind)
}

/// How far into a file an opener's content sniffing looks for markup (libmagic searches HTML's
/// tags within the first 4 KiB).
const SNIFFED: usize = 4096;

/// Does the head of a file hold what a content sniffer takes for a web page, SVG or XML?
/// Pictures' own metadata (XMP: `<?xpacket`, `<x:xmpmeta`, `<rdf:`) does not count.
fn reads_as_page(bytes: &[u8]) -> bool {
    const TAGS: &[&[u8]] =
        &[b"<html", b"<!doctype", b"<script", b"<head", b"<body", b"<iframe", b"<svg", b"<?xml-stylesheet"];
    let head = bytes[..bytes.len().min(SNIFFED)].to_ascii_lowercase();
    TAGS.iter().any(|tag| head.windows(tag.len()).any(|w| w == *tag))
}

/// A PDF starts with its header (readers accept it further in; here it must come first).
fn is_pdf(bytes: &[u8]) -> bool {
    bytes.starts_with(b"%PDF-")
}

/// A WebP picture is a RIFF file of form `WEBP`.
fn is_webp(bytes: &[u8]) -> bool {
    bytes.starts_with(b"RIFF") && infer::image::is_webp(bytes)
}

/// Plain text: UTF-8 (a byte-order mark allowed) with no control characters but tab, line
/// feed, carriage return and form feed, and not starting as markup (`<`) or a script (`#!`).
fn is_plain_text(bytes: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(bytes) else { return false };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let start = text.trim_start();
    !start.starts_with('<')
        && !start.starts_with("#!")
        && !text.chars().any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\u{c}'))
}

/// At most this many entries of a folder are offered to complete a path.
pub const MAX_LISTED: usize = 2_000;

/// The entries of the folder `dir` names (`~/` is home, empty is the working folder) for
/// completing a path: (name, is a folder), sorted by name, at most [`MAX_LISTED`].
pub fn list_folder(dir: &str) -> std::io::Result<Vec<(String, bool)>> {
    let path = if dir.is_empty() { PathBuf::from(".") } else { expand_home(dir) };
    let mut out = Vec::new();
    for entry in std::fs::read_dir(path)?.take(MAX_LISTED) {
        let entry = entry?;
        let Ok(name) = entry.file_name().into_string() else { continue };
        // A symlink to a folder completes as a folder.
        let folder = std::fs::metadata(entry.path()).is_ok_and(|m| m.is_dir());
        out.push((name, folder));
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn account_keys_are_one_per_account_readable_and_stable() {
        let site = "https://chat.example.com";
        let emails =
            ["j-doe@x.example", "j_doe@x.example", "j+doe@x.example", "jdoe@x.example", "J-doe@x.example"];
        let keys: std::collections::HashSet<String> =
            emails.iter().map(|e| account_key(&Owner::new(e, site))).collect();
        assert_eq!(keys.len(), emails.len(), "{keys:?}");
        // The same email on another server, or on the same server written with a trailing `/`.
        let key = account_key(&Owner::new("j-doe@x.example", site));
        assert_ne!(key, account_key(&Owner::new("j-doe@x.example", "https://chat.example.org")));
        assert_eq!(key, account_key(&Owner::new("j-doe@x.example", "https://chat.example.com/")));
        // Where the site ends and the email begins cannot be moved.
        assert_ne!(
            account_key(&Owner { site: "a".into(), email: "b\nc".into() }),
            account_key(&Owner { site: "a\nb".into(), email: "c".into() })
        );
        // A readable part, then the digest; later versions find the files under the same name.
        assert_eq!(key, "j-doe@x.example@chat.example.com-e76c3c48eaf6edfd4082f2886e961dc3");
        let long = account_key(&Owner::new(&format!("{}@x.example", "a".repeat(300)), site));
        assert!(long.len() <= READABLE + 33 && long.starts_with("aaaa"), "{long}");
        assert!(key.chars().all(|c| c.is_ascii_alphanumeric() || "@.-_".contains(c)), "{key}");
    }

    #[cfg(unix)]
    #[test]
    fn the_log_is_created_private_and_one_left_open_is_made_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("topicterm.log");
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        drop(open_private_log(&path).unwrap());
        assert_eq!(mode(&path), 0o600);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        std::io::Write::write_all(&mut open_private_log(&path).unwrap(), b"kept").unwrap();
        assert_eq!(mode(&path), 0o600);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "kept", "appended to");
    }

    #[test]
    fn a_fresh_file_never_overwrites_nor_follows_a_symlink() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("victim");
        std::fs::write(&target, "keep").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(&target, dir.path().join("a.txt")).unwrap();
        let (p1, _) = create_fresh(dir.path(), "a.txt").unwrap();
        let (p2, _) = create_fresh(dir.path(), "a.txt").unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep");
        #[cfg(unix)]
        assert_eq!(p1.file_name().unwrap(), "a (2).txt");
        assert_ne!(p1, p2);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(&p1).unwrap().permissions().mode() & 0o777, 0o600);
        }
    }

    #[cfg(unix)]
    #[test]
    fn folders_made_for_kept_files_are_private_and_old_open_ones_are_corrected() {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        let root = tempfile::tempdir().unwrap();
        let drafts = root.path().join("data/topicterm/drafts/me@x");
        write_atomic(&drafts.join("d1"), b"text").unwrap();
        for dir in [root.path().join("data"), root.path().join("data/topicterm"), drafts.clone()] {
            assert_eq!(mode(&dir), 0o700, "{}", dir.display());
        }
        // An older version's folders, open to others, are closed on start; missing ones are not made.
        let cache = root.path().join("cache/topicterm");
        std::fs::create_dir_all(&cache).unwrap();
        std::fs::set_permissions(&cache, std::fs::Permissions::from_mode(0o755)).unwrap();
        let missing = root.path().join("state/topicterm");
        assert!(keep_private(&[&cache, &missing]).is_empty());
        assert_eq!(mode(&cache), 0o700);
        assert!(!missing.exists());
    }

    /// A PNG header and the start of its first chunk.
    const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x02\0\0\0";
    const PAGE: &[u8] = b"<!DOCTYPE html><html><script>alert(1)</script></html>";

    #[test]
    fn only_inert_types_whose_contents_match_their_name_are_opened() {
        let ok = |name: &str, bytes: &[u8]| judge(name, bytes);
        assert_eq!(ok("cat.png", PNG), Ok(Inert::Picture));
        assert_eq!(ok("CAT.PNG", PNG), Ok(Inert::Picture), "the extension's case does not matter");
        assert_eq!(ok("photo.jpeg", b"\xff\xd8\xff\xe0\0\x10JFIF\0"), Ok(Inert::Picture));
        assert_eq!(ok("a.gif", b"GIF89a\x01\0\x01\0"), Ok(Inert::Picture));
        assert_eq!(ok("a.webp", b"RIFF\x24\0\0\0WEBPVP8 "), Ok(Inert::Picture));
        assert_eq!(ok("report.pdf", b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"), Ok(Inert::Pdf));
        assert_eq!(ok("notes.txt", "caf\u{e9}\tnotes\r\n- one\n".as_bytes()), Ok(Inert::Text));
        assert_eq!(ok("empty.txt", b""), Ok(Inert::Text));
        assert_eq!(ok("song.mp3", b"ID3\x04\0\0\0\0\0\0"), Ok(Inert::Audio));
        assert_eq!(ok("take.wav", b"RIFF\x24\0\0\0WAVEfmt "), Ok(Inert::Audio));
        assert_eq!(ok("clip.mp4", b"\0\0\0\x18ftypisom\0\0\x02\0"), Ok(Inert::Video));
        let mut tagged = PNG.to_vec();
        tagged
            .extend_from_slice(b"iTXtXML:com.adobe.xmp<?xpacket begin=''?><x:xmpmeta><rdf:RDF/></x:xmpmeta>");
        assert_eq!(ok("tagged.png", &tagged), Ok(Inert::Picture), "a picture's own metadata is no page");
    }

    #[test]
    fn programs_pages_unknown_types_and_names_without_an_extension_are_kept() {
        for name in [
            "x.desktop",
            "x.sh",
            "x.jar",
            "a.AppImage",
            "setup.EXE",
            "r.html",
            "report.html.",
            "page.xht",
            "run.jnlp",
            "doc.ps",
            "sniff.dat",
            "pic.svg",
            "sheet.csv",
            "notes.md",
            "noext",
            ".bashrc",
            ".png",
        ] {
            assert_eq!(judge(name, b"hello"), Err(Kept::NotInert), "{name}");
        }
        for name in ["a.zip", "a.b.tar.gz", "x.7z", "x.TGZ"] {
            assert_eq!(judge(name, b"PK\x03\x04"), Err(Kept::Archive), "{name}");
        }
    }

    #[test]
    fn contents_that_are_not_of_the_named_type_are_kept() {
        let wrong = |ext: &str| Err(Kept::Contents(ext.into()));
        assert_eq!(judge("cat.png", PAGE), wrong("png"), "a page named as a picture");
        assert_eq!(judge("cat.jpg", PNG), wrong("jpg"), "another picture's bytes");
        assert_eq!(judge("a.pdf", b"<html>%PDF-1.4"), wrong("pdf"), "the header must come first");
        assert_eq!(judge("a.webp", b"XXXXXXXXWEBP"), wrong("webp"));
        assert_eq!(
            judge("song.mp3", b"\xff\xfb<html><script>x</script>"),
            wrong("mp3"),
            "markup after a weak magic"
        );
        let mut polyglot = PNG.to_vec();
        polyglot.extend_from_slice(b"<body onload=x>");
        assert_eq!(judge("cat.png", &polyglot), wrong("png"), "markup in the head");
        // Text: UTF-8 with no controls, not a page or a script.
        for bad in [
            &b"<html><body>hi"[..],
            b"  \n<?xml version=\"1.0\"?><x/>",
            b"\xef\xbb\xbf<script>x</script>",
            b"#!/bin/sh\nrm -rf ~\n",
            b"a\0b",
            b"\xff\xfe not utf-8",
            b"colour \x1b]0;pwned\x07",
            b"notes\n\n<!DOCTYPE html>",
        ] {
            assert_eq!(judge("a.txt", bad), wrong("txt"), "{bad:?}");
        }
    }
}
