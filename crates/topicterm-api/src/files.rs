//! Files this machine keeps: the one way they are written (atomically, in folders only the
//! user can enter), and `~/` read as the home folder. The API's own files (a zuliprc, what the
//! demo server writes for its clients) and the client's (drafts, accounts, the last session,
//! `topicterm::files`) are written through these.

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

/// `~/` at the start of a path is the home folder, as in a shell (and as the Python bindings
/// take a zuliprc's paths).
pub fn expand_home(path: &str) -> PathBuf {
    match (path.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => Path::new(&home).join(rest),
        _ => PathBuf::from(path),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
