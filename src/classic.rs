//! The strategies of "OTHELLO v1.1.8" (Jonathan Dubman, 1986), rewritten.
//!
//! The original scores a move by the discs it flips (`mostpieces`), plus a square
//! bonus (`mostcorners`: +10 on a corner, -8 on the twelve squares touching one,
//! 0 elsewhere: its edge bonus of +5 can never fire, as its edge test also
//! demands a corner), or by `look`: that bonus score minus the opponent's best
//! reply scored the same way one level shallower, down to `mostcorners`. Its
//! scan keeps the first strictly better move, column by column (a1 a2 .. a8 b1
//! .. h8 here; its random scan order never changes, as `rerandomize` always gets
//! 0). Quirks reproduced: a side with no move inside the lookahead is worth
//! -9999 (the scan's starting maximum), so a move leaving the opponent without
//! a reply scores discs + bonus + 9999, and the recursion stops there; a move
//! worth exactly 10000 (its `INVALID`) is skipped as if illegal; a move worth
//! -9999 or less is never picked. When the original would therefore pass with
//! legal moves on the board, [`choose`] plays the best of those moves instead.

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
/// Beyond any score (scores stay within a few times 10^4 per level).
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
/// scan order wins; with it, one of the equally best moves drawn uniformly.
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
/// Searches this deep get a table.
const TABLE_FROM: u32 = 4;
const TABLE_BITS: u32 = 16;

/// One search: the table, if the strategy is deep enough to need one, and a
/// move list per depth, made once.
struct Search {
    table: Vec<Entry>,
    lists: Vec<MoveList>,
}

impl Search {
    fn new(strategy: Strategy) -> Search {
        let size = match strategy {
            Strategy::Lookahead(depth) if depth >= TABLE_FROM => 1 << TABLE_BITS,
            _ => 0,
        };
        let depth = match strategy {
            Strategy::Lookahead(depth) => depth as usize,
            _ => 0,
        };
        Search {
            table: vec![Entry::default(); size],
            lists: vec![MoveList::EMPTY; depth],
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
            Strategy::Lookahead(depth) if depth >= 2 => self
                .pick(pos, Strategy::Lookahead(depth - 1), true, None)
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
                Some((g, score)) if g == sq => Some(score).filter(|&s| s > floor),
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
            >> (64 - TABLE_BITS);
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
            let score = g - self.best_reply(child, depth - 1, g - beta, g - lo);
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
