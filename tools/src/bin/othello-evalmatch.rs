//! A match between two evaluations at equal fixed search depth.
//!
//! ```text
//! cargo run --release -p othello-tools --bin othello-evalmatch -- \
//!     [--games 200] [--depth 4] [--exact 0] \
//!     [--plies 8] [--seed 1] [--threads N] [--weights FILE] [--b-weights FILE]
//! ```
//!
//! Player A is the trained pattern evaluation (`--weights FILE`, else the
//! weights built into the library); player B is evaluation v1, or other
//! trained weights with `--b-weights`. Both search `depth` plies (and solve
//! exactly at `exact` empties or fewer, 0 = never) with fresh tables each
//! game. Openings: random `plies`-ply sequences (seeded) kept when a 6-ply v1
//! search scores them within 3 discs, each played twice with colours swapped.
//! Prints wins, draws, losses and the mean disc difference for A.

use othello::board::{Bits, S8};
use othello::engine::{Engine, Limits};
use othello::eval::pattern::PatternWeights;
use othello::eval::Evaluator;
use othello::rng::Rng;

type Position = othello::Position<S8>;
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

fn usage() -> ! {
    eprintln!(
        "usage: othello-evalmatch [--games N] [--depth D] [--exact E] [--plies P] [--seed S] \
         [--threads N] [--weights FILE] [--b-weights FILE]"
    );
    std::process::exit(2)
}

fn load(path: &str) -> Evaluator {
    Evaluator::Pattern(Arc::new(
        PatternWeights::load(std::path::Path::new(path)).unwrap_or_else(|e| panic!("{e}")),
    ))
}

/// Balanced openings: random sequences a 6-ply v1 search finds even.
fn openings(count: usize, plies: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut engine = Engine::new(8);
    let mut limits = Limits::level(6).expect("level 6 exists");
    limits.exact_empties = 0;
    limits.wld_empties = 0;
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

/// Plays one game from `pos`; returns the final disc difference for the
/// player who moves first in `pos` (`first`).
fn play(pos: Position, first: &mut Engine, second: &mut Engine, limits: &Limits) -> i32 {
    first.clear();
    second.clear();
    let stop = AtomicBool::new(false);
    let mut pos = pos;
    let mut first_to_move = true;
    loop {
        if pos.legal_moves().is_zero() {
            if pos.opponent_moves().is_zero() {
                let s = pos.final_score();
                return if first_to_move { s } else { -s };
            }
            pos = pos.pass();
            first_to_move = !first_to_move;
            continue;
        }
        let engine = if first_to_move {
            &mut *first
        } else {
            &mut *second
        };
        let r = engine
            .search(pos, limits, &stop, &mut |_| {})
            .expect("a position with moves");
        let sq = r.best.expect("a move");
        pos = pos.play_with(sq, pos.flips(sq));
        first_to_move = !first_to_move;
    }
}

fn main() {
    let (mut games, mut depth, mut exact, mut plies, mut seed) =
        (200usize, 4u32, 0u32, 8usize, 1u64);
    let mut threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (mut a_eval, mut b_eval) = (Evaluator::trained(), Evaluator::V1);
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().unwrap_or_else(|| usage());
        macro_rules! num {
            () => {
                value().parse().unwrap_or_else(|_| usage())
            };
        }
        match flag.as_str() {
            "--games" => games = num!(),
            "--depth" => depth = num!(),
            "--exact" => exact = num!(),
            "--plies" => plies = num!(),
            "--seed" => seed = num!(),
            "--threads" => threads = num!(),
            "--weights" => a_eval = load(&value()),
            "--b-weights" => b_eval = load(&value()),
            _ => usage(),
        }
    }
    let pairs = games.div_ceil(2);
    let start = std::time::Instant::now();
    let list = openings(pairs, plies, seed);
    let mut limits = Limits::level(0).expect("level 0 exists");
    limits.depth = depth;
    limits.exact_empties = exact;
    limits.wld_empties = exact;
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
                    let diff = if i.is_multiple_of(2) {
                        play(pos, &mut a, &mut b, &limits)
                    } else {
                        -play(pos, &mut b, &mut a, &limits)
                    };
                    results.lock().expect("no poisoned lock").push((i, diff));
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
    println!(
        "A ({}) vs B ({}), depth {depth}, exact at {exact} empties, {} games from {pairs} \
         balanced {plies}-ply openings, colours swapped: A wins {wins}, draws {draws}, \
         loses {losses} ({:.1}%), mean disc difference {mean:+.2} for A; {:.0} s",
        name(&a_eval),
        name(&b_eval),
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
