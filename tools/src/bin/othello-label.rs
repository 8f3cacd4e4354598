//! Labelled `.obf` positions from game records.
//!
//! ```text
//! cargo run --release -p othello-tools --bin othello-label -- \
//!     --games ../shared/games/wthor.txt [--games MORE.txt] \
//!     --empties 20..=24 [--per-game 1|all] [--every 10 --offset 0] \
//!     [--max 300] [--seed 1] [--shard K/N] [--solve exact|none] \
//!     [--out FILE] [--hash MB]
//! ```
//!
//! Replays every game of the files (an illegal or malformed line stops the
//! run with an error naming its file and line), selects positions as
//! `othello_tools::label` describes (which games, which empties, the seeded
//! choice, `--max`, `--shard`) and writes one `.obf` line per position:
//! `<board> <side>; <MOVE>:<score>; % <file>:<line> empties <E>`, the move
//! and the exact score in discs from a fresh engine table per position
//! (`--solve exact`), or `<board> <side>; % ...` (`--solve none`).
//!
//! Output: `--out FILE` (else standard output) starts with `%` comment lines
//! holding the command's arguments, wrapped between arguments so that a
//! comment line stays under 66 characters (benches/solve.rs skips lines that
//! short) unless one argument is longer than that. Each position line is
//! written whole and flushed as soon as it is done, so a stopped run leaves
//! the lines done so far. Running the same command again
//! resumes: an existing `--out` must start with the same comment lines; a
//! partly written last line is dropped, positions already in the file are
//! skipped, and the rest are appended.

use clap::{Parser, ValueEnum};
use othello::engine::{Engine, Limits};
use othello::obf;
use othello_tools::args::{evaluator, parse_shard};
use othello_tools::label::{obf_line, plan, source_tag, PerGame, Selection};
use std::collections::HashSet;
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Replays game records and writes selected positions as .obf lines, solved
/// exactly or not. See the source's doc comment for the output and resume.
#[derive(Parser)]
#[command(name = "othello-label")]
struct Cli {
    /// A game file: one game per line, `f5d6... +12` (repeatable; read in
    /// order).
    #[arg(long = "games", value_name = "FILE", required = true)]
    games: Vec<String>,
    /// Empties of the positions: `LO..=HI` (both inclusive) or `N`.
    #[arg(long, value_name = "LO..=HI", value_parser = parse_range,
          conflicts_with_all = ["min_empties", "max_empties"])]
    empties: Option<(u32, u32)>,
    /// Fewest empties (with --max-empties, instead of --empties).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=60))]
    min_empties: Option<u32>,
    /// Most empties (with --min-empties, instead of --empties).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=60))]
    max_empties: Option<u32>,
    /// Positions per selected game: `1` (at a random number of empties in
    /// range) or `all` (every one in range).
    #[arg(long, value_name = "1|all", value_parser = parse_per_game, default_value = "1")]
    per_game: PerGame,
    /// Select the games whose 0-based line index i has i % EVERY == OFFSET.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..))]
    every: u64,
    /// See --every; less than it.
    #[arg(long, value_name = "R", default_value_t = 0)]
    offset: u64,
    /// At most this many positions (all shards together).
    #[arg(long, value_name = "N")]
    max: Option<usize>,
    /// Seed of the random choice of empties (with the file name and line).
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// This process handles the selected games whose ordinal (0-based, in
    /// file and line order) is K-1 modulo N; the outputs of shards 1/N..N/N,
    /// concatenated and sorted, are one run's output sorted.
    #[arg(long, value_name = "K/N", value_parser = parse_shard, default_value = "1/1")]
    shard: (usize, usize),
    /// `exact`: solve each position (best move, score in discs); `search`:
    /// a midgame search (--depth, --selectivity, --weights; exact at
    /// --exact-empties or fewer), its move and score rounded to discs;
    /// `none`: the position alone.
    #[arg(long, value_enum, default_value_t = Solve::Exact)]
    solve: Solve,
    /// Depth of `--solve search`.
    #[arg(long, value_name = "D", default_value_t = 6)]
    depth: u32,
    /// Selectivity of `--solve search` (0..5, 5 = none).
    #[arg(long, value_name = "S", default_value_t = 2)]
    selectivity: u32,
    /// `--solve search` solves exactly at this many empties or fewer.
    #[arg(long, value_name = "E", default_value_t = 14)]
    exact_empties: u32,
    /// Weights file of `--solve search`; the library's built-in by default.
    #[arg(long, value_name = "FILE")]
    weights: Option<String>,
    /// Output file (resumed if it exists); standard output if absent.
    #[arg(long, value_name = "FILE")]
    out: Option<String>,
    /// Transposition table of the solver, in MB.
    #[arg(long = "hash", value_name = "MB", default_value_t = 64)]
    hash_mb: usize,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Solve {
    Exact,
    Search,
    None,
}

fn parse_range(s: &str) -> Result<(u32, u32), String> {
    let num = |t: &str| -> Result<u32, String> {
        t.trim()
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=60).contains(n))
            .ok_or_else(|| format!("{t:?} is not a number of empties 1..60"))
    };
    let (lo, hi) = match s.split_once("..") {
        None => (num(s)?, num(s)?),
        Some((lo, hi)) => match hi.strip_prefix('=') {
            Some(hi) => (num(lo)?, num(hi)?),
            None => {
                return Err(format!(
                    "write {lo}..={hi} (both ends inclusive): {s} is ambiguous"
                ))
            }
        },
    };
    if lo > hi {
        return Err(format!("{lo} is more than {hi}"));
    }
    Ok((lo, hi))
}

fn parse_per_game(s: &str) -> Result<PerGame, String> {
    match s {
        "1" => Ok(PerGame::One),
        "all" => Ok(PerGame::All),
        _ => Err("1 or all".into()),
    }
}

/// The header: the arguments as `%` lines shorter than 66 characters.
fn header() -> Vec<String> {
    let mut lines = vec!["% othello-label".to_string()];
    for arg in std::env::args().skip(1) {
        let last = lines.last_mut().expect("one line");
        if last.len() + 1 + arg.len() < 64 || last.len() <= 2 {
            last.push(' ');
            last.push_str(&arg);
        } else {
            last.push_str(" \\");
            lines.push(format!("%   {arg}"));
        }
    }
    lines
}

fn main() {
    let c = Cli::parse();
    let (lo, hi) = match (c.empties, c.min_empties, c.max_empties) {
        (Some(r), _, _) => r,
        (None, None, None) => {
            eprintln!("error: give --empties LO..=HI or --min-empties/--max-empties");
            std::process::exit(2);
        }
        (None, lo, hi) => (lo.unwrap_or(1), hi.unwrap_or(60)),
    };
    if lo > hi || c.offset >= c.every {
        eprintln!("error: need min-empties <= max-empties and offset < every");
        std::process::exit(2);
    }
    let sel = Selection {
        lo,
        hi,
        per_game: c.per_game,
        every: c.every as usize,
        offset: c.offset as usize,
        max: c.max,
        seed: c.seed,
        shard: c.shard,
    };
    let mut files = Vec::new();
    for path in &c.games {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
            eprintln!("error: {path}: {e}");
            std::process::exit(1);
        });
        let name = std::path::Path::new(path)
            .file_name()
            .map_or(path.clone(), |n| n.to_string_lossy().into_owned());
        files.push((name, text));
    }
    let planned = plan(&files, &sel).unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(1);
    });

    let header = header();
    let mut done: HashSet<String> = HashSet::new();
    let mut out: Box<dyn Write> = match &c.out {
        None => {
            let mut o = std::io::stdout();
            for h in &header {
                writeln!(o, "{h}").expect("write the header");
            }
            Box::new(o)
        }
        Some(path) => Box::new(open_out(path, &header, &mut done)),
    };
    let todo: Vec<_> = planned
        .iter()
        .map(|p| (p, source_tag(&files[p.file].0, p)))
        .filter(|(_, tag)| !done.contains(tag))
        .collect();
    eprintln!(
        "{} positions planned for this shard, {} already written, {} to do",
        planned.len(),
        planned.len() - todo.len(),
        todo.len()
    );

    let mut engine = Engine::new(c.hash_mb);
    let mut limits = Limits::level(0).expect("level 0 exists");
    limits.depth = 10;
    limits.exact_empties = 60;
    let mut search = Limits::explicit(c.depth.into(), c.exact_empties.into(), 0)
        .unwrap_or_else(|e| panic!("{e}"));
    search.selectivity = c.selectivity;
    search.validate().unwrap_or_else(|e| panic!("{e}"));
    if let Some(w) = &c.weights {
        engine.set_evaluator(evaluator(w));
    }
    let stop = AtomicBool::new(false);
    let start = Instant::now();
    for (i, (p, tag)) in todo.iter().enumerate() {
        let label = match c.solve {
            Solve::None => None,
            Solve::Search => {
                engine.clear();
                let r = engine
                    .search(p.at.pos, &search, &stop, &mut |_| {})
                    .expect("a position with a move");
                let sq = r.best.expect("the side to move has a move");
                let discs = (r.score as f64 / 100.0).round() as i32;
                Some((sq, discs))
            }
            Solve::Exact => {
                engine.clear();
                let t = Instant::now();
                let r = engine
                    .search(p.at.pos, &limits, &stop, &mut |_| {})
                    .expect("a position with a move");
                assert!(r.exact, "the solve finished");
                let sq = r.best.expect("the side to move has a move");
                eprintln!(
                    "{}/{} {tag}: {} {:+} in {:.2} s, {} nodes (elapsed {:.0} s)",
                    i + 1,
                    todo.len(),
                    othello::notation::square_name(8, sq).to_uppercase(),
                    r.score / 100,
                    t.elapsed().as_secs_f64(),
                    r.nodes,
                    start.elapsed().as_secs_f64()
                );
                Some((sq, r.score / 100))
            }
        };
        let line = obf_line(&p.at, label, tag) + "\n";
        out.write_all(line.as_bytes()).expect("write a position");
        out.flush().expect("flush the output");
    }
    eprintln!(
        "{} positions written in {:.1} s",
        todo.len(),
        start.elapsed().as_secs_f64()
    );
}

/// Opens `path` to append, writing `header` to a new or empty file; an
/// existing file must start with `header`. Drops a partly written last
/// line and collects the tags of the lines there into `done`.
fn open_out(path: &str, header: &[String], done: &mut HashSet<String>) -> std::fs::File {
    let p = std::path::Path::new(path);
    if let Some(dir) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).expect("create the output directory");
    }
    let text = std::fs::read_to_string(p).unwrap_or_default();
    let complete = text.rfind('\n').map_or(0, |i| i + 1);
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(p)
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    file.set_len(complete as u64).expect("drop a partial line");
    if complete == 0 {
        for h in header {
            writeln!(file, "{h}").expect("write the header");
        }
    } else {
        let there: Vec<&str> = text.lines().take_while(|l| l.starts_with('%')).collect();
        if there != header {
            eprintln!(
                "error: {path} exists and was written by another command:\n{}\n\
                 remove it, or run that command to resume it",
                there.join("\n")
            );
            std::process::exit(1);
        }
        for line in text[..complete].lines().filter(|l| !l.starts_with('%')) {
            if let Some(tag) = obf::comment(line) {
                done.insert(tag.to_string());
            }
        }
    }
    file
}
