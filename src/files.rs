//! Files this machine keeps (drafts, accounts, the last session): the one way they are written.

use std::path::{Path, PathBuf};

/// Write a file atomically (temp file in the same folder, synced, then renamed over the old
/// one): a crash or `kill -9` leaves the old or the new contents, never a torn file.
pub fn write_atomic(path: &std::path::Path, body: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    // A folder made for it is the user's alone (0700): what is kept names accounts and
    // conversations. An existing one is left as it is (`keep_private` corrects the client's own).
    if !dir.exists() {
        private_folder(dir)?;
    }
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    std::io::Write::write_all(&mut tmp, body)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Make `dir` a folder only the user can enter (mode 0700), creating it (and its parents) if
/// needed. An existing symlink or file there is refused rather than followed.
pub fn private_folder(dir: &std::path::Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)?;
    let meta = std::fs::symlink_metadata(dir)?;
    if !meta.is_dir() {
        return Err(std::io::Error::other(format!("{} is not a folder", dir.display())));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if meta.permissions().mode() & 0o077 != 0 {
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
        }
    }
    Ok(())
}

/// Make the client's own folders (data, cache, state) the user's alone again where they exist
/// with group or other access (an older version made them 0755; other users could list the
/// accounts and which conversations have drafts). Each folder that cannot be corrected is
/// returned with why, for the log.
pub fn keep_private(dirs: &[&Path]) -> Vec<(PathBuf, std::io::Error)> {
    let mut failed = Vec::new();
    for dir in dirs {
        if std::fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir())
            && let Err(e) = private_folder(dir)
        {
            failed.push((dir.to_path_buf(), e));
        }
    }
    failed
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

/// File types that run code when opened (programs, scripts, installers, launchers, and web
/// pages, which a browser runs with access to local files): an attachment of one of these is
/// saved, never opened. The one list of them.
const RUNS_CODE: &[&str] = &[
    // Linux and the BSDs
    "appimage",
    "bash",
    "bin",
    "csh",
    "deb",
    "desktop",
    "elf",
    "flatpak",
    "flatpakref",
    "jar",
    "ksh",
    "out",
    "pl",
    "py",
    "pyc",
    "pyw",
    "rb",
    "rpm",
    "run",
    "sh",
    "snap",
    "x86_64",
    "zsh",
    "php",
    "lua",
    "js",
    "mjs",
    "cjs",
    // macOS
    "app",
    "applescript",
    "command",
    "dmg",
    "pkg",
    "mpkg",
    "scpt",
    "terminal",
    "tool",
    "workflow",
    "webloc",
    "fileloc",
    "inetloc",
    // Windows
    "bat",
    "cmd",
    "com",
    "cpl",
    "exe",
    "hta",
    "inf",
    "ins",
    "jse",
    "lnk",
    "msc",
    "msi",
    "msp",
    "pif",
    "ps1",
    "psm1",
    "reg",
    "scf",
    "scr",
    "url",
    "vb",
    "vbe",
    "vbs",
    "wsf",
    "wsh",
    "appref-ms",
    "application",
    "gadget",
    "msix",
    "appx",
    "library-ms",
    "settingcontent-ms",
    // Pages and documents with scripts a viewer may run
    "htm",
    "html",
    "xhtml",
    "shtml",
    "mht",
    "mhtml",
    "svg",
    "svgz",
    "xml",
    "xsl",
];

/// Does opening a file of this name risk running code? Names with no extension count as such
/// (the opener guesses their type from the bytes).
pub fn runs_code(name: &str) -> bool {
    match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => {
            let ext = ext.to_ascii_lowercase();
            RUNS_CODE.contains(&ext.as_str())
        }
        _ => true,
    }
}

/// `~/` at the start of a path is the home folder, as in a shell (and as the Python bindings
/// take a zuliprc's paths).
pub fn expand_home(path: &str) -> PathBuf {
    match (path.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => Path::new(&home).join(rest),
        _ => PathBuf::from(path),
    }
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

    #[test]
    fn a_private_folder_is_the_users_alone() {
        let dir = tempfile::tempdir().unwrap();
        let private = dir.path().join("x/downloads");
        private_folder(&private).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(&private), 0o700);
            std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o755)).unwrap();
            private_folder(&private).unwrap();
            assert_eq!(mode(&private), 0o700, "made private again");
            let link = dir.path().join("link");
            std::os::unix::fs::symlink(&private, &link).unwrap();
            assert!(private_folder(&link).is_err(), "a symlink is refused");
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

    #[test]
    fn programs_scripts_and_pages_run_code_pictures_and_documents_do_not() {
        for name in ["x.desktop", "x.sh", "x.jar", "a.AppImage", "setup.EXE", "r.html", "noext", ".bashrc"] {
            assert!(runs_code(name), "{name}");
        }
        for name in ["cat.png", "notes.txt", "report.pdf", "song.mp3", "a.b.tar.gz"] {
            assert!(!runs_code(name), "{name}");
        }
    }
}
