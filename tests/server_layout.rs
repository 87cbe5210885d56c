//! Layout rules of the demo server (issue 9). It knows nothing of the client, none of its files
//! is over 1,000 lines, and the helpers it keeps its own copy of (because it may not import the
//! client's) agree with the client's. That none of its files (nor any other of the crate) is
//! part of an import cycle, `tests/layout.rs` checks.

#[path = "support/imports.rs"]
mod imports;

use imports::{Module, SourceFile, graph_of_tree, read_tree, read_workspace};
use std::path::{Path, PathBuf};

/// `src/server`, or another copy of it named by `SERVER_LAYOUT_ROOT` (to check an old tree).
fn root() -> PathBuf {
    std::env::var_os("SERVER_LAYOUT_ROOT")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("src/server"))
}

/// Every source file of the crate the server is in (`src/`).
fn crate_files() -> Vec<SourceFile> {
    read_tree(root().parent().expect("the server is a folder of src/"))
}

fn is_server(m: &Module) -> bool {
    m.first().is_some_and(|s| s == "server")
}

/// Every server source file.
fn server_files() -> Vec<SourceFile> {
    crate_files().into_iter().filter(|f| is_server(&f.module)).collect()
}

fn name(m: &Module) -> String {
    m.join("::")
}

#[test]
fn the_server_knows_nothing_of_the_client() {
    let (files, externs) = read_workspace(Path::new(env!("CARGO_MANIFEST_DIR")));
    let graph = graph_of_tree(&files, &externs);
    assert!(
        graph[&vec!["server".to_owned()]].contains_key(&vec!["api".to_owned()]),
        "the scan sees the one seam: {graph:?}"
    );
    for (module, imports) in graph.iter().filter(|(m, _)| is_server(m)) {
        for (file, names) in imports {
            let client = ["app", "ui", "net", "run", "config", "account", "outside", "webhook"];
            assert!(
                !file.first().is_some_and(|f| client.contains(&f.as_str())),
                "{} uses {} ({names:?})",
                name(module),
                name(file)
            );
            if file.first().is_some_and(|f| f == "api") {
                // The one seam: handing over credentials.
                let seam = module.as_slice() == ["server"]
                    && match file.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
                        ["api"] => names.iter().all(|n| n == "Credentials"),
                        ["api", "zuliprc"] => names.iter().all(|n| n == "write"),
                        _ => false,
                    };
                assert!(seam, "{} uses {} ({names:?})", name(module), name(file));
            }
        }
    }
}

#[test]
fn no_server_source_file_is_over_1000_lines() {
    for file in server_files() {
        let code = file.text.split("#[cfg(test)]\nmod tests {").next().unwrap_or("");
        let lines = code.lines().count();
        assert!(lines <= 1000, "{} has {lines} lines of non-test code", name(&file.module));
    }
}

#[test]
fn the_servers_own_helpers_agree_with_the_clients() {
    for template in [
        "https://play.example/?code={code}",
        "https://play.example/{?code}",
        "https://play.example/#{+code}",
        "https://play.example/{code*}",
        "https://play.example/{code:3}",
        "https://play.example/",
        "https://play.example/?c={source}",
        "https://play.example/?c={code}&l={lang}",
        "https://play.example/{?code,lang}",
        "https://play.example/?c={code",
        "https://play.example/?c=code}",
        "https://play.example/{code}{code}",
        "https://play.example/{{code}}",
        "{}",
        "",
    ] {
        assert_eq!(
            topicterm::server::validate::playground_template_ok(template),
            topicterm::api::limits::check_playground_template(template).is_ok(),
            "{template}"
        );
    }
}
