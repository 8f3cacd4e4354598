//! The strategies of "OTHELLO v1.1.8" (Jonathan Dubman, 1986), rewritten,
//! on every board size: the original was built around a `BOARDSIZE`
//! constant, and its rules carry over unchanged (the bonus squares are the
//! corners and their neighbours on any size).
//!
//! The original scores a move by the discs it flips (`mostpieces`), plus a
//! square bonus (`mostcorners`: +10 on a corner, -8 on the twelve squares
//! touching one, 0 elsewhere: its +5 for edges never fires, as its edge test
//! also demands a corner), or by `look`: that score minus the opponent's best
//! reply scored the same way one level shallower, down to `mostcorners`. Its
//! board is `loc[x][y]`, x the column, y the row (our square (x-1, y-1)), and
//! its scan keeps the first strictly better move, x outer, so a1 a2 .. a8 b1
//! .. h8 here: the randomised order is dead code (`rerandomize` always gets 0).
//!
//! Quirks reproduced: a side without a move inside the lookahead is worth
//! -9999 (the scan's starting maximum), so a move leaving the opponent no reply
//! scores discs + bonus + 9999 and the recursion stops there; a move worth
//! exactly 10000 (its `INVALID`) is skipped as if illegal; a move worth -9999
//! or less is never picked. Where the original would therefore pass with legal
//! moves on the board, [`choose`] plays the best of them instead.

use crate::board::{key, Bits, Geometry, Key, Position};
use crate::rng::Rng;

/// How the original computer scores a move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Strategy {
    /// `mostpieces`: the number of discs the move flips.
    Greedy,
    /// `mostcorners`: discs flipped plus the square's bonus.
    Corners,
    /// `look` with `n` levels: the move's `Corners` score minus the opponent's
    /// best `Lookahead(n - 1)` reply (-9999 when it has none);
    /// `Lookahead(0)` is `Corners`.
    Lookahead(u32),
}

/// The original's `INVALID`: a move scored exactly this is skipped by its scan.
const INVALID: i32 = 10_000;
const NO_MOVE: i32 = -9_999;
const INF: i32 = 1 << 28;

/// The original's `bonusvalue` on the `n`x`n` board.
fn bonus<G: Geometry>(sq: u32) -> i32 {
    let n = G::N;
    let (col, row) = (sq % n, sq / n);
    let near = |x: u32| x <= 1 || x >= n - 2;
    let end = |x: u32| x == 0 || x == n - 1;
    if end(col) && end(row) {
        10
    } else if near(col) && near(row) {
        -8
    } else {
        0
    }
}

/// The original's scan order: column by column, each from row 1.
fn scan_order<G: Geometry>() -> impl Iterator<Item = u32> {
    let n = G::N;
    (0..n * n).map(move |i| (i % n) * n + i / n)
}

/// The skill level 0..9 of the original's prompt as a strategy: it always
/// plays `look` with the level as depth. Anything else falls back to 0, as
/// its prompt does for any answer but a digit 1..9.
pub fn level_lookahead(level: u32) -> Strategy {
    Strategy::Lookahead(if level <= 9 { level } else { 0 })
}

/// The move the original would play, with its score; `None` only when there
/// is no legal move. Without `tie_break` the first best move in the
/// original's scan order wins; with it, one of the equally best moves drawn
/// uniformly (one draw from the generator when two or more tie, none
/// otherwise). Where the original would pass although it has a move (every
/// score is 10000 or at most -9999, only possible with `Lookahead`), this
/// returns the best of the legal moves on the same scores instead.
pub fn choose<G: Geometry>(
    pos: Position<G>,
    strategy: Strategy,
    tie_break: Option<&mut Rng>,
) -> Option<(u32, i32)> {
    let mut tie_break = tie_break;
    if pos.legal_moves().is_zero() {
        return None;
    }
    let strategy = bounded(strategy, pos);
    let mut search = Search::<G>::new(strategy);
    search
        .pick(pos, strategy, true, tie_break.as_deref_mut())
        .or_else(|| search.pick(pos, strategy, false, tie_break))
}

/// The score the original's evaluation gives a legal move, else `None`.
pub fn evaluate<G: Geometry>(pos: Position<G>, sq: u32, strategy: Strategy) -> Option<i32> {
    let flips = pos.flips(sq);
    if flips.is_zero() {
        None
    } else {
        let strategy = bounded(strategy, pos);
        Search::<G>::new(strategy).score_above(pos, sq, flips, strategy, -INF)
    }
}

fn bounded<G: Geometry>(s: Strategy, pos: Position<G>) -> Strategy {
    match s {
        Strategy::Lookahead(depth) => Strategy::Lookahead(depth.min(pos.empties().count())),
        other => other,
    }
}

fn accepted(score: i32) -> bool {
    score != INVALID && score > NO_MOVE
}

#[inline]
fn gain<G: Geometry>(sq: u32, flips: G::B) -> i32 {
    flips.count() as i32 + bonus::<G>(sq)
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: Key,
    lower: i32,
    upper: i32,
    depth: u8,
    best: u16,
}

const TABLE_MIN_DEPTH: u32 = 2;
const TABLE_FROM: u32 = 4;
const TABLE_MAX_BITS: u32 = 18;
const NONE: u16 = u16::MAX;

struct Search<G: Geometry> {
    table: Vec<Entry>,
    bits: u32,
    lists: Vec<Vec<(u32, G::B, i32)>>,
}

impl<G: Geometry> Search<G> {
    fn new(strategy: Strategy) -> Search<G> {
        let depth = match strategy {
            Strategy::Lookahead(depth) => depth,
            _ => 0,
        };
        let bits = (12 + depth).min(TABLE_MAX_BITS);
        let size = if depth >= TABLE_FROM { 1 << bits } else { 0 };
        Search {
            table: vec![Entry::default(); size],
            bits,
            lists: vec![Vec::new(); depth as usize],
        }
    }

    fn pick(
        &mut self,
        pos: Position<G>,
        strategy: Strategy,
        filtered: bool,
        tie_break: Option<&mut Rng>,
    ) -> Option<(u32, i32)> {
        let legal = pos.legal_moves();
        let ok = |score: i32| !filtered || accepted(score);
        let guess = match strategy {
            Strategy::Lookahead(depth) if depth >= 3 => self
                .pick(pos, Strategy::Lookahead(depth - 2), true, None)
                .and_then(|(sq, _)| {
                    let score = self.score_above(pos, sq, pos.flips(sq), strategy, -INF)?;
                    ok(score).then_some((sq, score))
                }),
            _ => None,
        };
        let mut best: Option<i32> = None;
        let mut ties: Vec<u32> = Vec::new();
        for sq in scan_order::<G>().filter(|&sq| legal.has(sq)) {
            let floor = match best {
                None if filtered => NO_MOVE,
                None => -INF,
                Some(b) if tie_break.is_some() => b - 1,
                Some(b) => b,
            }
            .max(guess.map_or(-INF, |(_, score)| score - 1));
            let score = match guess {
                Some((guessed, score)) if guessed == sq => Some(score).filter(|&s| s > floor),
                _ => self.score_above(pos, sq, pos.flips(sq), strategy, floor),
            };
            let Some(score) = score.filter(|&s| ok(s)) else {
                continue;
            };
            match best {
                Some(b) if score < b => {}
                Some(b) if score == b => ties.push(sq),
                _ => {
                    best = Some(score);
                    ties.clear();
                    ties.push(sq);
                }
            }
        }
        let index = match tie_break {
            Some(rng) if ties.len() > 1 => rng.below(ties.len()),
            _ => 0,
        };
        best.map(|score| (ties[index], score))
    }

    fn score_above(
        &mut self,
        pos: Position<G>,
        sq: u32,
        flips: G::B,
        strategy: Strategy,
        floor: i32,
    ) -> Option<i32> {
        let score = match strategy {
            Strategy::Greedy => flips.count() as i32,
            Strategy::Corners | Strategy::Lookahead(0) => gain::<G>(sq, flips),
            Strategy::Lookahead(depth) => {
                let g = gain::<G>(sq, flips);
                g - self.best_reply(pos.play_with(sq, flips), depth - 1, -INF, g - floor)
            }
        };
        (score > floor).then_some(score)
    }

    fn slot(&self, k: Key) -> usize {
        let h = (k[0].wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ k[1].wrapping_mul(0xc2b2_ae3d_27d4_eb4f))
            >> (64 - self.bits);
        h as usize
    }

    /// The best accepted `look` score of the side to
    /// move, or -9999; fail-soft alpha-beta.
    fn best_reply(&mut self, pos: Position<G>, depth: u32, alpha: i32, beta: i32) -> i32 {
        if depth == 0 {
            return best_gain(pos, beta);
        }
        let mut best = NO_MOVE;
        if best >= beta {
            return best;
        }
        let use_table = depth >= TABLE_MIN_DEPTH && !self.table.is_empty();
        let k = if use_table { key(pos) } else { [0; 2] };
        let slot = if use_table { self.slot(k) } else { 0 };
        let mut first = NONE;
        if use_table {
            let e = self.table[slot];
            if e.depth != 0 && e.key == k {
                if e.depth as u32 == depth {
                    if e.lower >= beta || e.lower == e.upper {
                        return e.lower;
                    }
                    if e.upper <= alpha {
                        return e.upper;
                    }
                }
                first = e.best;
            }
        }
        let mut list = std::mem::take(&mut self.lists[depth as usize]);
        fill(&mut list, pos, first);
        let mut best_move = NONE;
        let mut result = None;
        for (i, &(sq, flips, g)) in list.iter().enumerate() {
            let child = pos.play_with(sq, flips);
            let lo = alpha.max(best);
            let mut score = lo + 1;
            if i > 0 && lo + 1 < beta {
                score = g - self.best_reply(child, depth - 1, g - lo - 1, g - lo);
            }
            if score > lo {
                score = g - self.best_reply(child, depth - 1, g - beta, g - lo);
            }
            if score >= beta {
                if score <= INVALID
                    && g - INVALID >= NO_MOVE
                    && self.reply_is(child, depth - 1, g - INVALID)
                {
                    continue;
                }
                best_move = sq as u16;
                result = Some(score);
                break;
            }
            if score <= lo {
                best = best.max(score);
            } else if score != INVALID {
                best = score;
                best_move = sq as u16;
            }
        }
        self.lists[depth as usize] = list;
        let result = result.unwrap_or(best);
        if use_table {
            let e = &mut self.table[slot];
            let same = e.depth as u32 == depth && e.key == k;
            let (mut lower, mut upper) = if same {
                (e.lower, e.upper)
            } else {
                (-INF, INF)
            };
            if result > alpha {
                lower = lower.max(result);
            }
            if result < beta {
                upper = upper.min(result);
            }
            *e = Entry {
                key: k,
                lower,
                upper,
                depth: depth as u8,
                best: if best_move != NONE { best_move } else { first },
            };
        }
        result
    }

    fn reply_is(&mut self, pos: Position<G>, depth: u32, target: i32) -> bool {
        self.best_reply(pos, depth, target - 1, target + 1) == target
    }
}

/// `best_reply` at depth 0: the best `mostcorners` score, or -9999.
fn best_gain<G: Geometry>(pos: Position<G>, beta: i32) -> i32 {
    let moves = pos.legal_moves();
    let mut best = NO_MOVE;
    for sq in (moves & G::CORNERS)
        .squares()
        .chain((moves & !G::CORNERS).squares())
    {
        best = best.max(gain::<G>(sq, pos.flips(sq)));
        if best >= beta {
            break;
        }
    }
    best
}

/// The legal moves with flips and gains, `first` first, then by gain,
/// highest first (ties in square order).
fn fill<G: Geometry>(list: &mut Vec<(u32, G::B, i32)>, pos: Position<G>, first: u16) {
    list.clear();
    let key = |&(sq, _, g): &(u32, G::B, i32)| {
        if sq as u16 == first {
            i32::MAX
        } else {
            g
        }
    };
    for sq in pos.legal_moves().squares() {
        let flips = pos.flips(sq);
        let entry = (sq, flips, gain::<G>(sq, flips));
        let mut i = list.len();
        list.push(entry);
        while i > 0 && key(&list[i - 1]) < key(&entry) {
            list[i] = list[i - 1];
            i -= 1;
        }
        list[i] = entry;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::square::{parse_square, square_name};
    use crate::board::testing::for_every_size;
    use crate::board::testing::random_walk;
    use crate::board::*;

    // 8x8 helpers: squares by name, positions from the discs of each side.

    fn sq(name: &str) -> u32 {
        parse_square(8, name).unwrap()
    }

    fn board(names: &str) -> u64 {
        names
            .split_whitespace()
            .fold(0, |b, n| b | <u64 as Bits>::bit(sq(n)))
    }

    /// An 8x8 position from the discs of the side to move and of the other side.
    fn pos(player: &str, opponent: &str) -> Position<S8> {
        Position::new(board(player), board(opponent))
    }

    fn named(choice: Option<(u32, i32)>) -> Option<(String, i32)> {
        choice.map(|(s, v)| (square_name(8, s), v))
    }

    fn some(name: &str, score: i32) -> Option<(String, i32)> {
        Some((name.to_string(), score))
    }

    /// The 8x8 position after `moves` from the start, passing when needed.
    fn after(moves: &[&str]) -> Position<S8> {
        moves.iter().fold(Position::start(), |p, m| {
            let p = if p.legal_moves().is_zero() {
                p.pass()
            } else {
                p
            };
            p.play(sq(m)).unwrap()
        })
    }

    // A plain transcription of the original's rules, square by square and
    // without pruning, to check the search against: it shares neither the
    // bonus table nor the scan order with the code under test.

    /// `bonusvalue` on the original's 1-based (x, y) of the `n`x`n` board
    /// (`BOARDSIZE`), edge test included.
    fn reference_bonus(n: u32, s: u32) -> i32 {
        let n = n as i32;
        let (x, y) = ((s as i32 % n) + 1, (s as i32 / n) + 1);
        let corner = |x: i32, y: i32| (x == 1 || x == n) && (y == 1 || y == n);
        let next_corner = (-1..=1).any(|dx| (-1..=1).any(|dy| corner(x + dx, y + dy)));
        let edge = !corner(x, y) && (x == 1 || x == n) && (y == 1 || y == n);
        if corner(x, y) {
            10
        } else if next_corner {
            -8
        } else if edge {
            5
        } else {
            0
        }
    }

    /// `look`.
    fn reference_look<G: Geometry>(p: Position<G>, s: u32, depth: u32) -> i32 {
        let flips = p.flips(s);
        let worth = flips.count() as i32 + reference_bonus(G::N, s);
        if depth == 0 {
            worth
        } else {
            worth - reference_scan(p.play_with(s, flips), depth - 1).1
        }
    }

    /// `scanboard` with `look`: x (our column) outer, y (row) inner, the
    /// first strictly better score kept, 10000 skipped, -9999 to beat.
    fn reference_scan<G: Geometry>(p: Position<G>, depth: u32) -> (Option<u32>, i32) {
        let mut best = (None, -9999);
        for x in 0..G::N {
            for y in 0..G::N {
                let s = y * G::N + x;
                if p.is_legal(s) {
                    let v = reference_look(p, s, depth);
                    if v > best.1 && v != 10000 {
                        best = (Some(s), v);
                    }
                }
            }
        }
        best
    }

    fn agrees_with_transcription<G: Geometry>(positions: u64, max_depth: u32) {
        for seed in 0..positions {
            let p = random_walk::<G>(seed, 2 + (seed as usize * 5) % (G::SQUARES as usize - 6));
            if p.legal_moves().is_zero() {
                continue;
            }
            for depth in 0..=max_depth {
                if let (Some(s), v) = reference_scan(p, depth) {
                    assert_eq!(choose(p, Strategy::Lookahead(depth), None), Some((s, v)));
                }
                for s in p.legal_moves().squares() {
                    assert_eq!(
                        evaluate(p, s, Strategy::Lookahead(depth)),
                        Some(reference_look(p, s, depth))
                    );
                }
            }
        }
    }

    #[test]
    fn other_sizes_agree_with_the_transcription() {
        agrees_with_transcription::<S4>(20, 4);
        agrees_with_transcription::<S6>(20, 3);
        agrees_with_transcription::<S10>(6, 2);
        agrees_with_transcription::<S16>(3, 2);
    }

    #[test]
    fn bonus_on_small_and_big_boards() {
        assert_eq!(bonus::<S6>(0), 10);
        assert_eq!(bonus::<S6>(7), -8);
        assert_eq!(bonus::<S6>(14), 0);
        assert_eq!(bonus::<S16>(255), 10);
        assert_eq!(bonus::<S16>(254 - 16), -8);
        // On 4x4 every square touches a corner.
        assert!((0..16).all(|s| bonus::<S4>(s) != 0));
    }

    #[test]
    fn bonus_is_the_originals_on_every_size() {
        fn check<G: Geometry>() {
            for s in 0..G::SQUARES {
                assert_eq!(
                    bonus::<G>(s),
                    reference_bonus(G::N, s),
                    "{}",
                    square_name(G::N, s)
                );
            }
            let near = (0..G::SQUARES).filter(|&s| bonus::<G>(s) == -8).count();
            // On 4x4 too: all twelve squares that are not corners.
            assert_eq!(near, 12, "{}x{}", G::N, G::N);
            assert_eq!((0..G::SQUARES).filter(|&s| bonus::<G>(s) == 10).count(), 4);
        }
        for_every_size!(check);
    }

    #[test]
    fn bonus_is_corner_ten_next_to_corner_minus_eight_else_zero() {
        for c in ["a1", "h1", "a8", "h8"] {
            assert_eq!(bonus::<S8>(sq(c)), 10, "{c}");
        }
        let near = "b1 a2 b2 g1 h2 g2 a7 b7 b8 h7 g7 g8";
        for s in board(near).squares() {
            assert_eq!(bonus::<S8>(s), -8, "{}", square_name(8, s));
        }
        // Edges get nothing: the original's edge test can never hold.
        for e in ["c1", "a4", "h5", "f8", "d4"] {
            assert_eq!(bonus::<S8>(sq(e)), 0, "{e}");
        }
        assert_eq!((0..64).filter(|&s| bonus::<S8>(s) == -8).count(), 12);
    }

    #[test]
    fn scan_order_is_column_by_column() {
        let order: Vec<u32> = scan_order::<S8>().collect();
        let first: Vec<String> = order[..10].iter().map(|&s| square_name(8, s)).collect();
        assert_eq!(
            first,
            ["a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "b1", "b2"]
        );
        assert_eq!(order.len(), 64);
        assert_eq!(order[63], sq("h8"));
        let mut sorted = order.clone();
        sorted.sort();
        assert!(sorted.iter().copied().eq(0..64));
    }

    #[test]
    fn greedy_takes_the_largest_capture() {
        // After c4 c5 black flips two on c6 or e6, one elsewhere.
        let p = after(&["c4", "c5"]);
        assert_eq!(named(choose(p, Strategy::Greedy, None)), some("c6", 2));
        // Three on d4 beat the corner's one for Greedy, not for Corners.
        let p = pos("c3 h4", "b2 e4 f4 g4");
        assert_eq!(named(choose(p, Strategy::Greedy, None)), some("d4", 3));
        assert_eq!(named(choose(p, Strategy::Corners, None)), some("a1", 11));
    }

    #[test]
    fn ties_go_to_the_first_in_scan_order() {
        // All four openings flip one disc. Column c comes before column d, so
        // c4 wins although d3 comes first in a1..h8 index order.
        let start = Position::<S8>::start();
        for strategy in [Strategy::Greedy, Strategy::Corners, Strategy::Lookahead(0)] {
            assert_eq!(named(choose(start, strategy, None)), some("c4", 1));
        }
        // White after c4: c3, e3 and c5 flip one each.
        let p = after(&["c4"]);
        assert_eq!(named(choose(p, Strategy::Greedy, None)), some("c3", 1));
    }

    #[test]
    fn corners_avoids_squares_next_to_a_corner() {
        // b2 (first in scan order) and f6 both flip one; b2 costs 8.
        let p = pos("d4", "c3 e5");
        assert_eq!(named(choose(p, Strategy::Greedy, None)), some("b2", 1));
        assert_eq!(named(choose(p, Strategy::Corners, None)), some("f6", 1));
        assert_eq!(evaluate(p, sq("b2"), Strategy::Corners), Some(-7));
        assert_eq!(evaluate(p, sq("a1"), Strategy::Corners), None);
    }

    #[test]
    fn lookahead_one_and_two_from_the_start() {
        // After c4 white's c3 and e3 (one disc each) leave black one disc at
        // best: 1 - 1 = 0; c5 lets black take two on c6 or e6: 1 - 2 = -1.
        let p = after(&["c4"]);
        let one = Strategy::Lookahead(1);
        assert_eq!(evaluate(p, sq("c3"), one), Some(0));
        assert_eq!(evaluate(p, sq("e3"), one), Some(0));
        assert_eq!(evaluate(p, sq("c5"), one), Some(-1));
        assert_eq!(named(choose(p, one, None)), some("c3", 0));
        // So black's c4 is worth 1 - max(0, 0, -1) = 1 two levels deep, and
        // the other openings likewise by symmetry.
        let two = Strategy::Lookahead(2);
        let start = Position::<S8>::start();
        for m in ["c4", "d3", "e6", "f5"] {
            assert_eq!(evaluate(start, sq(m), two), Some(1), "{m}");
            assert_eq!(evaluate(start, sq(m), one), Some(0), "{m}");
        }
        assert_eq!(named(choose(start, two, None)), some("c4", 1));
        assert_eq!(named(choose(start, one, None)), some("c4", 0));
    }

    #[test]
    fn lookahead_zero_is_corners() {
        fn check<G: Geometry>(positions: u64) {
            for seed in 0..positions {
                let plies = (10 + seed as usize * 2).min(G::SQUARES as usize - 6);
                let p = random_walk::<G>(seed, plies);
                for s in p.legal_moves().squares() {
                    assert_eq!(
                        evaluate(p, s, Strategy::Lookahead(0)),
                        evaluate(p, s, Strategy::Corners)
                    );
                }
            }
        }
        check::<S8>(20);
        check::<S6>(10);
        check::<S10>(10);
    }

    #[test]
    fn a_reply_less_opponent_is_worth_9999() {
        // f4 takes both white discs: 2 - (-9999), whatever the depth.
        let p = pos("c4", "d4 e4");
        for depth in 1..5 {
            let strategy = Strategy::Lookahead(depth);
            assert_eq!(named(choose(p, strategy, None)), some("f4", 10_001));
        }
    }

    #[test]
    fn a_score_of_exactly_10000_is_skipped() {
        // e4 flips one and leaves white's b2 without a move: 1 + 9999, the
        // original's INVALID. Its scan takes c3 instead: one disc, then
        // white's b4 flips one back (1 - 1 = 0); two deep black's answer to
        // b4 flips one too (1 - (1 - 1) = 1).
        let p = pos("a1 c4", "b2 d4");
        assert_eq!(evaluate(p, sq("e4"), Strategy::Lookahead(1)), Some(10_000));
        assert_eq!(evaluate(p, sq("e4"), Strategy::Lookahead(2)), Some(10_000));
        assert_eq!(
            named(choose(p, Strategy::Lookahead(1), None)),
            some("c3", 0)
        );
        assert_eq!(
            named(choose(p, Strategy::Lookahead(2), None)),
            some("c3", 1)
        );
        for depth in 1..4 {
            let r = reference_scan(p, depth);
            assert_eq!(
                named(choose(p, Strategy::Lookahead(depth), None)),
                named(r.0.map(|s| (s, r.1)))
            );
        }
    }

    #[test]
    fn where_the_original_would_pass_the_best_move_is_played() {
        // The only move scores 10000: the original finds no move.
        let p = pos("c4", "d4");
        assert_eq!(reference_scan(p, 1), (None, -9999));
        assert_eq!(
            named(choose(p, Strategy::Lookahead(1), None)),
            some("e4", 10_000)
        );
        assert_eq!(named(choose(p, Strategy::Greedy, None)), some("e4", 1));
        // e4 lets white take all three back on b4 (3 + 9999), so two deep it
        // is worth 1 - 10002, below the scan's -9999; one deep 1 - 3.
        let p = pos("c4", "d4 f4");
        assert_eq!(
            named(choose(p, Strategy::Lookahead(1), None)),
            some("e4", -2)
        );
        assert_eq!(reference_scan(p, 2), (None, -9999));
        assert_eq!(
            named(choose(p, Strategy::Lookahead(2), None)),
            some("e4", -10_001)
        );
    }

    #[test]
    fn no_legal_move_gives_none() {
        let p = pos("a1", "h8");
        for strategy in [Strategy::Greedy, Strategy::Corners, Strategy::Lookahead(3)] {
            assert_eq!(choose(p, strategy, None), None);
            assert_eq!(choose(p, strategy, Some(&mut Rng::new(1))), None);
        }
    }

    #[test]
    fn search_agrees_with_the_plain_transcription() {
        let mut checked = 0;
        for seed in 0..60u64 {
            let plies = 4 + (seed as usize * 7) % 57;
            let p = random_walk::<S8>(seed, plies);
            if p.legal_moves().is_zero() {
                continue;
            }
            let max_depth = if p.empties().count() <= 14 { 5 } else { 3 };
            for depth in 0..=max_depth {
                let strategy = Strategy::Lookahead(depth);
                let scores: Vec<(u32, i32)> = (0..8)
                    .flat_map(|x| (0..8).map(move |y| y * 8 + x))
                    .filter(|&s| p.is_legal(s))
                    .map(|s| (s, reference_look(p, s, depth)))
                    .collect();
                for &(s, v) in &scores {
                    assert_eq!(
                        evaluate(p, s, strategy),
                        Some(v),
                        "seed {seed} {} {depth}",
                        square_name(8, s)
                    );
                }
                // The original's pick, or else the first best of all scores.
                let expected = match reference_scan(p, depth) {
                    (Some(s), v) => (s, v),
                    _ => scores
                        .iter()
                        .fold(scores[0], |b, &m| if m.1 > b.1 { m } else { b }),
                };
                assert_eq!(
                    choose(p, strategy, None),
                    Some(expected),
                    "seed {seed} {depth}"
                );
                let mut rng = Rng::new(seed);
                let (s, v) = choose(p, strategy, Some(&mut rng)).unwrap();
                assert_eq!(v, expected.1);
                assert!(scores.contains(&(s, v)));
                checked += 1;
            }
        }
        assert!(checked > 150);
    }

    #[test]
    fn seeded_ties_are_reproducible_and_among_the_best() {
        // The four openings tie for Greedy: every seed picks one of them, the
        // same one again for the same seed, and all four come up.
        let start = Position::<S8>::start();
        let mut seen = Vec::new();
        for seed in 0..64 {
            let a = choose(start, Strategy::Greedy, Some(&mut Rng::new(seed)));
            let b = choose(start, Strategy::Greedy, Some(&mut Rng::new(seed)));
            assert_eq!(a, b);
            let (s, v) = a.unwrap();
            assert_eq!(v, 1);
            if !seen.contains(&s) {
                seen.push(s);
            }
        }
        seen.sort();
        let names: Vec<String> = seen.iter().map(|&s| square_name(8, s)).collect();
        assert_eq!(names, ["d3", "c4", "f5", "e6"]);
        // After c4, c5 (-1) is never drawn against c3 and e3 (0).
        let p = after(&["c4"]);
        let mut rng = Rng::new(9);
        let mut drawn = [0; 2];
        for _ in 0..100 {
            match named(choose(p, Strategy::Lookahead(1), Some(&mut rng))) {
                Some((s, 0)) if s == "c3" => drawn[0] += 1,
                Some((s, 0)) if s == "e3" => drawn[1] += 1,
                other => panic!("{other:?}"),
            }
        }
        assert!(drawn[0] > 20 && drawn[1] > 20, "{drawn:?}");
    }

    /// Plays a game to the end, passing when there is no move; returns the
    /// moves played.
    fn play_game<G: Geometry>(black: Strategy, white: Strategy, mut rng: Option<Rng>) -> Vec<u32> {
        let mut p = Position::<G>::start();
        let mut moves = Vec::new();
        let mut turn = 0;
        while !p.is_game_over() {
            let strategy = if turn % 2 == 0 { black } else { white };
            match choose(p, strategy, rng.as_mut()) {
                Some((s, _)) => {
                    assert!(p.is_legal(s));
                    p = p.play(s).unwrap();
                    moves.push(s);
                }
                None => {
                    assert!(p.legal_moves().is_zero());
                    p = p.pass();
                }
            }
            turn += 1;
        }
        assert_eq!((p.player | p.opponent).count() as usize, 4 + moves.len());
        moves
    }

    #[test]
    fn full_games_with_every_strategy() {
        let strategies = [
            Strategy::Greedy,
            Strategy::Corners,
            Strategy::Lookahead(1),
            Strategy::Lookahead(2),
            Strategy::Lookahead(3),
        ];
        for &black in &strategies {
            for &white in &strategies {
                let game = play_game::<S8>(black, white, None);
                // Without a tie-break a game is fully determined.
                assert_eq!(game, play_game::<S8>(black, white, None));
            }
            let a = play_game::<S8>(black, Strategy::Greedy, Some(Rng::new(5)));
            assert_eq!(
                a,
                play_game::<S8>(black, Strategy::Greedy, Some(Rng::new(5)))
            );
        }
        // And to the end on the other sizes.
        for &black in &strategies {
            play_game::<S4>(black, Strategy::Lookahead(2), None);
            play_game::<S6>(black, Strategy::Corners, Some(Rng::new(6)));
            play_game::<S10>(black, Strategy::Greedy, None);
        }
    }

    #[test]
    fn deepest_level_answers_midgame_positions() {
        for seed in 0..3 {
            let p = random_walk::<S8>(100 + seed, 20);
            let (s, v) = choose(p, level_lookahead(9), None).unwrap();
            assert!(p.is_legal(s));
            assert_eq!(evaluate(p, s, Strategy::Lookahead(9)), Some(v));
        }
    }

    #[test]
    fn depth_beyond_the_empty_squares_changes_nothing() {
        let p = random_walk::<S8>(3, 54);
        let e = p.empties().count();
        assert!(e <= 8 && !p.legal_moves().is_zero());
        assert_eq!(
            choose(p, Strategy::Lookahead(e), None),
            choose(p, Strategy::Lookahead(60), None)
        );
        assert_eq!(
            choose(p, Strategy::Lookahead(u32::MAX), None),
            choose(p, Strategy::Lookahead(e), None)
        );
    }

    #[test]
    fn levels_map_to_lookahead_depths() {
        for level in 0..=9 {
            assert_eq!(level_lookahead(level), Strategy::Lookahead(level));
        }
        assert_eq!(level_lookahead(10), Strategy::Lookahead(0));
    }
}
