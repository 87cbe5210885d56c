//! The workspace's files and which of them each imports, read from the code's tokens (issue 24).
//!
//! The four crates are read as one tree: the client's modules as they are, `topicterm-core`'s
//! beside them (`app`, `content`, `line`, `backoff`: the paths the client re-exports them at),
//! `topicterm-api`'s under `api` and `topicterm-demo`'s under `server` (likewise),
//! so that `crate::` in a crate means its own root and `topicterm_api::` leads into `api`.
//!
//! A file imports another when its code names a path into it: `use crate::…`, `use super::…`,
//! `self::…`, a child module by name (`keys::handle`), in a `use` line or anywhere in the code,
//! macro bodies included. A path is resolved to the file that defines it: the longest prefix of
//! it that is a file's module (`crate::app::update::keys::handle` → `app/update/keys.rs`,
//! `crate::app::State` → `app/mod.rs`, which re-exports it and so imports `model.rs`). A `mod x;`
//! line alone is no import, nor is `pub(super)`; items under `#[cfg(test)]` are left out, as a
//! test is no part of the shape of the code. Comments and strings are never read as code: the
//! text is split into tokens by `proc-macro2`, the lexer the compiler's own macros use.

#![allow(dead_code)] // each test binary uses its own part

use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A file's module path: `["app", "update", "keys"]`; `[]` is `lib.rs`, `["main"]` the binary.
pub type Module = Vec<String>;

/// One source file.
pub struct SourceFile {
    /// The module its crate's root stands for in the one tree (`[]` for the client).
    pub krate: Module,
    pub module: Module,
    pub path: PathBuf,
    pub text: String,
}

/// Every `.rs` file under `dir` (a folder of a crate's `src/`, or `src/` itself) of the crate
/// whose root stands for module `mount` in the one tree (`["api"]`: `lib.rs` is `api`).
pub fn read_crate(dir: &Path, mount: &[&str]) -> Vec<SourceFile> {
    let krate: Module = mount.iter().map(|s| (*s).to_owned()).collect();
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut paths = Vec::new();
    walk(dir, &mut paths);
    paths.sort();
    let src = dir.ancestors().find(|a| a.ends_with("src")).unwrap_or(dir);
    paths
        .into_iter()
        .map(|path| {
            let rel = path.strip_prefix(src).unwrap().with_extension("");
            let mut module: Module = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
            if module.len() == 1 && module[0] == "main" {
                // The binary: its own crate, which imports the library by name.
            } else if module.last().is_some_and(|m| m == "mod" || m == "lib") {
                module.pop();
            }
            let text = std::fs::read_to_string(&path).unwrap();
            SourceFile { module: [krate.clone(), module].concat(), krate: krate.clone(), path, text }
        })
        .collect()
}

/// The workspace's crates: where each one's `src/` is (from the workspace root), the module its
/// root stands for in the one tree, and the name the others import it by.
pub const CRATES: &[(&str, &[&str], &str)] = &[
    ("src", &[], "topicterm"),
    // The core's modules are the client's `app`, `content`, `line`, `backoff` (re-exported at
    // those paths); its `lib.rs` is the node `topicterm_core`.
    ("crates/topicterm-core/src", &[], "topicterm_core"),
    ("crates/topicterm-api/src", &["api"], "topicterm_api"),
    ("crates/topicterm-demo/src", &["server"], "topicterm_demo"),
];

/// Every `.rs` file of every crate of the workspace at `root`, and the names that lead from
/// one crate into another (for [`graph_of_tree`]).
pub fn read_workspace(root: &Path) -> (Vec<SourceFile>, Vec<(&'static str, Module)>) {
    let mut files = Vec::new();
    let mut externs = Vec::new();
    for (src, mount, name) in CRATES {
        let mut read = read_crate(&root.join(src), mount);
        if *name == "topicterm_core" {
            // Mounted at the root with the client: its root file is a node of its own.
            for f in read.iter_mut().filter(|f| f.module.is_empty()) {
                f.module = vec![(*name).to_owned()];
            }
        }
        files.extend(read);
        if !mount.is_empty() || *name == "topicterm_core" {
            externs.push((*name, mount.iter().map(|s| (*s).to_owned()).collect()));
        }
    }
    (files, externs)
}

/// Which files each file imports, and the names that make each import (`parse_when`, or
/// `keys` for a module named whole, `*` for a glob).
pub type Graph = BTreeMap<Module, BTreeMap<Module, BTreeSet<String>>>;

/// The import graph of `files` of one crate, given as module path and code.
pub fn graph_of(files: &[(Module, &str)]) -> Graph {
    let files: Vec<(Module, Module, &str)> =
        files.iter().map(|(m, code)| (vec![], m.clone(), *code)).collect();
    graph_of_crates(&files, &[])
}

/// The import graph of `files` of several crates, each given as its crate's root module, its
/// own module path and code; `externs` names the module each crate's name leads to
/// (`("topicterm_api", ["api"])`).
pub fn graph_of_crates(files: &[(Module, Module, &str)], externs: &[(&str, Module)]) -> Graph {
    let modules: BTreeSet<&Module> = files.iter().map(|(_, m, _)| m).collect();
    let externs: BTreeMap<String, Module> =
        externs.iter().map(|(n, m)| ((*n).to_owned(), m.clone())).collect();
    let mut graph = Graph::new();
    for (krate, me, code) in files {
        let tokens: TokenStream =
            code.parse().unwrap_or_else(|e| panic!("{}: not Rust tokens: {e:?}", me.join("::")));
        let mut reader =
            Reader { modules: &modules, externs: &externs, krate, file: me, edges: BTreeMap::new() };
        let at = if me.as_slice() == ["main"] { vec![] } else { me.clone() };
        reader.stream(tokens, &at);
        graph.insert(me.clone(), reader.edges);
    }
    graph
}

/// The graph of files read from disk by [`read_crate`] or [`read_workspace`]; `externs` as
/// for [`graph_of_crates`].
pub fn graph_of_tree(files: &[SourceFile], externs: &[(&str, Module)]) -> Graph {
    let files: Vec<(Module, Module, &str)> =
        files.iter().map(|f| (f.krate.clone(), f.module.clone(), f.text.as_str())).collect();
    graph_of_crates(&files, externs)
}

struct Reader<'a> {
    modules: &'a BTreeSet<&'a Module>,
    /// The module each other crate's name leads to.
    externs: &'a BTreeMap<String, Module>,
    /// The root of the crate the file is in.
    krate: &'a Module,
    file: &'a Module,
    edges: BTreeMap<Module, BTreeSet<String>>,
}

fn is_ident(t: Option<&TokenTree>, word: &str) -> bool {
    matches!(t, Some(TokenTree::Ident(i)) if i == word)
}

fn is_punct(t: Option<&TokenTree>, c: char) -> bool {
    matches!(t, Some(TokenTree::Punct(p)) if p.as_char() == c)
}

/// `::` at `at`.
fn is_path_sep(tokens: &[TokenTree], at: usize) -> bool {
    matches!(tokens.get(at), Some(TokenTree::Punct(p)) if p.as_char() == ':' && p.spacing() == Spacing::Joint)
        && is_punct(tokens.get(at + 1), ':')
}

/// `#[cfg(test)]` starting at `at`.
fn is_cfg_test(tokens: &[TokenTree], at: usize) -> bool {
    if !is_punct(tokens.get(at), '#') {
        return false;
    }
    let Some(TokenTree::Group(g)) = tokens.get(at + 1) else { return false };
    if g.delimiter() != Delimiter::Bracket {
        return false;
    }
    let inner: Vec<TokenTree> = g.stream().into_iter().collect();
    is_ident(inner.first(), "cfg")
        && inner.len() == 2
        && matches!(&inner[1], TokenTree::Group(a) if a.stream().to_string() == "test")
}

impl Reader<'_> {
    /// Records an import of the file that defines `path` (the longest prefix of it that is a
    /// file's module) and the name taken from it.
    fn add(&mut self, path: &[String]) {
        let Some(n) = (0..=path.len()).rev().find(|&n| self.modules.contains(&path[..n].to_vec())) else {
            return;
        };
        let file = path[..n].to_vec();
        if &file == self.file {
            return;
        }
        let name = path.get(n).or(path.last()).cloned().unwrap_or_default();
        self.edges.entry(file).or_default().insert(name);
    }

    /// Where a path whose first segment is `root`, written in module `at`, starts — if it
    /// leads into the files read: `crate`, `super`, `self`, a child module of `at`, or another
    /// crate of the workspace by name.
    fn root(&self, root: &str, at: &Module) -> Option<Module> {
        match root {
            "crate" => Some(self.krate.clone()),
            "topicterm" if self.file.as_slice() == ["main"] => Some(vec![]),
            _ if self.externs.contains_key(root) => Some(self.externs[root].clone()),
            "super" => Some(at[..at.len().saturating_sub(1)].to_vec()),
            "self" => Some(at.clone()),
            _ => {
                let child = [at.clone(), vec![root.to_owned()]].concat();
                self.modules.contains(&child).then_some(child)
            }
        }
    }

    /// Reads the tokens of module `at` (a file's, or an inline `mod x { … }` within it).
    fn stream(&mut self, tokens: TokenStream, at: &Module) {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        let mut i = 0;
        while i < tokens.len() {
            // A test-only item: skipped to its `;` or its body.
            if is_cfg_test(&tokens, i) {
                i += 2;
                while i < tokens.len() {
                    match &tokens[i] {
                        TokenTree::Punct(p) if p.as_char() == ';' => break,
                        TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => break,
                        _ => i += 1,
                    }
                }
                i += 1;
                continue;
            }
            // `pub(super)`, `pub(in crate::x)`: visibility, no import.
            if is_ident(tokens.get(i), "pub")
                && matches!(tokens.get(i + 1), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis)
            {
                i += 2;
                continue;
            }
            // `mod x { … }` is read as module `x`; `mod x;` declares a file and imports nothing.
            if is_ident(tokens.get(i), "mod") {
                match (tokens.get(i + 1), tokens.get(i + 2)) {
                    (Some(TokenTree::Ident(name)), Some(TokenTree::Group(body)))
                        if body.delimiter() == Delimiter::Brace =>
                    {
                        self.stream(body.stream(), &[at.clone(), vec![name.to_string()]].concat());
                        i += 3;
                    }
                    _ => i += 2,
                }
                continue;
            }
            if is_ident(tokens.get(i), "use") {
                let end =
                    (i + 1..tokens.len()).find(|&j| is_punct(tokens.get(j), ';')).unwrap_or(tokens.len());
                self.use_tree(&tokens[i + 1..end], None, at);
                i = end + 1;
                continue;
            }
            match &tokens[i] {
                TokenTree::Group(g) => self.stream(g.stream(), at),
                // The first segment of a path (`keys::handle`, `crate::app::x`, `super::super::y`).
                TokenTree::Ident(first)
                    if !(i >= 2 && is_path_sep(&tokens, i - 2)) && is_path_sep(&tokens, i + 1) =>
                {
                    let mut segs = vec![];
                    while is_path_sep(&tokens, i + 1) {
                        let Some(TokenTree::Ident(s)) = tokens.get(i + 3) else { break };
                        segs.push(s.to_string());
                        i += 3;
                    }
                    if let Some(mut path) = self.root(&first.to_string(), at) {
                        for s in segs {
                            if s == "super" {
                                path.pop();
                            } else {
                                path.push(s);
                            }
                        }
                        self.add(&path);
                    }
                }
                _ => {}
            }
            i += 1;
        }
    }

    /// A `use` tree (`a::b::{c, d::{e, f}}`, `x as y`, `*`) written in module `at`: each leaf
    /// path is an import. `prefix` is where the tree stands (`None` at the top, where its first
    /// segment is a root).
    fn use_tree(&mut self, tokens: &[TokenTree], prefix: Option<&Module>, at: &Module) {
        'parts: for part in tokens.split(|t| is_punct(Some(t), ',')) {
            let mut path: Option<Module> = prefix.cloned();
            for t in part {
                match t {
                    TokenTree::Ident(s) if s == "as" => break,
                    TokenTree::Ident(s) => {
                        let s = s.to_string();
                        match path.as_mut() {
                            // An extern crate (`std`, `ratatui`): out of the crate.
                            None => match self.root(&s, at) {
                                Some(start) => path = Some(start),
                                None => continue 'parts,
                            },
                            Some(p) if s == "super" => {
                                p.pop();
                            }
                            Some(_) if s == "self" => {}
                            Some(p) => p.push(s),
                        }
                    }
                    TokenTree::Punct(p) if p.as_char() == '*' => {
                        if let Some(p) = path.as_mut() {
                            p.push("*".to_owned());
                        }
                    }
                    TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => {
                        let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                        self.use_tree(&inner, path.as_ref(), at);
                        continue 'parts;
                    }
                    _ => {}
                }
            }
            if let Some(path) = path {
                self.add(&path);
            }
        }
    }
}

/// The groups of files that import each other in a loop (the strongly connected components
/// of more than one file, each sorted), found with Tarjan's algorithm.
pub fn knots(graph: &Graph) -> Vec<Vec<Module>> {
    struct Tarjan<'g> {
        graph: &'g Graph,
        index: BTreeMap<&'g Module, usize>,
        low: BTreeMap<&'g Module, usize>,
        stack: Vec<&'g Module>,
        on_stack: BTreeSet<&'g Module>,
        out: Vec<Vec<Module>>,
    }
    impl<'g> Tarjan<'g> {
        fn visit(&mut self, v: &'g Module) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.graph.get(v).into_iter().flat_map(|e| e.keys()) {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let lw = self.low[w];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(lw);
                } else if self.on_stack.contains(w) {
                    let iw = self.index[w];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(iw);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                loop {
                    let w = self.stack.pop().unwrap();
                    self.on_stack.remove(w);
                    component.push(w.clone());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.out.push(component);
                }
            }
        }
    }
    let mut t = Tarjan {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: vec![],
        on_stack: BTreeSet::new(),
        out: vec![],
    };
    for v in graph.keys() {
        if !t.index.contains_key(v) {
            t.visit(v);
        }
    }
    t.out.sort();
    t.out
}

/// A knot in words: its files, one shortest loop through its first file, and every import
/// between its files with the names that make it.
pub fn describe(graph: &Graph, knot: &[Module]) -> String {
    let name = |m: &Module| if m.is_empty() { "crate".to_owned() } else { m.join("::") };
    let inside: BTreeSet<&Module> = knot.iter().collect();
    let edges = |m: &Module| graph[m].keys().filter(|t| inside.contains(t)).collect::<Vec<_>>();
    // Breadth-first from the first file back to itself.
    let start = &knot[0];
    let mut came_from: BTreeMap<&Module, &Module> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    let mut back = None;
    'search: while let Some(m) = queue.pop_front() {
        for t in edges(m) {
            if t == start {
                back = Some(m);
                break 'search;
            }
            if !came_from.contains_key(t) {
                came_from.insert(t, m);
                queue.push_back(t);
            }
        }
    }
    let mut lap = vec![];
    let mut at = back.unwrap();
    while at != start {
        lap.push(at);
        at = came_from[at];
    }
    lap.reverse();
    let lap: Vec<&Module> = [vec![start], lap, vec![start]].concat();
    let mut out = format!(
        "{} files: {}\n  a loop: {}\n",
        knot.len(),
        knot.iter().map(name).collect::<Vec<_>>().join(", "),
        lap.iter().map(|m| name(m)).collect::<Vec<_>>().join(" → ")
    );
    for m in knot {
        for t in edges(m) {
            let names: Vec<&str> = graph[m][t].iter().map(String::as_str).collect();
            out += &format!("  {} → {} ({})\n", name(m), name(t), names.join(", "));
        }
    }
    out
}
