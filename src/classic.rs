//! The strategies of "OTHELLO v1.1.8" (Jonathan Dubman, 1986), rewritten.
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

use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::rng::Rng;
use crate::square::Square;

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
/// The scan's starting maximum: the worth of a side with no move it accepts,
/// and the score a move must beat to be picked.
const NO_MOVE: i32 = -9_999;
/// Beyond any score: scores lie in -10034..=10027, as a pass ends the
/// recursion.
const INF: i32 = 1 << 28;

/// The original's `bonusvalue`, per square.
static BONUS: [i32; 64] = bonus_table();

const fn bonus_table() -> [i32; 64] {
    let mut table = [0; 64];
    let mut i = 0;
    while i < 64 {
        let (col, row) = (i % 8, i / 8);
        // Within one step (any direction) of a corner: both coordinates are
        // 0, 1, 6 or 7; on the corner itself: both are 0 or 7.
        let near = (col <= 1 || col >= 6) && (row <= 1 || row >= 6);
        let corner = (col == 0 || col == 7) && (row == 0 || row == 7);
        table[i] = if corner {
            10
        } else if near {
            -8
        } else {
            0
        };
        i += 1;
    }
    table
}

/// The original's scan order: its outer loop walks the columns, the inner one
/// the rows, so a1 a2 .. a8 b1 .. h8.
static SCAN_ORDER: [Square; 64] = scan_order();

const fn scan_order() -> [Square; 64] {
    let mut order = [Square::from_coords(0, 0); 64];
    let mut i = 0;
    while i < 64 {
        order[i] = Square::from_coords((i / 8) as u8, (i % 8) as u8);
        i += 1;
    }
    order
}

/// The skill level 0..9 of the original's prompt as a strategy: it always
/// plays `look` with the level as depth. Anything else falls back to 0, as
/// its prompt does for any answer but a digit 1..9.
pub fn level_lookahead(level: u32) -> Strategy {
    Strategy::Lookahead(if level <= 9 { level } else { 0 })
}

/// The move the original would play, with its score; `None` only when there is
/// no legal move. Without `tie_break` the first best move in the original's
/// scan order wins; with it, one of the equally best moves drawn uniformly
/// (one draw from the generator when two or more tie, none otherwise).
///
/// Where the original would pass although it has a move (every score is
/// 10000 or at most -9999, only possible with `Lookahead`), this returns the
/// best of the legal moves on the same scores instead.
pub fn choose(
    pos: Position,
    strategy: Strategy,
    tie_break: Option<&mut Rng>,
) -> Option<(Square, i32)> {
    let mut tie_break = tie_break;
    if pos.legal_moves().is_empty() {
        return None;
    }
    let strategy = strategy.bounded(pos);
    let mut search = Search::new(strategy);
    search
        .pick(pos, strategy, true, tie_break.as_deref_mut())
        .or_else(|| search.pick(pos, strategy, false, tie_break))
}

/// The score the original's evaluation gives a move, or `None` if the move is
/// illegal. The score may be one its scan would skip (10000, or -9999 and
/// below).
pub fn evaluate(pos: Position, sq: Square, strategy: Strategy) -> Option<i32> {
    let flips = pos.flips(sq);
    if flips.is_empty() {
        None
    } else {
        let strategy = strategy.bounded(pos);
        Search::new(strategy).score_above(pos, sq, flips, strategy, -INF)
    }
}

impl Strategy {
    /// The same strategy with a depth of at most the number of empty squares,
    /// which scores every move the same: the game is over by then.
    fn bounded(self, pos: Position) -> Strategy {
        match self {
            Strategy::Lookahead(depth) => Strategy::Lookahead(depth.min(pos.empties().count())),
            other => other,
        }
    }
}

/// Whether the original's scan accepts a score.
fn accepted(score: i32) -> bool {
    score != INVALID && score > NO_MOVE
}

/// Discs flipped plus the square's bonus: `mostcorners`.
#[inline]
fn gain(sq: Square, flips: Bitboard) -> i32 {
    flips.count() as i32 + BONUS[sq.index() as usize]
}

/// Bounds on `best_reply(pos, depth)` found earlier, and the move that gave
/// them, so that transpositions and re-searches cost little.
#[derive(Clone, Copy, Default)]
struct Entry {
    player: u64,
    opponent: u64,
    lower: i32,
    upper: i32,
    /// 0 for an empty slot: only depths from `TABLE_MIN_DEPTH` are stored.
    depth: u8,
    /// The index of the move to try first, 64 for none.
    best: u8,
}

/// Shallower nodes are cheaper to search again than to look up.
const TABLE_MIN_DEPTH: u32 = 2;
/// Searches this deep get a table...
const TABLE_FROM: u32 = 4;
/// ... of 2^(12 + depth) entries, up to 2^18 (8 MiB).
const TABLE_MAX_BITS: u32 = 18;

/// One search: the table, if the strategy is deep enough to need one, and a
/// move list per depth, made once.
struct Search {
    table: Vec<Entry>,
    /// log2 of the table's size.
    bits: u32,
    lists: Vec<MoveList>,
}

impl Search {
    fn new(strategy: Strategy) -> Search {
        let depth = match strategy {
            Strategy::Lookahead(depth) => depth,
            _ => 0,
        };
        let bits = (12 + depth).min(TABLE_MAX_BITS);
        let size = if depth >= TABLE_FROM { 1 << bits } else { 0 };
        Search {
            table: vec![Entry::default(); size],
            bits,
            lists: vec![MoveList::EMPTY; depth as usize],
        }
    }

    /// Scans the legal moves in the original's order. `filtered` applies its
    /// scan's rules (skip 10000, need more than -9999); without it any score
    /// goes.
    fn pick(
        &mut self,
        pos: Position,
        strategy: Strategy,
        filtered: bool,
        tie_break: Option<&mut Rng>,
    ) -> Option<(Square, i32)> {
        let legal = pos.legal_moves();
        let ok = |score: i32| !filtered || accepted(score);
        // Scoring the likely best move first (the best one at a shallower
        // depth) gives a floor that most moves are quickly proved below.
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
        let mut ties = [Square::from_coords(0, 0); 64];
        let mut count = 0;
        for &sq in SCAN_ORDER.iter().filter(|&&sq| legal.contains(sq)) {
            // Only scores above the floor matter (ties too when drawing one):
            // the search proves the rest are below and stops early.
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
                Some(b) if score == b => {
                    ties[count] = sq;
                    count += 1;
                }
                _ => {
                    best = Some(score);
                    ties[0] = sq;
                    count = 1;
                }
            }
        }
        let index = match tie_break {
            Some(rng) if count > 1 => rng.below(count),
            _ => 0,
        };
        best.map(|score| (ties[index], score))
    }

    /// The exact score of the legal move `sq` (flipping `flips`) if it is
    /// above `floor`, else `None`.
    fn score_above(
        &mut self,
        pos: Position,
        sq: Square,
        flips: Bitboard,
        strategy: Strategy,
        floor: i32,
    ) -> Option<i32> {
        let score = match strategy {
            Strategy::Greedy => flips.count() as i32,
            Strategy::Corners | Strategy::Lookahead(0) => gain(sq, flips),
            Strategy::Lookahead(depth) => {
                let g = gain(sq, flips);
                g - self.best_reply(pos.play_with(sq, flips), depth - 1, -INF, g - floor)
            }
        };
        (score > floor).then_some(score)
    }

    fn slot(&self, pos: Position) -> usize {
        let h = (pos.player.0.wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ pos.opponent.0.wrapping_mul(0xc2b2_ae3d_27d4_eb4f))
            >> (64 - self.bits);
        h as usize
    }

    /// The score the original's scan reports for the side to move in `pos`
    /// when each move is scored by `look` with `depth`: the best accepted
    /// score, or -9999. A fail-soft alpha-beta search: exact when strictly
    /// inside `(alpha, beta)`, else a bound on the same side of the window.
    /// The value does not depend on the order moves are tried in, so the
    /// likely best go first.
    fn best_reply(&mut self, pos: Position, depth: u32, alpha: i32, beta: i32) -> i32 {
        if depth == 0 {
            return best_gain(pos, beta);
        }
        let mut best = NO_MOVE;
        if best >= beta {
            return best;
        }
        let use_table = depth >= TABLE_MIN_DEPTH && !self.table.is_empty();
        let slot = if use_table { self.slot(pos) } else { 0 };
        let mut first = 64;
        if use_table {
            let e = self.table[slot];
            if e.depth != 0 && e.player == pos.player.0 && e.opponent == pos.opponent.0 {
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
        self.lists[depth as usize].fill(pos, first);
        let mut best_move = 64;
        let mut result = None;
        for i in 0..self.lists[depth as usize].len {
            let (sq, flips, g) = self.lists[depth as usize].moves[i];
            let child = pos.play_with(sq, flips);
            let lo = alpha.max(best);
            let mut score = lo + 1;
            if i > 0 && lo + 1 < beta {
                // Principal variation search: first prove it no better.
                score = g - self.best_reply(child, depth - 1, g - lo - 1, g - lo);
            }
            if score > lo {
                score = g - self.best_reply(child, depth - 1, g - beta, g - lo);
            }
            if score >= beta {
                // A lower bound: the move could still be worth exactly
                // INVALID, which the scan skips, so settle that first.
                if score <= INVALID
                    && g - INVALID >= NO_MOVE
                    && self.reply_is(child, depth - 1, g - INVALID)
                {
                    continue;
                }
                best_move = sq.index();
                result = Some(score);
                break;
            }
            if score <= lo {
                // An upper bound at most `lo`: it can only matter as a bound.
                best = best.max(score);
            } else if score != INVALID {
                best = score;
                best_move = sq.index();
            }
        }
        let result = result.unwrap_or(best);
        if use_table {
            let e = &mut self.table[slot];
            let same =
                e.depth as u32 == depth && e.player == pos.player.0 && e.opponent == pos.opponent.0;
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
                player: pos.player.0,
                opponent: pos.opponent.0,
                lower,
                upper,
                depth: depth as u8,
                best: if best_move < 64 { best_move } else { first },
            };
        }
        result
    }

    /// Whether `best_reply(pos, depth)` is exactly `target`.
    fn reply_is(&mut self, pos: Position, depth: u32, target: i32) -> bool {
        self.best_reply(pos, depth, target - 1, target + 1) == target
    }
}

/// `best_reply` at depth 0: the best `mostcorners` score, or -9999. Stops at
/// `beta` (the result is then a lower bound).
fn best_gain(pos: Position, beta: i32) -> i32 {
    let moves = pos.legal_moves();
    let mut best = NO_MOVE;
    // Corners first: their bonus makes an early stop likelier.
    for sq in (moves & CORNERS).chain(moves & !CORNERS) {
        best = best.max(gain(sq, pos.flips(sq)));
        if best >= beta {
            break;
        }
    }
    best
}

const CORNERS: Bitboard = Bitboard(0x8100_0000_0000_0081);

/// The legal moves of a position with their flips and gains, `first` (a
/// square index) first, then by gain, highest first.
#[derive(Clone)]
struct MoveList {
    moves: [(Square, Bitboard, i32); 64],
    len: usize,
}

impl MoveList {
    const EMPTY: MoveList = MoveList {
        moves: [(Square::from_coords(0, 0), Bitboard::EMPTY, 0); 64],
        len: 0,
    };

    fn fill(&mut self, pos: Position, first: u8) {
        self.len = 0;
        let key = |&(sq, _, g): &(Square, Bitboard, i32)| {
            if sq.index() == first {
                i32::MAX
            } else {
                g
            }
        };
        for sq in pos.legal_moves() {
            let flips = pos.flips(sq);
            let entry = (sq, flips, gain(sq, flips));
            // Insertion sort, highest key first.
            let mut i = self.len;
            while i > 0 && key(&self.moves[i - 1]) < key(&entry) {
                self.moves[i] = self.moves[i - 1];
                i -= 1;
            }
            self.moves[i] = entry;
            self.len += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    fn board(names: &str) -> Bitboard {
        names
            .split_whitespace()
            .fold(Bitboard::EMPTY, |b, n| b | Bitboard::from_square(sq(n)))
    }

    /// A position from the discs of the side to move and of the other side.
    fn pos(player: &str, opponent: &str) -> Position {
        Position::new(board(player), board(opponent))
    }

    fn named(choice: Option<(Square, i32)>) -> Option<(String, i32)> {
        choice.map(|(s, v)| (s.to_string(), v))
    }

    fn some(name: &str, score: i32) -> Option<(String, i32)> {
        Some((name.to_string(), score))
    }

    /// The position after `moves` from the start, passing when needed.
    fn after(moves: &[&str]) -> Position {
        moves.iter().fold(Position::start(), |p, m| {
            let p = if p.legal_moves().is_empty() {
                p.pass()
            } else {
                p
            };
            p.play(sq(m)).unwrap()
        })
    }

    /// A position reached by `plies` random moves (passes not counted).
    fn random_position(seed: u64, plies: usize) -> Position {
        let mut rng = Rng::new(seed);
        let mut p = Position::start();
        for _ in 0..plies {
            if p.is_game_over() {
                break;
            }
            if p.legal_moves().is_empty() {
                p = p.pass();
            }
            let moves: Vec<Square> = p.legal_moves().collect();
            p = p.play(moves[rng.below(moves.len())]).unwrap();
        }
        p
    }

    // A plain transcription of the original's rules, square by square and
    // without pruning, to check the search against.

    /// `bonusvalue` on the original's 1-based (x, y), edge test included.
    fn reference_bonus(s: Square) -> i32 {
        let (x, y) = (s.col() as i32 + 1, s.row() as i32 + 1);
        let corner = |x: i32, y: i32| (x == 1 || x == 8) && (y == 1 || y == 8);
        let next_corner = (-1..=1).any(|dx| (-1..=1).any(|dy| corner(x + dx, y + dy)));
        let edge = !corner(x, y) && (x == 1 || x == 8) && (y == 1 || y == 8);
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
    fn reference_look(p: Position, s: Square, depth: u32) -> i32 {
        let flips = p.flips(s);
        let worth = flips.count() as i32 + reference_bonus(s);
        if depth == 0 {
            worth
        } else {
            worth - reference_scan(p.play_with(s, flips), depth - 1).1
        }
    }

    /// `scanboard` with `look`: x (our column) outer, y (row) inner, the
    /// first strictly better score kept, 10000 skipped, -9999 to beat.
    fn reference_scan(p: Position, depth: u32) -> (Option<Square>, i32) {
        let mut best = (None, -9999);
        for x in 0..8 {
            for y in 0..8 {
                let s = Square::from_coords(x, y);
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

    #[test]
    fn bonus_is_corner_ten_next_to_corner_minus_eight_else_zero() {
        for s in Square::all() {
            assert_eq!(BONUS[s.index() as usize], reference_bonus(s), "{s}");
        }
        for c in ["a1", "h1", "a8", "h8"] {
            assert_eq!(BONUS[sq(c).index() as usize], 10);
        }
        let near = "b1 a2 b2 g1 h2 g2 a7 b7 b8 h7 g7 g8";
        for s in board(near) {
            assert_eq!(BONUS[s.index() as usize], -8, "{s}");
        }
        // Edges get nothing: the original's edge test can never hold.
        for e in ["c1", "a4", "h5", "f8", "d4"] {
            assert_eq!(BONUS[sq(e).index() as usize], 0, "{e}");
        }
        assert_eq!(BONUS.iter().filter(|&&b| b == -8).count(), 12);
    }

    #[test]
    fn scan_order_is_column_by_column() {
        let first: Vec<String> = SCAN_ORDER[..10].iter().map(|s| s.to_string()).collect();
        assert_eq!(
            first,
            ["a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "b1", "b2"]
        );
        assert_eq!(SCAN_ORDER[63], sq("h8"));
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
        let start = Position::start();
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
        let start = Position::start();
        for m in ["c4", "d3", "e6", "f5"] {
            assert_eq!(evaluate(start, sq(m), two), Some(1), "{m}");
            assert_eq!(evaluate(start, sq(m), one), Some(0), "{m}");
        }
        assert_eq!(named(choose(start, two, None)), some("c4", 1));
        assert_eq!(named(choose(start, one, None)), some("c4", 0));
    }

    #[test]
    fn lookahead_zero_is_corners() {
        for seed in 0..20 {
            let p = random_position(seed, 10 + seed as usize * 2);
            for s in p.legal_moves() {
                assert_eq!(
                    evaluate(p, s, Strategy::Lookahead(0)),
                    evaluate(p, s, Strategy::Corners)
                );
            }
        }
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
            let p = random_position(seed, plies);
            if p.legal_moves().is_empty() {
                continue;
            }
            let max_depth = if p.empties().count() <= 14 { 5 } else { 3 };
            for depth in 0..=max_depth {
                let strategy = Strategy::Lookahead(depth);
                let scores: Vec<(Square, i32)> = SCAN_ORDER
                    .iter()
                    .filter(|&&s| p.is_legal(s))
                    .map(|&s| (s, reference_look(p, s, depth)))
                    .collect();
                for &(s, v) in &scores {
                    assert_eq!(evaluate(p, s, strategy), Some(v), "seed {seed} {s} {depth}");
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
        let start = Position::start();
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
        let names: Vec<String> = seen.iter().map(|s| s.to_string()).collect();
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
    fn play_game(black: Strategy, white: Strategy, mut rng: Option<Rng>) -> Vec<Square> {
        let mut p = Position::start();
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
                    assert!(p.legal_moves().is_empty());
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
                let game = play_game(black, white, None);
                // Without a tie-break a game is fully determined.
                assert_eq!(game, play_game(black, white, None));
            }
            let a = play_game(black, Strategy::Greedy, Some(Rng::new(5)));
            assert_eq!(a, play_game(black, Strategy::Greedy, Some(Rng::new(5))));
        }
    }

    #[test]
    fn deepest_level_answers_midgame_positions() {
        for seed in 0..3 {
            let p = random_position(100 + seed, 20);
            let (s, v) = choose(p, level_lookahead(9), None).unwrap();
            assert!(p.is_legal(s));
            assert_eq!(evaluate(p, s, Strategy::Lookahead(9)), Some(v));
        }
    }

    #[test]
    fn depth_beyond_the_empty_squares_changes_nothing() {
        let p = random_position(3, 54);
        let e = p.empties().count();
        assert!(e <= 8 && !p.legal_moves().is_empty());
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
