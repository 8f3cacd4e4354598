//! Perft benchmark: `cargo bench --bench perft -- [DEPTH] [SIZE] [--portable]`
//! (defaults: depth 11, size 8). Prints depth, leaves, time and leaves per
//! second from the start position of the `SIZE`x`SIZE` board (the even sizes
//! 4..16). `--portable` runs the copy of the recursion compiled for the
//! build's target even on a CPU where the x86-64-v3 copy runs by default;
//! alternate runs with and without it to compare the two.

use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let numbers: Vec<u32> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let depth = numbers.first().copied().unwrap_or(11);
    let size = numbers.get(1).copied().unwrap_or(8);
    let portable = args.iter().any(|a| a == "--portable");
    let start = Instant::now();
    let leaves = if portable {
        othello::any::perft_start_portable(size.into(), depth)
    } else {
        othello::any::perft_start(size.into(), depth)
    }
    .unwrap_or_else(|| panic!("size {size}: the sizes are the even numbers 4..16"));
    let secs = start.elapsed().as_secs_f64();
    let board = if size == 8 {
        String::new()
    } else {
        format!(" on {size}x{size}")
    };
    let copy = if portable { " (portable)" } else { "" };
    println!(
        "perft({depth}){board}{copy} = {leaves} leaves in {secs:.3} s ({:.1} M leaves/s)",
        leaves as f64 / secs / 1e6
    );
}
