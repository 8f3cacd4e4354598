//! Exact solver over an `.obf` file: `cargo bench --bench solve -- FILE [HASH_MB]`.
//! Per position: best move, score, whether it matches the file's best score,
//! time, nodes and nodes/s; then totals.

use othello::engine::{Engine, Limits};
use othello::notation::parse_board;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let file = args
        .first()
        .cloned()
        .unwrap_or_else(|| "../shared/positions/fforum-20-39.obf".into());
    let mb: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(64);
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
    let stop = AtomicBool::new(false);
    let mut engine = Engine::new(mb);
    let mut limits = Limits::level(0).expect("level 0 exists");
    limits.depth = 10;
    limits.exact_empties = 60;
    let (mut total_nodes, mut total_secs, mut right, mut count) = (0u64, 0f64, 0, 0);
    for (i, line) in text.lines().enumerate() {
        if line.len() < 66 {
            continue;
        }
        let board = format!("{} {}", &line[..64], &line[65..66]);
        let game = parse_board(&board).expect("valid obf board");
        let expected: i32 = line
            .split(';')
            .nth(1)
            .and_then(|m| m.split(':').nth(1))
            .and_then(|s| s.trim().trim_start_matches('+').parse().ok())
            .expect("obf line lists a best score");
        engine.clear();
        let start = Instant::now();
        let r = engine
            .search(game.position(), &limits, &stop, &mut |_| {})
            .expect("a position with moves");
        let (mv, score, nodes) = (r.best, r.score / 100, r.nodes);
        let secs = start.elapsed().as_secs_f64();
        let ok = score == expected;
        right += ok as u32;
        count += 1;
        total_nodes += nodes;
        total_secs += secs;
        println!(
            "#{:<3} {:>4} {:+4} (file {:+4}) {} {:8.3} s {:>12} nodes {:6.2} Mn/s",
            i + 1,
            mv.map(|s| s.to_string()).unwrap_or_else(|| "pass".into()),
            score,
            expected,
            if ok { "ok " } else { "BAD" },
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
