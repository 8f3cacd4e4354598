//! The exact endgame solver: final disc differences (empties to the winner)
//! by alpha-beta over every remaining move.
//!
//! By number of empties: the last square is scored by counting flips; up to
//! `SHALLOW` empties the solver walks the empty squares directly (no move
//! generation), odd quadrants first; above that it generates moves, orders
//! them fastest-first (fewest replies for the opponent) with the hash move
//! first, probes the transposition table, and cuts on stable discs.
//!
//! The recursion is compiled twice on x86-64 (see [`Isa`]): for the build's
//! target and for x86-64-v3 CPUs, chosen once at run time.

use crate::bitboard::Bitboard;
use crate::hash::{Table, NO_MOVE};
use crate::position::{flips_of, moves_of, neighbours, Position};
use crate::square::Square;
use std::sync::atomic::{AtomicBool, Ordering};

/// Above this many empties the solver generates and orders moves.
const SHALLOW: u32 = 6;
/// From this many empties on, the table is probed for every child first.
const ETC_EMPTIES: u32 = 10;
/// From this many empties on, results go to the transposition table.
const HASH_EMPTIES: u32 = 8;
/// Higher than any score.
pub const INF: i32 = 100;

/// `NEIGHBOURS[sq]`: the squares around `sq`. A move must touch an opponent disc.
static NEIGHBOURS: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut i = 0;
    while i < 64 {
        let (c, r) = ((i % 8) as i32, (i / 8) as i32);
        let mut m = 0u64;
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (nc, nr) = (c + dc, r + dr);
                if (dc != 0 || dr != 0) && nc >= 0 && nc < 8 && nr >= 0 && nr < 8 {
                    m |= 1u64 << (nr * 8 + nc);
                }
                dc += 1;
            }
            dr += 1;
        }
        t[i] = m;
        i += 1;
    }
    t
};

/// The four 4x4 quadrants, for parity ordering.
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0f0f_0f0f,
    0x0000_0000_f0f0_f0f0,
    0x0f0f_0f0f_0000_0000,
    0xf0f0_f0f0_0000_0000,
];

/// Empties in quadrants holding an odd number of empties: playing there
/// first tends to leave the opponent the even regions (and us the last move).
#[inline]
fn odd_quadrant_empties(empties: u64) -> u64 {
    let mut odd = 0;
    for q in QUADRANTS {
        if (empties & q).count_ones() & 1 == 1 {
            odd |= empties & q;
        }
    }
    odd
}

/// The final score when neither side can move: empties go to the winner.
#[inline]
fn final_score(p: u64, o: u64) -> i32 {
    Position::new(Bitboard(p), Bitboard(o)).final_score()
}

/// Discs of `p` that can never be flipped (a safe under-estimate): discs
/// that, along each of the four axes, sit on a full line or next to the edge
/// or to a stable disc of their own colour.
pub fn stable_discs(p: u64, o: u64) -> u64 {
    let filled = p | o;
    let (mut full_h, mut full_v, mut full_d, mut full_a) = (0u64, 0u64, 0u64, 0u64);
    for i in 0..8 {
        let row = 0xffu64 << (8 * i);
        if filled & row == row {
            full_h |= row;
        }
        let col = 0x0101_0101_0101_0101u64 << i;
        if filled & col == col {
            full_v |= col;
        }
    }
    for line in DIAGONALS.iter() {
        if filled & line.0 == line.0 {
            full_d |= line.0;
        }
        if filled & line.1 == line.1 {
            full_a |= line.1;
        }
    }
    const EDGE_H: u64 = 0x8181_8181_8181_8181;
    const EDGE_V: u64 = 0xff00_0000_0000_00ff;
    const EDGE: u64 = EDGE_H | EDGE_V;
    const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
    const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let mut stable = 0u64;
    loop {
        let h = full_h | EDGE_H | ((stable << 1) & NOT_A) | ((stable >> 1) & NOT_H);
        let v = full_v | EDGE_V | (stable << 8) | (stable >> 8);
        let d = full_d | EDGE | ((stable << 9) & NOT_A) | ((stable >> 9) & NOT_H);
        let a = full_a | EDGE | ((stable << 7) & NOT_H) | ((stable >> 7) & NOT_A);
        let next = p & h & v & d & a;
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

/// The 15 diagonals (a1-h8 direction) and 15 anti-diagonals (h1-a8), paired.
static DIAGONALS: [(u64, u64); 15] = {
    let mut t = [(0u64, 0u64); 15];
    let mut sq = 0;
    while sq < 64 {
        let (c, r) = (sq % 8, sq / 8);
        t[7 + c - r].0 |= 1u64 << sq;
        t[c + r].1 |= 1u64 << sq;
        sq += 1;
    }
    t
};

/// Why a search ended early.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Abort {
    /// Stopped from outside or a limit (time or nodes) ran out.
    Stopped,
}

/// Search limits and counters shared by the midgame search and the solver.
pub struct Budget<'a> {
    pub nodes: u64,
    pub node_limit: u64,
    pub deadline: Option<std::time::Instant>,
    pub stop: &'a AtomicBool,
    pub stopped: bool,
}

impl<'a> Budget<'a> {
    pub fn new(stop: &'a AtomicBool) -> Budget<'a> {
        Budget {
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            stop,
            stopped: false,
        }
    }

    /// Counts a node; every 4096 nodes looks at the stop flag and the limits.
    #[inline]
    pub fn tick(&mut self) -> Result<(), Abort> {
        self.nodes += 1;
        if self.nodes & 4095 == 0 || self.nodes >= self.node_limit {
            self.check()?;
        }
        Ok(())
    }

    /// Looks at the stop flag and the limits now (between iterations).
    #[cold]
    pub fn check(&mut self) -> Result<(), Abort> {
        let late = self
            .deadline
            .is_some_and(|d| std::time::Instant::now() >= d);
        if self.stopped
            || late
            || self.nodes >= self.node_limit
            || self.stop.load(Ordering::Relaxed)
        {
            self.stopped = true;
            return Err(Abort::Stopped);
        }
        Ok(())
    }
}

/// The instruction set a copy of the solver's recursion is compiled for.
/// Its bit scans and population counts (flips, moves, parity) run ~15%
/// faster with x86-64-v3's LZCNT, TZCNT and BMI than with the baseline the
/// library is built for, so x86-64 has a second copy, [`Haswell`], chosen
/// at run time when the CPU has those instructions.
trait Isa {
    fn shallow(
        s: &mut Solver,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        passed: bool,
    ) -> Result<i32, Abort>;
    fn deep(
        s: &mut Solver,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        passed: bool,
    ) -> Result<i32, Abort>;
}

/// The build's own target.
struct Baseline;

impl Isa for Baseline {
    fn shallow(
        s: &mut Solver,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        passed: bool,
    ) -> Result<i32, Abort> {
        s.shallow_body::<Baseline>(p, o, alpha, beta, passed)
    }
    fn deep(
        s: &mut Solver,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        passed: bool,
    ) -> Result<i32, Abort> {
        s.deep_body::<Baseline>(p, o, alpha, beta, passed)
    }
}

/// x86-64 CPUs with AVX2, BMI1, BMI2, LZCNT and POPCNT (x86-64-v3).
#[cfg(target_arch = "x86_64")]
struct Haswell;

#[cfg(target_arch = "x86_64")]
static HASWELL: once_cell::sync::Lazy<bool> = once_cell::sync::Lazy::new(|| {
    is_x86_feature_detected!("avx2")
        && is_x86_feature_detected!("bmi1")
        && is_x86_feature_detected!("bmi2")
        && is_x86_feature_detected!("lzcnt")
        && is_x86_feature_detected!("popcnt")
});

#[cfg(target_arch = "x86_64")]
impl Isa for Haswell {
    #[inline(always)]
    fn shallow(
        s: &mut Solver,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        passed: bool,
    ) -> Result<i32, Abort> {
        // SAFETY: Haswell is used only when HASWELL found the features.
        unsafe { shallow_haswell(s, p, o, alpha, beta, passed) }
    }
    #[inline(always)]
    fn deep(
        s: &mut Solver,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        passed: bool,
    ) -> Result<i32, Abort> {
        // SAFETY: as above.
        unsafe { deep_haswell(s, p, o, alpha, beta, passed) }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
unsafe fn shallow_haswell(
    s: &mut Solver,
    p: u64,
    o: u64,
    alpha: i32,
    beta: i32,
    passed: bool,
) -> Result<i32, Abort> {
    s.shallow_body::<Haswell>(p, o, alpha, beta, passed)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
unsafe fn deep_haswell(
    s: &mut Solver,
    p: u64,
    o: u64,
    alpha: i32,
    beta: i32,
    passed: bool,
) -> Result<i32, Abort> {
    s.deep_body::<Haswell>(p, o, alpha, beta, passed)
}

/// An exact solver over one transposition table.
pub struct Solver<'t, 'b> {
    pub table: &'t mut Table,
    pub budget: &'t mut Budget<'b>,
    /// The evaluation of the midgame searches that order moves.
    pub eval: &'t crate::pattern::Evaluator,
}

impl Solver<'_, '_> {
    /// The exact score of `pos` if it lies in (alpha, beta); otherwise a bound
    /// on the same side of the window (fail-soft).
    pub fn solve(&mut self, pos: Position, alpha: i32, beta: i32) -> Result<i32, Abort> {
        let (p, o) = (pos.player.0, pos.opponent.0);
        let empties = !(p | o);
        let n = empties.count_ones();
        match n {
            0 => Ok(final_score(p, o)),
            1 => {
                self.budget.tick()?;
                Ok(last_square(p, o, empties.trailing_zeros()))
            }
            _ if n <= SHALLOW => self.shallow(p, o, alpha, beta, false),
            _ => self.deep(p, o, alpha, beta, false),
        }
    }

    /// The best move of `pos` and its exact score (None when the side to move
    /// must pass or the game is over).
    pub fn best_move(
        &mut self,
        pos: Position,
        alpha: i32,
        beta: i32,
    ) -> Result<(Option<Square>, i32), Abort> {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Ok((None, self.solve(pos, alpha, beta)?));
        }
        let score = self.solve(pos, alpha, beta)?;
        let best = self
            .table
            .probe(pos)
            .filter(|e| e.solved && e.best != NO_MOVE)
            .and_then(|e| Square::new(e.best as i64))
            .filter(|&s| moves.contains(s));
        let best = match best {
            Some(s) => s,
            None => {
                // Small positions are not hashed: find the move that reaches the score.
                let mut found = None;
                for sq in moves {
                    let child = pos.play_with(sq, pos.flips(sq));
                    if -self.solve(child, -beta, -alpha)? == score {
                        found = Some(sq);
                        break;
                    }
                }
                found.unwrap_or_else(|| moves.first().expect("moves is not empty"))
            }
        };
        Ok((Some(best), score))
    }

    /// 2..=SHALLOW empties: walk the empties, odd quadrants first.
    fn shallow(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        passed: bool,
    ) -> Result<i32, Abort> {
        #[cfg(target_arch = "x86_64")]
        if *HASWELL {
            return Haswell::shallow(self, p, o, alpha, beta, passed);
        }
        Baseline::shallow(self, p, o, alpha, beta, passed)
    }

    /// More than SHALLOW empties: ordered moves, hash table, stability.
    fn deep(&mut self, p: u64, o: u64, alpha: i32, beta: i32, passed: bool) -> Result<i32, Abort> {
        #[cfg(target_arch = "x86_64")]
        if *HASWELL {
            return Haswell::deep(self, p, o, alpha, beta, passed);
        }
        Baseline::deep(self, p, o, alpha, beta, passed)
    }

    /// The body of [`Solver::shallow`], compiled once per [`Isa`].
    #[inline(always)]
    fn shallow_body<I: Isa>(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        passed: bool,
    ) -> Result<i32, Abort> {
        self.budget.tick()?;
        let empties = !(p | o);
        match empties.count_ones() {
            2 => {
                let x1 = empties.trailing_zeros();
                let x2 = 63 - empties.leading_zeros();
                return Ok(self.two_squares(p, o, alpha, beta, x1, x2, passed));
            }
            3 => return Ok(self.three_squares(p, o, alpha, beta, empties, passed)),
            _ => {}
        }
        let odd = odd_quadrant_empties(empties);
        let mut best = -INF;
        for set in [odd, empties & !odd] {
            let mut rest = set;
            while rest != 0 {
                let x = rest.trailing_zeros();
                rest &= rest - 1;
                if NEIGHBOURS[x as usize] & o == 0 {
                    continue;
                }
                let sq = Square::from_index_unchecked(x as u8);
                let f = flips_of(p, o, sq);
                if f == 0 {
                    continue;
                }
                let score = -I::shallow(self, o ^ f, p ^ f ^ (1 << x), -beta, -alpha, false)?;
                if score > best {
                    best = score;
                    if score > alpha {
                        alpha = score;
                        if alpha >= beta {
                            return Ok(best);
                        }
                    }
                }
            }
        }
        if best == -INF {
            return if passed {
                Ok(final_score(p, o))
            } else {
                Ok(-I::shallow(self, o, p, -beta, -alpha, true)?)
            };
        }
        Ok(best)
    }

    /// Exactly two empties, `x1` and `x2`: no move generation, no recursion
    /// beyond the last square. (No function here calls itself, so that all
    /// of them inline into the copies of [`Isa`].)
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn two_squares(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        x1: u32,
        x2: u32,
        passed: bool,
    ) -> i32 {
        self.budget.nodes += 1;
        if let Some(score) = two_moves(p, o, beta, x1, x2) {
            return score;
        }
        if passed {
            return final_score(p, o);
        }
        self.budget.nodes += 1;
        match two_moves(o, p, -alpha, x1, x2) {
            Some(score) => -score,
            None => final_score(p, o),
        }
    }

    /// Exactly three empties: the square alone in its quadrant first (the
    /// parity order), then the two others, each scored by `two_squares`.
    #[inline(always)]
    fn three_squares(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        empties: u64,
        passed: bool,
    ) -> i32 {
        self.budget.nodes += 1;
        if let Some(score) = self.three_moves(p, o, alpha, beta, empties) {
            return score;
        }
        if passed {
            return final_score(p, o);
        }
        self.budget.nodes += 1;
        match self.three_moves(o, p, -beta, -alpha, empties) {
            Some(score) => -score,
            None => final_score(p, o),
        }
    }

    /// The best of `p`'s moves on three empties, None if it has none.
    #[inline(always)]
    fn three_moves(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        empties: u64,
    ) -> Option<i32> {
        let a = empties.trailing_zeros();
        let c = 63 - empties.leading_zeros();
        let b = (empties & !(1u64 << a) & !(1u64 << c)).trailing_zeros();
        let quadrant = |x: u32| (x >> 5) << 1 | (x >> 2 & 1);
        let order = if quadrant(a) == quadrant(b) {
            [(c, a, b), (a, b, c), (b, a, c)]
        } else if quadrant(a) == quadrant(c) {
            [(b, a, c), (a, b, c), (c, a, b)]
        } else {
            [(a, b, c), (b, a, c), (c, a, b)]
        };
        let mut best = -INF;
        for (x, y, z) in order {
            if NEIGHBOURS[x as usize] & o == 0 {
                continue;
            }
            let f = flips_of(p, o, Square::from_index_unchecked(x as u8));
            if f == 0 {
                continue;
            }
            let score = -self.two_squares(o ^ f, p ^ f ^ (1 << x), -beta, -alpha, y, z, false);
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        return Some(best);
                    }
                }
            }
        }
        (best > -INF).then_some(best)
    }

    /// The body of [`Solver::deep`], compiled once per [`Isa`].
    #[inline(always)]
    fn deep_body<I: Isa>(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        mut beta: i32,
        passed: bool,
    ) -> Result<i32, Abort> {
        self.budget.tick()?;
        let empties = !(p | o);
        let n = empties.count_ones();
        if n <= SHALLOW {
            return I::shallow(self, p, o, alpha, beta, false);
        }
        let moves = moves_of(p, o);
        if moves == 0 {
            if passed {
                return Ok(-final_score(o, p));
            }
            if moves_of(o, p) == 0 {
                return Ok(final_score(p, o));
            }
            return Ok(-I::deep(self, o, p, -beta, -alpha, true)?);
        }
        // Stability: the opponent's stable discs cap our score.
        if 64 - 2 * (o.count_ones() as i32) <= alpha {
            let cap = 64 - 2 * stable_discs(o, p).count_ones() as i32;
            if cap <= alpha {
                return Ok(cap);
            }
            beta = beta.min(cap.max(alpha + 1));
        }
        let pos = Position::new(Bitboard(p), Bitboard(o));
        let use_hash = n >= HASH_EMPTIES;
        let mut hash_move = NO_MOVE;
        if use_hash {
            if let Some(e) = self.table.probe(pos) {
                if e.solved {
                    let (lo, hi) = (e.lower as i32, e.upper as i32);
                    if lo >= beta || lo == hi {
                        return Ok(lo);
                    }
                    if hi <= alpha {
                        return Ok(hi);
                    }
                    alpha = alpha.max(lo);
                    beta = beta.min(hi);
                }
                hash_move = e.best;
            }
        }
        if use_hash && n >= ETC_EMPTIES {
            if let Some(cut) = self.transposition_cutoff(p, o, moves, beta) {
                return Ok(cut);
            }
        }
        let list = self.order_moves(p, o, moves, hash_move)?;
        let (alpha0, beta0) = (alpha, beta);
        let mut best = -INF;
        let mut best_sq = NO_MOVE;
        for (i, &(x, f)) in list.as_slice().iter().enumerate() {
            let (cp, co) = (o ^ f, p ^ f ^ (1u64 << x));
            let score = if i == 0 {
                -I::deep(self, cp, co, -beta, -alpha, false)?
            } else {
                let s = -I::deep(self, cp, co, -alpha - 1, -alpha, false)?;
                if s > alpha && s < beta {
                    -I::deep(self, cp, co, -beta, -s, false)?
                } else {
                    s
                }
            };
            if score > best {
                best = score;
                best_sq = x;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if use_hash {
            let (lo, hi) = if best <= alpha0 {
                (-64, best)
            } else if best >= beta0 {
                (best, 64)
            } else {
                (best, best)
            };
            self.table.store(pos, n as u8, true, lo, hi, best_sq);
        }
        Ok(best)
    }
}

/// The best of `p`'s moves on the two empties `x1`, `x2` (the first that
/// reaches `beta` cuts), None if it has none.
#[inline(always)]
fn two_moves(p: u64, o: u64, beta: i32, x1: u32, x2: u32) -> Option<i32> {
    let mut best = None;
    if NEIGHBOURS[x1 as usize] & o != 0 {
        let f = flips_of(p, o, Square::from_index_unchecked(x1 as u8));
        if f != 0 {
            let score = -last_square(o ^ f, p ^ f ^ (1 << x1), x2);
            if score >= beta {
                return Some(score);
            }
            best = Some(score);
        }
    }
    if NEIGHBOURS[x2 as usize] & o != 0 {
        let f = flips_of(p, o, Square::from_index_unchecked(x2 as u8));
        if f != 0 {
            let score = -last_square(o ^ f, p ^ f ^ (1 << x2), x1);
            return Some(best.map_or(score, |b: i32| b.max(score)));
        }
    }
    best
}

/// The exact score with one empty square `x` left, by counting flips.
#[inline(always)]
fn last_square(p: u64, o: u64, x: u32) -> i32 {
    let sq = Square::from_index_unchecked(x as u8);
    let n = p.count_ones() as i32;
    let f = flips_of(p, o, sq);
    if f != 0 {
        return 2 * (n + f.count_ones() as i32 + 1) - 64;
    }
    let g = flips_of(o, p, sq);
    if g != 0 {
        return 2 * (n - g.count_ones() as i32) - 64;
    }
    // Nobody can play it: 63 discs, so never a draw; the empty goes to the winner.
    let diff = 2 * n - 63;
    if diff > 0 {
        diff + 1
    } else {
        diff - 1
    }
}

/// Up to 32 moves, each with its flips, in search order.
pub struct MoveList {
    items: [(u8, u64); 32],
    len: usize,
}

impl MoveList {
    pub fn as_slice(&self) -> &[(u8, u64)] {
        &self.items[..self.len]
    }
}

impl Solver<'_, '_> {
    /// Enhanced transposition cutoff: a move whose resulting position the
    /// table already proves good enough (its upper bound, negated, reaches
    /// beta) cuts without being searched.
    #[inline(always)]
    fn transposition_cutoff(&self, p: u64, o: u64, moves: u64, beta: i32) -> Option<i32> {
        let mut rest = moves;
        while rest != 0 {
            let x = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let f = flips_of(p, o, Square::from_index_unchecked(x));
            let child = Position::new(Bitboard(o ^ f), Bitboard(p ^ f ^ (1u64 << x)));
            if let Some(e) = self.table.probe(child) {
                if e.solved && -(e.upper as i32) >= beta {
                    return Some(-(e.upper as i32));
                }
            }
        }
        None
    }

    /// Orders moves: the hash move first, then fewest opponent replies
    /// (corners counted double), odd-quadrant moves slightly preferred, fewest
    /// potential replies; with many empties, also the value of a shallow
    /// midgame search of each reply.
    #[inline(always)]
    fn order_moves(
        &mut self,
        p: u64,
        o: u64,
        moves: u64,
        hash_move: u8,
    ) -> Result<MoveList, Abort> {
        let mut list = MoveList {
            items: [(0, 0); 32],
            len: 0,
        };
        let mut keys = [0i32; 32];
        let empties = !(p | o);
        let n = empties.count_ones();
        let odd = odd_quadrant_empties(empties);
        let search_depth = EVAL_ORDER.iter().rposition(|&e| n >= e);
        let mut rest = moves;
        while rest != 0 {
            let x = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let f = flips_of(p, o, Square::from_index_unchecked(x));
            let (cp, co) = (o ^ f, p ^ f ^ (1u64 << x));
            let key = if x == hash_move {
                i32::MIN
            } else {
                let replies = moves_of(cp, co);
                let corners = replies & 0x8100_0000_0000_0081;
                let potential = (neighbours(co) & !(cp | co)).count_ones() as i32;
                let mut key = ((replies.count_ones() + corners.count_ones()) as i32) * 256
                    + potential
                    - if odd >> x & 1 == 1 { 128 } else { 0 };
                if let Some(d) = search_depth {
                    let child = Position::new(Bitboard(cp), Bitboard(co));
                    let mut searcher = crate::search::Searcher {
                        table: self.table,
                        budget: self.budget,
                        eval: self.eval,
                    };
                    let inf = crate::search::INF;
                    // The reply's value is the opponent's: higher is worse for us.
                    key += EVAL_ORDER_WEIGHT * searcher.pvs(child, d as u32, -inf, inf)?;
                }
                key
            };
            // Insertion into a sorted list: lists are short.
            let mut i = list.len;
            while i > 0 && keys[i - 1] > key {
                keys[i] = keys[i - 1];
                list.items[i] = list.items[i - 1];
                i -= 1;
            }
            keys[i] = key;
            list.items[i] = (x, f);
            list.len += 1;
        }
        Ok(list)
    }
}

/// `EVAL_ORDER[d]`: from this many empties on, moves are ordered with a
/// midgame search of depth `d` (0 = the evaluation alone).
const EVAL_ORDER: [u32; 1] = [15];
/// Weight of that search value (centi-discs) against mobility (256 a move).
const EVAL_ORDER_WEIGHT: i32 = 2;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// Plain minimax of the final score: no pruning, no ordering.
    fn minimax(pos: Position) -> i32 {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            if pos.opponent_moves().is_empty() {
                return pos.final_score();
            }
            return -minimax(pos.pass());
        }
        moves
            .map(|sq| -minimax(pos.play_with(sq, pos.flips(sq))))
            .max()
            .expect("moves is not empty")
    }

    fn random_position(rng: &mut Rng, empties: u32) -> Option<Position> {
        let mut pos = Position::start();
        while pos.empties().count() > empties {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                if pos.opponent_moves().is_empty() {
                    return None;
                }
                pos = pos.pass();
                continue;
            }
            let list: Vec<Square> = moves.collect();
            let sq = list[rng.below(list.len())];
            pos = pos.play_with(sq, pos.flips(sq));
        }
        Some(pos)
    }

    #[test]
    fn solver_equals_minimax_on_random_endgames() {
        let stop = AtomicBool::new(false);
        let mut table = Table::new(4);
        let mut rng = Rng::new(42);
        let mut checked = 0;
        while checked < 100 {
            // Mostly 1-10 empties; every tenth position 11 or 12 (slow to minimax).
            let empties = if checked % 10 == 9 {
                11 + rng.below(2) as u32
            } else {
                1 + rng.below(10) as u32
            };
            let Some(pos) = random_position(&mut rng, empties) else {
                continue;
            };
            let exact = minimax(pos);
            let mut budget = Budget::new(&stop);
            let mut s = Solver {
                table: &mut table,
                budget: &mut budget,
                eval: &crate::pattern::Evaluator::V1,
            };
            assert_eq!(s.solve(pos, -INF, INF).unwrap(), exact, "{pos:?}");
            // Null windows around the score give consistent bounds.
            assert!(s.solve(pos, exact - 1, exact).unwrap() >= exact);
            assert!(s.solve(pos, exact, exact + 1).unwrap() <= exact);
            let wld = s.solve(pos, -1, 1).unwrap();
            assert_eq!(wld.signum(), exact.signum());
            checked += 1;
        }
    }

    /// The baseline copy of the recursion (which this machine may not run
    /// by default) gives the same values and node counts as the dispatched
    /// one.
    #[test]
    fn baseline_copy_equals_the_dispatched_one() {
        let stop = AtomicBool::new(false);
        let mut rng = Rng::new(77);
        let mut checked = 0;
        while checked < 40 {
            let empties = 3 + rng.below(12) as u32;
            let Some(pos) = random_position(&mut rng, empties) else {
                continue;
            };
            let (p, o) = (pos.player.0, pos.opponent.0);
            let run = |baseline: bool| {
                let mut table = Table::new(1);
                let mut budget = Budget::new(&stop);
                let mut s = Solver {
                    table: &mut table,
                    budget: &mut budget,
                    eval: &crate::pattern::Evaluator::V1,
                };
                let v = match (baseline, empties <= SHALLOW) {
                    (true, true) => Baseline::shallow(&mut s, p, o, -INF, INF, false),
                    (true, false) => Baseline::deep(&mut s, p, o, -INF, INF, false),
                    (false, _) => s.solve(pos, -INF, INF),
                };
                (v.unwrap(), budget.nodes)
            };
            assert_eq!(run(true), run(false), "{pos:?}");
            checked += 1;
        }
    }

    #[test]
    fn stable_discs_are_never_flipped() {
        let mut rng = Rng::new(9);
        for _ in 0..200 {
            let empties = 8 + rng.below(30) as u32;
            let Some(pos) = random_position(&mut rng, empties) else {
                continue;
            };
            let (p, o) = (pos.player.0, pos.opponent.0);
            let st = stable_discs(p, o);
            assert_eq!(st & !p, 0);
            // No single move of either side flips a stable disc.
            for sq in Square::all() {
                if (p | o) >> sq.index() & 1 == 0 {
                    assert_eq!(flips_of(o, p, sq) & st, 0);
                }
            }
        }
        // A full board: every disc is stable.
        assert_eq!(
            stable_discs(0x00ff_00ff_00ff_00ff, 0xff00_ff00_ff00_ff00),
            0x00ff_00ff_00ff_00ff
        );
        // A lone corner is stable, a lone centre disc is not.
        assert_eq!(stable_discs(1 | 1 << 27, 1 << 28), 1);
    }
}
