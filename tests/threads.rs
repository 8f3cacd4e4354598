//! Searches with several threads (`Limits::threads`): exact scores equal to
//! one thread's, legal moves and working limits from midgame searches, stops
//! from other threads, and several engines of several threads at once.
//! `tests/tsan.sh` runs this file with the library built under
//! ThreadSanitizer.

use othello::board::S8;
use othello::engine::{Engine, Limits};
use othello::rng::Rng;
use othello::Error;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

mod common;

use common::{assert_solved, ffo, random_position};

type Position = othello::Position<S8>;

fn exact(threads: u32) -> Limits {
    let mut l = Limits::explicit(4, 60, 60).unwrap();
    l.threads = threads;
    l
}

/// The exact score of `pos` for its side to move (centi-discs), by one
/// thread, passes and finished games included.
fn exact_value(engine: &mut Engine, pos: Position) -> i32 {
    let stop = AtomicBool::new(false);
    if pos.is_game_over() {
        return pos.final_score() * 100;
    }
    if pos.legal_moves() == 0 {
        return -exact_value(engine, pos.pass());
    }
    engine
        .search(pos, &exact(1), &stop, &mut |_| {})
        .unwrap()
        .score
}

#[test]
fn fforum_1_to_19_stay_exact_with_more_threads() {
    let stop = AtomicBool::new(false);
    for threads in [2, 3] {
        let mut engine = Engine::new(16);
        for (i, (pos, best, moves)) in ffo(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/fforum-1-19.obf"
        ))
        .into_iter()
        .enumerate()
        {
            let r = engine
                .search(pos, &exact(threads), &stop, &mut |_| {})
                .unwrap();
            let what = format!("#{} with {threads} threads", i + 1);
            assert!(!r.stopped, "{what}: stopped");
            assert_solved(&r, best, &moves, &what);
        }
    }
}

#[test]
fn exact_and_win_loss_draw_scores_equal_one_threads() {
    let stop = AtomicBool::new(false);
    let mut rng = Rng::new(11);
    let (mut one, mut many) = (Engine::new(8), Engine::new(8));
    for n in 0..24 {
        let pos = random_position(&mut rng, 40 + n % 6);
        let reference = one.search(pos, &exact(1), &stop, &mut |_| {}).unwrap();
        let threads = 2 + n as u32 % 3;
        let r = many
            .search(pos, &exact(threads), &stop, &mut |_| {})
            .unwrap();
        assert!(r.exact, "position {n}");
        assert_eq!(r.score, reference.score, "position {n}, {threads} threads");
        // The move reaches the score: its child, solved by one thread.
        let child = pos.play(r.best.unwrap()).unwrap();
        assert_eq!(
            -exact_value(&mut one, child),
            r.score,
            "position {n}: {:?}",
            r.best
        );
        // Win/loss/draw: the sign of the exact score.
        let mut wld = Limits::explicit(4, 0, 60).unwrap();
        wld.threads = threads;
        let w = many.search(pos, &wld, &stop, &mut |_| {}).unwrap();
        assert!(w.wld && !w.exact);
        assert_eq!(w.score.signum(), reference.score.signum(), "position {n}");
    }
}

#[test]
fn midgame_searches_with_threads_play_legal_moves_within_limits() {
    let stop = AtomicBool::new(false);
    let mut rng = Rng::new(5);
    let mut engine = Engine::new(8);
    for n in 0..6 {
        let pos = random_position(&mut rng, 12 + 4 * n);
        let mut limits = Limits::level(8).unwrap();
        limits.book = false;
        limits.threads = 2;
        let r = engine.search(pos, &limits, &stop, &mut |_| {}).unwrap();
        assert!(pos.legal_moves() >> r.best.unwrap() & 1 == 1);
        assert!(r.nodes > 0 && r.depth >= 1);
        // A node limit holds for all threads together, within the few
        // thousand nodes between two looks at it by each thread.
        limits.node_limit = 50_000;
        limits.depth = 30;
        let r = engine.search(pos, &limits, &stop, &mut |_| {}).unwrap();
        assert!(r.nodes < 50_000 + 2 * 8192, "{} nodes", r.nodes);
        assert!(pos.legal_moves() >> r.best.unwrap() & 1 == 1);
    }
}

#[test]
fn progress_is_reported_on_the_calling_thread() {
    let stop = AtomicBool::new(false);
    let mut engine = Engine::new(8);
    let pos = random_position(&mut Rng::new(3), 20);
    let mut limits = Limits::level(8).unwrap();
    limits.book = false;
    limits.threads = 3;
    let caller = std::thread::current().id();
    let mut calls = 0;
    engine
        .search(pos, &limits, &stop, &mut |p| {
            assert_eq!(std::thread::current().id(), caller);
            assert!(p.nodes > 0);
            calls += 1;
        })
        .unwrap();
    assert!(
        calls >= 5,
        "{calls} progress calls for the iterations 1, 2, 4, 6 and 8"
    );
}

#[test]
fn threads_out_of_range_are_refused_and_zero_is_every_core() {
    let stop = AtomicBool::new(false);
    let mut engine = Engine::new(1);
    let pos = Position::start();
    let mut limits = Limits::level(3).unwrap();
    limits.book = false;
    limits.threads = 257;
    assert!(matches!(
        engine.search(pos, &limits, &stop, &mut |_| {}),
        Err(Error::InvalidArgument(m)) if m.contains("limits.threads")
    ));
    limits.threads = 0;
    let r = engine.search(pos, &limits, &stop, &mut |_| {}).unwrap();
    assert!(pos.legal_moves() >> r.best.unwrap() & 1 == 1);
}

#[test]
fn a_stop_from_another_thread_ends_every_thread() {
    let stop = AtomicBool::new(false);
    let pos = random_position(&mut Rng::new(9), 14);
    let mut limits = Limits::level(30).unwrap();
    limits.depth = 30;
    limits.book = false;
    limits.threads = 3;
    let mut engine = Engine::new(8);
    let start = Instant::now();
    let r = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(150));
            stop.store(true, Ordering::Relaxed);
        });
        engine.search(pos, &limits, &stop, &mut |_| {}).unwrap()
    });
    assert!(r.stopped);
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    assert!(pos.legal_moves() >> r.best.unwrap() & 1 == 1);
    // The engine searches again afterwards, to the end.
    stop.store(false, Ordering::Relaxed);
    let mut l = Limits::level(4).unwrap();
    l.book = false;
    l.threads = 3;
    let r = engine.search(pos, &l, &stop, &mut |_| {}).unwrap();
    assert!(!r.stopped && r.depth == 4);
}

#[test]
fn pondering_on_several_threads_with_stops_keeps_exact_scores() {
    // An engine plays both sides of endgames, pondering on two threads
    // after each move while another thread stops the pondering at random
    // moments; every exact score is checked against a fresh one-thread
    // engine's.
    // Leaked, as in the test below: the stopper shares the engine's
    // stop flag, which TSan would see freed after the stopper is joined.
    let finished: &AtomicBool = Box::leak(Box::new(AtomicBool::new(false)));
    let engine: &mut Engine = Box::leak(Box::new(Engine::new(4)));
    let flag = engine.ponder_stop();
    let quiet = AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(move || {
            let mut rng = Rng::new(3);
            while !finished.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1 + rng.below(8) as u64));
                flag.store(true, Ordering::Relaxed);
            }
        });
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut rng = Rng::new(21);
            let mut reference = Engine::new(4);
            for game in 0..3 {
                let mut pos = random_position(&mut rng, 44 + game);
                while !pos.is_game_over() {
                    if pos.legal_moves() == 0 {
                        pos = pos.pass();
                        continue;
                    }
                    let r = engine.search(pos, &exact(2), &quiet, &mut |_| {}).unwrap();
                    reference.clear();
                    let want = reference.search(pos, &exact(1), &quiet, &mut |_| {});
                    // A pondering stopped from outside does not stop the
                    // search that follows it.
                    assert!(r.exact && !r.stopped, "game {game}: {r:?}");
                    assert_eq!(r.score, want.unwrap().score, "game {game}");
                    pos = pos.play(r.best.unwrap()).unwrap();
                    if pos.is_game_over() {
                        break;
                    }
                    // The opponent plays the expected reply half the time.
                    let expected = engine.ponder(pos, &exact(2)).unwrap();
                    std::thread::sleep(Duration::from_millis(rng.below(4) as u64));
                    let moves: Vec<u32> = (0..64)
                        .filter(|&s| pos.legal_moves() >> s & 1 == 1)
                        .collect();
                    pos = match expected.filter(|_| rng.below(2) == 0) {
                        _ if moves.is_empty() => pos.pass(),
                        Some(sq) => pos.play(sq).unwrap(),
                        None => pos.play(moves[rng.below(moves.len())]).unwrap(),
                    };
                }
            }
        }));
        finished.store(true, Ordering::Relaxed);
        if let Err(p) = outcome {
            std::panic::resume_unwind(p);
        }
    });
    engine.stop_pondering();
}

#[test]
fn engines_of_several_threads_at_once_with_stops() {
    // Four engines of 1..=3 threads, each searched from its own thread on
    // random positions at once, one of them stopped at random moments from
    // a fifth thread; every exact score is checked against one thread's.
    // Leaked, so that nothing the threads shared is freed after they are
    // joined: the standard library is not instrumented under
    // ThreadSanitizer (tests/tsan.sh), which then misses that a join
    // orders the frees after the threads' last accesses.
    let stops: &[AtomicBool] = Vec::leak((0..4).map(|_| AtomicBool::new(false)).collect());
    let finished: &AtomicBool = Box::leak(Box::new(AtomicBool::new(false)));
    std::thread::scope(|s| {
        let searchers: Vec<_> = stops
            .iter()
            .enumerate()
            .map(|(e, stop)| {
                s.spawn(move || {
                    let mut rng = Rng::new(100 + e as u64);
                    let mut engine = Engine::new(4);
                    let mut reference = Engine::new(4);
                    let quiet = AtomicBool::new(false);
                    for n in 0..8 {
                        let pos = random_position(&mut rng, 42 + n % 6);
                        let mut limits = exact(1 + (e + n) as u32 % 3);
                        if n % 3 == 0 {
                            limits = Limits::level(6).unwrap();
                            limits.book = false;
                            limits.threads = 2;
                        }
                        let r = engine.search(pos, &limits, stop, &mut |_| {}).unwrap();
                        assert!(pos.legal_moves() >> r.best.unwrap() & 1 == 1);
                        if r.exact && !r.stopped {
                            let want = reference
                                .search(pos, &exact(1), &quiet, &mut |_| {})
                                .unwrap();
                            assert_eq!(r.score, want.score, "engine {e}, position {n}");
                        }
                        if n % 4 == 3 {
                            engine.clear();
                        }
                    }
                })
            })
            .collect();
        s.spawn(move || {
            let mut rng = Rng::new(7);
            while !finished.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1 + rng.below(20) as u64));
                let stop = &stops[rng.below(2)];
                stop.store(true, Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(1));
                stop.store(false, Ordering::Relaxed);
            }
        });
        let panicked = searchers.into_iter().filter_map(|h| h.join().err()).next();
        finished.store(true, Ordering::Relaxed);
        if let Some(p) = panicked {
            std::panic::resume_unwind(p);
        }
    });
}
