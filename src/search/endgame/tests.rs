//! The solver's tests.

use super::*;
#[cfg(target_arch = "x86_64")]
use crate::board::isa::Haswell;
use crate::board::isa::Portable;
use crate::board::testing::{exact as minimax, random_position};
use crate::board::*;
use crate::eval::V1;
use crate::rng::Rng;
use std::sync::atomic::AtomicBool;

/// A solver on one thread with the `V1` evaluation.
fn v1_solver<'t, 'b>(table: &'t Table, budget: &'t mut Budget<'b>) -> Solver<'t, 'b, V1> {
    Solver {
        table,
        budget,
        eval: &V1,
        busy: None,
        selective: None,
    }
}

fn solver_equals_minimax<G: Geometry>(count: usize, max_empties: u32) {
    let stop = AtomicBool::new(false);
    let table = Table::new(4);
    let mut rng = Rng::new(42 + G::N as u64);
    let mut checked = 0;
    while checked < count {
        let empties = 1 + rng.below(max_empties as usize) as u32;
        let Some(pos) = random_position::<G>(&mut rng, empties) else {
            continue;
        };
        let exact = minimax(pos);
        let mut budget = Budget::new(&stop);
        let mut s = v1_solver(&table, &mut budget);
        assert_eq!(s.solve(pos, -INF, INF).unwrap(), exact, "{pos:?}");
        assert!(s.solve(pos, exact - 1, exact).unwrap() >= exact);
        assert!(s.solve(pos, exact, exact + 1).unwrap() <= exact);
        assert_eq!(s.solve(pos, -1, 1).unwrap().signum(), exact.signum());
        let (best, score) = s.best_move(pos, -INF, INF).unwrap();
        assert_eq!(score, exact);
        if let Some(b) = best {
            assert_eq!(-minimax(pos.play(b).unwrap()), exact, "{pos:?} move {b}");
        }
        checked += 1;
    }
}

/// The exact score of `pos`, solved with a table of its own.
fn exact_score(pos: Position<S8>) -> i32 {
    let stop = AtomicBool::new(false);
    let mut budget = Budget::new(&stop);
    let table = Table::new(1);
    let mut s = v1_solver(&table, &mut budget);
    s.solve(pos, -INF, INF).unwrap()
}

/// A selective solve is a guess: it leaves no proof in the table (its
/// entries are midgame ones, at its empties plus its `extra` plies), so
/// an exact solve after it on the same table stays exact; and its cuts
/// save nodes.
#[test]
fn a_selective_solve_leaves_exact_solves_exact() {
    let stop = AtomicBool::new(false);
    let mut rng = Rng::new(11);
    let (mut guessed, mut solved) = (0, 0);
    let mut checked = 0;
    while checked < 8 {
        let Some(pos) = random_position::<S8>(&mut rng, 14) else {
            continue;
        };
        let table = Table::new(4);
        let mut budget = Budget::new(&stop);
        let mut s = v1_solver(&table, &mut budget);
        s.selective = Some(Selective {
            t: probcut::SELECTIVITY_T[0],
            extra: 2,
        });
        s.solve(pos, -INF, INF).unwrap();
        guessed += s.budget.nodes;
        let e = table.probe(key(pos)).expect("a deep node is stored");
        assert!(!e.solved());
        assert_eq!(e.depth, 14 + 2);
        s.selective = None;
        assert_eq!(
            s.solve(pos, -INF, INF).unwrap(),
            exact_score(pos),
            "{pos:?}"
        );
        let mut budget = Budget::new(&stop);
        v1_solver(&Table::new(4), &mut budget)
            .solve(pos, -INF, INF)
            .unwrap();
        solved += budget.nodes;
        checked += 1;
    }
    assert!(
        guessed < solved,
        "{guessed} nodes selective, {solved} exact"
    );
}

/// Fail-soft results are true bounds whatever the window, with one
/// table shared by every search: the table merges them, so a bound too
/// tight on either side would make a wrong exact score, and a move
/// from the wrong bound a wrong best move.
#[test]
fn fail_soft_scores_are_true_bounds() {
    let stop = AtomicBool::new(false);
    let table = Table::new(4);
    let mut rng = Rng::new(7);
    let mut checked = 0;
    while checked < 200 {
        let empties = 8 + rng.below(7) as u32;
        let Some(pos) = random_position::<S8>(&mut rng, empties) else {
            continue;
        };
        let exact = exact_score(pos);
        let mut budget = Budget::new(&stop);
        let mut s = v1_solver(&table, &mut budget);
        for i in 0..12 {
            // Wide windows, and null windows on either side of the
            // score, whose bounds meet in the table.
            let a = match i % 3 {
                0 => rng.below(41) as i32 - 20 + exact,
                1 => exact - 1 - rng.below(3) as i32,
                _ => exact,
            };
            let b = a + 1 + if i % 3 == 0 { rng.below(6) as i32 } else { 0 };
            let r = s.solve(pos, a, b).unwrap();
            if r <= a {
                assert!(exact <= r, "{pos:?} ({a}, {b}): {r} above {exact}");
            } else if r >= b {
                assert!(exact >= r, "{pos:?} ({a}, {b}): {r} below {exact}");
            } else {
                assert_eq!(r, exact, "{pos:?} ({a}, {b})");
            }
        }
        // The move the solver names for the exact score reaches it,
        // whatever bounds the windows left in the table.
        let (best, score) = s.best_move(pos, exact - 1, exact + 1).unwrap();
        assert_eq!(score, exact);
        if let Some(b) = best {
            let v = -exact_score(pos.play(b).unwrap());
            assert_eq!(v, exact, "{pos:?} move {b}");
        }
        checked += 1;
    }
}

/// A search can end on the table's bounds or a child's without storing
/// a move: the move it names is then checked, not taken from the table
/// (a position of a game against another program, where h4 draws and e8, the
/// table's move from an earlier fail-low search, loses by 10).
#[test]
fn the_best_move_reaches_the_score_when_the_table_cuts() {
    let stop = AtomicBool::new(false);
    let table = Table::new(1);
    let board = "--OXXXXO--XXOXOOXXXXXOOXXXXXOOO-XXOOXXOOXOOOOXOOXOOOOOX---X--XXX X";
    let pos = crate::notation::parse_board::<S8>(board)
        .unwrap()
        .position();
    let (h4, e8) = (31, 60);
    // True bounds as searches leave them: the position at most a draw,
    // with the move of a fail-low search (no better than the others),
    // and the reply to h4 at most a draw for its mover.
    table.store(key(pos), 10, true, -64, 0, e8);
    let reply = pos.play(h4).unwrap();
    table.store(key(reply), 9, true, -2, 0, NO_MOVE);
    let mut budget = Budget::new(&stop);
    let mut s = v1_solver(&table, &mut budget);
    let (best, score) = s.best_move(pos, -12, 1).unwrap();
    assert_eq!(score, 0);
    assert_eq!(best, Some(h4));
}

#[test]
fn solver_equals_minimax_on_every_size() {
    solver_equals_minimax::<S6>(60, 11);
    solver_equals_minimax::<S4>(40, 12);
    solver_equals_minimax::<S8>(90, 10);
    solver_equals_minimax::<S8>(10, 12);
    solver_equals_minimax::<S10>(20, 9);
    solver_equals_minimax::<S12>(10, 8);
    solver_equals_minimax::<S14>(10, 8);
    solver_equals_minimax::<S16>(10, 8);
}

#[test]
fn stable_discs_are_never_flipped() {
    fn check<G: Geometry>() {
        let mut rng = Rng::new(9);
        for _ in 0..60 {
            let empties = 4 + rng.below(G::SQUARES as usize / 2) as u32;
            let Some(pos) = random_position::<G>(&mut rng, empties) else {
                continue;
            };
            let (p, o) = (pos.player, pos.opponent);
            let st = G::stable(p, o);
            assert!((st & !p).is_zero());
            for sq in pos.empties().squares() {
                assert!((G::flips(o, p, sq) & st).is_zero());
            }
        }
        // A lone corner is stable.
        assert!(G::stable(G::B::bit(0), G::START_WHITE) == G::B::bit(0));
    }
    check::<S4>();
    check::<S6>();
    check::<S8>();
    check::<S10>();
    check::<S16>();
}

/// The portable and x86-64-v3 copies of the recursion (which this
/// machine may not run by default) give the same values and node
/// counts as the dispatched one.
#[test]
fn every_copy_equals_the_dispatched_one() {
    /// The value and nodes of `pos` by the copy of `isa`, or by the
    /// dispatched one (None).
    fn by<G: Geometry, I: Recursion>(isa: Option<I>, pos: Position<G>) -> (i32, u64) {
        let stop = AtomicBool::new(false);
        let table = Table::new(1);
        let mut budget = Budget::new(&stop);
        let mut s = v1_solver(&table, &mut budget);
        let (p, o) = (pos.player, pos.opponent);
        let v = match isa {
            None => s.solve(pos, -INF, INF),
            Some(isa) if pos.empties().count() > SHALLOW => {
                isa.node::<true, G, V1>(&mut s, p, o, -INF, INF, false)
            }
            Some(isa) => isa.node::<false, G, V1>(&mut s, p, o, -INF, INF, false),
        };
        (v.unwrap(), budget.nodes)
    }
    fn check<G: Geometry>(count: usize, max_empties: usize) {
        let mut rng = Rng::new(77);
        let mut checked = 0;
        while checked < count {
            let empties = 3 + rng.below(max_empties - 2) as u32;
            let Some(pos) = random_position::<G>(&mut rng, empties) else {
                continue;
            };
            let dispatched = by(None::<Portable>, pos);
            assert_eq!(by(Some(Portable), pos), dispatched, "{pos:?}");
            #[cfg(target_arch = "x86_64")]
            if let Some(isa) = Haswell::detect() {
                assert_eq!(by(Some(isa), pos), dispatched, "{pos:?}");
            }
            checked += 1;
        }
    }
    check::<S8>(40, 14);
    check::<S6>(20, 14);
    check::<S10>(10, 10);
}
