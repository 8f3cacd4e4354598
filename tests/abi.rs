//! The ABI promise of docs/guide.md ("Versions and the ABI promise"),
//! checked against the record of 1.0 in `tests/abi/1.0`:
//!
//! - `othello.h`: the header of 1.0.0 as released; `program.c`: a 1.0 game,
//!   compiled against that header and run against the library as built;
//! - `abi.txt`: what the header means on x86-64 Linux, one fact a line:
//!   integer macros, enum values, the size of each type, each struct's
//!   size and alignment, each field's offset and size, each function.
//!
//! The check compiles a probe, generated from the 1.0 header, against the
//! current header: it declares every 1.0 function again with its 1.0
//! prototype (a changed signature does not compile), asserts every 1.0
//! field's type (`_Static_assert` over `_Generic`), and prints the facts
//! of `abi.txt` as the current header has them; every one must be the
//! same, but for the size of a struct with a `struct_size` (it may grow at
//! its end). The library must export every 1.0 function. Appending is
//! allowed: new functions, enum values, macros and trailing fields.
//!
//! `OTHELLO_WRITE_ABI=1 cargo test --test abi` rewrites `abi.txt` from the
//! 1.0 header (only when a new record is made, for 2.0: the record of a
//! released version never changes).

mod cbuild;

use cbuild::{lib_dir, manifest_dir, out_dir, output, program, run, Build, C11_FLAGS};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

const RECORD: &str = "tests/abi/1.0";

/// What a header declares, as the probe needs it.
#[derive(Default, Debug)]
struct Header {
    /// Integer macros (the version's MINOR, PATCH, NUMBER and STRING left out:
    /// they change with every release).
    macros: Vec<String>,
    enum_values: Vec<String>,
    /// Named types whose size matters: the enums' typedefs and the
    /// callback's.
    types: Vec<String>,
    structs: Vec<Struct>,
    /// Function prototypes and the callback's typedef, as written.
    declarations: Vec<String>,
    functions: Vec<String>,
}

#[derive(Debug)]
struct Struct {
    name: String,
    /// (name, the field's address type: `int *`, `int (*)[OTHELLO_PV_MAX]`).
    fields: Vec<(String, String)>,
}

impl Struct {
    /// A struct that may grow at its end in a MINOR release.
    fn grows(&self) -> bool {
        self.fields
            .first()
            .is_some_and(|(name, _)| name == "struct_size")
    }
}

/// The header without its comments.
fn strip_comments(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("/*") {
        out.push_str(&rest[..i]);
        let end = rest[i..].find("*/").expect("a comment ends") + i + 2;
        rest = &rest[end..];
    }
    out.push_str(rest);
    out.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `int (*)[OTHELLO_PV_MAX]` for `int pv[OTHELLO_PV_MAX]`, `const int **`
/// for `const int *pv`: the type of the field's address.
fn field(decl: &str) -> (String, String) {
    let decl = decl.trim().trim_end_matches(';').trim();
    let (decl, array) = match decl.find('[') {
        Some(i) => (&decl[..i], Some(&decl[i..])),
        None => (decl, None),
    };
    let start = decl
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
        .map_or(0, |i| i + 1);
    let (ty, name) = (decl[..start].trim(), &decl[start..]);
    let address = match array {
        Some(dims) => format!("{ty} (*){dims}"),
        None if ty.ends_with('*') => format!("{ty}*"),
        None => format!("{ty} *"),
    };
    (name.to_string(), address)
}

fn parse(text: &str) -> Header {
    let mut h = Header::default();
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if let ["#define", name, value] = words[..] {
            let versioned = name.starts_with("OTHELLO_VERSION_") && name != "OTHELLO_VERSION_MAJOR";
            if name.starts_with("OTHELLO_") && !versioned && value.parse::<i64>().is_ok() {
                h.macros.push(name.to_string());
            }
        }
    }
    let code = strip_comments(text);
    let mut lines = code.lines().map(str::trim_end).peekable();
    while let Some(line) = lines.next() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix("typedef struct ") {
            let name = rest.split_whitespace().next().unwrap_or("").to_string();
            if rest.trim_end().ends_with(';') {
                continue; // an opaque handle
            }
            let mut fields = Vec::new();
            for l in lines.by_ref() {
                let l = l.trim();
                if l.starts_with('}') {
                    break;
                }
                if !l.is_empty() {
                    fields.push(field(l));
                }
            }
            h.structs.push(Struct { name, fields });
        } else if trimmed.starts_with("OTHELLO_") && trimmed.contains(" = ") {
            h.enum_values
                .push(trimmed.split(" = ").next().unwrap_or("").to_string());
        } else if let Some(rest) = trimmed.strip_prefix("typedef ") {
            if rest.contains("(*") {
                let name = rest.split("(*").nth(1).and_then(|r| r.split(')').next());
                h.types.push(name.unwrap_or("").to_string());
                h.declarations.push(trimmed.to_string());
            } else if let Some(name) = rest.strip_prefix("int32_t ") {
                h.types.push(name.trim_end_matches(';').to_string());
            }
        } else if !line.starts_with(' ') && trimmed.contains("othello_") && trimmed.contains('(') {
            let mut decl = trimmed.to_string();
            while !decl.ends_with(';') {
                let next = lines.next().expect("a prototype ends");
                decl.push(' ');
                decl.push_str(next.trim());
            }
            let name = decl[..decl.find('(').expect("a prototype")]
                .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
                .next()
                .unwrap_or("")
                .to_string();
            h.functions.push(name);
            h.declarations.push(decl);
        }
    }
    h.types.sort();
    h.types.dedup();
    h
}

/// The C program that prints `h`'s facts as the header it is compiled
/// against has them, and fails to compile where that header changed a
/// declaration or a field's type.
fn probe_source(h: &Header) -> String {
    let mut c = String::from(
        "/* Generated by tests/abi.rs from the 1.0 header. */\n\
         #include <stdio.h>\n#include <stddef.h>\n#include \"othello.h\"\n\n\
         /* 1.0's declarations again: a changed one does not compile. */\n",
    );
    for d in &h.declarations {
        c += &format!("{d}\n");
    }
    c += "\n/* 1.0's field types. */\n";
    for s in &h.structs {
        for (f, ty) in &s.fields {
            c += &format!(
                "_Static_assert(_Generic(&((struct {0} *)0)->{f}, {ty}: 1, default: 0), \
                 \"field {0}.{f} is no longer of 1.0's type ({ty} for its address)\");\n",
                s.name
            );
        }
    }
    c += "\nint main(void)\n{\n";
    for m in &h.macros {
        c += &format!("    printf(\"macro {m} %lld\\n\", (long long)({m}));\n");
    }
    for e in &h.enum_values {
        c += &format!("    printf(\"enum {e} %lld\\n\", (long long)({e}));\n");
    }
    for t in &h.types {
        c += &format!("    printf(\"type {t} size %zu\\n\", sizeof({t}));\n");
    }
    for s in &h.structs {
        let n = &s.name;
        c += &format!(
            "    printf(\"struct {n} size %zu align %zu\\n\", sizeof(struct {n}), _Alignof(struct {n}));\n"
        );
        for (f, _) in &s.fields {
            c += &format!(
                "    printf(\"field {n}.{f} offset %zu size %zu\\n\", offsetof(struct {n}, {f}), \
                 sizeof(((struct {n} *)0)->{f}));\n"
            );
        }
    }
    for f in &h.functions {
        c += &format!("    printf(\"function {f}\\n\");\n");
    }
    c + "    return 0;\n}\n"
}

/// Compiles the probe with `header` beside it and runs it: its facts, or
/// the compiler's errors.
fn probe(h: &Header, header: &Path, name: &str) -> Result<String, String> {
    let dir = out_dir("abi", name);
    fs::copy(header, dir.join("othello.h")).expect("the header copies");
    let source = dir.join("probe.c");
    fs::write(&source, probe_source(h)).expect("the probe is written");
    let exe = dir.join("probe");
    let built = output(
        "compiling the ABI probe",
        Command::new("cc")
            .args(C11_FLAGS)
            .arg("-o")
            .arg(&exe)
            .arg(&source),
    );
    if !built.status.success() {
        return Err(String::from_utf8_lossy(&built.stderr).into_owned());
    }
    let ran = run("running the ABI probe", &mut Command::new(&exe));
    Ok(String::from_utf8_lossy(&ran.stdout).into_owned())
}

/// The facts of a record or a probe's output: the fact's name (its first
/// two words) and its values.
fn facts(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut words = l.splitn(3, ' ');
            let key = format!(
                "{} {}",
                words.next().unwrap_or(""),
                words.next().unwrap_or("")
            );
            (key, words.next().unwrap_or("").to_string())
        })
        .collect()
}

/// What the current header and library changed of the record: one line a
/// broken fact. `growing` names the structs whose size may grow; `exported`
/// is the library's dynamic symbols.
fn breaks(record: &str, now: &str, growing: &[&str], exported: &[String]) -> Vec<String> {
    let now = facts(now);
    let mut found = Vec::new();
    for (key, was) in facts(record) {
        if let Some(name) = key.strip_prefix("function ") {
            if !exported.iter().any(|s| s == name) {
                found.push(format!("{key}: in 1.0, not exported by the library now"));
            }
            continue;
        }
        match now.get(&key) {
            None => found.push(format!("{key}: in 1.0, gone now")),
            Some(is) if *is == was => {}
            Some(is) => {
                let grown = key
                    .strip_prefix("struct ")
                    .filter(|s| growing.contains(s))
                    .and_then(|_| Some((size_align(&was)?, size_align(is)?)))
                    .is_some_and(|((s0, a0), (s1, a1))| s1 >= s0 && a1 == a0);
                if !grown {
                    found.push(format!("{key}: {was} in 1.0, {is} now"));
                }
            }
        }
    }
    found
}

/// (size, align) from "size N align A".
fn size_align(text: &str) -> Option<(u64, u64)> {
    match text.split_whitespace().collect::<Vec<_>>()[..] {
        ["size", s, "align", a] => Some((s.parse().ok()?, a.parse().ok()?)),
        _ => None,
    }
}

/// The functions the shared library of this test run exports.
fn exported() -> Vec<String> {
    let lib = lib_dir().join("libothello.so");
    let out = run(
        "listing the library's symbols",
        Command::new("nm").args(["-D", "--defined-only"]).arg(&lib),
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().nth(2).map(str::to_string))
        .collect()
}

fn record_path(file: &str) -> PathBuf {
    manifest_dir().join(RECORD).join(file)
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

#[test]
fn the_1_0_program_runs_against_this_library() {
    let exe = Build::c(C11_FLAGS)
        .flags(&["-pthread"])
        .include(RECORD)
        .source(&format!("{RECORD}/program.c"))
        .build("abi", "program_1_0");
    let out = output("running the 1.0 program", &mut program(&exe));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("checks passed"),
        "the 1.0 program failed against this library:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_header_and_library_keep_the_1_0_abi() {
    let old = record_path("othello.h");
    let h = parse(&read(&old));
    assert!(
        h.functions.len() >= 50 && h.structs.len() >= 4 && h.enum_values.len() >= 25,
        "the 1.0 header did not parse: {h:?}"
    );
    let recorded = probe(&h, &old, "probe_1_0").expect("the probe compiles against 1.0's header");
    let abi_txt = record_path("abi.txt");
    if std::env::var("OTHELLO_WRITE_ABI").as_deref() == Ok("1") {
        let top = "# The ABI of othello 1.0.0 on x86-64 Linux (LP64), generated from\n\
                   # tests/abi/1.0/othello.h by tests/abi.rs; never edited after the release.\n";
        fs::write(&abi_txt, format!("{top}{recorded}")).expect("abi.txt is written");
    }
    let record = read(&abi_txt);
    if cfg!(all(target_arch = "x86_64", target_os = "linux")) {
        assert_eq!(
            facts(&recorded),
            facts(&record),
            "abi.txt is not what 1.0's header gives on this machine"
        );
    }
    let now = probe(&h, &manifest_dir().join("include/othello.h"), "probe_now").unwrap_or_else(
        |errors| {
            panic!("include/othello.h breaks 1.0's declarations (the compiler's words):\n{errors}")
        },
    );
    let growing: Vec<&str> = h
        .structs
        .iter()
        .filter(|s| s.grows())
        .map(|s| s.name.as_str())
        .collect();
    let found = breaks(&record, &now, &growing, &exported());
    assert!(
        found.is_empty(),
        "this build breaks the 1.0 ABI (docs/guide.md, \"Versions and the ABI promise\"):\n  {}",
        found.join("\n  ")
    );
}

/// The comparison itself, on made-up facts: each kind of break is found,
/// and what the promise allows is not.
#[test]
fn breaks_finds_each_kind_of_change() {
    let record = "macro OTHELLO_PASS -1\nenum OTHELLO_B 1\n\
                  struct s size 16 align 8\nstruct t size 8 align 4\n\
                  field s.a offset 8 size 4\nfunction f\nfunction g\n";
    let fine = "macro OTHELLO_PASS -1\nenum OTHELLO_B 1\nenum OTHELLO_C 2\n\
                struct s size 24 align 8\nstruct t size 8 align 4\n\
                field s.a offset 8 size 4\nfield s.z offset 16 size 8\n";
    let exported = ["f".to_string(), "g".to_string(), "h".to_string()];
    assert_eq!(
        breaks(record, fine, &["s"], &exported),
        Vec::<String>::new()
    );
    let broken = "macro OTHELLO_PASS -2\nstruct s size 24 align 8\nstruct t size 12 align 4\n\
                  field s.a offset 12 size 4\n";
    assert_eq!(
        breaks(record, broken, &["s"], &exported[..1]),
        [
            "enum OTHELLO_B: in 1.0, gone now",
            "field s.a: offset 8 size 4 in 1.0, offset 12 size 4 now",
            "function g: in 1.0, not exported by the library now",
            "macro OTHELLO_PASS: -1 in 1.0, -2 now",
            "struct t: size 8 align 4 in 1.0, size 12 align 4 now",
        ]
    );
}

#[test]
fn the_parser_reads_fields_declarations_and_values() {
    assert_eq!(
        field("  int pv[OTHELLO_PV_MAX];"),
        ("pv".into(), "int (*)[OTHELLO_PV_MAX]".into())
    );
    assert_eq!(
        field("const int *pv;"),
        ("pv".into(), "const int **".into())
    );
    let h = parse(
        "#define OTHELLO_PASS -1\n#define OTHELLO_VERSION_MINOR 3\n\
         enum othello_x {\n  /** a */\n  OTHELLO_X_A = 0,\n};\ntypedef int32_t othello_x;\n\
         typedef struct othello_board othello_board;\n\
         typedef struct s {\n  /**\n   * doc\n   */\n  size_t struct_size;\n  bool b;\n} s;\n\
         othello_status othello_f(int a,\n                         int b);\n",
    );
    assert_eq!(h.macros, ["OTHELLO_PASS"]);
    assert_eq!(h.enum_values, ["OTHELLO_X_A"]);
    assert_eq!(h.types, ["othello_x"]);
    assert_eq!(h.structs.len(), 1);
    assert!(h.structs[0].grows());
    assert_eq!(h.functions, ["othello_f"]);
    assert_eq!(h.declarations, ["othello_status othello_f(int a, int b);"]);
}
