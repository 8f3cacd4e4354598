//! The layers of the library, checked: a module takes only from its own
//! layer and the layers below it. Bottom to top:
//!
//! 1. foundation: `error`, `color`, `rng`
//! 2. `board`: bit sets, geometries, rules, keys, square names, perft
//! 3. what stands on the board alone: `eval`, `game`, `book`, `classic`
//! 4. text forms: `notation`, `obf`
//! 5. search: every `search::*` module but the engine's
//! 6. engine: `search::engine`, `search::root` (and the `crate::engine`
//!    re-export)
//! 7. `any`: a game of any size behind one type
//! 8. `ffi`: the C ABI
//!
//! Modules map to layers by path prefix, so a new file inside a folder
//! (`src/eval/pattern/*.rs`, `src/search/tuning.rs`) takes its folder's
//! layer; a new top-level module fails until it is placed in [`LAYERS`].
//! `lib.rs` only declares and re-exports, and is not checked.
//!
//! Within a layer imports are free, with two exceptions: no import circle
//! between files of different areas (an area is a top-level module: `src/`'s
//! own files, or everything under one folder such as `src/eval/`), and no
//! circle at all between the files of `src/search/`, except the one between
//! the midgame search and the exact solver, which hand nodes to each other
//! (every file of `search/midgame*` counts as one, as does `search/endgame*`).
//!
//! What counts as an import: `use crate::...` (groups such as
//! `use crate::{a::b, c::{d, e}}` included), a `use` of a child module
//! (`use bits::Bits` in `board/mod.rs`), `super::` paths, and `crate::`
//! paths written inline. Items re-exported by `lib.rs` (`crate::Game`,
//! `crate::engine`) count as the modules they come from.
//!
//! Unit tests (`#[cfg(test)] mod tests`) are checked like the rest: a test
//! that needs a higher layer than its module belongs in `tests/`, and the
//! board's tests use its own helpers (`board::testing`, `board::square`).
//!
//! The reader is a small line parser, not a Rust parser: it blanks comments,
//! strings and character literals first, then reads `use` statements and
//! paths from what is left.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The layers, bottom to top, each with the module path prefixes it holds.
/// A module takes the layer of its longest matching prefix.
const LAYERS: &[(&str, &[&str])] = &[
    ("foundation", &["error", "color", "rng", "clock"]),
    ("board", &["board"]),
    (
        "eval, game, book, classic",
        &["eval", "game", "book", "classic"],
    ),
    ("notation", &["notation", "obf"]),
    ("search", &["search"]),
    (
        "engine",
        &["search::engine", "search::root", "search::ponder"],
    ),
    ("any", &["any"]),
    ("ffi", &["ffi"]),
];

/// The circle allowed inside `src/search/`: modules with these prefixes.
const ALLOWED_CIRCLE: [&str; 2] = ["search::midgame", "search::endgame"];

/// A module path such as `search::engine` ("" for the crate root).
type Module = String;

/// The layer (index into [`LAYERS`]) of a module, `None` if unplaced.
fn layer(module: &str) -> Option<usize> {
    LAYERS
        .iter()
        .enumerate()
        .flat_map(|(i, (_, prefixes))| prefixes.iter().map(move |prefix| (prefix, i)))
        .filter(|(prefix, _)| within(module, prefix))
        .max_by_key(|(prefix, _)| prefix.len())
        .map(|(_, i)| i)
}

/// True if `module` is `prefix` or inside it.
fn within(module: &str, prefix: &str) -> bool {
    module == prefix || module.starts_with(&format!("{prefix}::"))
}

/// The area of a module, for the circle rule: its top-level module if that
/// is a folder, else the crate root's own files ("src").
fn area(module: &str, folders: &BTreeSet<String>) -> String {
    let top = module.split("::").next().unwrap_or_default();
    if folders.contains(top) {
        top.to_string()
    } else {
        "src".to_string()
    }
}

/// One source file: where it is and the module it is.
struct File {
    path: PathBuf,
    module: Module,
}

/// Every `.rs` file under `dir`, as modules of the crate.
fn files(src: &Path, dir: &Path, out: &mut Vec<File>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .expect("src/ is readable")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files(src, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let relative = path.strip_prefix(src).expect("under src/");
            let mut parts: Vec<String> = relative
                .with_extension("")
                .iter()
                .map(|p| p.to_string_lossy().into_owned())
                .collect();
            if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
                parts.pop();
            }
            out.push(File {
                path,
                module: parts.join("::"),
            });
        }
    }
}

/// `text` with comments, string literals and character literals replaced
/// by spaces (line breaks kept), so that line numbers still hold and what
/// is left is code.
fn code_of(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |out: &mut String, part: &[char]| {
        out.extend(part.iter().map(|&c| if c == '\n' { '\n' } else { ' ' }));
    };
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut i = 0;
    while i < chars.len() {
        let rest = &chars[i..];
        let after_ident = i > 0 && ident(chars[i - 1]);
        let end = if rest.starts_with(&['/', '/']) {
            rest.iter().position(|&c| c == '\n').unwrap_or(rest.len())
        } else if rest.starts_with(&['/', '*']) {
            find(rest, &['*', '/'], 2).map_or(rest.len(), |e| e + 2)
        } else if rest[0] == '"' {
            string_end(rest)
        } else if let Some(hashes) = raw_string(rest).filter(|_| !after_ident) {
            let mut close = vec!['"'];
            close.extend(std::iter::repeat_n('#', hashes));
            find(rest, &close, hashes + 2).map_or(rest.len(), |e| e + close.len())
        } else if rest[0] == '\'' && rest.get(1) == Some(&'\\') {
            find(rest, &['\''], 3).map_or(rest.len(), |e| e + 1)
        } else if rest[0] == '\'' && rest.get(2) == Some(&'\'') {
            3
        } else {
            out.push(rest[0]);
            i += 1;
            continue;
        };
        blank(&mut out, &rest[..end]);
        i += end;
    }
    out
}

/// The index of `needle` in `hay` from `from` on.
fn find(hay: &[char], needle: &[char], from: usize) -> Option<usize> {
    (from..hay.len()).find(|&i| hay[i..].starts_with(needle))
}

/// The end (exclusive) of the string literal opened at `hay[0]`.
fn string_end(hay: &[char]) -> usize {
    let mut i = 1;
    while i < hay.len() {
        match hay[i] {
            '\\' => i += 2,
            '"' => return i + 1,
            _ => i += 1,
        }
    }
    hay.len()
}

/// For a raw string opening at `hay[0]` (`r"`, `r#"`, ...): its number
/// of `#`.
fn raw_string(hay: &[char]) -> Option<usize> {
    if hay[0] != 'r' {
        return None;
    }
    let hashes = hay[1..].iter().take_while(|&&c| c == '#').count();
    (hay.get(1 + hashes) == Some(&'"')).then_some(hashes)
}

/// The paths a `use` tree names: `a::{b, c::{d, e as f}, self}` gives
/// `a::b`, `a::c::d`, `a::c::e` and `a`.
fn expand(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        let path = tree.split_whitespace().next().unwrap_or_default();
        return vec![path.trim_end_matches("::self").to_string()];
    };
    let prefix = tree[..open].trim();
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .flat_map(expand)
        .map(|p| match p.as_str() {
            "self" => prefix.trim_end_matches("::").to_string(),
            _ => format!("{prefix}{p}"),
        })
        .collect()
}

/// The paths written inline after `crate::` or `super::` in a line of
/// code (`$crate::` in macros included), up to the first `{` or `<`.
fn inline_paths(line: &str) -> Vec<String> {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = Vec::new();
    for start in ["crate::", "super::"] {
        for (i, _) in line.match_indices(start) {
            // `pub(in crate::x)` is a visibility, not an import.
            let before = &line[..i];
            if before.chars().next_back().is_some_and(ident) || before.ends_with("(in ") {
                continue;
            }
            let path: String = line[i..]
                .chars()
                .take_while(|&c| ident(c) || c == ':')
                .collect();
            out.push(path.trim_end_matches(':').to_string());
        }
    }
    out
}

/// One import: the line it is on, the path as written, and the module it
/// is written in (the file's, or an inline `mod` inside it).
struct Import {
    line: usize,
    path: String,
    scope: Module,
}

/// True for a line that starts a `use` statement (`pub`, `pub(crate)`
/// and the like allowed before it).
fn starts_use(line: &str) -> bool {
    let mut rest = line.trim_start();
    if let Some(after) = rest.strip_prefix("pub") {
        rest = match after.strip_prefix('(') {
            Some(scoped) => scoped.split_once(')').map_or("", |(_, after)| after),
            None => after,
        };
    }
    rest.trim_start().starts_with("use ")
}

/// Every import of the code of the file of `module` (see the module
/// comment).
fn imports(module: &str, code: &str) -> Vec<Import> {
    let mut out = Vec::new();
    // A `use` statement read so far: its first line and its text.
    let mut statement: Option<(usize, String)> = None;
    // The inline modules open here, each with the brace depth around it.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    for (n, line) in code.lines().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if let Some(i) = words.iter().position(|w| *w == "mod") {
            if words.get(i + 2) == Some(&"{") {
                inline.push((words[i + 1].to_string(), depth));
            }
        }
        let scope = std::iter::once(module)
            .chain(inline.iter().map(|(name, _)| name.as_str()))
            .filter(|part| !part.is_empty())
            .collect::<Vec<_>>()
            .join("::");
        if statement.is_none() && starts_use(line) {
            statement = Some((n + 1, String::new()));
        }
        if let Some((first, text)) = &mut statement {
            text.push_str(line);
            text.push(' ');
            if let Some(end) = text.find(';') {
                let tree = &text[text.find("use ").unwrap_or(0) + 4..end];
                out.extend(expand(tree).into_iter().map(|path| Import {
                    line: *first,
                    path,
                    scope: scope.clone(),
                }));
                statement = None;
            }
        } else {
            out.extend(inline_paths(line).into_iter().map(|path| Import {
                line: n + 1,
                path,
                scope: scope.clone(),
            }));
        }
        for c in line.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
        }
        inline.retain(|&(_, open)| open < depth);
    }
    out
}

/// The module an import path takes from, seen from `from`: the longest
/// known module the path starts with, after `super`, `self`, a child
/// module's name and `lib.rs`'s re-exports are resolved. `None` for paths
/// outside the crate (`std::...`, other crates).
fn resolve(
    from: &str,
    path: &str,
    known: &BTreeSet<Module>,
    reexports: &BTreeMap<String, Module>,
) -> Option<Module> {
    let mut parts: Vec<&str> = path.split("::").collect();
    let mut base: Vec<&str> = if from.is_empty() {
        Vec::new()
    } else {
        from.split("::").collect()
    };
    match parts[0] {
        "crate" | "$crate" => {
            base.clear();
            parts.remove(0);
        }
        "self" => {
            parts.remove(0);
        }
        "super" => {
            while parts.first() == Some(&"super") {
                parts.remove(0);
                base.pop();
            }
        }
        child => {
            let mut candidate = base.clone();
            candidate.push(child);
            if !known.contains(&candidate.join("::")) {
                return None;
            }
        }
    }
    if base.is_empty() {
        if let Some(target) = parts.first().and_then(|p| reexports.get(*p)) {
            parts[0] = target;
        }
    }
    let full: Vec<&str> = base.into_iter().chain(parts).collect();
    (0..=full.len())
        .rev()
        .map(|len| full[..len].join("::"))
        .find(|m| known.contains(m))
}

/// The node a module is for the circle rule: the midgame and endgame
/// files each count as one.
fn node(module: &str) -> String {
    ALLOWED_CIRCLE
        .iter()
        .find(|prefix| within(module, prefix))
        .map_or(module.to_string(), |prefix| prefix.to_string())
}

#[test]
fn modules_import_only_from_their_layer_and_below() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = root.join("src");
    let mut all = Vec::new();
    files(&src, &src, &mut all);
    let known: BTreeSet<Module> = all.iter().map(|f| f.module.clone()).collect();
    let folders: BTreeSet<String> = all
        .iter()
        .filter(|f| f.path.parent() != Some(src.as_path()))
        .filter_map(|f| f.module.split("::").next().map(str::to_string))
        .collect();
    let code: BTreeMap<&str, String> = all
        .iter()
        .map(|f| {
            let text = fs::read_to_string(&f.path).expect("a readable source file");
            (f.module.as_str(), code_of(&text))
        })
        .collect();
    // What lib.rs re-exports at the root, by name: `pub use search::engine`
    // makes `crate::engine` the module `search::engine`.
    let mut reexports = BTreeMap::new();
    for import in imports("", &code[""]) {
        let name = import.path.rsplit("::").next().unwrap_or_default();
        if let Some(module) = resolve("", &import.path, &known, &BTreeMap::new()) {
            reexports.insert(name.to_string(), module);
        }
    }

    let mut failures = Vec::new();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &all {
        if file.module.is_empty() {
            continue;
        }
        let shown = file.path.strip_prefix(root).unwrap_or(&file.path).display();
        let Some(own) = layer(&file.module) else {
            failures.push(format!(
                "{shown}: module `{}` has no layer: place it in LAYERS in tests/layers.rs",
                file.module
            ));
            continue;
        };
        for import in imports(&file.module, &code[file.module.as_str()]) {
            let Some(target) = resolve(&import.scope, &import.path, &known, &reexports) else {
                continue;
            };
            if target.is_empty() || target == file.module {
                continue;
            }
            edges
                .entry(node(&file.module))
                .or_default()
                .insert(node(&target));
            match layer(&target) {
                Some(theirs) if theirs > own => failures.push(format!(
                    "{shown}:{}: `{}` imports from a higher layer: `{}` is in layer \
                     \"{}\", above \"{}\"",
                    import.line, import.path, target, LAYERS[theirs].0, LAYERS[own].0
                )),
                _ => {}
            }
        }
    }

    // Circles: the modules that reach each other.
    let reach = |from: &str| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_string()];
        while let Some(m) = todo.pop() {
            for next in edges.get(&m).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    todo.push(next.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&String, BTreeSet<String>> =
        edges.keys().map(|m| (m, reach(m))).collect();
    let mut circles = BTreeSet::new();
    for (m, seen) in &reached {
        let circle: Vec<String> = seen
            .iter()
            .filter(|other| reached.get(other).is_some_and(|s| s.contains(*m)))
            .cloned()
            .collect();
        if !circle.is_empty() {
            circles.insert(circle);
        }
    }
    for circle in circles {
        let areas: BTreeSet<String> = circle.iter().map(|m| area(m, &folders)).collect();
        let in_search = circle.iter().any(|m| within(m, "search"));
        let allowed = circle.len() == ALLOWED_CIRCLE.len()
            && circle.iter().all(|m| ALLOWED_CIRCLE.contains(&m.as_str()));
        if areas.len() > 1 {
            failures.push(format!(
                "import circle between areas {areas:?}: {}",
                circle.join(", ")
            ));
        } else if in_search && !allowed {
            failures.push(format!(
                "import circle inside src/search/: {}",
                circle.join(", ")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "the layers do not hold:\n{}",
        failures.join("\n")
    );
}
