//! The 1986 program's strategies on any board size: [`crate::classic`]
//! written over a geometry. The original was built around a `BOARDSIZE`
//! constant, and its rules carry over unchanged: a move scores the discs it
//! flips plus a square bonus (+10 on a corner, -8 next to one, 0 elsewhere),
//! `look` subtracts the opponent's best reply one level shallower, and the
//! scan goes column by column (a1 a2 .. b1 ..), keeping the first strictly
//! better move. The quirks of [`crate::classic`] are kept as well (-9999
//! for a side without a move, 10000 skipped); the tests check that on 8x8
//! this gives exactly the dedicated module's moves.

use super::bits::Bits;
use super::geometry::Geometry;
use super::hash::key;
use super::position::Pos;
use crate::classic::Strategy;
use crate::rng::Rng;

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

/// The move the original would play, with its score; `None` only when there
/// is no legal move. As [`crate::classic::choose`].
pub fn choose<G: Geometry>(
    pos: Pos<G>,
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
pub fn evaluate<G: Geometry>(pos: Pos<G>, sq: u32, strategy: Strategy) -> Option<i32> {
    let flips = pos.flips(sq);
    if flips.is_zero() {
        None
    } else {
        let strategy = bounded(strategy, pos);
        Search::<G>::new(strategy).score_above(pos, sq, flips, strategy, -INF)
    }
}

fn bounded<G: Geometry>(s: Strategy, pos: Pos<G>) -> Strategy {
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
    key: u128,
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
        pos: Pos<G>,
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
        pos: Pos<G>,
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

    fn slot(&self, k: u128) -> usize {
        let h = ((k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ ((k >> 64) as u64).wrapping_mul(0xc2b2_ae3d_27d4_eb4f))
            >> (64 - self.bits);
        h as usize
    }

    /// As `crate::classic`'s: the best accepted `look` score of the side to
    /// move, or -9999; fail-soft alpha-beta.
    fn best_reply(&mut self, pos: Pos<G>, depth: u32, alpha: i32, beta: i32) -> i32 {
        if depth == 0 {
            return best_gain(pos, beta);
        }
        let mut best = NO_MOVE;
        if best >= beta {
            return best;
        }
        let use_table = depth >= TABLE_MIN_DEPTH && !self.table.is_empty();
        let k = if use_table { key(pos) } else { 0 };
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

    fn reply_is(&mut self, pos: Pos<G>, depth: u32, target: i32) -> bool {
        self.best_reply(pos, depth, target - 1, target + 1) == target
    }
}

/// `best_reply` at depth 0: the best `mostcorners` score, or -9999.
fn best_gain<G: Geometry>(pos: Pos<G>, beta: i32) -> i32 {
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
fn fill<G: Geometry>(list: &mut Vec<(u32, G::B, i32)>, pos: Pos<G>, first: u16) {
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
    use crate::sized::geometry::*;

    fn random_position<G: Geometry>(seed: u64, plies: usize) -> Pos<G> {
        let mut rng = Rng::new(seed);
        let mut p = Pos::<G>::start();
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

    #[test]
    fn generic_8x8_plays_the_dedicated_moves() {
        let mut checked = 0;
        for seed in 0..40u64 {
            let p = random_position::<S8>(seed, 4 + (seed as usize * 7) % 55);
            if p.legal_moves().is_zero() {
                continue;
            }
            let dedicated =
                crate::Position::new(crate::Bitboard(p.player), crate::Bitboard(p.opponent));
            let max_depth = if p.empties().count() <= 14 { 5 } else { 3 };
            for depth in 0..=max_depth {
                for strategy in [
                    Strategy::Greedy,
                    Strategy::Corners,
                    Strategy::Lookahead(depth),
                ] {
                    let ours = choose(p, strategy, None);
                    let theirs = crate::classic::choose(dedicated, strategy, None)
                        .map(|(s, v)| (s.index() as u32, v));
                    assert_eq!(ours, theirs, "seed {seed} {strategy:?}");
                    let mut a = Rng::new(seed);
                    let mut b = Rng::new(seed);
                    let ours = choose(p, strategy, Some(&mut a));
                    let theirs = crate::classic::choose(dedicated, strategy, Some(&mut b))
                        .map(|(s, v)| (s.index() as u32, v));
                    assert_eq!(ours, theirs, "seed {seed} {strategy:?} tie-break");
                    checked += 1;
                }
            }
        }
        assert!(checked > 200);
    }

    /// A plain transcription of `look` and `scanboard` on any size.
    fn reference_look<G: Geometry>(p: Pos<G>, s: u32, depth: u32) -> i32 {
        let flips = p.flips(s);
        let worth = flips.count() as i32 + bonus::<G>(s);
        if depth == 0 {
            worth
        } else {
            worth - reference_scan(p.play_with(s, flips), depth - 1).1
        }
    }

    fn reference_scan<G: Geometry>(p: Pos<G>, depth: u32) -> (Option<u32>, i32) {
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
