//! The documentation's checks (docs/design.md, "The documentation's code
//! blocks"), over README.md, CHANGELOG.md, examples/README.md and every
//! docs/*.md:
//!
//! - README.md stays within [`README_MAX_LINES`] lines;
//! - every relative link names a file that exists, and its `#anchor` a
//!   heading of the page it names;
//! - code blocks are fenced, with a known info string: `c` programs are
//!   compiled against the library of this test run and run, `c fragment`s
//!   compiled (all in one translation unit), `cpp` programs compiled with
//!   the C++ wrapper and run, `python` blocks run with the Python binding,
//!   `sh` blocks run in a scratch copy of the checkout's layout; `sh slow`
//!   blocks are not run, but each command must name a program that exists
//!   and only flags that program takes; `cmake` blocks must be in the
//!   install test's project.

use std::collections::{BTreeMap, BTreeSet};
use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

mod cbuild;
use cbuild::{
    lib_dir, manifest_dir, on_path, out_dir, program, python_package_dir, run, run_program, Build,
    C11_FLAGS,
};

const README_MAX_LINES: usize = 250;

/// The info strings a fenced block may carry.
const INFO_STRINGS: &[&str] = &[
    "c",
    "c fragment",
    "cpp",
    "python",
    "sh",
    "sh slow",
    "cmake",
    "text",
    // JavaScript: docs/web.md's scripts, run by tests/web.rs in a project
    // with the npm package installed.
    "js",
];

// ---------------------------------------------------------------------------
// Pages and their blocks

struct Page {
    /// From the crate root, `/`-separated: `docs/guide.md`.
    name: String,
    text: String,
}

fn pages() -> &'static [Page] {
    static PAGES: OnceLock<Vec<Page>> = OnceLock::new();
    PAGES.get_or_init(|| {
        let root = manifest_dir();
        let mut names = vec![
            "README.md".to_string(),
            "CHANGELOG.md".to_string(),
            "examples/README.md".to_string(),
        ];
        let mut docs: Vec<String> = fs::read_dir(root.join("docs"))
            .expect("docs/ is readable")
            .map(|e| {
                e.expect("a docs/ entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .filter(|n| n.ends_with(".md"))
            .map(|n| format!("docs/{n}"))
            .collect();
        docs.sort();
        names.extend(docs);
        names
            .into_iter()
            .map(|name| {
                let text = fs::read_to_string(root.join(&name))
                    .unwrap_or_else(|e| panic!("cannot read {name}: {e}"));
                Page { name, text }
            })
            .collect()
    })
}

struct Block {
    page: String,
    /// The line of the opening fence, from 1.
    line: usize,
    info: String,
    body: String,
}

impl Block {
    fn at(&self) -> String {
        format!("{}:{}", self.page, self.line)
    }
}

/// The fenced blocks of a page, and the errors of its code blocks:
/// indented (unfenced) blocks and unclosed fences.
fn parse_blocks(page: &str, text: &str) -> (Vec<Block>, Vec<String>) {
    let mut blocks = Vec::new();
    let mut errors = Vec::new();
    let mut open: Option<(usize, String, String)> = None;
    let mut prev_blank = true;
    let mut list_indent: Option<usize> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some((start, info, body)) = open.as_mut() {
            if trimmed.trim_end() == "```" {
                blocks.push(Block {
                    page: page.to_string(),
                    line: *start,
                    info: std::mem::take(info),
                    body: std::mem::take(body),
                });
                open = None;
                prev_blank = false;
            } else {
                body.push_str(line);
                body.push('\n');
            }
            continue;
        }
        if let Some(info) = trimmed.strip_prefix("```") {
            open = Some((i + 1, info.trim().to_string(), String::new()));
            continue;
        }
        if trimmed.is_empty() {
            prev_blank = true;
            continue;
        }
        let indent = line.len() - trimmed.len();
        if prev_blank && indent >= list_indent.unwrap_or(0) + 4 {
            errors.push(format!(
                "{page}:{}: an indented code block: fence it with an info string ({INFO_STRINGS:?})",
                i + 1
            ));
        }
        if let Some(marker) = list_marker(trimmed) {
            list_indent = Some(indent + marker);
        } else if prev_blank && indent == 0 {
            list_indent = None;
        }
        prev_blank = false;
    }
    if let Some((start, _, _)) = open {
        errors.push(format!("{page}:{start}: a fence that is never closed"));
    }
    (blocks, errors)
}

/// The width of a list item's marker and its space (`- `, `12. `).
fn list_marker(line: &str) -> Option<usize> {
    if line.starts_with("- ") || line.starts_with("* ") {
        return Some(2);
    }
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    (digits > 0 && line[digits..].starts_with(". ")).then_some(digits + 2)
}

fn all_blocks() -> &'static [Block] {
    static BLOCKS: OnceLock<Vec<Block>> = OnceLock::new();
    BLOCKS.get_or_init(|| {
        pages()
            .iter()
            .flat_map(|p| parse_blocks(&p.name, &p.text).0)
            .collect()
    })
}

fn blocks_of(info: &str) -> Vec<&'static Block> {
    all_blocks().iter().filter(|b| b.info == info).collect()
}

/// Panics with every error, one a line, if there is any.
fn assert_none(what: &str, errors: &[String]) {
    assert!(errors.is_empty(), "{what}:\n{}", errors.join("\n"));
}

#[test]
fn readme_stays_short() {
    let readme = &pages()[0];
    let lines = readme.text.lines().count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines, more than {README_MAX_LINES}: move the details to docs/"
    );
}

#[test]
fn code_blocks_are_fenced_with_known_info_strings() {
    let mut errors = Vec::new();
    for page in pages() {
        let (blocks, errs) = parse_blocks(&page.name, &page.text);
        errors.extend(errs);
        for b in blocks {
            if !INFO_STRINGS.contains(&b.info.as_str()) {
                errors.push(format!(
                    "{}: info string {:?} is not one of {INFO_STRINGS:?}",
                    b.at(),
                    b.info
                ));
            }
        }
    }
    assert_none("code blocks", &errors);
}

// ---------------------------------------------------------------------------
// Links

/// GitHub's anchor for a heading: lower case, punctuation dropped but `-`
/// and `_`, spaces to `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a page's headings (outside code blocks), with GitHub's
/// `-1`, `-2` suffixes for repeated ones.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeSet::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let hashes = line.bytes().take_while(|&b| b == b'#').count();
        if hashes == 0 || hashes > 6 || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(&line[hashes..]);
        let n = seen.entry(base.clone()).or_insert(0);
        out.insert(if *n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        });
        *n += 1;
    }
    out
}

/// The targets of a page's markdown links, with their lines, outside code
/// blocks and code spans.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fenced = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Code spans may hold brackets: drop them.
        let plain: String = line
            .split('`')
            .enumerate()
            .filter(|(k, _)| k % 2 == 0)
            .map(|(_, s)| s)
            .collect::<Vec<_>>()
            .join(" ");
        let mut rest = plain.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let end = after.find(')').unwrap_or(after.len());
            out.push((i + 1, after[..end].trim().to_string()));
            rest = &after[end..];
        }
    }
    out
}

/// What is wrong with the links of `page` (its name from the crate root).
fn link_errors(page: &str, text: &str, root: &Path) -> Vec<String> {
    let dir = Path::new(page).parent().unwrap_or(Path::new(""));
    let mut errors = Vec::new();
    for (line, target) in links(text) {
        if target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        let (path, anchor) = match target.split_once('#') {
            Some((p, a)) => (p, Some(a)),
            None => (target.as_str(), None),
        };
        let file = if path.is_empty() {
            root.join(page)
        } else {
            root.join(dir).join(path)
        };
        if !file.exists() {
            errors.push(format!(
                "{page}:{line}: link to {target}: no file {}",
                file.display()
            ));
            continue;
        }
        let Some(anchor) = anchor else { continue };
        if file.extension().is_some_and(|e| e == "md") {
            let text = fs::read_to_string(&file).unwrap_or_default();
            if !anchors(&text).contains(anchor) {
                errors.push(format!(
                    "{page}:{line}: link to {target}: no heading #{anchor} in {}",
                    file.display()
                ));
            }
        }
    }
    errors
}

#[test]
fn links_name_existing_files_and_headings() {
    let root = manifest_dir();
    let errors: Vec<String> = pages()
        .iter()
        .flat_map(|p| link_errors(&p.name, &p.text, &root))
        .collect();
    assert_none("links", &errors);
}

// ---------------------------------------------------------------------------
// C, C++ and Python

/// A block's source with a `#line` directive, so that compiler messages
/// name the page and its line.
fn with_line(b: &Block) -> String {
    format!("#line {} \"{}\"\n{}", b.line + 1, b.page, b.body)
}

fn file_name(b: &Block) -> String {
    format!("{}_{}", b.page.replace(['/', '.'], "_"), b.line)
}

#[test]
fn c_programs_compile_and_run() {
    let blocks = blocks_of("c");
    assert!(!blocks.is_empty(), "README's C example is a `c` block");
    for b in blocks {
        let name = format!("c_{}", file_name(b));
        let src = out_dir("docs", &name).join(format!("{name}.c"));
        fs::write(&src, with_line(b)).expect("writing the C source");
        let exe = Build::c(C11_FLAGS)
            .source(&src.to_string_lossy())
            .build("docs", &name);
        run_program(&exe, &[], &[]);
    }
}

/// The signature every `c fragment` is compiled in.
const FRAGMENT_SCOPE: &str = "othello_engine *e, othello_board *b, const uint8_t *data, size_t len";

#[test]
fn c_fragments_compile() {
    let blocks = blocks_of("c fragment");
    let mut unit =
        String::from("#include <stdint.h>\n#include <stdio.h>\n#include \"othello.h\"\n");
    for (k, b) in blocks.iter().enumerate() {
        unit.push_str(&format!("void fragment_{k}({FRAGMENT_SCOPE});\n"));
        unit.push_str(&format!("void fragment_{k}({FRAGMENT_SCOPE}) {{\n"));
        unit.push_str(&with_line(b));
        unit.push_str("}\n");
    }
    unit.push_str("int main(void) { return 0; }\n");
    let src = out_dir("docs", "fragments").join("fragments.c");
    fs::write(&src, unit).expect("writing the fragments");
    Build::c(C11_FLAGS)
        .flags(&[
            "-Wno-unused-parameter",
            "-Wno-unused-variable",
            "-Wno-unused-but-set-variable",
        ])
        .source(&src.to_string_lossy())
        .build("docs", "fragments");
}

#[test]
fn cpp_programs_compile_and_run() {
    for b in blocks_of("cpp") {
        let name = format!("cpp_{}", file_name(b));
        let src = out_dir("docs", &name).join(format!("{name}.cpp"));
        fs::write(&src, with_line(b)).expect("writing the C++ source");
        let exe = Build::cxx(&[
            "-std=c++17",
            "-Wall",
            "-Wextra",
            "-Wpedantic",
            "-Werror",
            "-pthread",
        ])
        .include("examples/cpp")
        .source(&src.to_string_lossy())
        .build("docs", &name);
        run_program(&exe, &[], &[]);
    }
}

/// `python3` set up to import the checkout's Python package, with its native
/// module built for the tests (`OTHELLO_PYTHON_PATH` names another folder
/// holding a package `othello` instead).
fn python_env() -> Command {
    assert!(
        on_path("python3").is_some(),
        "python3 is not on PATH (./test.sh installs it)"
    );
    let package = env::var_os("OTHELLO_PYTHON_PATH")
        .map(PathBuf::from)
        .unwrap_or_else(|| PYTHON_PACKAGE.get_or_init(python_package_dir).clone());
    let mut cmd = Command::new("python3");
    cmd.current_dir(manifest_dir())
        .env("PYTHONPATH", package)
        .env("PYTHONDONTWRITEBYTECODE", "1");
    cmd
}

/// The package folder of [`python_env`], made once per run.
static PYTHON_PACKAGE: OnceLock<PathBuf> = OnceLock::new();

#[test]
fn python_blocks_run() {
    for b in blocks_of("python") {
        let name = format!("py_{}", file_name(b));
        let src = out_dir("docs", &name).join(format!("{name}.py"));
        // Blank lines keep the page's line numbers in tracebacks.
        fs::write(&src, format!("{}{}", "\n".repeat(b.line), b.body)).expect("writing the script");
        let out = run(
            &format!("the Python block at {}", b.at()),
            python_env().arg(&src),
        );
        print!("{}", String::from_utf8_lossy(&out.stdout));
    }
}

// ---------------------------------------------------------------------------
// Fast commands

/// A scratch directory laid out like the checkout, `target/release` being
/// the library of this test run, with `app.c` the page's first C program.
fn scratch_checkout(name: &str, app: Option<&Block>) -> PathBuf {
    let dir = out_dir("docs", name);
    let root = manifest_dir();
    let link = |from: &Path, to: &Path| {
        if to.symlink_metadata().is_ok() {
            fs::remove_file(to).unwrap_or_else(|e| panic!("cannot remove {}: {e}", to.display()));
        }
        std::os::unix::fs::symlink(from, to)
            .unwrap_or_else(|e| panic!("cannot link {}: {e}", to.display()));
    };
    for sub in ["include", "examples", "weights"] {
        link(&root.join(sub), &dir.join(sub));
    }
    for sub in ["tests", "target"] {
        fs::create_dir_all(dir.join(sub)).expect("a scratch directory");
    }
    link(
        &root.join("tests").join("data"),
        &dir.join("tests").join("data"),
    );
    link(&lib_dir(), &dir.join("target").join("release"));
    if let Some(app) = app {
        fs::write(dir.join("app.c"), &app.body).expect("writing app.c");
    }
    dir
}

/// Sets `cmd` up as a shell with the Python package installed would be:
/// `python` (a link to `python3` in `dir/bin`) imports the package of
/// `python/` with its native module built for the tests.
fn with_python(cmd: &mut Command, dir: &Path) {
    let bin = dir.join("bin");
    fs::create_dir_all(&bin).expect("a scratch bin directory");
    let python = bin.join("python");
    if python.symlink_metadata().is_err() {
        let python3 = on_path("python3").expect("python3 is not on PATH (./test.sh installs it)");
        std::os::unix::fs::symlink(python3, &python).expect("linking python");
    }
    let path = env::var_os("PATH").unwrap_or_default();
    let mut paths = vec![bin];
    paths.extend(env::split_paths(&path));
    let python_cmd = python_env();
    for (k, v) in python_cmd.get_envs() {
        if let Some(v) = v {
            cmd.env(k, v);
        }
    }
    cmd.env("PATH", env::join_paths(paths).expect("a PATH"));
}

#[test]
fn fast_commands_run() {
    for b in blocks_of("sh") {
        let app = all_blocks()
            .iter()
            .find(|c| c.page == b.page && c.info == "c");
        let dir = scratch_checkout(&format!("sh_{}", file_name(b)), app);
        let mut cmd = program(Path::new("sh"));
        cmd.args(["-e", "-c", &b.body]).current_dir(&dir);
        with_python(&mut cmd, &dir);
        let out = run(&format!("the commands at {}", b.at()), &mut cmd);
        print!("{}", String::from_utf8_lossy(&out.stdout));
    }
}

// ---------------------------------------------------------------------------
// Slow commands: the programs and their flags, without running them

/// Commands of the system that the documentation may name.
const SYSTEM_COMMANDS: &[&str] = &[
    "cc",
    "gcc",
    "g++",
    "c++",
    "clang",
    "pkg-config",
    "cmake",
    "taskset",
    "cat",
    "head",
    "sed",
    "ldconfig",
    "valgrind",
    "perf",
    "echo",
    "seq",
    "cp",
    "mkdir",
    "rm",
    "env",
    "git",
    "rustup",
    "apt-get",
    "sudo",
    "llvm-cov",
    "llvm-profdata",
    "export",
    // Python's package installer, and sourcing a virtual environment.
    "pip",
    // Node.js and its package manager (docs/web.md).
    "node",
    "npm",
    ".",
    "cd",
];

/// What the checker knows about the workspace.
struct Workspace {
    root: PathBuf,
    benches: BTreeSet<String>,
    tests: BTreeSet<String>,
    tools: BTreeSet<String>,
    packages: BTreeSet<String>,
    make_targets: BTreeSet<String>,
    /// A tool's usage text (all its subcommands'), by name.
    help: fn(&str) -> String,
}

fn stems(dir: &Path, ext: &str) -> BTreeSet<String> {
    fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .filter_map(|e| {
                    let name = e.file_name().to_string_lossy().into_owned();
                    name.strip_suffix(ext).map(str::to_string)
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The `[[bench]]` targets of a Cargo.toml.
fn cargo_benches(manifest: &str) -> BTreeSet<String> {
    manifest
        .split("[[bench]]")
        .skip(1)
        .filter_map(|section| {
            let line = section
                .lines()
                .find(|l| l.trim_start().starts_with("name"))?;
            Some(unquote(line.split_once('=')?.1.trim()))
        })
        .collect()
}

fn make_targets(makefile: &str) -> BTreeSet<String> {
    let mut targets = BTreeSet::new();
    for line in makefile.lines() {
        if let Some(programs) = line.strip_prefix("PROGRAMS :=") {
            targets.extend(programs.split_whitespace().map(str::to_string));
        }
        let assignment = [":=", "?=", "+="].iter().any(|op| line.contains(op));
        if let Some((names, _)) = line.split_once(':') {
            if !assignment
                && !line.starts_with(['\t', '#', ' '])
                && !names.contains(['$', '=', '%'])
            {
                targets.extend(names.split_whitespace().map(str::to_string));
            }
        }
    }
    targets
}

impl Workspace {
    fn of_checkout(help: fn(&str) -> String) -> Workspace {
        let root = manifest_dir();
        let makefile =
            fs::read_to_string(root.join("examples/Makefile")).expect("examples/Makefile");
        Workspace {
            benches: cargo_benches(
                &fs::read_to_string(root.join("Cargo.toml")).expect("Cargo.toml"),
            ),
            tests: stems(&root.join("tests"), ".rs"),
            tools: stems(&root.join("tools/src/bin"), ".rs"),
            packages: ["othello", "othello-tools"].map(String::from).into(),
            make_targets: make_targets(&makefile),
            root,
            help,
        }
    }

    fn read(&self, path: &str) -> Option<String> {
        fs::read_to_string(self.root.join(path)).ok()
    }
}

/// Words of a shell text: quotes and `$(...)` kept within their word.
fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut chars = text.chars().peekable();
    let mut quote: Option<char> = None;
    let mut depth = 0;
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), _) if c == q => {
                quote = None;
                word.push(c);
            }
            (Some(_), _) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                word.push(c);
            }
            (None, '$') if chars.peek() == Some(&'(') => {
                depth += 1;
                word.push(c);
                word.push(chars.next().expect("peeked"));
            }
            (None, ')') if depth > 0 => {
                depth -= 1;
                word.push(c);
            }
            (None, _) if depth > 0 => word.push(c),
            (None, ';' | '&' | '|') => {
                if !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
                // `&&`, `||` and `|` separate commands as `;` and `&` do.
                while chars.peek().is_some_and(|&n| n == '&' || n == '|') {
                    chars.next();
                }
                out.push(";".into());
            }
            (None, _) if c.is_whitespace() => {
                if !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
            }
            _ => word.push(c),
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// The simple commands of a block: continuation lines joined, comments
/// dropped.
fn commands(body: &str) -> Vec<Vec<String>> {
    let joined = body.replace("\\\n", " ");
    let mut all = Vec::new();
    for line in joined.lines() {
        let code = match line
            .find(" #")
            .or(line.trim_start().starts_with('#').then_some(0))
        {
            Some(at) => &line[..at],
            None => line,
        };
        all.extend(words(code));
        all.push(";".into());
    }
    all.split(|w| w == ";")
        .map(|c| c.to_vec())
        .filter(|c| !c.is_empty())
        .collect()
}

fn unquote(value: &str) -> String {
    value.trim_matches(|c| c == '"' || c == '\'').to_string()
}

/// The `--flags` among `args` (brackets of optional arguments dropped).
fn flags(args: &[String]) -> Vec<String> {
    args.iter()
        .map(|a| a.trim_matches(|c| c == '[' || c == ']'))
        .filter(|a| a.starts_with("--") && a.len() > 2 && !a.starts_with("--$"))
        .map(|a| {
            a.split('=')
                .next()
                .expect("split yields one part")
                .to_string()
        })
        .collect()
}

/// The value after `option` in `args`, if any.
fn option<'a>(args: &'a [String], option: &str) -> Option<&'a str> {
    let at = args.iter().position(|a| a == option)?;
    args.get(at + 1).map(String::as_str)
}

/// What is wrong with the commands of a `sh slow` block.
fn slow_errors(ws: &Workspace, at: &str, body: &str) -> Vec<String> {
    let mut errors = Vec::new();
    let mut vars: BTreeMap<String, String> = BTreeMap::new();
    for mut cmd in commands(body) {
        while matches!(
            cmd.first().map(String::as_str),
            Some("do" | "then" | "else")
        ) {
            cmd.remove(0);
        }
        if matches!(
            cmd.first().map(String::as_str),
            None | Some("for" | "while" | "done" | "wait" | "fi" | "if")
        ) {
            continue;
        }
        // Leading assignments: variables for later commands, or an
        // environment for this one.
        let assignments = cmd
            .iter()
            .take_while(|w| w.split_once('=').is_some_and(|(n, _)| is_name(n)))
            .count();
        if assignments == cmd.len() {
            for w in &cmd {
                let (n, v) = w.split_once('=').expect("an assignment");
                vars.insert(n.to_string(), unquote(v));
            }
            continue;
        }
        let mut cmd: Vec<String> = cmd.split_off(assignments);
        if let Some(var) = cmd[0].strip_prefix('$') {
            match vars.get(var) {
                Some(value) => {
                    let expanded: Vec<String> =
                        value.split_whitespace().map(String::from).collect();
                    cmd.splice(0..1, expanded);
                }
                None => {
                    errors.push(format!(
                        "{at}: `{}`: ${var} is not set in the block",
                        cmd.join(" ")
                    ));
                    continue;
                }
            }
        }
        let cmd = drop_redirections(cmd);
        errors.extend(
            check_command(ws, &cmd)
                .into_iter()
                .map(|e| format!("{at}: `{}`: {e}", cmd.join(" "))),
        );
    }
    errors
}

fn is_name(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn drop_redirections(cmd: Vec<String>) -> Vec<String> {
    let mut out = Vec::new();
    let mut skip = false;
    for w in cmd {
        if skip {
            skip = false;
        } else if matches!(w.as_str(), ">" | ">>" | "<" | "2>") {
            skip = true;
        } else if !w.starts_with(['>', '<']) && !w.starts_with("2>") {
            out.push(w);
        }
    }
    out
}

/// What is wrong with one simple command.
fn check_command(ws: &Workspace, cmd: &[String]) -> Vec<String> {
    let program = cmd[0].as_str();
    let args = &cmd[1..];
    let mut errors = Vec::new();
    let (before, after) = match args.iter().position(|a| a == "--") {
        Some(at) => (&args[..at], &args[at + 1..]),
        None => (args, &args[args.len()..]),
    };
    match program {
        "cargo" => {
            if let Some(p) = option(before, "-p") {
                if !ws.packages.contains(p) {
                    errors.push(format!("no package {p} in the workspace"));
                }
            }
            match args.first().map(String::as_str) {
                Some("bench") => {
                    if let Some(bench) = option(before, "--bench") {
                        let source = format!("benches/{bench}.rs");
                        match ws.read(&source).filter(|_| ws.benches.contains(bench)) {
                            None => errors.push(format!("no bench {bench} ({source})")),
                            Some(src) => errors.extend(unknown_flags(&src, after, &source)),
                        }
                    }
                }
                Some("run") => match option(before, "--bin") {
                    Some(bin) if ws.tools.contains(bin) => {
                        errors.extend(tool_flags(ws, bin, after))
                    }
                    Some(bin) => errors.push(format!("no binary {bin} in the workspace")),
                    None => errors.push("cargo run without --bin".into()),
                },
                Some("test") => {
                    if let Some(test) = option(before, "--test") {
                        if !ws.tests.contains(test) {
                            errors.push(format!("no test {test} (tests/{test}.rs)"));
                        }
                    }
                }
                Some("build" | "doc" | "fmt" | "clippy" | "cinstall" | "install" | "rustc") => {}
                other => errors.push(format!(
                    "cargo subcommand {other:?} is not one the docs use"
                )),
            }
        }
        "make" => {
            if option(args, "-C") != Some("examples") {
                errors.push("make runs in examples/ (make -C examples TARGET)".into());
            }
            let words = args
                .iter()
                .filter(|a| !a.contains('=') && !a.starts_with('-'));
            for target in words.skip(1) {
                if !ws.make_targets.contains(target) {
                    errors.push(format!("no target {target} in examples/Makefile"));
                }
            }
        }
        "python3" | "python" if args.first().is_some_and(|a| a == "-m") => {
            match args.get(1).map(String::as_str) {
                Some("venv" | "pip" | "pytest" | "http.server") => {}
                // The package of python/.
                Some("othello") if ws.root.join("python/othello/__main__.py").is_file() => {}
                other => errors.push(format!("{program} -m {other:?}: no such module")),
            }
        }
        "bash" | "sh" | "python3" | "python" => match args.first() {
            Some(script) => errors.extend(check_file_program(ws, script, &args[1..])),
            None => errors.push(format!("{program} without a script")),
        },
        "parallel" => match args.iter().position(|a| ws.tools.contains(a.as_str())) {
            Some(at) => {
                let end = args.iter().position(|a| a == ":::").unwrap_or(args.len());
                errors.extend(tool_flags(ws, &args[at], &args[at + 1..end.max(at + 1)]));
            }
            None => errors.push("parallel runs none of the tools".into()),
        },
        _ if ws.tools.contains(program) => errors.extend(tool_flags(ws, program, args)),
        _ if program.contains('/') => errors.extend(check_file_program(ws, program, args)),
        _ if SYSTEM_COMMANDS.contains(&program) => {}
        _ => errors.push(format!(
            "{program} is neither a program of the repository nor a known system command"
        )),
    }
    errors
}

/// A script of the repository, or an example built into `target/examples/`:
/// it must exist, and its text must name every flag given to it.
fn check_file_program(ws: &Workspace, path: &str, args: &[String]) -> Vec<String> {
    let path = path.trim_start_matches("./");
    let source = match path.strip_prefix("target/examples/") {
        Some(example) => format!("examples/{example}.c"),
        None => path.to_string(),
    };
    match ws.read(&source) {
        None => vec![format!("no file {source} in the repository")],
        Some(text) => unknown_flags(&text, args, &source),
    }
}

/// The flags of `args` that `usage` does not mention (as `"--flag` or
/// `--flag` followed by a non-name character).
fn unknown_flags(usage: &str, args: &[String], what: &str) -> Vec<String> {
    flags(args)
        .into_iter()
        .filter(|f| !mentions(usage, f))
        .map(|f| format!("{f} is not in {what}"))
        .collect()
}

fn mentions(text: &str, flag: &str) -> bool {
    text.match_indices(flag).any(|(at, _)| {
        let next = text[at + flag.len()..].chars().next();
        !next.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    })
}

fn tool_flags(ws: &Workspace, tool: &str, args: &[String]) -> Vec<String> {
    unknown_flags(&(ws.help)(tool), args, &format!("`{tool} --help`"))
}

/// The tools' usage texts: each built once (in the profile of this test
/// run), then `--help` and every subcommand's `--help`.
fn tool_help(tool: &str) -> String {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    let bin_dir = BUILT.get_or_init(build_tools);
    let exe = bin_dir.join(tool);
    let help = |args: &[&str]| {
        let out = run(&format!("{tool} --help"), Command::new(&exe).args(args));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let top = help(&["--help"]);
    let subcommands: Vec<String> = top
        .split("Commands:")
        .nth(1)
        .map(|section| {
            section
                .lines()
                .skip(1)
                .take_while(|l| !l.trim().is_empty())
                .filter_map(|l| l.split_whitespace().next())
                .filter(|&s| s != "help")
                .map(String::from)
                .collect()
        })
        .unwrap_or_default();
    let mut all = top;
    for sub in subcommands {
        all.push_str(&help(&[&sub, "--help"]));
    }
    all
}

/// Builds the tools' binaries into the target directory of this test run,
/// in its profile; the directory holding them.
fn build_tools() -> PathBuf {
    let profile_dir = lib_dir()
        .ancestors()
        .find(|d| {
            d.file_name()
                .is_some_and(|n| n == "debug" || n == "release")
        })
        .expect("the library under target/<profile>/")
        .to_path_buf();
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.args(["build", "--quiet", "-p", "othello-tools", "--bins"])
        .current_dir(manifest_dir())
        .stdin(Stdio::null());
    if profile_dir.file_name().is_some_and(|n| n == "release") {
        cmd.arg("--release");
    }
    let mut child = cmd.spawn().expect("cargo starts");
    let deadline = Instant::now() + Duration::from_secs(900);
    loop {
        if let Some(status) = child.try_wait().expect("waiting for cargo") {
            assert!(
                status.success(),
                "cargo build -p othello-tools failed ({status})"
            );
            break;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("cargo build -p othello-tools did not finish in 15 minutes");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    profile_dir
}

#[test]
fn slow_commands_name_programs_and_flags_that_exist() {
    let ws = Workspace::of_checkout(tool_help);
    let mut errors = Vec::new();
    for b in blocks_of("sh slow") {
        errors.extend(slow_errors(&ws, &b.at(), &b.body));
    }
    assert_none("slow commands", &errors);
}

#[test]
fn cmake_blocks_are_in_the_install_project() {
    let project = fs::read_to_string(manifest_dir().join("tests/install/CMakeLists.txt"))
        .expect("tests/install/CMakeLists.txt");
    let lines: BTreeSet<&str> = project.lines().map(str::trim).collect();
    let mut errors = Vec::new();
    for b in blocks_of("cmake") {
        for line in b.body.lines().map(str::trim).filter(|l| !l.is_empty()) {
            if !lines.contains(line) {
                errors.push(format!(
                    "{}: `{line}` is not in tests/install/CMakeLists.txt",
                    b.at()
                ));
            }
        }
    }
    assert_none("cmake blocks", &errors);
}

// ---------------------------------------------------------------------------
// The checkers fail when they should

fn fake_help(tool: &str) -> String {
    format!("Usage: {tool} [OPTIONS]\n  --games <FILE>\n  --out <FILE>\n")
}

#[test]
fn the_checks_catch_what_they_are_for() {
    let ws = Workspace::of_checkout(fake_help);
    let slow = |body: &str| slow_errors(&ws, "test", body);
    assert!(slow("cargo bench --bench solve -- --threads 2\n").is_empty());
    assert_eq!(slow("cargo bench --bench nosuch\n").len(), 1);
    assert_eq!(
        slow("cargo bench --bench solve -- --no-such-flag 2\n").len(),
        1
    );
    assert_eq!(
        slow("make -C examples play\nmake -C examples nosuch\n").len(),
        1
    );
    assert!(slow(
        "T=\"cargo run --release -p othello-tools --bin\"\n$T othello-label -- --games g --out o\n"
    )
    .is_empty());
    assert_eq!(
        slow("T=\"cargo run --release -p othello-tools --bin\"\n$T othello-label -- --gamez g\n")
            .len(),
        1
    );
    assert_eq!(
        slow("cargo run -p othello-tools --bin othello-nosuch\n").len(),
        1
    );
    assert_eq!(slow("./nosuch.sh\n").len(), 1);
    assert_eq!(slow("nosuchprogram --x\n").len(), 1);
    assert!(
        slow("for k in 1 2; do\n  othello-label --games a \\\n    --out b &\ndone; wait\n")
            .is_empty()
    );
    assert_eq!(slow("cargo test --test nosuch\n").len(), 1);

    let (_, errors) = parse_blocks(
        "x.md",
        "text\n\n    indented code\n\n- item\n\n  continued\n",
    );
    assert_eq!(errors.len(), 1, "{errors:?}");
    let (blocks, errors) = parse_blocks(
        "x.md",
        "- item\n  - nested\n    continued\n\n```sh slow\nmake\n```\n",
    );
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(blocks[0].info, "sh slow");

    let root = manifest_dir();
    assert!(link_errors(
        "docs/x.md",
        "[ok](guide.md#levels) [ok](../README.md)",
        &root
    )
    .is_empty());
    assert_eq!(
        link_errors("docs/x.md", "[a](guide.md#no-such-heading)", &root).len(),
        1
    );
    assert_eq!(link_errors("docs/x.md", "[a](nosuch.md)", &root).len(), 1);
    assert!(link_errors(
        "docs/x.md",
        "`[a](nosuch.md)` [b](https://example.com)",
        &root
    )
    .is_empty());
    assert!(anchors("## Figures (the built-in weights)\n").contains("figures-the-built-in-weights"));
}
