//! The engine through its Rust API: exact solving of the FFO positions,
//! agreement with plain minimax, limits, stop, determinism and randomness.

use othello::board::{Bits, S8};
use othello::engine::{Clock, Engine, Limits, Strategy};
use othello::notation::parse_square;
use othello::rng::Rng;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

mod common;

use common::{assert_solved, ffo, random_position};

type Position = othello::Position<S8>;

fn exact_limits() -> Limits {
    let mut l = Limits::level(0).unwrap();
    l.depth = 4;
    l.exact_empties = 60;
    l
}

#[test]
fn solves_fforum_1_to_19_exactly() {
    let stop = AtomicBool::new(false);
    let mut engine = Engine::new(32);
    for (i, (pos, best, moves)) in ffo(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/fforum-1-19.obf"
    ))
    .into_iter()
    .enumerate()
    {
        let r = engine
            .search(pos, &exact_limits(), &stop, &mut |_| {})
            .unwrap();
        assert_solved(&r, best, &moves, &format!("#{}", i + 1));
    }
}

#[test]
fn analyze_agrees_with_search_when_exact() {
    let stop = AtomicBool::new(false);
    let mut engine = Engine::new(8);
    let mut rng = Rng::new(11);
    for _ in 0..20 {
        let plies = 48 + rng.below(4);
        let pos = random_position(&mut rng, plies);
        let all = engine.analyze(pos, &exact_limits(), &stop).unwrap();
        let r = engine
            .search(pos, &exact_limits(), &stop, &mut |_| {})
            .unwrap();
        assert_eq!(all.len() as u32, pos.legal_moves().count());
        assert!(all.windows(2).all(|w| w[0].score >= w[1].score));
        assert_eq!(all[0].score, r.score);
        let chosen = all.iter().find(|m| Some(m.square) == r.best).unwrap();
        assert_eq!(chosen.score, r.score);
    }
}

#[test]
fn same_seed_same_move_and_randomness_stays_near_best() {
    let stop = AtomicBool::new(false);
    let mut rng = Rng::new(5);
    let mut varied = false;
    for _ in 0..12 {
        let pos = random_position(&mut rng, 50);
        let mut limits = exact_limits();
        limits.randomness = 4;
        let mut engine = Engine::new(8);
        let all = engine.analyze(pos, &exact_limits(), &stop).unwrap();
        let best = all[0].score;
        let mut picks = std::collections::HashSet::new();
        for seed in 0..8 {
            limits.seed = seed;
            let a = engine.search(pos, &limits, &stop, &mut |_| {}).unwrap();
            let b = Engine::new(8)
                .search(pos, &limits, &stop, &mut |_| {})
                .unwrap();
            assert_eq!(a.best, b.best, "same seed, same move");
            let score = all.iter().find(|m| Some(m.square) == a.best).unwrap().score;
            assert!(score >= best - 400, "picked {score} with best {best}");
            picks.insert(a.best);
        }
        varied |= picks.len() > 1;
    }
    assert!(varied, "randomness never chose a different move");
}

#[test]
fn the_book_answers_from_level_1_unless_told_not_to() {
    let stop = AtomicBool::new(false);
    let pos = Position::start()
        .play(parse_square(8, "f5").unwrap())
        .unwrap();
    let mut engine = Engine::new(8);
    let known = engine.book_moves(pos);
    assert!(known.len() >= 3, "{known:?}");
    let r = engine
        .search(pos, &Limits::level(12).unwrap(), &stop, &mut |_| {})
        .unwrap();
    assert!(r.from_book && r.nodes == 0 && r.best == Some(known[0].square));
    assert_eq!(r.score, known[0].value * othello::eval::SCALE);
    // The line follows the book's best moves, all legal.
    let mut line = pos;
    for &sq in &r.pv {
        line = line.play(sq).expect("a legal book line");
    }
    assert!(r.pv.len() > 4, "{:?}", r.pv);
    for limits in [
        Limits::level(0).unwrap(),
        Limits::explicit(4, 0, 0).unwrap(),
        Limits {
            book: false,
            ..Limits::level(4).unwrap()
        },
    ] {
        let r = engine.search(pos, &limits, &stop, &mut |_| {}).unwrap();
        assert!(!r.from_book && r.nodes > 0);
    }
    // By a time limit alone a level searches; with a clock, or with
    // `timed_book`, it plays from the book.
    let timed = Limits {
        time: Some(Duration::from_secs(5)),
        ..Limits::level(4).unwrap()
    };
    let r = engine.search(pos, &timed, &stop, &mut |_| {}).unwrap();
    assert!(!r.from_book && r.nodes > 0);
    for limits in [
        Limits {
            timed_book: true,
            ..timed
        },
        Limits {
            clock: Some(Clock {
                remaining: Duration::from_secs(60),
                increment: Duration::ZERO,
            }),
            ..timed
        },
    ] {
        let r = engine.search(pos, &limits, &stop, &mut |_| {}).unwrap();
        assert!(r.from_book && r.best == Some(known[0].square));
    }
    engine.set_book(othello::book::BookChoice::None);
    assert!(engine.book_moves(pos).is_empty());
    let r = engine
        .search(pos, &Limits::level(4).unwrap(), &stop, &mut |_| {})
        .unwrap();
    assert!(!r.from_book && r.nodes > 0);
}

#[test]
fn book_and_randomness_2_vary_the_first_twelve_moves() {
    // 100 games between two engines with the book and randomness 2 from
    // the start (level 1 once out of the book). The book's values leave
    // few moves within 2 discs in the first plies, so a repeated opening
    // or two among 100 is expected (docs/training.md: 1.9 repeats per 100 games on
    // average over 30 runs); without the book's randomness they would all
    // be one game.
    let stop = AtomicBool::new(false);
    let mut engines = [Engine::new(1), Engine::new(1)];
    let mut openings = std::collections::HashSet::new();
    let mut from_book = 0;
    for game in 0..100u64 {
        let mut pos = Position::start();
        let mut line = Vec::new();
        for ply in 0..12u64 {
            let mut limits = Limits::level(1).unwrap();
            limits.randomness = 2;
            limits.seed = game * 100 + ply;
            let r = engines[(ply % 2) as usize]
                .search(pos, &limits, &stop, &mut |_| {})
                .unwrap();
            from_book += r.from_book as u32;
            let sq = r.best.expect("no pass this early");
            line.push(sq);
            pos = pos.play(sq).unwrap();
        }
        openings.insert(line);
    }
    assert!(openings.len() >= 95, "{} distinct openings", openings.len());
    // Most of those moves came from the book.
    assert!(from_book > 1000, "{from_book} of 1200 moves from the book");
}

#[test]
fn stop_from_another_thread_returns_a_legal_move() {
    let stop = AtomicBool::new(false);
    let pos = Position::start();
    let mut limits = Limits::level(30).unwrap();
    limits.depth = 30;
    limits.book = false; // the start is in the book
    let mut engine = Engine::new(8);
    let start = Instant::now();
    let r = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(200));
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        engine.search(pos, &limits, &stop, &mut |_| {}).unwrap()
    });
    assert!(r.stopped);
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    assert!(pos.legal_moves().has(r.best.unwrap()));
}

#[test]
fn time_and_node_limits_are_honoured() {
    let stop = AtomicBool::new(false);
    let pos = random_position(&mut Rng::new(1), 20);
    let mut limits = Limits::level(40).unwrap();
    limits.time = Some(Duration::from_millis(300));
    let start = Instant::now();
    let r = Engine::new(8)
        .search(pos, &limits, &stop, &mut |_| {})
        .unwrap();
    assert!(
        start.elapsed() < Duration::from_millis(2000),
        "{:?}",
        start.elapsed()
    );
    assert!(pos.legal_moves().has(r.best.unwrap()));
    let mut limits = Limits::level(40).unwrap();
    limits.node_limit = 100_000;
    let r = Engine::new(8)
        .search(pos, &limits, &stop, &mut |_| {})
        .unwrap();
    assert!(r.stopped && r.nodes <= 100_000 + 5000, "{} nodes", r.nodes);
}

/// The slack a returned search may take past its time on a loaded machine
/// (the tests run in parallel on two cores): the search itself stops a few
/// milliseconds before its limit.
const SCHEDULING_SLACK: Duration = Duration::from_millis(100);

#[test]
fn a_timed_search_returns_within_its_limit() {
    let stop = AtomicBool::new(false);
    let mut engine = Engine::new(16);
    let mut rng = Rng::new(5);
    let limit = Duration::from_millis(250);
    for empties in [40, 24, 12] {
        for _ in 0..2 {
            let pos = random_position(&mut rng, 60 - empties);
            // Level 60: solve at any empties if the time allows.
            let mut limits = Limits::level(60).unwrap();
            limits.book = false;
            limits.time = Some(limit);
            let start = Instant::now();
            let r = engine.search(pos, &limits, &stop, &mut |_| {}).unwrap();
            let took = start.elapsed();
            assert!(
                took <= limit + SCHEDULING_SLACK,
                "{empties} empties: {took:?}"
            );
            assert!(pos.legal_moves().has(r.best.unwrap()));
            // A move has been thought about, not just the first legal one.
            assert!(r.depth >= 1, "{empties} empties: depth {}", r.depth);
            if empties == 12 {
                // A 12-empties solve takes milliseconds: it fits.
                assert!(r.exact && !r.stopped, "{empties} empties: {r:?}");
            }
            // However short the time, the move is one a search chose.
            limits.time = Some(Duration::from_millis(1));
            let r = engine.search(pos, &limits, &stop, &mut |_| {}).unwrap();
            assert!(r.depth >= 1, "{empties} empties, 1 ms: {r:?}");
        }
    }
}

#[test]
fn the_longest_times_are_no_limit() {
    let stop = AtomicBool::new(false);
    let pos = random_position(&mut Rng::new(3), 48);
    let mut limits = Limits::level(60).unwrap();
    // What the C API's largest millisecond counts become.
    let longest = Duration::from_millis(i64::MAX as u64);
    limits.time = Some(longest);
    limits.clock = Some(Clock {
        remaining: longest,
        increment: longest,
    });
    let r = Engine::new(8)
        .search(pos, &limits, &stop, &mut |_| {})
        .unwrap();
    assert!(r.exact && !r.stopped, "{r:?}");
    let all = Engine::new(8).analyze(pos, &limits, &stop).unwrap();
    assert_eq!(all[0].score, r.score);
}

#[test]
fn a_timed_search_plays_a_proved_position_at_once() {
    let stop = AtomicBool::new(false);
    let mut engine = Engine::new(16);
    let mut pos = random_position(&mut Rng::new(9), 44);
    let mut limits = Limits::level(60).unwrap();
    limits.book = false;
    let solved = engine.search(pos, &limits, &stop, &mut |_| {}).unwrap();
    assert!(solved.exact);
    // Along the solved line, each position is proved by the table: a
    // search of 1 ms (too short for a solve) still plays it exactly.
    limits.time = Some(Duration::from_millis(1));
    let mut expected = solved.score;
    for _ in 0..4 {
        if pos.legal_moves().is_zero() {
            break;
        }
        let r = engine.search(pos, &limits, &stop, &mut |_| {}).unwrap();
        assert!(r.exact && r.score == expected, "{r:?}, expected {expected}");
        pos = pos.play(r.best.unwrap()).unwrap();
        expected = -expected;
        if pos.legal_moves().is_zero() && !pos.is_game_over() {
            pos = pos.pass();
            expected = -expected;
        }
    }
}

#[test]
fn a_timed_search_keeps_a_proved_win_when_it_cannot_solve_exactly() {
    let stop = AtomicBool::new(false);
    let mut rng = Rng::new(21);
    // A won position at 20 empties, proved by a win/loss/draw search.
    let (mut engine, pos) = loop {
        let pos = random_position(&mut rng, 40);
        if pos.legal_moves().count() < 2 || pos.empties().count() != 20 {
            continue;
        }
        let mut engine = Engine::new(16);
        let mut wld = Limits::explicit(4, 0, 20).unwrap();
        wld.book = false;
        let r = engine.search(pos, &wld, &stop, &mut |_| {}).unwrap();
        assert!(r.wld && !r.exact, "{r:?}");
        if r.score > 0 {
            break (engine, pos);
        }
    };
    // 1 ms fits no exact solve of 20 empties: the proof's move is played,
    // and it wins.
    let mut limits = Limits::level(60).unwrap();
    limits.book = false;
    limits.time = Some(Duration::from_millis(1));
    let r = engine.search(pos, &limits, &stop, &mut |_| {}).unwrap();
    assert!(r.wld && !r.exact && r.score > 0, "{r:?}");
    let child = pos.play(r.best.unwrap()).unwrap();
    let exact = Limits::explicit(4, 60, 60).unwrap();
    let c = Engine::new(16)
        .search(child, &exact, &stop, &mut |_| {})
        .unwrap();
    let for_us = if child.legal_moves().is_zero() {
        c.score
    } else {
        -c.score
    };
    assert!(c.exact && for_us > 0, "{c:?}");
}

/// Plays a whole game between two engines at level 60 on clocks of
/// `clock` each, charging each move `unseen` more than its search, and
/// telling each side its clock with every move's time rounded to `tick`
/// (none: exactly), as a GUI might; asserts that no clock runs out. The
/// moves played, and what is left of each clock.
fn clock_game(clock: Duration, unseen: Duration, tick: Option<Duration>) -> (u32, [Duration; 2]) {
    let stop = AtomicBool::new(false);
    let mut engines = [Engine::new(16), Engine::new(16)];
    // Each side's clock as it is (black's, white's), and as it is told.
    let mut left = [clock; 2];
    let mut told = left;
    let mut pos = Position::start();
    let mut side = 0;
    let mut moves = 0;
    while !pos.is_game_over() {
        if pos.legal_moves().is_zero() {
            pos = pos.pass();
            side ^= 1;
            continue;
        }
        let mut limits = Limits::level(60).unwrap();
        limits.book = false;
        limits.clock = Some(Clock {
            remaining: told[side],
            increment: Duration::ZERO,
        });
        let start = Instant::now();
        let r = engines[side]
            .search(pos, &limits, &stop, &mut |_| {})
            .unwrap();
        let took = start.elapsed() + unseen;
        assert!(
            took < left[side],
            "{} empties: took {took:?} with {:?} left",
            pos.empties().count(),
            left[side]
        );
        left[side] -= took;
        let shown = tick.map_or(took, |t| {
            t * ((took + t / 2).as_nanos() / t.as_nanos()) as u32
        });
        told[side] = told[side].saturating_sub(shown);
        pos = pos.play(r.best.unwrap()).unwrap();
        side ^= 1;
        moves += 1;
    }
    (moves, left)
}

#[test]
fn a_game_clock_of_a_few_seconds_lasts_the_whole_game() {
    let (moves, left) = clock_game(Duration::from_secs(3), Duration::ZERO, None);
    assert!(moves >= 50, "{moves} moves");
    // The clock was used, not hoarded: each side spent a good part of it.
    for l in left {
        assert!(l < Duration::from_millis(2500), "{l:?} left");
    }
}

/// A GUI's clock is not the search's: each move also costs the way of the
/// question and the answer, which no search sees, and a GGF gives the times
/// back to hundredths of a second. A clock of 300 ms played under both (2
/// ms a move unseen, each move's time told rounded to 10 ms) never runs
/// out; without a reserve for them it did, on both sides.
#[test]
fn a_clock_keeps_time_for_what_the_search_does_not_see() {
    let tick = Duration::from_millis(10);
    clock_game(
        Duration::from_millis(300),
        Duration::from_millis(2),
        Some(tick),
    );
}

#[test]
fn engine_beats_classic_lookahead() {
    // Engine level 4 against the 1986 program's lookahead 4, both colours,
    // from seeded random 4-ply openings.
    let stop = AtomicBool::new(false);
    let mut engine = Engine::new(8);
    let mut rng = Rng::new(1986);
    let (mut wins, mut losses) = (0, 0);
    for game in 0..8 {
        let mut pos = random_position(&mut rng, 4);
        let engine_first = game % 2 == 0;
        let mut engine_to_move = engine_first;
        let mut sign = 1; // +1 when the engine is the side to move of `pos`
        if !engine_to_move {
            sign = -1;
        }
        while !pos.is_game_over() {
            if pos.legal_moves().is_zero() {
                pos = pos.pass();
            } else {
                let mut limits = Limits::level(4).unwrap();
                if !engine_to_move {
                    limits.strategy = Strategy::Classic(4);
                }
                let r = engine.search(pos, &limits, &stop, &mut |_| {}).unwrap();
                let sq = r.best.unwrap();
                pos = pos.play_with(sq, pos.flips(sq));
            }
            engine_to_move = !engine_to_move;
            sign = -sign;
        }
        let score = sign * pos.final_score();
        if score > 0 {
            wins += 1;
        } else if score < 0 {
            losses += 1;
        }
    }
    assert!(
        wins >= 6 && wins > 2 * losses,
        "engine {wins} wins, {losses} losses"
    );
}
