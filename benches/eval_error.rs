//! Evaluation error against exact scores:
//! `cargo bench --bench eval_error -- [POSITIONS] [MIN_EMPTIES] [MAX_EMPTIES] [SEED]`
//! (defaults 100, 20, 24, 1).
//!
//! Plays seeded games (random first moves, then the engine at level 4 with
//! a little randomness, so the positions are balanced-looking rather than
//! lopsided), takes one position of each game at a random number of empties
//! within the range, solves it exactly, and prints the mean absolute error
//! in discs of the trained and the v1 evaluation (the static evaluation, no
//! search) against the exact score, by number of empties and in all.

use othello::board::{Bits, S8};
use othello::engine::{Engine, Limits};
use othello::eval::pattern::PatternWeights;
use othello::eval::{Evaluate, Evaluator};
use othello::rng::Rng;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

type Position = othello::Position<S8>;

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let count = args.first().copied().unwrap_or(100) as usize;
    let lo = args.get(1).copied().unwrap_or(20) as u32;
    let hi = args.get(2).copied().unwrap_or(24).max(lo as u64) as u32;
    let seed = args.get(3).copied().unwrap_or(1);
    let mut rng = Rng::new(seed);
    let stop = AtomicBool::new(false);
    let mut player = Engine::new(16);
    let mut solver = Engine::new(64);
    let trained = PatternWeights::embedded();
    let mut play = Limits::level(4).expect("level 4");
    play.randomness = 2;
    let mut exact = Limits::level(0).expect("level 0");
    exact.depth = 10;
    exact.exact_empties = 60;
    // Per number of empties: positions, trained error sum, v1 error sum.
    let mut rows = vec![(0u32, 0f64, 0f64); 61];
    let start = Instant::now();
    let mut done = 0;
    while done < count {
        let target = lo + rng.below((hi - lo + 1) as usize) as u32;
        let Some(pos) = game_position(&mut rng, &mut player, &mut play, target, &stop) else {
            continue;
        };
        solver.clear();
        let r = solver
            .search(pos, &exact, &stop, &mut |_| {})
            .expect("a position with moves");
        assert!(r.exact, "the solve finished");
        let score = r.score as f64 / 100.0;
        let t = trained.evaluate(pos) as f64 / 100.0;
        let v = Evaluate::<S8>::evaluate(&Evaluator::V1, pos.player, pos.opponent) as f64 / 100.0;
        let row = &mut rows[target as usize];
        row.0 += 1;
        row.1 += (t - score).abs();
        row.2 += (v - score).abs();
        done += 1;
    }
    println!("empties  positions  trained MAE  v1 MAE   (discs, exact scores)");
    let (mut n, mut st, mut sv) = (0, 0.0, 0.0);
    for (e, &(k, t, v)) in rows.iter().enumerate() {
        if k > 0 {
            println!("{e:7}  {k:9}  {:11.2}  {:6.2}", t / k as f64, v / k as f64);
            n += k;
            st += t;
            sv += v;
        }
    }
    println!(
        "all      {n:9}  {:11.2}  {:6.2}   ({:.0} s, seed {seed})",
        st / n as f64,
        sv / n as f64,
        start.elapsed().as_secs_f64()
    );
}

/// A position with `empties` empty squares and a move to play, from a game
/// of 6 random moves then the engine; None if the game ended or passed
/// there.
fn game_position(
    rng: &mut Rng,
    engine: &mut Engine,
    limits: &mut Limits,
    empties: u32,
    stop: &AtomicBool,
) -> Option<Position> {
    let mut pos = Position::start();
    engine.clear();
    let mut ply = 0;
    while pos.empties().count() > empties {
        let moves = pos.legal_moves();
        if moves.is_zero() {
            if pos.opponent_moves().is_zero() {
                return None;
            }
            pos = pos.pass();
            continue;
        }
        let sq = if ply < 6 {
            moves.squares().nth(rng.below(moves.count() as usize))?
        } else {
            limits.seed = rng.below(1 << 30) as u64;
            engine.search(pos, limits, stop, &mut |_| {}).ok()?.best?
        };
        pos = pos.play(sq)?;
        ply += 1;
    }
    (!pos.legal_moves().is_zero()).then_some(pos)
}
