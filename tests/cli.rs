//! The binary's command line: bad input gets a clear message and a non-zero exit, never a panic.

use std::process::Command;

fn run(args: &[&str], home: &std::path::Path) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_topicterm"))
        .args(args)
        .env("HOME", home)
        .env("XDG_STATE_HOME", home.join("state"))
        .env("XDG_DATA_HOME", home.join(".local/share"))
        .env("XDG_CACHE_HOME", home.join(".cache"))
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .output()
        .expect("runs");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code().unwrap_or(-1), text)
}

/// Make a file readable by its owner only.
fn private(path: &std::path::Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
}

#[test]
fn a_missing_zuliprc_is_explained() {
    let home = tempfile::tempdir().unwrap();
    let (code, text) = run(&["-c", "/nonexistent/zuliprc"], home.path());
    assert_ne!(code, 0);
    assert!(text.contains("cannot read /nonexistent/zuliprc"), "{text}");
    assert!(text.contains("--demo"), "points to the demo: {text}");
    assert!(!text.contains("panicked"), "{text}");
    let (code, text) = run(&[], home.path());
    assert_ne!(code, 0);
    assert!(text.contains(".zuliprc"), "the default path is named: {text}");
}

#[test]
fn a_broken_zuliprc_names_what_is_missing() {
    let home = tempfile::tempdir().unwrap();
    let rc = home.path().join("rc");
    std::fs::write(&rc, "[api]\nemail=a@b.c\nsite=http://127.0.0.1:1\n").unwrap();
    private(&rc);
    let (code, text) = run(&["-c", rc.to_str().unwrap()], home.path());
    assert_ne!(code, 0);
    assert!(text.contains("'key'"), "{text}");
}

/// Issue 51.14: a zuliprc the INI parser could not read showed its words (`2:1 expecting
/// "[Some('='), Some(':')]" but found EOF.`): the file, its line, and what a zuliprc looks like.
#[test]
fn a_malformed_zuliprc_names_the_file_its_line_and_shows_one() {
    let home = tempfile::tempdir().unwrap();
    let rc = home.path().join("rc");
    std::fs::write(&rc, "[api]\nemail\n").unwrap();
    private(&rc);
    let (code, text) = run(&["-c", rc.to_str().unwrap()], home.path());
    assert_ne!(code, 0);
    let file = rc.display().to_string();
    assert!(text.contains(&format!("{file} is not a valid zuliprc: line 2 ")), "{text}");
    assert!(text.contains("    [api]\n    email=you@example.com\n    key=YOUR_API_KEY\n    site="), "{text}");
    assert!(!text.contains("expecting") && !text.contains("EOF"), "{text}");
}

#[cfg(unix)]
#[test]
fn the_clients_own_folders_left_open_to_others_are_made_private_on_start() {
    use std::os::unix::fs::PermissionsExt;
    let home = tempfile::tempdir().unwrap();
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    // As an older version left them: drafts per account, the archive's folder, the cache and
    // its pictures, the accounts' folder (issue 51.14: `drafts/` stayed 0755), readable by
    // anyone.
    let data = home.path().join(".local/share/topicterm");
    let cache = home.path().join(".cache/topicterm");
    let state = home.path().join("state/topicterm");
    let config = home.path().join(".config/topicterm");
    let all = [
        data.clone(),
        data.join("drafts"),
        data.join("drafts/me@demo"),
        data.join("archive"),
        cache.clone(),
        cache.join("images"),
        state.clone(),
        config.clone(),
    ];
    for dir in &all {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let (code, _) = run(&["-c", "/nonexistent/zuliprc"], home.path());
    assert_ne!(code, 0);
    for dir in &all {
        assert_eq!(mode(dir), 0o700, "{} is the user's alone", dir.display());
    }
}

/// Issue 40: with `RUST_BACKTRACE=1` in the environment a start-up error printed
/// "Stack backtrace: 0: <unknown>…". A user-facing error is words only.
#[test]
fn a_start_up_error_never_carries_a_backtrace() {
    let home = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_topicterm"))
        .args(["-c", "/nonexistent/zuliprc"])
        .env("HOME", home.path())
        .env("XDG_STATE_HOME", home.path().join("state"))
        .env("RUST_BACKTRACE", "1")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(err.starts_with("Error: ") && err.contains("cannot read /nonexistent/zuliprc"), "{err}");
    assert!(!err.contains("backtrace") && !err.contains("<unknown>"), "{err}");
}
