//! Midgame search speed over an `.obf` file:
//! `cargo bench --bench midgame -- [FILE] [--depth N] [--hash MB]
//! [--selectivity S] [--weights FILE] [--threads N]` (defaults `benches/data/wthor-40.obf`
//! in the crate, depth 10, 64 MB, selectivity 5 = none; `OTHELLO_EVAL=v1` or
//! `trained` chooses the evaluation, `--weights` a trained weights file).
//!
//! Searches each position to the fixed depth, no solving (`Limits::explicit`
//! with exact and win/loss/draw empties 0: no position with a move to play
//! has 0 empties), from a cleared table, and prints per position the move,
//! the score (discs, side to move), nodes and time; then the totals: nodes,
//! seconds and nodes per second. `%` lines and anything after a `%` are
//! comments; the rest of a line after the board is ignored.

mod common;

use othello::board::S8;
use othello::engine::{Engine, Limits};
use othello::notation::square_name;
use othello::obf;
use othello::search::probcut::EXACT_SELECTIVITY;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

fn main() {
    let mut args = common::args();
    let mut option = |name: &str, default: u64| common::take_number(&mut args, name, default);
    let depth = option("--depth", 10);
    let mb = option("--hash", 64) as usize;
    let selectivity = option("--selectivity", EXACT_SELECTIVITY as u64) as u32;
    let threads = option("--threads", 1) as u32;
    let evaluator = common::take_evaluator(&mut args);
    let file = args.first().cloned().unwrap_or_else(|| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/benches/data/wthor-40.obf").into()
    });
    let mut limits = Limits::explicit(depth as i64, 0, 0).unwrap_or_else(|e| panic!("{e}"));
    limits.selectivity = selectivity;
    limits.threads = threads;
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
    let mut engine = Engine::new(mb);
    if let Some(e) = evaluator {
        engine.set_evaluator(e);
    }
    let eval = match engine.evaluator() {
        othello::eval::Evaluator::V1 => "v1",
        othello::eval::Evaluator::Pattern(_) => "trained",
    };
    println!("{file}: depth {depth}, selectivity {selectivity}, {mb} MB, evaluation {eval}");
    let stop = AtomicBool::new(false);
    let (mut total_nodes, mut total_secs, mut count) = (0u64, 0f64, 0);
    for (i, line) in text.lines().enumerate() {
        let parsed =
            obf::parse_line::<S8>(line).unwrap_or_else(|e| panic!("{file}:{}: {e}", i + 1));
        let Some(parsed) = parsed else {
            continue;
        };
        engine.clear();
        let start = Instant::now();
        let r = engine
            .search(parsed.position, &limits, &stop, &mut |_| {})
            .unwrap_or_else(|e| panic!("{file}:{}: {e}", i + 1));
        let secs = start.elapsed().as_secs_f64();
        count += 1;
        total_nodes += r.nodes;
        total_secs += secs;
        println!(
            "#{count:<3} {:>4} {:+7.2} {:>12} nodes {:8.3} s {:6.2} Mn/s",
            r.best
                .map(|s| square_name(8, s).to_uppercase())
                .unwrap_or_else(|| "pass".into()),
            r.score as f64 / 100.0,
            r.nodes,
            secs,
            r.nodes as f64 / secs / 1e6
        );
    }
    println!(
        "total: {count} positions, depth {depth}, {total_nodes} nodes, {total_secs:.3} s, \
         {:.0} nodes/s",
        total_nodes as f64 / total_secs
    );
}
