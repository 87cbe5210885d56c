//! Layout rules of the whole workspace (issue 24): no import cycle of any length between the
//! source files of its crates (`src/`, `crates/*/src/`). Each file imports only what stands
//! below it, so a file can be read, moved or tested with what it names and nothing that names it
//! back. That no crate imports one above it (the API crate names neither the client nor the demo
//! server; the demo server names only the API crate), Cargo enforces: none of them depends on
//! one above it.

#[path = "support/imports.rs"]
mod imports;

use imports::{Graph, Module, describe, graph_of, graph_of_crates, graph_of_tree, knots, read_workspace};
use std::path::Path;

fn module(path: &str) -> Module {
    if path.is_empty() { vec![] } else { path.split("::").map(str::to_owned).collect() }
}

/// The knots of a graph, as a report to print.
fn report(graph: &Graph) -> String {
    knots(graph).iter().map(|k| describe(graph, k)).collect::<Vec<_>>().join("\n")
}

#[test]
fn no_import_cycle_anywhere_in_the_workspace() {
    let (files, externs) = read_workspace(Path::new(env!("CARGO_MANIFEST_DIR")));
    let graph = graph_of_tree(&files, &externs);
    // The scan sees imports of each kind it reads: a `use super::` line, a child named in code,
    // a re-export, a path in code.
    let has = |from: &str, to: &str| graph[&module(from)].contains_key(&module(to));
    assert!(has("app::update::keys", "app::update::common"), "{:?}", graph[&module("app::update::keys")]);
    assert!(has("app::update", "app::update::keys"), "{:?}", graph[&module("app::update")]);
    assert!(has("app", "app::model"), "{:?}", graph[&module("app")]);
    assert!(has("server::org", "server::events"), "{:?}", graph[&module("server::org")]);
    // Into another crate: by the name the client re-exports it by, and by the crate's own name.
    assert!(has("app::update::register", "api::levels"), "{:?}", graph[&module("app::update::register")]);
    assert!(has("server", "api"), "{:?}", graph[&module("server")]);
    assert!(has("api::queue", "api::transport"), "{:?}", graph[&module("api::queue")]);
    assert!(graph.len() > 150, "every file is read: {}", graph.len());
    let found = report(&graph);
    assert!(found.is_empty(), "files of the workspace that import each other in a loop:\n{found}");
}

#[test]
fn a_loop_of_three_files_is_found_and_named() {
    let files = [
        (module(""), "pub mod a;"),
        (module("a"), "mod b; mod c; pub use b::Thing;"),
        (module("a::b"), "use super::c::{helper, Other as O};\npub struct Thing;"),
        (module("a::c"), "pub fn helper() { crate::a::d::f(); }\npub struct Other;"),
        (module("a::d"), "pub fn f() { super::b::Thing; }"),
    ];
    let graph = graph_of(&files);
    let found = knots(&graph);
    assert_eq!(found, vec![vec![module("a::b"), module("a::c"), module("a::d")]], "{graph:?}");
    let words = describe(&graph, &found[0]);
    assert!(words.contains("a::b → a::c (Other, helper)"), "{words}");
    assert!(words.contains("a::c → a::d (f)"), "{words}");
    assert!(words.contains("a::d → a::b (Thing)"), "{words}");
    assert!(words.contains("a loop: a::b → a::c → a::d → a::b"), "{words}");
}

#[test]
fn a_loop_through_two_crates_is_found_and_named() {
    // The API crate (read under `api`) and the client, each naming the other: by the name the
    // client re-exports the crate by, and by the crate's own name. Cargo refuses such a pair of
    // crates; the scan finds the loop all the same.
    let files = [
        (module(""), module(""), "pub use lower as api; pub mod a;"),
        (module(""), module("a"), "pub fn f() { crate::api::g(); }"),
        (module("api"), module("api"), "pub mod b; pub fn g() { b::h(); }"),
        (module("api"), module("api::b"), "pub fn h() { upper::a::f(); }"),
    ];
    let graph = graph_of_crates(&files, &[("lower", module("api")), ("upper", module(""))]);
    let found = knots(&graph);
    assert_eq!(found, vec![vec![module("a"), module("api"), module("api::b")]], "{graph:?}");
    let words = describe(&graph, &found[0]);
    assert!(words.contains("a loop: a → api → api::b → a"), "{words}");
    assert!(words.contains("api::b → a (f)"), "{words}");
}

#[test]
fn a_clean_tree_has_no_knot_and_tests_comments_strings_and_declarations_are_no_imports() {
    let files = [
        (module(""), "pub mod a;"),
        (module("a"), "pub mod b; mod c; pub(super) fn top() {} pub use c::helper;"),
        (
            module("a::b"),
            "// crate::a::c::helper\n/* super::c::x */ pub(super) fn b() { let s = \"super::c::x\"; }\n\
             #[cfg(test)]\nmod tests { use crate::a::c::helper; }",
        ),
        (module("a::c"), "/// [`super::b`]\npub fn helper() { super::b::b(); }"),
    ];
    let graph = graph_of(&files);
    assert_eq!(knots(&graph), Vec::<Vec<Module>>::new(), "{graph:?}");
    assert!(graph[&module("a::b")].is_empty(), "{graph:?}");
    assert_eq!(graph[&module("a")].keys().collect::<Vec<_>>(), [&module("a::c")], "{graph:?}");
    assert_eq!(graph[&module("a::c")].keys().collect::<Vec<_>>(), [&module("a::b")], "{graph:?}");
}

#[test]
fn a_path_goes_to_the_file_that_defines_it() {
    let files = [
        (module(""), "pub mod app;"),
        (module("app"), "pub mod update; pub mod when;"),
        (module("app::when"), "pub fn parse_when() {}"),
        (module("app::update"), "mod keys; mod common; pub fn apply() { keys::go(); }"),
        (module("app::update::common"), "pub fn status() {}"),
        (
            module("app::update::keys"),
            "use crate::app::{when::parse_when, update::{self as u}};\nuse super::super::*;\n\
             pub fn go() { super::common::status(); }",
        ),
    ];
    let graph = graph_of(&files);
    let edges = |m: &str| -> Vec<(String, Vec<String>)> {
        graph[&module(m)].iter().map(|(t, names)| (t.join("::"), names.iter().cloned().collect())).collect()
    };
    let expected: Vec<(String, Vec<String>)> = vec![
        ("app".into(), vec!["*".into()]),
        ("app::update".into(), vec!["update".into()]),
        ("app::update::common".into(), vec!["status".into()]),
        ("app::when".into(), vec!["parse_when".into()]),
    ];
    assert_eq!(edges("app::update::keys"), expected);
    assert_eq!(edges("app::update"), vec![("app::update::keys".to_owned(), vec!["go".to_owned()])]);
    assert_eq!(knots(&graph), vec![vec![module("app::update"), module("app::update::keys")]]);
}

/// The core is pure because Cargo says so: `topicterm-core` depends on no terminal, network or
/// runtime crate, not even through `topicterm-api` (whose HTTP client is its `http` feature,
/// which the core leaves off). What `cargo tree` prints is read, not a list kept here by hand.
#[test]
fn the_core_depends_on_no_terminal_network_or_runtime_crate() {
    let out = std::process::Command::new(env!("CARGO"))
        .args(["tree", "-p", "topicterm-core", "-e", "normal,build", "--prefix", "none", "--offline"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo tree runs");
    assert!(out.status.success(), "cargo tree: {}", String::from_utf8_lossy(&out.stderr));
    let tree = String::from_utf8_lossy(&out.stdout);
    let crates: Vec<&str> = tree.lines().filter_map(|l| l.split_whitespace().next()).collect();
    assert!(
        crates.contains(&"topicterm-api") && crates.contains(&"serde"),
        "the core's dependencies are read: {tree}"
    );
    let forbidden =
        ["ratatui", "crossterm", "tokio", "reqwest", "hyper", "mio", "rustls", "ratatui-textarea"];
    let found: Vec<&&str> = crates.iter().filter(|c| forbidden.contains(c)).collect();
    assert!(found.is_empty(), "topicterm-core depends on {found:?}:\n{tree}");
}
