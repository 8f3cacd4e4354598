//! Perft benchmark: `cargo bench --bench perft -- [DEPTH]` (default 11).
//! Prints depth, leaves, time and leaves per second for the start position.

use othello::perft::perft;
use othello::Position;
use std::time::Instant;

fn main() {
    let depth: u32 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(11);
    let start = Instant::now();
    let leaves = perft(Position::start(), depth);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "perft({depth}) = {leaves} leaves in {secs:.3} s ({:.1} M leaves/s)",
        leaves as f64 / secs / 1e6
    );
}
