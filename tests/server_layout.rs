//! Layout rules (issue 9). The demo server knows nothing of the client, none of its files is
//! part of an import cycle, none is over 1,000 lines, and the helpers it keeps its own copy of
//! (because it may not import the client's) agree with the client's. In the whole crate, no two
//! source files import each other.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// `src/server`, or another copy of it named by `SERVER_LAYOUT_ROOT` (to check an old tree).
fn root() -> PathBuf {
    std::env::var_os("SERVER_LAYOUT_ROOT")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("src/server"))
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every server source file: its module path (`["server", "org", "json"]`) and its code
/// without the `#[cfg(test)] mod tests` at the end and without `//` comments.
fn server_files() -> BTreeMap<Vec<String>, String> {
    files_under(&root())
}

/// Every source file under `root` (a folder of `src/`), as [`server_files`] reads them.
fn files_under(root: &Path) -> BTreeMap<Vec<String>, String> {
    let mut paths = Vec::new();
    sources(root, &mut paths);
    let src = if root.ends_with("src") { root } else { root.parent().unwrap() };
    paths
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(src).unwrap().with_extension("");
            let mut module: Vec<String> = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
            if module.last().is_some_and(|m| m == "mod" || m == "lib" || m == "main") {
                module.pop();
            }
            let text = std::fs::read_to_string(&p).unwrap();
            let code = text.split("#[cfg(test)]\nmod tests {").next().unwrap_or("");
            let code: String =
                code.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n");
            (module, code)
        })
        .collect()
}

/// The identifier segments of a path starting at `s` (`a::b::{c, d::e}` → [a, b] and the
/// braced heads [c, d]).
fn path_at(s: &str) -> (Vec<String>, Vec<String>) {
    let mut segs = Vec::new();
    let mut rest = s;
    loop {
        let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len());
        if end == 0 {
            if let Some(inner) = rest.strip_prefix('{') {
                let inner = &inner[..inner.find('}').unwrap_or(inner.len())];
                let heads = inner
                    .split(',')
                    .map(|part| {
                        let part = part.trim();
                        part[..part.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(part.len())]
                            .to_owned()
                    })
                    .filter(|h| !h.is_empty() && h != "self")
                    .collect();
                return (segs, heads);
            }
            return (segs, vec![]);
        }
        segs.push(rest[..end].to_owned());
        rest = &rest[end..];
        match rest.strip_prefix("::") {
            Some(r) => rest = r,
            None => return (segs, vec![]),
        }
    }
}

/// Which server files each server file refers to (`crate::server::…`, `super::…`, or a child
/// module by name).
fn import_graph() -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    graph_of(&server_files())
}

/// Which of `files` each file refers to.
fn graph_of(files: &BTreeMap<Vec<String>, String>) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let resolve = |path: &[String]| -> Option<Vec<String>> {
        (1..=path.len()).rev().map(|n| path[..n].to_vec()).find(|p| files.contains_key(p))
    };
    let mut graph = BTreeMap::new();
    for (me, code) in files {
        let mut deps = BTreeSet::new();
        let mut add = |path: Vec<String>, heads: Vec<String>| {
            let mut targets = vec![path.clone()];
            targets.extend(heads.into_iter().map(|h| [path.clone(), vec![h]].concat()));
            for t in targets {
                if let Some(file) = resolve(&t).filter(|f| f != me) {
                    deps.insert(file);
                }
            }
        };
        let bytes = code.as_bytes();
        for (i, _) in code.char_indices() {
            let boundary = i == 0
                || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_' || bytes[i - 1] == b':');
            if !boundary {
                continue;
            }
            let rest = &code[i..];
            if let Some(r) = rest.strip_prefix("crate::") {
                let (segs, heads) = path_at(r);
                add(segs, heads);
            } else if rest.starts_with("super::") {
                let mut base = me.clone();
                let mut r = rest;
                while let Some(after) = r.strip_prefix("super::") {
                    base.pop();
                    r = after;
                }
                let (segs, heads) = path_at(r);
                add([base, segs].concat(), heads);
            } else {
                for child in files.keys().filter(|k| k.len() == me.len() + 1 && k.starts_with(me)) {
                    let name = child.last().unwrap();
                    if rest.starts_with(&format!("{name}::")) {
                        add(child.clone(), vec![]);
                    }
                }
            }
        }
        graph.insert(me.clone(), deps);
    }
    graph
}

#[test]
fn the_server_knows_nothing_of_the_client() {
    for (module, code) in server_files() {
        for client in [
            "crate::app",
            "crate::ui",
            "crate::net",
            "crate::run",
            "crate::config",
            "crate::account",
            "crate::outside",
            "crate::webhook",
        ] {
            assert!(!code.contains(client), "{} uses {client}", module.join("::"));
        }
        for (at, _) in code.match_indices("crate::api") {
            let used = &code[at..];
            let allowed = module == ["server"]
                && (used.starts_with("crate::api::Credentials")
                    || used.starts_with("crate::api::zuliprc::write"));
            assert!(allowed, "{} uses {}", module.join("::"), &used[..used.len().min(60)]);
        }
    }
}

#[test]
fn no_server_files_import_each_other() {
    let graph = import_graph();
    assert!(
        graph[&vec!["server".to_owned(), "org".to_owned()]]
            .contains(&vec!["server".to_owned(), "events".to_owned()]),
        "the scan sees imports: {graph:?}"
    );
    // Depth-first search for a cycle of any length.
    fn visit<'g>(
        node: &'g Vec<String>,
        graph: &'g BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        stack: &mut Vec<&'g Vec<String>>,
        done: &mut BTreeSet<&'g Vec<String>>,
    ) {
        if done.contains(node) {
            return;
        }
        if let Some(at) = stack.iter().position(|n| *n == node) {
            let cycle: Vec<String> = stack[at..].iter().chain([&node]).map(|m| m.join("::")).collect();
            panic!("import cycle: {}", cycle.join(" → "));
        }
        stack.push(node);
        for dep in &graph[node] {
            visit(dep, graph, stack, done);
        }
        stack.pop();
        done.insert(node);
    }
    let mut done = BTreeSet::new();
    for node in graph.keys() {
        visit(node, &graph, &mut Vec::new(), &mut done);
    }
}

#[test]
fn no_server_source_file_is_over_1000_lines() {
    for (module, code) in server_files() {
        let lines = code.lines().count();
        assert!(lines <= 1000, "{} has {lines} lines of non-test code", module.join("::"));
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

#[test]
fn no_two_source_files_of_the_crate_import_each_other() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = files_under(&src);
    let graph = graph_of(&files);
    let update = vec!["app".to_owned(), "update".to_owned()];
    assert!(
        graph[&update].contains(&vec!["app".to_owned(), "update".to_owned(), "keys".to_owned()]),
        "the scan sees a parent naming its child: {:?}",
        graph[&update]
    );
    let mut pairs = Vec::new();
    for (a, deps) in &graph {
        for b in deps {
            if a < b && graph.get(b).is_some_and(|d| d.contains(a)) {
                pairs.push(format!("{} ⇄ {}", a.join("::"), b.join("::")));
            }
        }
    }
    assert!(pairs.is_empty(), "files that import each other: {pairs:#?}");
}
