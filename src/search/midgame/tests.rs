//! The midgame search's tests.

use super::leaf::wipes_out;
use super::*;
#[cfg(target_arch = "x86_64")]
use crate::board::isa::Haswell;
use crate::board::isa::{Isa, Portable};
use crate::board::testing::{exact, negamax, random_position, random_positions};
use crate::board::*;
use crate::eval::{Evaluator, V1};
use crate::rng::Rng;
use std::sync::atomic::AtomicBool;

/// Plain negamax over the same evaluation: no pruning, no table.
fn minimax<G: Geometry>(pos: Position<G>, depth: u32) -> i32 {
    negamax(pos, depth, SCALE, &|x: Position<G>| {
        leaf::<G, V1, _>(Portable, &V1, &(), x.player, x.opponent)
    })
}

/// A search with the `V1` evaluation and no cuts, on one thread.
fn exact_v1_searcher<'t, 'b>(table: &'t Table, budget: &'t mut Budget<'b>) -> Searcher<'t, 'b, V1> {
    Searcher {
        table,
        budget,
        eval: &V1,
        cut: f32::INFINITY,
        busy: None,
    }
}

fn pruning_never_changes_the_value<G: Geometry>(games: usize, max_depth: u32) {
    let stop = AtomicBool::new(false);
    let mut rng = Rng::new(3 + G::N as u64);
    let mut table = Table::new(2);
    for game in 0..games {
        let mut pos = Position::<G>::start();
        let plies = 2 + rng.below(G::SQUARES as usize - 6);
        for _ in 0..plies {
            let moves: Vec<u32> = pos.legal_moves().squares().collect();
            if moves.is_empty() {
                pos = pos.pass();
                if pos.legal_moves().is_zero() {
                    break;
                }
                continue;
            }
            pos = pos.play(moves[rng.below(moves.len())]).unwrap();
        }
        for depth in 1..=max_depth {
            let exact = minimax(pos, depth);
            if game % 2 == 0 {
                table.clear();
            }
            let mut budget = Budget::new(&stop);
            let mut s = exact_v1_searcher(&table, &mut budget);
            assert_eq!(
                s.pvs(pos, depth, -INF, INF).unwrap(),
                exact,
                "depth {depth} {pos:?}"
            );
        }
    }
}

#[test]
fn pruning_never_changes_the_value_on_any_size() {
    pruning_never_changes_the_value::<S4>(20, 5);
    pruning_never_changes_the_value::<S6>(20, 4);
    pruning_never_changes_the_value::<S8>(20, 4);
    pruning_never_changes_the_value::<S10>(6, 3);
    pruning_never_changes_the_value::<S16>(3, 3);
}

/// A search that reaches the end (its depth at least its empties) is
/// the solver's: with no cuts, the exact score in centi-discs, and
/// fail-soft bounds on it in a null window, whatever the window's
/// rounding to whole discs.
#[test]
fn a_search_past_the_empties_is_the_exact_solve() {
    let stop = AtomicBool::new(false);
    let table = Table::new(2);
    let mut rng = Rng::new(5);
    let mut checked = 0;
    while checked < 30 {
        let empties = 1 + rng.below(12) as u32;
        let Some(pos) = random_position::<S8>(&mut rng, empties) else {
            continue;
        };
        let exact = exact(pos) * SCALE;
        let mut budget = Budget::new(&stop);
        let mut s = exact_v1_searcher(&table, &mut budget);
        let depth = empties + rng.below(3) as u32;
        assert_eq!(s.pvs(pos, depth, -INF, INF).unwrap(), exact, "{pos:?}");
        for bound in [exact - SCALE / 2, exact, exact + SCALE / 2] {
            let v = s.pvs(pos, depth, bound - 1, bound).unwrap();
            assert_eq!(v >= bound, exact >= bound, "{pos:?} bound {bound}: {v}");
        }
        checked += 1;
    }
}

/// The portable and x86-64-v3 copies of the recursion (which this
/// machine may not run by default) give the same values and node
/// counts as the dispatched one, with the trained evaluation and with
/// ProbCut's cuts.
#[test]
fn every_copy_equals_the_dispatched_one() {
    /// The value and nodes of `pos` at depth 5 by the copy of `isa`, or
    /// by the dispatched one (None).
    fn by<I: Recursion>(isa: Option<I>, eval: &Evaluator, pos: Position<S8>) -> (i32, u64) {
        let stop = AtomicBool::new(false);
        let table = Table::new(1);
        let mut budget = Budget::new(&stop);
        let mut s = Searcher {
            table: &table,
            budget: &mut budget,
            eval,
            cut: 1.5,
            busy: None,
        };
        let (p, o) = (pos.player, pos.opponent);
        let v = match isa {
            None => s.pvs(pos, 5, -INF, INF),
            Some(isa) => {
                let state = Evaluate::<S8>::state(eval, p, o);
                isa.node::<S8, _>(&mut s, Node::new(p, o, &state, 5, -INF, INF), false)
            }
        };
        (v.unwrap(), budget.nodes)
    }
    let eval = Evaluator::trained();
    for pos in random_positions::<S8>(31, 4).into_iter().step_by(6) {
        let dispatched = by(None::<Portable>, &eval, pos);
        assert_eq!(by(Some(Portable), &eval, pos), dispatched, "{pos:?}");
        #[cfg(target_arch = "x86_64")]
        if let Some(isa) = Haswell::detect() {
            assert_eq!(by(Some(isa), &eval, pos), dispatched, "{pos:?}");
        }
    }
}

#[test]
fn only_the_loosest_selectivity_reduces_late_moves() {
    assert!(reduces_late_moves(probcut::SELECTIVITY_T[0]));
    for &t in &probcut::SELECTIVITY_T[1..] {
        assert!(!reduces_late_moves(t), "t = {t}");
    }
}

#[test]
fn wipeout_at_the_depth_limit_is_seen() {
    // After this opening, d6 c6 c7 b8 wipes black out: 4 plies.
    let game = crate::notation::parse_transcript::<S8>("d3c3f5d2c4g6f4c5e6d7f6g4").unwrap();
    let child = game
        .position()
        .play(crate::notation::parse_square(8, "d6").unwrap())
        .unwrap();
    let stop = AtomicBool::new(false);
    let table = Table::new(1);
    let mut budget = Budget::new(&stop);
    let mut s = exact_v1_searcher(&table, &mut budget);
    assert_eq!(-s.pvs(child, 3, -INF, INF).unwrap(), -64 * SCALE);
}

#[test]
fn a_wipeout_one_move_beyond_the_depth_limit_is_seen() {
    // After this opening, d6 c6 c7 b8 wipes black out: after d6 c6 c7,
    // white's b8 flips every black disc.
    let game = crate::notation::parse_transcript::<S8>("d3c3f5d2c4g6f4c5e6d7f6g4").unwrap();
    let mut line = vec![game.position()];
    for m in ["d6", "c6", "c7"] {
        let sq = crate::notation::parse_square(8, m).unwrap();
        line.push(line[line.len() - 1].play(sq).unwrap());
    }
    let (before, pos) = (line[2], line[3]);
    assert!(wipes_out::<S8>(pos.player, pos.opponent));
    assert_eq!(
        leaf::<S8, V1, _>(Portable, &V1, &(), pos.player, pos.opponent),
        64 * SCALE
    );
    // One move earlier no single move flips all of white's discs.
    assert!(!wipes_out::<S8>(before.player, before.opponent));
}

/// At the leaf, a mover without a move is valued after its pass, and
/// a finished game exactly, on the positions of random games of every
/// size (the trained evaluation on 8x8, v1 on all).
fn a_mover_that_must_pass_is_valued_after_the_pass<G: Geometry, E: Evaluate<G>>(
    eval: &E,
    games: usize,
) {
    let (mut passes, mut over) = (0, 0);
    for pos in crate::board::testing::random_positions::<G>(17 + G::N as u64, games) {
        if !pos.legal_moves().is_zero() {
            continue;
        }
        let (p, o) = (pos.player, pos.opponent);
        let value = leaf::<G, E, _>(Portable, eval, &eval.state(p, o), p, o);
        if pos.is_game_over() {
            assert_eq!(value, terminal::<G>(p, o), "{pos:?}");
            over += 1;
        } else {
            let after = leaf::<G, E, _>(Portable, eval, &eval.state(o, p), o, p);
            assert_eq!(value, -after, "{pos:?}");
            passes += 1;
        }
    }
    assert!(
        passes > 0 && over > 0,
        "size {}: {passes} passes, {over} ends",
        G::N
    );
}

#[test]
fn a_mover_that_must_pass_is_valued_after_the_pass_on_any_size() {
    a_mover_that_must_pass_is_valued_after_the_pass::<S4, _>(&V1, 200);
    a_mover_that_must_pass_is_valued_after_the_pass::<S6, _>(&V1, 300);
    a_mover_that_must_pass_is_valued_after_the_pass::<S8, _>(&V1, 500);
    let trained = crate::eval::Evaluator::trained();
    a_mover_that_must_pass_is_valued_after_the_pass::<S8, _>(&trained, 500);
    a_mover_that_must_pass_is_valued_after_the_pass::<S10, _>(&V1, 100);
}

/// An evaluation that checks, at every leaf the search reaches, that the
/// value through its state is the value read from the board.
struct Checked<E>(E);

impl<G: Geometry, E: Evaluate<G>> Evaluate<G> for Checked<E> {
    type State = E::State;
    fn evaluate(&self, p: G::B, o: G::B) -> i32 {
        self.0.evaluate(p, o)
    }
    fn state(&self, p: G::B, o: G::B) -> E::State {
        self.0.state(p, o)
    }
    fn play(&self, s: &E::State, x: u32, flips: G::B) -> E::State {
        self.0.play(s, x, flips)
    }
    fn pass(&self, s: &E::State) -> E::State {
        self.0.pass(s)
    }
    fn evaluate_state<I: Isa>(&self, isa: I, s: &E::State, p: G::B, o: G::B, moves: G::B) -> i32 {
        assert!(moves == G::moves(p, o));
        let v = self.0.evaluate_state(isa, s, p, o, moves);
        assert_eq!(v, self.0.evaluate(p, o), "{:?}", Position::<G>::new(p, o));
        v
    }
}

/// Searches of random-game positions (exact and selective, so that
/// ProbCut's shallow searches and the ordering searches run too) with
/// the trained evaluation, whose state the search updates move by move.
fn the_incremental_evaluation_is_the_evaluation_in_search<G: Geometry>(games: usize) {
    let stop = AtomicBool::new(false);
    let mut table = Table::new(2);
    let eval = Checked(crate::eval::Evaluator::trained());
    let positions = crate::board::testing::random_positions::<G>(23 + G::N as u64, games);
    for (i, pos) in positions.into_iter().enumerate().step_by(5) {
        table.clear();
        let mut budget = Budget::new(&stop);
        let mut s = Searcher {
            table: &table,
            budget: &mut budget,
            eval: &eval,
            cut: if i % 2 == 0 { f32::INFINITY } else { 1.5 },
            busy: None,
        };
        s.pvs(pos, 5, -INF, INF).unwrap();
    }
}

#[test]
fn the_incremental_evaluation_is_the_evaluation_in_search_on_any_size() {
    the_incremental_evaluation_is_the_evaluation_in_search::<S8>(12);
    the_incremental_evaluation_is_the_evaluation_in_search::<S6>(6);
    the_incremental_evaluation_is_the_evaluation_in_search::<S10>(1);
}

/// `wipes_out` against trying every move, on the positions with moves
/// of random games of every size.
fn wipes_out_agrees_with_every_move<G: Geometry>(games: usize) {
    let mut found = 0;
    for pos in crate::board::testing::random_positions::<G>(11 + G::N as u64, games) {
        let moves = pos.legal_moves();
        if moves.is_zero() {
            continue;
        }
        let every = moves.squares().any(|m| pos.flips(m) == pos.opponent);
        assert_eq!(wipes_out::<G>(pos.player, pos.opponent), every);
        found += every as usize;
    }
    assert!(
        found > 0,
        "no wipe-out in {games} random games of size {}",
        G::N
    );
}

#[test]
fn wipes_out_agrees_with_every_move_on_any_size() {
    wipes_out_agrees_with_every_move::<S4>(200);
    wipes_out_agrees_with_every_move::<S6>(500);
    wipes_out_agrees_with_every_move::<S8>(2000);
}
