//! Opening a link from a message. A web or mail link goes to the user's browser (`$BROWSER`,
//! else the system's opener), and an opener that fails says so: nothing is called opened
//! that no program took. An upload on the user's own server is downloaded with the
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
    openers: Openers,
) -> Result<Answer, Failure> {
    let browser = openers.browser.is_some();
    if !download {
        let opening = open(&openers, url.to_owned()).await.err();
        return Ok(Answer::Opened { target: url.to_owned(), saved: false, opening, browser });
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
    let opening = open(&openers, target.clone()).await.err();
    Ok(Answer::Opened { target, saved: true, opening, browser })
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

/// Who opens links: the user's browser (`$BROWSER`, a command run through `sh`), else the
/// system's opener (`xdg-open`; `open` on macOS).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Openers {
    pub browser: Option<String>,
    pub system: String,
}

impl Openers {
    /// `$BROWSER` as it is now, and the platform's opener.
    pub fn from_env() -> Openers {
        let system = if cfg!(target_os = "macos") { "open" } else { "xdg-open" };
        Openers {
            browser: std::env::var("BROWSER").ok().filter(|b| !b.trim().is_empty()),
            system: system.to_owned(),
        }
    }
}

/// How long an opener may run before it counts as having opened the link (a browser started
/// by it may keep it running until the browser is closed); one that fails sooner is reported.
const PATIENCE: std::time::Duration = std::time::Duration::from_secs(3);

/// Hand `target` to the browser (through `sh`, so it may carry arguments; the target is `$1`)
/// or to the system's opener, and wait (a while: [`PATIENCE`]) for what it says: an opener
/// that exits with a failure, or cannot be started, did not open it. On Windows the system
/// opens it (`ShellExecute`, which says whether it could).
async fn open(openers: &Openers, target: String) -> Result<(), ProgramFailure> {
    use tokio::process::Command;
    debug_assert!(target.starts_with('/') || target.contains(':'), "{target}");
    let (program, mut command) = match &openers.browser {
        Some(browser) => {
            let mut c = Command::new("sh");
            c.arg("-c").arg(format!("{browser} \"$1\"")).arg("sh").arg(&target);
            (browser.clone(), c)
        }
        None if cfg!(windows) => return open_on_windows(target).await,
        None => {
            let mut c = Command::new(&openers.system);
            c.arg(&target);
            (openers.system.clone(), c)
        }
    };
    let std = std::process::Stdio::null;
    command.stdin(std()).stdout(std()).stderr(std()).kill_on_drop(false);
    let mut child = command
        .spawn()
        .map_err(|e| ProgramFailure::NotStarted { program: program.clone(), kind: e.kind() })?;
    match tokio::time::timeout(PATIENCE, child.wait()).await {
        Ok(Ok(status)) => ProgramFailure::from_sh(program, status.code()),
        Ok(Err(e)) => Err(ProgramFailure::NotStarted { program, kind: e.kind() }),
        // Still running: it has the link (tokio reaps it when it ends).
        Err(_) => Ok(()),
    }
}

/// Open a web address in the user's browser (`$BROWSER`) as a link from a message is opened:
/// one argument, the address. For `topicterm login`'s sign-in address, on the user's own server.
pub async fn in_browser(browser: &str, url: &str) -> Result<(), ProgramFailure> {
    let openers = Openers { browser: Some(browser.to_owned()), system: String::new() };
    open(&openers, url.to_owned()).await
}

/// Windows' own opener (through the `opener` crate).
async fn open_on_windows(target: String) -> Result<(), ProgramFailure> {
    let program = "the system's opener".to_owned();
    let failed = |kind| ProgramFailure::NotStarted { program: program.clone(), kind };
    tokio::task::spawn_blocking(move || opener::open(&target).map_err(|_| std::io::ErrorKind::Other))
        .await
        .unwrap_or(Err(std::io::ErrorKind::Other))
        .map_err(failed)
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

    #[tokio::test]
    async fn an_opener_that_fails_or_is_missing_did_not_open_the_link() {
        let with = |browser: Option<&str>, system: &str| Openers {
            browser: browser.map(str::to_owned),
            system: system.to_owned(),
        };
        let url = || "https://docs.example/x".to_owned();
        // The system's opener says it could not (xdg-open exits 3 when nothing opens links).
        assert_eq!(
            open(&with(None, "false"), url()).await,
            Err(ProgramFailure::Exited { program: "false".into(), code: Some(1) })
        );
        let missing = open(&with(None, "no-such-opener-here"), url()).await;
        assert_eq!(
            missing,
            Err(ProgramFailure::NotStarted {
                program: "no-such-opener-here".into(),
                kind: std::io::ErrorKind::NotFound
            })
        );
        assert_eq!(open(&with(None, "true"), url()).await, Ok(()));
        // `$BROWSER` wins over the system's opener, and its failure is its own.
        assert_eq!(open(&with(Some("true"), "false"), url()).await, Ok(()));
        assert_eq!(
            open(&with(Some("exit 4;"), "true"), url()).await,
            Err(ProgramFailure::Exited { program: "exit 4;".into(), code: Some(4) })
        );
        // One still running after a while has the link (a browser it started in the foreground).
        let start = std::time::Instant::now();
        assert_eq!(open(&with(Some("sleep 5 ||"), "false"), url()).await, Ok(()));
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
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
