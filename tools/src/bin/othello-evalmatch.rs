//! A match between two evaluations (and selectivities) at equal limits.
//!
//! ```text
//! cargo run --release -p othello-tools --bin othello-evalmatch -- \
//!     [--games 200] [--depth 4] [--exact 0] | [--level N] [--time-ms T] \
//!     [--xot FILE | --plies 8] [--seed 1] [--threads N] \
//!     [--weights FILE] [--b-weights FILE|v1] [--a-selectivity S] [--b-selectivity S]
//!     [--b-classic N] [--a-randomness R] [--b-randomness R] [--record FILE]
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
//!
//! `--record FILE` appends every game, opening included, to FILE in the
//! games format of `../shared/games` (`f5d6c3... +12`, black's result), so
//! that matches against weak or randomised players make training positions
//! unlike those of tournament games (`othello-label --games FILE`). With
//! `--a-randomness`/`--b-randomness` a player picks among the moves within
//! that many discs of its best, seeded by the game, so repeated openings
//! still give different games.

use clap::Parser;
use othello::board::{Bits, S8};
use othello::engine::{Engine, Limits, Strategy};
use othello::eval::Evaluator;
use othello::game::Game;
use othello::notation::transcript;
use othello::rng::Rng;
use othello::Color;
use othello_tools::args::evaluator;
use othello_tools::games::sample_openings;

use std::collections::HashSet;
use std::io::Write;
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
    /// A picks among its moves within this many discs of its best (0..64).
    #[arg(long, value_name = "R", default_value_t = 0)]
    a_randomness: u32,
    /// The same for B (a classic B breaks its ties at random when > 0).
    #[arg(long, value_name = "R", default_value_t = 0)]
    b_randomness: u32,
    /// Append every game (opening included) to this file, one line each in
    /// the games format: moves, then black's final disc difference.
    #[arg(long, value_name = "FILE")]
    record: Option<String>,
    /// Openings file: one opening per line (as ../shared/games/xot.txt).
    #[arg(long, value_name = "FILE")]
    xot: Option<String>,
}

/// Balanced openings: random sequences a 6-ply v1 search finds even.
fn openings(count: usize, plies: usize, seed: u64) -> Vec<Game<S8>> {
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
        let mut game = Game::<S8>::new();
        for _ in 0..plies {
            let moves: Vec<u32> = game.legal_moves().squares().collect();
            if moves.is_empty() {
                break;
            }
            game.play(moves[rng.below(moves.len())])
                .expect("a legal move");
        }
        let pos = game.position();
        if pos.legal_moves().is_zero() || !seen.insert(pos) {
            continue;
        }
        engine.clear();
        let r = engine
            .search(pos, &limits, &stop, &mut |_| {})
            .expect("a position with moves");
        if r.score.abs() <= 300 {
            out.push(game);
        }
    }
    out
}

/// Plays one game on from `game` (`first` moves first, with `limits.0`, the
/// second with `limits.1`); returns the final disc difference for `first`,
/// the two players' thinking times and the game played out.
fn play(
    game: &Game<S8>,
    first: &mut Engine,
    second: &mut Engine,
    limits: (&Limits, &Limits),
) -> (i32, [f64; 2], Game<S8>) {
    let mut time = [0.0; 2];
    first.clear();
    second.clear();
    let stop = AtomicBool::new(false);
    let mut game = game.clone();
    let mut first_to_move = true;
    loop {
        let pos = game.position();
        if pos.legal_moves().is_zero() {
            if pos.opponent_moves().is_zero() {
                let s = pos.final_score();
                return (if first_to_move { s } else { -s }, time, game);
            }
            game.pass().expect("a side without moves passes");
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
        game.play(r.best.expect("a move")).expect("a legal move");
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
        Some(path) => sample_openings(path, pairs, seed).unwrap_or_else(|e| panic!("{e}")),
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
    // A side's selectivity, when given, holds at a fixed depth and by time.
    let with = |s: Option<u32>, randomness: u32| Limits {
        selectivity: s.unwrap_or(limits.selectivity),
        timed_selectivity: s.unwrap_or(limits.timed_selectivity),
        randomness,
        ..limits
    };
    let (a_limits, mut b_limits) = (
        with(cli.a_selectivity, cli.a_randomness),
        with(cli.b_selectivity, cli.b_randomness),
    );
    if let Some(n) = cli.b_classic {
        b_limits.strategy = Strategy::Classic(n);
    }
    for l in [&a_limits, &b_limits] {
        l.validate().unwrap_or_else(|e| panic!("{e}"));
    }
    let record = cli.record.as_deref().map(|path| {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        Mutex::new(std::io::BufWriter::new(file))
    });
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
                    let opening = &list[i / 2];
                    // Each game its own seed: randomised players vary.
                    let seeded = |l: &Limits| Limits {
                        seed: seed ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
                        ..*l
                    };
                    let (al, bl) = (seeded(&a_limits), seeded(&b_limits));
                    let (diff, time, game) = if i.is_multiple_of(2) {
                        play(opening, &mut a, &mut b, (&al, &bl))
                    } else {
                        let (d, [tb, ta], g) = play(opening, &mut b, &mut a, (&bl, &al));
                        (-d, [ta, tb], g)
                    };
                    if let Some(out) = &record {
                        let line = record_line(&game);
                        let mut out = out.lock().expect("no poisoned lock");
                        out.write_all(line.as_bytes())
                            .and_then(|()| out.flush())
                            .unwrap_or_else(|e| panic!("--record: {e}"));
                    }
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

/// A finished game as a line of the games format: its moves from the
/// start, then black's final disc difference (empties to the winner).
fn record_line(game: &Game<S8>) -> String {
    let s = game.position().final_score();
    let black = match game.side_to_move() {
        Color::Black => s,
        Color::White => -s,
    };
    format!("{} {black:+}\n", transcript(game))
}

fn name(e: &Evaluator) -> &'static str {
    match e {
        Evaluator::V1 => "v1",
        Evaluator::Pattern(_) => "trained",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello::notation::parse_transcript;
    use othello_tools::games::parse_line;

    #[test]
    fn recorded_games_replay_to_their_result() {
        let xot = parse_transcript::<S8>("f5f6e6f4g5e7e3c5").expect("an opening");
        let mut a = Engine::new(1);
        let mut b = Engine::new(1);
        let engine = Limits::explicit(2, 8, 8).expect("valid limits");
        let classic = Limits {
            strategy: Strategy::Classic(1),
            ..engine
        };
        for first_is_engine in [true, false] {
            let limits = if first_is_engine {
                (&engine, &classic)
            } else {
                (&classic, &engine)
            };
            let (diff, _, game) = play(&xot, &mut a, &mut b, limits);
            assert!(game.is_game_over());
            let line = record_line(&game);
            let replayed = parse_line(line.trim_end()).expect("a games-format line");
            assert_eq!(replayed.game.position(), game.position());
            // The opening has 8 plies: black moves first after it.
            assert_eq!(replayed.result, diff, "{line}");
            assert!(line.starts_with("f5f6e6f4g5e7e3c5"));
        }
    }
}
