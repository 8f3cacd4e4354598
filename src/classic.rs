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

use crate::board::{Bits, Geometry, Position};
use crate::rng::Rng;
use crate::search::table::{key, Key};

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
    use crate::board::*;

    fn random_position<G: Geometry>(seed: u64, plies: usize) -> Position<G> {
        let mut rng = Rng::new(seed);
        let mut p = Position::<G>::start();
        for _ in 0..plies {
            if p.is_game_over() {
                break;
            }
            if p.legal_moves().is_zero() {
                p = p.pass();
            }
            let moves: Vec<u32> = p.legal_moves().squares().collect();
            p = p.play(moves[rng.below(moves.len())]).unwrap();
        }
        p
    }

    /// A plain transcription of `look` and `scanboard` on any size.
    fn reference_look<G: Geometry>(p: Position<G>, s: u32, depth: u32) -> i32 {
        let flips = p.flips(s);
        let worth = flips.count() as i32 + bonus::<G>(s);
        if depth == 0 {
            worth
        } else {
            worth - reference_scan(p.play_with(s, flips), depth - 1).1
        }
    }

    fn reference_scan<G: Geometry>(p: Position<G>, depth: u32) -> (Option<u32>, i32) {
        let mut best = (None, -9999);
        for s in scan_order::<G>() {
            if p.legal_moves().has(s) {
                let v = reference_look(p, s, depth);
                if v > best.1 && v != 10000 {
                    best = (Some(s), v);
                }
            }
        }
        best
    }

    fn agrees_with_transcription<G: Geometry>(positions: u64, max_depth: u32) {
        for seed in 0..positions {
            let p = random_position::<G>(seed, 2 + (seed as usize * 5) % (G::SQUARES as usize - 6));
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
}
