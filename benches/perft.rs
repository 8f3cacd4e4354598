//! Perft benchmark: `cargo bench --bench perft -- [DEPTH] [SIZE] [--generic]`
//! (defaults: depth 11, size 8). Prints depth, leaves, time and leaves per
//! second from the start position. Size 8 runs the dedicated 8x8 code; the
//! other even sizes 4..16 (and 8 with `--generic`) the generic code of
//! `othello::sized`.

use othello::perft::perft;
use othello::Position;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let numbers: Vec<u32> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let depth = numbers.first().copied().unwrap_or(11);
    let size = numbers.get(1).copied().unwrap_or(8);
    let generic = args.iter().any(|a| a == "--generic");
    let start = Instant::now();
    let leaves = if size == 8 && !generic {
        perft(Position::start(), depth)
    } else {
        othello::sized::perft_start(size.into(), depth)
            .unwrap_or_else(|| panic!("size {size}: the sizes are the even numbers 4..16"))
    };
    let secs = start.elapsed().as_secs_f64();
    let board = if size == 8 && !generic {
        String::new()
    } else {
        format!(
            " on {size}x{size}{}",
            if generic { " (generic)" } else { "" }
        )
    };
    println!(
        "perft({depth}){board} = {leaves} leaves in {secs:.3} s ({:.1} M leaves/s)",
        leaves as f64 / secs / 1e6
    );
}
