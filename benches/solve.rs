//! Exact solver over an `.obf` file: `cargo bench --bench solve -- FILE [HASH_MB]
//! [--threads N] [--weights FILE]` (`OTHELLO_EVAL=v1` or `trained` chooses the
//! evaluation ordering the moves, `--weights` a trained weights file;
//! `--threads` the search's threads, 1 by default).
//! Per position: best move, score, whether it matches the file's best score,
//! time, nodes and nodes/s; then totals.
//!
//! `cargo bench --bench solve -- --random COUNT EMPTIES SEED [HASH_MB]`
//! solves `COUNT` positions of random games (uniform legal moves from the
//! start, seeded) at `EMPTIES` empties instead of a file, and prints each as
//! an `.obf` line with its score (`obf: ...`), so that another build can
//! solve the same file.
//!
//! `cargo bench --bench solve -- --size N [HASH_MB]` instead solves the start
//! position of the NxN board (4 or 6: bigger boards take far too long) and
//! prints the perfect-play result, the best move, time and nodes.

mod common;

use othello::board::S8;
use othello::board::{Bits, Position};
use othello::engine::{Engine, Limits};
use othello::game::Game;
use othello::notation::{board_string, square_name};
use othello::obf;
use othello::rng::Rng;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// A position to solve: its game, and the file's best score if it has one.
type Solve = (Game<S8>, Option<i32>);

fn main() {
    let mut args = common::args();
    let threads = common::take_number(&mut args, "--threads", 1) as u32;
    let evaluator = common::take_evaluator(&mut args);
    if let Some(i) = args.iter().position(|a| a == "--size") {
        let size: i64 = args
            .get(i + 1)
            .and_then(|a| a.parse().ok())
            .expect("--size N");
        let mb: usize = args.get(i + 2).and_then(|a| a.parse().ok()).unwrap_or(64);
        solve_start(size, mb);
        return;
    }
    let (positions, mb): (Vec<Solve>, Option<&String>) =
        match args.iter().position(|a| a == "--random") {
            Some(i) => {
                let n: Vec<u64> = args[i + 1..]
                    .iter()
                    .take(3)
                    .map(|a| a.parse().expect("--random COUNT EMPTIES SEED"))
                    .collect();
                let games = random_games(n[0] as usize, n[1] as u32, n[2]);
                (
                    games.into_iter().map(|g| (g, None)).collect(),
                    args.get(i + 4),
                )
            }
            None => {
                let file = args
                    .first()
                    .cloned()
                    .unwrap_or_else(|| "../shared/positions/fforum-20-39.obf".into());
                let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
                (obf_games(&file, &text), args.get(1))
            }
        };
    let mb: usize = mb.and_then(|a| a.parse().ok()).unwrap_or(64);
    let stop = AtomicBool::new(false);
    let mut engine = Engine::new(mb);
    if let Some(e) = evaluator {
        engine.set_evaluator(e);
    }
    println!("evaluation: {:?}", engine.evaluator());
    let mut limits = Limits::level(0).expect("level 0 exists");
    limits.depth = 10;
    limits.exact_empties = 60;
    limits.threads = threads;
    println!("threads: {threads}");
    let (mut total_nodes, mut total_secs, mut right, mut count) = (0u64, 0f64, 0, 0);
    for (i, (game, expected)) in positions.iter().enumerate() {
        engine.clear();
        let start = Instant::now();
        let r = engine
            .search(game.position(), &limits, &stop, &mut |_| {})
            .expect("a position with moves");
        let (mv, score, nodes) = (r.best, r.score / 100, r.nodes);
        let secs = start.elapsed().as_secs_f64();
        let ok = expected.is_none_or(|e| score == e);
        right += ok as u32;
        count += 1;
        total_nodes += nodes;
        total_secs += secs;
        let name = mv
            .map(|s| square_name(8, s))
            .unwrap_or_else(|| "pass".into());
        if expected.is_none() {
            println!(
                "obf: {}; {}:{score:+};",
                board_string(game),
                name.to_uppercase()
            );
        }
        println!(
            "#{:<3} {:>4} {:+4} (file {}) {} {:8.3} s {:>12} nodes {:6.2} Mn/s",
            i + 1,
            name,
            score,
            expected.map_or("  - ".into(), |e| format!("{e:+4}")),
            if expected.is_none() {
                "-  "
            } else if ok {
                "ok "
            } else {
                "BAD"
            },
            secs,
            nodes,
            nodes as f64 / secs / 1e6
        );
    }
    println!(
        "total: {right}/{count} right, {total_secs:.3} s, {total_nodes} nodes, {:.2} Mn/s",
        total_nodes as f64 / total_secs / 1e6
    );
}

/// Solves the start position of the `size`x`size` board exactly.
fn solve_start(size: i64, mb: usize) {
    let game = othello::any::new_game(size).expect("an even size 4..16");
    let stop = AtomicBool::new(false);
    let mut engine = Engine::new(mb);
    let mut limits = Limits::level(0).expect("level 0 exists");
    limits.depth = 10;
    limits.exact_empties = 60;
    let start = Instant::now();
    let r = game
        .search(&mut engine, &limits, &stop, &mut |_| {})
        .expect("the start has moves");
    let secs = start.elapsed().as_secs_f64();
    let score = r.score / 100;
    let name = |sq: &u32| square_name(size as u32, *sq);
    println!(
        "{size}x{size} start ({} empties): exact score {score:+} for black ({}), \
         best move {}, pv {}",
        size * size - 4,
        match score.signum() {
            1 => "black wins",
            -1 => "white wins",
            _ => "a draw",
        },
        r.best.as_ref().map(name).unwrap_or_else(|| "pass".into()),
        r.pv.iter().map(name).collect::<Vec<_>>().join(""),
    );
    println!(
        "solved in {secs:.3} s, {} nodes ({:.2} Mn/s), {mb} MiB table",
        r.nodes,
        r.nodes as f64 / secs / 1e6
    );
}

/// The positions of an `.obf` text (from `file`) with their best scores.
fn obf_games(file: &str, text: &str) -> Vec<Solve> {
    obf::parse::<S8>(text)
        .unwrap_or_else(|e| panic!("{file}:{e}"))
        .into_iter()
        .map(|line| {
            let (_, best) = line
                .best()
                .unwrap_or_else(|| panic!("{file}: a position without its best score"));
            (line.game(), Some(best))
        })
        .collect()
}

/// `count` boards of random games at `empties` empties with the side to
/// move having a move (games that end or pass there are skipped).
fn random_games(count: usize, empties: u32, seed: u64) -> Vec<Game<S8>> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut game = Game::<S8>::new();
        while game.position().empties().count() > empties && !game.position().is_game_over() {
            let moves: Vec<u32> = game.position().legal_moves().squares().collect();
            if moves.is_empty() {
                game.pass().expect("a pass when there is no move");
            } else {
                game.play(moves[rng.below(moves.len())])
                    .expect("a legal move");
            }
        }
        let pos: Position<S8> = game.position();
        if pos.empties().count() == empties && !pos.legal_moves().is_zero() {
            out.push(game);
        }
    }
    out
}
