//! How promptly pondering ends, and what a hit saves:
//! `cargo bench --bench ponder -- [FILE] [--positions N] [--threads N]`
//! (defaults `benches/data/wthor-40.obf`, 40 positions, 1 thread).
//!
//! For each position (the side to move is the opponent, who is thinking):
//! 1. **Stop.** The engine ponders as on a game clock of an hour (level
//!    60, so the pondering would run for minutes), for 10 to 100 ms, then
//!    the next call ends it: the time from the request to the engine being
//!    free again is printed, with its median and maximum over the
//!    positions.
//! 2. **Hit at a fixed level.** Level 10 pondered to its end, then the
//!    search of the expected position: its time against the same search
//!    from a cleared table (the pondered one answers at once).
//!
//! Times only; node counts of the searches are in the per-position lines.

mod common;

use othello::board::S8;
use othello::engine::{Clock, Engine, Limits};
use othello::obf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn main() {
    let mut args = common::args();
    let mut option = |name: &str, default: u64| common::take_number(&mut args, name, default);
    let count = option("--positions", 40) as usize;
    let threads = option("--threads", 1) as u32;
    let file = args.first().cloned().unwrap_or_else(|| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/benches/data/wthor-40.obf").into()
    });
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
    let lines = obf::parse::<S8>(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
    let positions: Vec<_> = lines
        .iter()
        .map(|l| l.position)
        .filter(|p| p.legal_moves() != 0)
        .take(count)
        .collect();

    let mut long = Limits::level(60).unwrap();
    long.threads = threads;
    long.clock = Some(Clock {
        remaining: Duration::from_secs(3600),
        increment: Duration::ZERO,
    });
    let mut fixed = Limits::level(10).unwrap();
    fixed.threads = threads;
    fixed.book = false;
    let stop = AtomicBool::new(false);
    let mut engine = Engine::new(64);
    let mut fresh = Engine::new(64);
    let (mut stops, mut hit_time, mut cold_time) = (Vec::new(), Duration::ZERO, Duration::ZERO);
    for (i, &after) in positions.iter().enumerate() {
        engine.clear();
        engine.ponder(after, &long).expect("a position to ponder");
        std::thread::sleep(Duration::from_millis(10 + (i as u64 * 37) % 91));
        let asked = Instant::now();
        engine.stop_pondering();
        let took = asked.elapsed();
        stops.push(took);

        engine.clear();
        let reply = engine.ponder(after, &fixed).unwrap();
        let expected = match reply {
            Some(sq) => after.play(sq).unwrap(),
            None => after.pass(),
        };
        let waited = Instant::now();
        while !engine.ponder_finished() && waited.elapsed() < Duration::from_secs(120) {
            std::thread::sleep(Duration::from_millis(1));
        }
        let t = Instant::now();
        let hit = engine.search(expected, &fixed, &stop, &mut |_| {}).unwrap();
        let hit_took = t.elapsed();
        fresh.clear();
        let t = Instant::now();
        let cold = fresh.search(expected, &fixed, &stop, &mut |_| {}).unwrap();
        let cold_took = t.elapsed();
        hit_time += hit_took;
        cold_time += cold_took;
        println!(
            "{i:3}: stop {:7.3} ms; hit {:8.3} ms ({} nodes pondered), cold {:8.3} ms ({} nodes)",
            took.as_secs_f64() * 1e3,
            hit_took.as_secs_f64() * 1e3,
            hit.nodes,
            cold_took.as_secs_f64() * 1e3,
            cold.nodes
        );
    }
    stops.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "stop: median {:.3} ms, max {:.3} ms over {} ponders ({} thread(s))",
        ms(stops[stops.len() / 2]),
        ms(*stops.last().unwrap()),
        stops.len(),
        threads
    );
    println!(
        "level 10 after a pondered hit: {:.3} s in all, against {:.3} s from a cleared table",
        hit_time.as_secs_f64(),
        cold_time.as_secs_f64()
    );
}
