//! Evaluation benchmark: `cargo bench --bench eval -- [ROUNDS]` (default 2000).
//! Collects the positions of random games (a few thousand, every phase), then
//! evaluates all of them ROUNDS times and prints evaluations per second.

use othello::board::{Bits, S8};
use othello::eval::pattern::PatternWeights;
use othello::eval::{Evaluate, V1};
use othello::rng::Rng;
use std::hint::black_box;
use std::time::Instant;

type Position = othello::Position<S8>;

/// Evaluation v1 of the 8x8 board.
fn evaluate(p: u64, o: u64) -> i32 {
    Evaluate::<S8>::evaluate(&V1, p, o)
}

fn main() {
    let rounds: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(2000);
    let positions = random_positions(64);
    // The first call builds the edge table: keep it out of the timing.
    let first = Position::start();
    let mut checksum = evaluate(first.player, first.opponent) as i64;
    let start = Instant::now();
    for _ in 0..rounds {
        for &pos in &positions {
            let pos = black_box(pos);
            checksum += evaluate(pos.player, pos.opponent) as i64;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let n = (rounds * positions.len()) as f64;
    #[cfg(target_arch = "x86_64")]
    println!(
        "CPU has AVX2, BMI2 and POPCNT (evaluate runs its copy compiled for them): {}",
        std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("popcnt")
    );
    println!(
        "{} positions x {rounds} rounds: {n:.0} evaluations in {secs:.3} s \
         ({:.1} M evaluations/s, {:.1} ns each; checksum {checksum})",
        positions.len(),
        n / secs / 1e6,
        secs / n * 1e9
    );
    // The trained pattern evaluation (embedded weights) on the same positions.
    let weights = PatternWeights::embedded();
    let start = Instant::now();
    for _ in 0..rounds {
        for &pos in &positions {
            checksum += weights.evaluate(black_box(pos)) as i64;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "trained pattern evaluation: {n:.0} evaluations in {secs:.3} s \
         ({:.1} M evaluations/s, {:.1} ns each; checksum {checksum})",
        n / secs / 1e6,
        secs / n * 1e9
    );
}

/// Every position of `games` random games from the start, passes included.
fn random_positions(games: usize) -> Vec<Position> {
    let mut rng = Rng::new(2024);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::start();
        loop {
            out.push(pos);
            let moves = pos.legal_moves();
            if moves.is_zero() {
                if pos.opponent_moves().is_zero() {
                    break;
                }
                pos = pos.pass();
                continue;
            }
            let pick = rng.below(moves.count() as usize);
            let sq = pos.legal_moves().squares().nth(pick).expect("a legal move");
            pos = pos.play(sq).expect("a legal move plays");
        }
    }
    out
}
