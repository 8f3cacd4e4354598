//! The web build (docs/web.md): the library compiled for
//! `wasm32-unknown-unknown`, the JavaScript package of `web/` around it,
//! tested in Node (`web/test/*.test.mjs`, with positions and the native
//! library's answers for them written here), packed with `npm pack` and
//! installed into an empty project that runs docs/web.md's scripts (and
//! TypeScript's `tsc --strict` on them and on the types), and the page of
//! `web/demo` played to the end by clicks in headless Chromium
//! (`web/test/browser.mjs`, with playwright-core from npm).
//!
//! `./test.sh` installs what this needs: the wasm32 target (rustup), Node
//! and npm, Chromium (Debian's `chromium`). Without them the tests fail,
//! naming what is missing. npm fetches playwright-core and TypeScript from
//! its registry (its cache after the first run). The wasm build goes to its own target
//! directory under `CARGO_TARGET_TMPDIR`, with the release profile (the
//! size and speed that ship) and without the `header` feature.

use othello::ffi::board::*;
use othello::ffi::engine::*;
use othello::rng::Rng;
use std::ffi::CStr;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

mod cbuild;
use cbuild::{manifest_dir, on_path, out_dir, run};

fn tmp() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("web")
}

/// The package as `npm pack` would take it from `web/`, with the module
/// built: `othello.js`, `othello.d.ts`, `package.json` and `othello.wasm`.
fn package() -> &'static Path {
    static PACKAGE: OnceLock<PathBuf> = OnceLock::new();
    PACKAGE.get_or_init(|| {
        let wasm = build_wasm();
        let dir = tmp().join("package");
        fs::create_dir_all(&dir).expect("the package directory");
        for file in ["othello.js", "othello.d.ts", "package.json"] {
            fs::copy(manifest_dir().join("web").join(file), dir.join(file))
                .unwrap_or_else(|e| panic!("copying web/{file}: {e}"));
        }
        fs::copy(&wasm, dir.join("othello.wasm")).expect("copying othello.wasm");
        dir
    })
}

/// `web/build.sh` into this run's directory: the path of othello.wasm.
fn build_wasm() -> PathBuf {
    let out = tmp().join("build");
    run(
        "web/build.sh (rustup target add wasm32-unknown-unknown: ./test.sh does)",
        Command::new("bash")
            .arg(manifest_dir().join("web").join("build.sh"))
            .arg(&out)
            .env("CARGO_TARGET_DIR", tmp().join("target")),
    );
    out.join("othello.wasm")
}

fn node() -> Command {
    let node = on_path("node").expect("node is not on PATH (./test.sh installs nodejs)");
    let mut cmd = Command::new(node);
    cmd.current_dir(manifest_dir());
    cmd
}

/// A position after `plies` random plies and its board string.
fn random_board(rng: &mut Rng, plies: usize) -> *mut othello_board {
    unsafe {
        let b = othello_board_new();
        let mut moves = [0i32; 64];
        for _ in 0..plies {
            let n = othello_board_legal_moves(b, moves.as_mut_ptr(), 64);
            if n == 0 {
                if othello_board_pass(b) != othello::ffi::othello_status::OTHELLO_STATUS_OK {
                    break;
                }
                continue;
            }
            let sq = moves[rng.below(n)];
            othello_board_play(b, sq, std::ptr::null_mut(), 0, std::ptr::null_mut());
        }
        b
    }
}

fn board_string(b: *const othello_board) -> String {
    let mut buf = [0u8; 80];
    unsafe {
        othello_board_to_string(b, buf.as_mut_ptr().cast(), buf.len(), std::ptr::null_mut());
        CStr::from_bytes_until_nul(&buf)
            .unwrap()
            .to_str()
            .unwrap()
            .to_string()
    }
}

/// The native library's answer for `b` (freed): level `level`, or an exact
/// solve when `exact` > 0, as `{board, limits, move, score, nodes}`, and
/// its nodes.
fn answer(e: *mut othello_engine, b: *mut othello_board, level: i32, exact: i32) -> (String, u64) {
    unsafe {
        let mut lim = othello_search_limits {
            book: 0,
            ..Default::default()
        };
        let limits = if exact > 0 {
            lim.level = -1;
            lim.exact_empties = exact;
            format!("{{\"exactEmpties\": {exact}, \"book\": 0}}")
        } else {
            lim.level = level;
            format!("{{\"level\": {level}, \"book\": 0}}")
        };
        let mut r = othello_search_result::default();
        othello_engine_clear(e);
        assert_eq!(
            othello_engine_search(e, b, &lim, &mut r),
            othello::ffi::othello_status::OTHELLO_STATUS_OK
        );
        assert!(exact == 0 || r.exact);
        let line = format!(
            "{{\"board\": \"{}\", \"limits\": {limits}, \"move\": {}, \"score\": {}, \"nodes\": {}}}",
            board_string(b),
            r.r#move,
            r.score,
            r.nodes
        );
        othello_board_free(b);
        (line, r.nodes)
    }
}

/// The native library's answers, as the Node tests compare them: 20
/// midgame positions at level 8 and 10 positions of 16 empties solved
/// exactly.
fn native_answers() -> String {
    let mut rng = Rng::new(65);
    let mut cases = Vec::new();
    let mut nodes = 0;
    let e = othello_engine_new(16);
    let start = std::time::Instant::now();
    while cases.len() < 20 {
        let plies = 14 + rng.below(20);
        let b = random_board(&mut rng, plies);
        if unsafe { othello_board_is_game_over(b) || othello_board_must_pass(b) } {
            unsafe { othello_board_free(b) };
            continue;
        }
        let (case, n) = answer(e, b, 8, 0);
        cases.push(case);
        nodes += n;
    }
    while cases.len() < 30 {
        let b = random_board(&mut rng, 44);
        let empties = unsafe { othello_board_count(b, 0) };
        if empties != 16 || unsafe { othello_board_legal_moves(b, std::ptr::null_mut(), 0) } == 0 {
            unsafe { othello_board_free(b) };
            continue;
        }
        let (case, n) = answer(e, b, 0, 16);
        cases.push(case);
        nodes += n;
    }
    unsafe { othello_engine_free(e) };
    // The same searches' speed natively, in this test's build (the dev
    // profile: optimised, without LTO), beside the wasm figure Node prints.
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "native: {nodes} nodes in {seconds:.2} s (positions included), {:.2} M nodes/s",
        nodes as f64 / seconds / 1e6
    );
    format!("[\n{}\n]\n", cases.join(",\n"))
}

/// `web/test/othello.test.mjs` in Node, on the package built here.
#[test]
fn node_tests() {
    let pkg = package();
    let answers = out_dir("web", "node").join("native.json");
    fs::write(&answers, native_answers()).expect("writing the native answers");
    let out = run(
        "node --test web/test/othello.test.mjs",
        node()
            .args(["--expose-gc", "--test", "web/test/othello.test.mjs"])
            .env("OTHELLO_WEB_PACKAGE", pkg)
            .env("OTHELLO_NATIVE_ANSWERS", &answers),
    );
    print!("{}", String::from_utf8_lossy(&out.stdout));
}

/// The fenced blocks of docs/web.md whose info string is `info`.
fn doc_blocks(info: &str) -> Vec<String> {
    let page = fs::read_to_string(manifest_dir().join("docs/web.md")).expect("docs/web.md");
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in page.lines() {
        match &mut current {
            None if line.trim_end() == format!("```{info}") => current = Some(String::new()),
            Some(body) if line.trim_end() == "```" => {
                blocks.push(std::mem::take(body));
                current = None;
            }
            Some(body) => {
                body.push_str(line);
                body.push('\n');
            }
            None => {}
        }
    }
    blocks
}

/// `npm pack` of the package, installed from the tarball into an empty
/// project as a user would, where docs/web.md's scripts run in Node.
#[test]
fn npm_package_installs_and_plays() {
    let npm = on_path("npm").expect("npm is not on PATH (./test.sh installs it)");
    let pkg = package();
    let work = out_dir("web", "npm");
    let packed = run(
        "npm pack",
        Command::new(&npm)
            .args(["pack", "--json", "--pack-destination"])
            .arg(&work)
            .arg(pkg),
    );
    let listing = String::from_utf8_lossy(&packed.stdout).into_owned();
    for file in ["othello.js", "othello.d.ts", "othello.wasm", "package.json"] {
        assert!(
            listing.contains(&format!("\"{file}\"")),
            "{file} packed: {listing}"
        );
    }
    let version = env!("CARGO_PKG_VERSION");
    let tarball = work.join(format!("othello-engine-{version}.tgz"));
    assert!(tarball.is_file(), "{} from npm pack", tarball.display());
    let project = work.join("project");
    let _ = fs::remove_dir_all(&project);
    fs::create_dir_all(&project).expect("the project directory");
    fs::write(
        project.join("package.json"),
        "{\"name\": \"scratch\", \"type\": \"module\"}\n",
    )
    .expect("package.json");
    run(
        "npm install the tarball",
        Command::new(&npm)
            .current_dir(&project)
            .args(["install", "--no-audit", "--no-fund"])
            .arg(&tarball),
    );
    let scripts = doc_blocks("js");
    assert!(!scripts.is_empty(), "docs/web.md has js blocks");
    assert!(
        scripts[0].lines().count() <= 5,
        "the first script is five lines:\n{}",
        scripts[0]
    );
    for (i, script) in scripts.iter().enumerate() {
        let file = project.join(format!("script{i}.mjs"));
        fs::write(&file, script).expect("writing the script");
        let out = run(
            &format!("docs/web.md's script {i} in Node"),
            node().current_dir(&project).arg(&file),
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        print!("{stdout}");
        if i == 0 {
            // A whole game: a board string with no empty square that can
            // still be played, and the final score.
            assert!(stdout.contains("black - white"), "{stdout}");
        }
    }
    // The types, as a TypeScript user's compiler reads them: the page's
    // scripts and a use of every class, under --strict.
    run(
        "npm install typescript",
        Command::new(&npm).current_dir(&project).args([
            "install",
            "--no-audit",
            "--no-fund",
            "typescript@5",
        ]),
    );
    let mut files = vec!["types.ts".to_string()];
    fs::write(project.join("types.ts"), TYPES_USE).expect("types.ts");
    for (i, script) in scripts.iter().enumerate() {
        files.push(format!("script{i}.ts"));
        fs::write(project.join(&files[i + 1]), script).expect("a .ts script");
    }
    run(
        "tsc --strict on the package's types",
        node()
            .current_dir(&project)
            .args([
                "node_modules/typescript/bin/tsc",
                "--noEmit",
                "--strict",
                "--target",
                "es2022",
                "--module",
                "nodenext",
                "--moduleResolution",
                "nodenext",
            ])
            .args(&files),
    );
}

/// TypeScript that uses the package's types (checked by tsc, not run).
const TYPES_USE: &str = r#"
import * as othello from "othello-engine";
export function typed(b: othello.Board, e: othello.Engine): number {
  const moves: othello.Square[] = b.legalMoves();
  const flips: number[] = b.play(moves[0] ?? othello.PASS);
  const r: othello.SearchResult = e.search(b, { level: 4, clockRemainingMs: 1000n });
  const scores: othello.MoveScore[] = e.analyze(b, { depth: 2 });
  const side: othello.Color = b.sideToMove;
  e.book = othello.Book.NONE;
  const err = new Error() as othello.OthelloError;
  return flips.length + r.score + scores.length + side + err.status + othello.interruptFlag().length;
}
"#;

/// The page of `web/demo` in headless Chromium, driven by playwright-core
/// (`web/test/browser.mjs`): a whole game by clicks, every move checked,
/// undo, a new game against a 1986 level, and a screenshot.
#[test]
fn page_plays_in_a_browser() {
    let npm = on_path("npm").expect("npm is not on PATH (./test.sh installs it)");
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    assert!(
        Path::new(&chromium).is_file(),
        "{chromium} is missing (./test.sh installs Debian's chromium)"
    );
    let pkg = package();
    let site = out_dir("web", "site");
    for file in ["othello.js", "othello.wasm"] {
        fs::copy(pkg.join(file), site.join(file)).expect("copying the package");
    }
    fs::create_dir_all(site.join("demo")).expect("demo/");
    for entry in fs::read_dir(manifest_dir().join("web/demo")).expect("web/demo") {
        let path = entry.expect("an entry").path();
        fs::copy(&path, site.join("demo").join(path.file_name().unwrap())).expect("copying demo/");
    }
    // playwright-core drives the system's Chromium (its own browser
    // download does not work here); kept between runs.
    let deps = tmp().join("playwright");
    fs::create_dir_all(&deps).expect("the playwright directory");
    if !deps.join("node_modules/playwright-core").is_dir() {
        fs::write(
            deps.join("package.json"),
            "{\"name\": \"browser-test\", \"private\": true}\n",
        )
        .expect("package.json");
        run(
            "npm install playwright-core",
            Command::new(&npm).current_dir(&deps).args([
                "install",
                "--no-audit",
                "--no-fund",
                "playwright-core@1",
            ]),
        );
    }
    let shot = out_dir("web", "screenshot").join("game.png");
    let out = run(
        "node web/test/browser.mjs",
        node()
            .arg("web/test/browser.mjs")
            .env("OTHELLO_WEB_SITE", &site)
            .env("PLAYWRIGHT_DIR", &deps)
            .env("OTHELLO_WEB_SCREENSHOT", &shot)
            .env("CHROMIUM", &chromium),
    );
    print!("{}", String::from_utf8_lossy(&out.stdout));
    let png = fs::read(&shot).expect("the screenshot");
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 10_000,
        "a screenshot of the page"
    );
}
