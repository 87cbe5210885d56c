//! Opening a link from a message. A web or mail link goes to the user's browser (`$BROWSER`,
//! else the system's opener). An upload on the user's own server is downloaded with the
//! user's credentials into the private downloads folder, under a fresh name (mode 0600), and
//! the file is opened only when `files::judge` finds its name and its contents of one inert
//! type (picture, PDF, plain text, audio, video); anything else is only saved, and the status
//! line names where.
//!
//! Whatever is handed to a program is one argument that starts with `/` (a path in the
//! private folder) or with its scheme (`https:`, `mailto:`): never readable as an option.
//! (`xdg-open` takes no `--`.)

use crate::api::Client;
use crate::app::{Answer, Failure, ProgramFailure};
use std::path::PathBuf;

pub(super) async fn open_url(
    c: &Client,
    url: &str,
    download: bool,
    dir: Option<PathBuf>,
) -> Result<Answer, Failure> {
    if !download {
        let opening = open(url.to_owned()).await.err();
        return Ok(Answer::Opened { target: url.to_owned(), saved: false, opening });
    }
    let bytes = c.download(url).await?;
    let name = file_name(url);
    let verdict = crate::files::judge(&name, &bytes);
    let saved = tokio::task::spawn_blocking({
        let name = name.clone();
        move || save(dir, &name, &bytes)
    })
    .await
    .unwrap_or_else(|e| Err((PathBuf::new(), std::io::Error::other(e))));
    let path = match saved {
        Ok(path) => path,
        Err((path, error)) => return Err(Failure::File { path, error }),
    };
    let target = path.display().to_string();
    if let Err(why) = verdict {
        tracing::info!("saved an attachment, not opened: {why}");
        return Ok(Answer::Kept { target, why });
    }
    let opening = open(target.clone()).await.err();
    Ok(Answer::Opened { target, saved: true, opening })
}

/// The file name a download is saved under: the URL's last segment, decoded, with nothing
/// but letters, digits, `-`, `_` and `.` (no path, no hidden file).
fn file_name(url: &str) -> String {
    let last = url.rsplit('/').next().unwrap_or_default();
    let name: String = crate::urls::decode(last)
        .chars()
        .map(|ch| if ch.is_alphanumeric() || "-_.".contains(ch) { ch } else { '_' })
        .collect();
    let name = name.trim_start_matches('.');
    if name.is_empty() { "attachment".into() } else { name.into() }
}

/// Write the bytes to a fresh file in the private folder `dir` (or, with none configured, in a
/// fresh private folder of the temporary directory).
fn save(dir: Option<PathBuf>, name: &str, bytes: &[u8]) -> Result<PathBuf, (PathBuf, std::io::Error)> {
    use std::io::Write;
    let dir = match dir {
        Some(dir) => dir,
        None => tempfile::Builder::new()
            .prefix("topicterm-downloads-")
            .tempdir()
            .map(tempfile::TempDir::keep)
            .map_err(|e| (std::env::temp_dir(), e))?,
    };
    crate::files::private_folder(&dir).map_err(|e| (dir.clone(), e))?;
    let (path, mut file) = crate::files::create_fresh(&dir, name).map_err(|e| (dir.join(name), e))?;
    file.write_all(bytes).and_then(|_| file.sync_all()).map_err(|e| (path.clone(), e))?;
    Ok(path)
}

/// Hand `target` to `$BROWSER` (through `sh`, so it may carry arguments; the target is `$1`)
/// or to the system's opener.
async fn open(target: String) -> Result<(), ProgramFailure> {
    debug_assert!(target.starts_with('/') || target.contains(':'), "{target}");
    tokio::task::spawn_blocking(move || {
        match std::env::var("BROWSER").ok().filter(|b| !b.trim().is_empty()) {
            Some(browser) => {
                let status = std::process::Command::new("sh")
                    .arg("-c")
                    .arg(format!("{browser} \"$1\""))
                    .arg("sh")
                    .arg(&target)
                    .stdin(std::process::Stdio::null())
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::null())
                    .status()
                    .map_err(|e| ProgramFailure::NotStarted { program: browser.clone(), kind: e.kind() })?;
                ProgramFailure::from_sh(browser, status.code())
            }
            None => opener::open(&target).map_err(|e| {
                let program = "the system's opener (xdg-open)".to_owned();
                match e {
                    opener::OpenError::ExitStatus { status, .. } => {
                        ProgramFailure::Exited { program, code: status.code() }
                    }
                    opener::OpenError::Spawn { source, .. } | opener::OpenError::Io(source) => {
                        ProgramFailure::NotStarted { program, kind: source.kind() }
                    }
                    _ => ProgramFailure::NotStarted { program, kind: std::io::ErrorKind::Other },
                }
            }),
        }
    })
    .await
    .unwrap_or_else(|_| {
        Err(ProgramFailure::NotStarted { program: "the opener".into(), kind: std::io::ErrorKind::Other })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_download_is_named_by_its_last_segment_only() {
        assert_eq!(file_name("https://x/user_uploads/2/ab/report%20Q3.pdf"), "report_Q3.pdf");
        assert_eq!(file_name("https://x/user_uploads/2/ab/..%2F..%2Fetc%2Fpasswd"), "_.._etc_passwd");
        assert_eq!(file_name("https://x/user_uploads/2/ab/.bashrc"), "bashrc");
        assert_eq!(file_name("https://x/user_uploads/2/ab/"), "attachment");
    }

    #[test]
    fn a_saved_file_is_private_and_fresh() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("downloads");
        let a = save(Some(folder.clone()), "x.txt", b"one").unwrap();
        let b = save(Some(folder.clone()), "x.txt", b"two").unwrap();
        assert_ne!(a, b);
        assert_eq!(std::fs::read(&a).unwrap(), b"one");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(&folder).unwrap().permissions().mode() & 0o777, 0o700);
            assert_eq!(std::fs::metadata(&b).unwrap().permissions().mode() & 0o777, 0o600);
        }
    }
}
