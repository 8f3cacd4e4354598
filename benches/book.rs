//! Opening book benchmark: `cargo bench --bench book -- [POSITIONS]`
//! (default 2000). Loads the built-in book (timed once), then asks a fresh
//! engine at level 20 for a move in POSITIONS of its positions, each in a
//! random one of its 8 orientations, and prints the time per move: the
//! whole search call, book lookup, move choice and line included. The
//! issue's target is under 1 ms a move.

use othello::book::{transform, Book};
use othello::engine::{Engine, Limits};
use othello::rng::Rng;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

type Position = othello::Position<othello::board::S8>;

fn main() {
    let count: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(2000);
    let t = Instant::now();
    let book = Book::builtin();
    let load = t.elapsed();
    let entries = book.entries();
    let mut rng = Rng::new(1);
    let positions: Vec<Position> = (0..count)
        .map(|_| {
            let ((p, o), _) = entries[rng.below(entries.len())];
            let k = rng.below(8);
            Position::new(transform(p, k), transform(o, k))
        })
        .collect();
    let mut engine = Engine::new(1);
    let stop = AtomicBool::new(false);
    let mut limits = Limits::level(20).unwrap();
    limits.randomness = 2;
    let (mut slowest, mut from_book) = (0f64, 0);
    let t = Instant::now();
    for (i, &pos) in positions.iter().enumerate() {
        limits.seed = i as u64;
        let one = Instant::now();
        let r = engine.search(pos, &limits, &stop, &mut |_| {}).unwrap();
        slowest = slowest.max(one.elapsed().as_secs_f64());
        from_book += r.from_book as usize;
    }
    let per = t.elapsed().as_secs_f64() / count as f64;
    println!(
        "book: {} positions, loaded in {:.1} ms; {count} book moves ({from_book} from the book): {:.1} us each, slowest {:.1} us",
        book.len(),
        load.as_secs_f64() * 1e3,
        per * 1e6,
        slowest * 1e6
    );
    assert_eq!(from_book, count, "every position is in the book");
}
