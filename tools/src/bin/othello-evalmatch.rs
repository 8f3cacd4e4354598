//! A match between two evaluations (and selectivities) at equal limits.
//!
//! ```text
//! cargo run --release -p othello-tools --bin othello-evalmatch -- \
//!     [--games 200] [--depth 4] [--exact 0] | [--level N] [--time-ms T] \
//!     [--xot FILE | --plies 8] [--seed 1] [--threads N] \
//!     [--weights FILE] [--b-weights FILE|v1] [--a-selectivity S] [--b-selectivity S]
//! ```
//!
//! Player A is the trained pattern evaluation (`--weights FILE`, else the
//! weights built into the library); player B is evaluation v1, or other
//! trained weights with `--b-weights`. Both search `depth` plies (and solve
//! exactly at `exact` empties or fewer, 0 = never), or play a `--level`,
//! each with its own selectivity if given (by default 5, none, with
//! `--depth`, the level's with `--level`), optionally under a time limit per
//! move, with fresh tables each game. Openings: with `--xot`, a seeded
//! sample of the file's openings (one per line, moves as `f5d6c3...`);
//! else random `plies`-ply sequences (seeded) kept when a 6-ply v1 search
//! scores them within 3 discs. Each is played twice with colours swapped.
//! Prints wins, draws, losses and the mean disc difference for A, and each
//! player's share of the thinking time.

use clap::Parser;
use othello::board::{Bits, S8};
use othello::engine::{Engine, Limits, Strategy};
use othello::eval::Evaluator;
use othello::notation::parse_transcript;
use othello::rng::Rng;
use othello_tools::args::evaluator;

type Position = othello::Position<S8>;
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// A match between two evaluations at equal fixed search depth: A is the
/// trained pattern evaluation (--weights FILE, else the weights built into
/// the library), B is evaluation v1 or other trained weights (--b-weights).
/// Balanced openings, each played twice with colours swapped; prints wins,
/// draws, losses and the mean disc difference for A.
#[derive(Parser)]
#[command(name = "othello-evalmatch", args_override_self = true)]
struct Cli {
    /// Games to play (rounded up to pairs of colour-swapped games).
    #[arg(long, value_name = "N", default_value_t = 200)]
    games: usize,
    /// Search depth of both players, in plies.
    #[arg(long, value_name = "D", default_value_t = 4)]
    depth: u32,
    /// Solve exactly at this many empties or fewer (0 = never).
    #[arg(long, value_name = "E", default_value_t = 0)]
    exact: u32,
    /// Plies of the random openings (kept when a 6-ply v1 search scores
    /// them within 3 discs).
    #[arg(long, value_name = "P", default_value_t = 8)]
    plies: usize,
    /// Seed of the random openings.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Threads; all cores by default.
    #[arg(long, value_name = "N", default_value_t = std::thread::available_parallelism().map_or(1, |n| n.get()))]
    threads: usize,
    /// Weights file of player A; the library's built-in weights by default.
    #[arg(long, value_name = "FILE")]
    weights: Option<String>,
    /// Weights file of player B (`builtin`: the library's); evaluation v1
    /// by default.
    #[arg(long, value_name = "FILE")]
    b_weights: Option<String>,
    /// Both play this level (instead of --depth and --exact).
    #[arg(long, value_name = "N")]
    level: Option<u32>,
    /// Time limit per move in milliseconds (0: none).
    #[arg(long, value_name = "MS", default_value_t = 0)]
    time_ms: u64,
    /// Selectivity of A (0..5, 5 = none); the level's by default.
    #[arg(long, value_name = "S")]
    a_selectivity: Option<u32>,
    /// Selectivity of B (0..5, 5 = none); the level's by default.
    #[arg(long, value_name = "S")]
    b_selectivity: Option<u32>,
    /// B plays the 1986 program's strategy with this lookahead (0..9)
    /// instead of the engine.
    #[arg(long, value_name = "N")]
    b_classic: Option<u32>,
    /// Openings file: one opening per line (as ../shared/games/xot.txt).
    #[arg(long, value_name = "FILE")]
    xot: Option<String>,
}

/// Balanced openings: random sequences a 6-ply v1 search finds even.
fn openings(count: usize, plies: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut engine = Engine::new(8);
    let mut limits = Limits::level(6).expect("level 6 exists");
    limits.exact_empties = 0;
    limits.wld_empties = 0;
    limits.book = false;
    let stop = AtomicBool::new(false);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = Position::start();
        for _ in 0..plies {
            let moves: Vec<u32> = pos.legal_moves().squares().collect();
            if moves.is_empty() {
                break;
            }
            let sq = moves[rng.below(moves.len())];
            pos = pos.play_with(sq, pos.flips(sq));
        }
        if pos.legal_moves().is_zero() || !seen.insert(pos) {
            continue;
        }
        engine.clear();
        let r = engine
            .search(pos, &limits, &stop, &mut |_| {})
            .expect("a position with moves");
        if r.score.abs() <= 300 {
            out.push(pos);
        }
    }
    out
}

/// `count` openings of an XOT-style file, a seeded sample without repeats.
fn xot_openings(path: &str, count: usize, seed: u64) -> Vec<Position> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut all: Vec<Position> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            parse_transcript::<S8>(l.trim())
                .unwrap_or_else(|e| panic!("{path}: {e}"))
                .position()
        })
        .collect();
    let mut rng = Rng::new(seed);
    // A partial Fisher-Yates shuffle: the first `count` are the sample.
    let count = count.min(all.len());
    for i in 0..count {
        let j = i + rng.below(all.len() - i);
        all.swap(i, j);
    }
    all.truncate(count);
    all
}

/// Plays one game from `pos` (`first` moves first, with `limits.0`, the
/// second with `limits.1`); returns the final disc difference for `first`
/// and the two players' thinking times.
fn play(
    pos: Position,
    first: &mut Engine,
    second: &mut Engine,
    limits: (&Limits, &Limits),
) -> (i32, [f64; 2]) {
    let mut time = [0.0; 2];
    first.clear();
    second.clear();
    let stop = AtomicBool::new(false);
    let mut pos = pos;
    let mut first_to_move = true;
    loop {
        if pos.legal_moves().is_zero() {
            if pos.opponent_moves().is_zero() {
                let s = pos.final_score();
                return (if first_to_move { s } else { -s }, time);
            }
            pos = pos.pass();
            first_to_move = !first_to_move;
            continue;
        }
        let (engine, limits, clock) = if first_to_move {
            (&mut *first, limits.0, &mut time[0])
        } else {
            (&mut *second, limits.1, &mut time[1])
        };
        let r = engine
            .search(pos, limits, &stop, &mut |_| {})
            .expect("a position with moves");
        *clock += r.elapsed.as_secs_f64();
        let sq = r.best.expect("a move");
        pos = pos.play_with(sq, pos.flips(sq));
        first_to_move = !first_to_move;
    }
}

fn main() {
    let cli = Cli::parse();
    let (games, depth, exact, plies, seed, threads) = (
        cli.games,
        cli.depth,
        cli.exact,
        cli.plies,
        cli.seed,
        cli.threads,
    );
    let a_eval = cli
        .weights
        .as_deref()
        .map_or_else(Evaluator::trained, evaluator);
    let b_eval = cli.b_weights.as_deref().map_or(Evaluator::V1, evaluator);
    let pairs = games.div_ceil(2);
    let start = std::time::Instant::now();
    let list = match &cli.xot {
        Some(path) => xot_openings(path, pairs, seed),
        None => openings(pairs, plies, seed),
    };
    let pairs = list.len();
    let mut limits = match cli.level {
        Some(n) => Limits::level(n).unwrap_or_else(|e| panic!("{e}")),
        None => Limits::explicit(depth.into(), exact.into(), exact.into())
            .unwrap_or_else(|e| panic!("{e}")),
    };
    if cli.time_ms > 0 {
        limits.time = Some(std::time::Duration::from_millis(cli.time_ms));
    }
    // Both sides search every move: the match compares evaluations and
    // selectivities, which one shared opening book would hide.
    limits.book = false;
    let with = |s: Option<u32>| Limits {
        selectivity: s.unwrap_or(limits.selectivity),
        ..limits
    };
    let (a_limits, mut b_limits) = (with(cli.a_selectivity), with(cli.b_selectivity));
    if let Some(n) = cli.b_classic {
        b_limits.strategy = Strategy::Classic(n);
    }
    for l in [&a_limits, &b_limits] {
        l.validate().unwrap_or_else(|e| panic!("{e}"));
    }
    let next = AtomicUsize::new(0);
    // Per game: disc difference for A.
    let results = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                let mut a = Engine::new(16);
                a.set_evaluator(a_eval.clone());
                let mut b = Engine::new(16);
                b.set_evaluator(b_eval.clone());
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= 2 * pairs {
                        break;
                    }
                    let pos = list[i / 2];
                    let (diff, time) = if i.is_multiple_of(2) {
                        play(pos, &mut a, &mut b, (&a_limits, &b_limits))
                    } else {
                        let (d, [tb, ta]) = play(pos, &mut b, &mut a, (&b_limits, &a_limits));
                        (-d, [ta, tb])
                    };
                    results
                        .lock()
                        .expect("no poisoned lock")
                        .push((i, diff, time));
                }
            });
        }
    });
    let results = results.into_inner().expect("no poisoned lock");
    let wins = results.iter().filter(|r| r.1 > 0).count();
    let draws = results.iter().filter(|r| r.1 == 0).count();
    let losses = results.len() - wins - draws;
    let mean = results.iter().map(|r| r.1 as f64).sum::<f64>() / results.len() as f64;
    let score = (wins as f64 + draws as f64 / 2.0) / results.len() as f64;
    let (ta, tb) = results
        .iter()
        .fold((0.0, 0.0), |(a, b), r| (a + r.2[0], b + r.2[1]));
    let what = match cli.level {
        Some(n) => format!("level {n}"),
        None => format!("depth {depth}, exact at {exact} empties"),
    };
    let from = match &cli.xot {
        Some(_) => "XOT".to_string(),
        None => format!("balanced {plies}-ply"),
    };
    println!(
        "A ({}, selectivity {}) vs B ({}, selectivity {}), {what}{}, {} games from {pairs} \
         {from} openings, colours swapped: A wins {wins}, draws {draws}, loses {losses} \
         ({:.1}%), mean disc difference {mean:+.2} for A; thinking time A {ta:.1} s, \
         B {tb:.1} s; {:.0} s",
        name(&a_eval),
        a_limits.selectivity,
        match cli.b_classic {
            Some(n) => format!("classic {n}"),
            None => name(&b_eval).to_string(),
        },
        b_limits.selectivity,
        if cli.time_ms > 0 {
            format!(", {} ms a move", cli.time_ms)
        } else {
            String::new()
        },
        results.len(),
        100.0 * score,
        start.elapsed().as_secs_f64()
    );
}

fn name(e: &Evaluator) -> &'static str {
    match e {
        Evaluator::V1 => "v1",
        Evaluator::Pattern(_) => "trained",
    }
}
