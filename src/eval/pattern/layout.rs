//! Pattern sets and where their weights sit: the built-in [`PATTERNS`] and
//! [`EXTRA_PATTERNS`], the 8 board symmetries that place a pattern on the
//! board, the base-3 index of a configuration, and [`Layout`], which lays out
//! each pattern's table and the mobility and bias tables in a stage's weights.

use super::state::Deltas;
use super::{bad, Position};
use crate::board::s8::moves_of;
use crate::error::Error;
use once_cell::sync::Lazy;
use std::sync::Arc;

/// The mobility tables cover 0..=MOBILITY_MAX moves (more counts as this).
pub const MOBILITY_MAX: usize = 32;
/// Bias table: one weight per number of empties 0..=64.
pub(super) const BIAS_LEN: usize = 65;

/// One pattern: its canonical squares as a mask.
#[derive(Clone, Copy, Debug)]
pub struct Pattern {
    pub name: &'static str,
    pub mask: u64,
}

const fn diagonal(offset: u32) -> u64 {
    // Squares (row r, column r + offset): b1-h7 for offset 1, and so on.
    let mut m = 0u64;
    let mut r = 0;
    while r + offset < 8 {
        m |= 1u64 << (r * 8 + r + offset);
        r += 1;
    }
    m
}

/// The pattern set, by canonical mask (a1 = bit 0, h1 = bit 7).
pub const PATTERNS: [Pattern; 11] = [
    Pattern {
        name: "edge+2X",
        mask: 0x42ff,
    },
    Pattern {
        name: "corner 2x5",
        mask: 0x1f1f,
    },
    Pattern {
        name: "corner 3x3",
        mask: 0x0007_0707,
    },
    Pattern {
        name: "row 2",
        mask: 0xff00,
    },
    Pattern {
        name: "row 3",
        mask: 0x00ff_0000,
    },
    Pattern {
        name: "row 4",
        mask: 0xff00_0000,
    },
    Pattern {
        name: "diagonal 8",
        mask: diagonal(0),
    },
    Pattern {
        name: "diagonal 7",
        mask: diagonal(1),
    },
    Pattern {
        name: "diagonal 6",
        mask: diagonal(2),
    },
    Pattern {
        name: "diagonal 5",
        mask: diagonal(3),
    },
    Pattern {
        name: "diagonal 4",
        mask: diagonal(4),
    },
];

/// Patterns of 10 squares near a corner that [`Layout::extended`] adds to
/// [`PATTERNS`] (the built-in weights do not use them): a triangle (a1-d1,
/// a2-c2, a3-b3, a4), an edge block (a1, c1-f1, h1 and c2-f2) and a cross
/// (a1-d4's diagonal with the squares beside it, b1-d3 and a2-c4).
pub const EXTRA_PATTERNS: [Pattern; 3] = [
    Pattern {
        name: "triangle",
        mask: 0x0103_070f,
    },
    Pattern {
        name: "edge block",
        mask: 0x3cbd,
    },
    Pattern {
        name: "cross",
        mask: 0x0c0e_0703,
    },
];

// --- board symmetries -------------------------------------------------------

#[inline(always)]
fn flip_horizontal(x: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    let x = ((x >> 1) & K1) | ((x & K1) << 1);
    let x = ((x >> 2) & K2) | ((x & K2) << 2);
    ((x >> 4) & K4) | ((x & K4) << 4)
}

#[inline(always)]
fn flip_vertical(x: u64) -> u64 {
    x.swap_bytes()
}

/// (row, col) to (col, row).
#[inline(always)]
fn transpose(mut x: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0f0f_0f0f_0000_0000;
    let mut t = K4 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    t = K2 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    t = K1 & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    x
}

/// Symmetry `s` (0..8): bit 0 mirrors columns, bit 1 mirrors rows, bit 2
/// then transposes.
#[inline(always)]
pub fn symmetry(x: u64, s: usize) -> u64 {
    let x = if s & 1 != 0 { flip_horizontal(x) } else { x };
    let x = if s & 2 != 0 { flip_vertical(x) } else { x };
    if s & 4 != 0 {
        transpose(x)
    } else {
        x
    }
}

/// All 8 images of `x`, indexed like [`symmetry`].
#[inline(always)]
pub(super) fn all_symmetries(x: u64) -> [u64; 8] {
    let h = flip_horizontal(x);
    let v = flip_vertical(x);
    let hv = flip_vertical(h);
    [
        x,
        h,
        v,
        hv,
        transpose(x),
        transpose(h),
        transpose(v),
        transpose(hv),
    ]
}

// --- pattern indexing -------------------------------------------------------

/// `BASE3[b]`: the base-3 number whose digits are the bits of `b` (10 bits;
/// evaluation v1 reads 8-square edges with its first 256 entries).
pub(crate) static BASE3: [u16; 1024] = {
    let mut t = [0u16; 1024];
    let mut b = 0;
    while b < 1024 {
        let mut v = 0u16;
        let mut pow = 1u16;
        let mut i = 0;
        while i < 10 {
            if b >> i & 1 != 0 {
                v += pow;
            }
            pow *= 3;
            i += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
};

/// Software parallel bit extract (the BMI2 `pext` instruction).
#[inline(always)]
pub(super) fn pext_soft(x: u64, mut mask: u64) -> u64 {
    let mut out = 0u64;
    let mut bit = 1u64;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if x & low != 0 {
            out |= bit;
        }
        bit <<= 1;
        mask &= mask - 1;
    }
    out
}

/// One placement of a pattern: the symmetry that brings the board onto the
/// pattern's canonical squares, the mask to read there, and the offset of
/// the pattern's table within a stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Instance {
    pub(super) symmetry: u8,
    pub(super) mask: u64,
    pub(super) offset: u32,
}

/// Squares of the original board that symmetry `s` brings onto `mask`.
fn read_mask(mask: u64, s: usize) -> u64 {
    (0..64)
        .filter(|&sq| symmetry(1u64 << sq, s) & mask != 0)
        .fold(0, |m, sq| m | 1u64 << sq)
}

/// Most squares in one pattern (a configuration is read through
/// `BASE3`'s 10 bits).
pub const MAX_PATTERN_SQUARES: u32 = 10;
/// Most patterns in one set.
pub const MAX_PATTERNS: usize = 32;

/// The weight layout of a pattern set, the same in every stage: each
/// pattern's table of 3^squares weights, then the two mobility tables, then
/// the bias table; and every placement the 8 board symmetries give each
/// pattern.
#[derive(Debug, PartialEq, Eq)]
pub struct Layout {
    pub(super) masks: Vec<u64>,
    /// For each pattern, the first symmetry giving each distinct read mask.
    pub(super) instances: Vec<Instance>,
    /// Offset of each pattern's table.
    pub offsets: Vec<usize>,
    /// Its size, 3^squares.
    pub sizes: Vec<usize>,
    pub mobility_offset: usize,
    pub opponent_mobility_offset: usize,
    pub bias_offset: usize,
    /// Weights per stage.
    pub len: usize,
    /// `canonical[j]`: the weight that weight `j` shares (the smallest index
    /// of its orbit under the pattern's own symmetries); `j` for the others.
    pub canonical: Vec<u32>,
    /// What each square adds to the placements' configurations, when they
    /// fit a [`PatternState`](super::PatternState).
    pub(super) deltas: Option<Box<Deltas>>,
}

/// A set has 1 to [`MAX_PATTERNS`] patterns.
pub(super) fn check_pattern_count(count: usize) -> Result<(), Error> {
    if count == 0 || count > MAX_PATTERNS {
        return Err(bad(format!(
            "{count} patterns: a set has 1 to {MAX_PATTERNS}"
        )));
    }
    Ok(())
}

/// The layout of [`PATTERNS`], the set of the built-in weights.
static STANDARD: Lazy<Arc<Layout>> =
    Lazy::new(|| Arc::new(Layout::new(&PATTERNS.map(|p| p.mask)).expect("a valid pattern set")));

impl Layout {
    /// The layout of the patterns `masks` (canonical squares, a1 = bit 0):
    /// 1 to [`MAX_PATTERNS`] distinct masks of 1 to [`MAX_PATTERN_SQUARES`]
    /// squares each.
    pub fn new(masks: &[u64]) -> Result<Layout, Error> {
        check_pattern_count(masks.len())?;
        for (k, &m) in masks.iter().enumerate() {
            if m == 0 || m.count_ones() > MAX_PATTERN_SQUARES {
                return Err(bad(format!(
                    "pattern {k} (mask {m:#x}) has {} squares, not 1 to {MAX_PATTERN_SQUARES}",
                    m.count_ones()
                )));
            }
            if masks[..k].contains(&m) {
                return Err(bad(format!("pattern {k} (mask {m:#x}) is listed twice")));
            }
        }
        let mut offsets = Vec::new();
        let mut sizes = Vec::new();
        let mut at = 0;
        for &m in masks {
            let size = 3usize.pow(m.count_ones());
            offsets.push(at);
            sizes.push(size);
            at += size;
        }
        let mut instances = Vec::new();
        for (k, &m) in masks.iter().enumerate() {
            let mut seen = Vec::new();
            for s in 0..8 {
                let read = read_mask(m, s);
                if !seen.contains(&read) {
                    seen.push(read);
                    instances.push(Instance {
                        symmetry: s as u8,
                        mask: m,
                        offset: offsets[k] as u32,
                    });
                }
            }
        }
        let mobility_offset = at;
        let opponent_mobility_offset = at + MOBILITY_MAX + 1;
        let bias_offset = opponent_mobility_offset + MOBILITY_MAX + 1;
        let len = bias_offset + BIAS_LEN;
        let mut canonical: Vec<u32> = (0..len as u32).collect();
        for (k, &m) in masks.iter().enumerate() {
            let stabiliser: Vec<usize> = (1..8).filter(|&s| symmetry(m, s) == m).collect();
            if stabiliser.is_empty() {
                continue;
            }
            let squares: Vec<u64> = (0..64)
                .filter(|sq| m >> sq & 1 != 0)
                .map(|sq| 1u64 << sq)
                .collect();
            for idx in 0..sizes[k] {
                let (mut me, mut you, mut rest) = (0u64, 0u64, idx);
                for &sq in &squares {
                    match rest % 3 {
                        1 => me |= sq,
                        2 => you |= sq,
                        _ => {}
                    }
                    rest /= 3;
                }
                let best = stabiliser
                    .iter()
                    .map(|&s| config_index(symmetry(me, s), symmetry(you, s), m, pext_soft))
                    .fold(idx, usize::min);
                canonical[offsets[k] + idx] = (offsets[k] + best) as u32;
            }
        }
        Ok(Layout {
            masks: masks.to_vec(),
            deltas: Deltas::of(&instances),
            instances,
            offsets,
            sizes,
            mobility_offset,
            opponent_mobility_offset,
            bias_offset,
            len,
            canonical,
        })
    }

    /// The layout of [`PATTERNS`], shared.
    pub fn standard() -> Arc<Layout> {
        STANDARD.clone()
    }

    /// The layout of [`PATTERNS`] then [`EXTRA_PATTERNS`].
    pub fn extended() -> Arc<Layout> {
        let masks: Vec<u64> = PATTERNS
            .iter()
            .chain(&EXTRA_PATTERNS)
            .map(|p| p.mask)
            .collect();
        Arc::new(Layout::new(&masks).expect("a valid pattern set"))
    }

    /// The patterns' canonical masks, in order.
    pub fn masks(&self) -> &[u64] {
        &self.masks
    }

    /// Pattern placements read per evaluation.
    pub fn instances(&self) -> usize {
        self.instances.len()
    }

    /// Weights each evaluation adds: one per placement, two mobility
    /// weights and the bias.
    pub fn active(&self) -> usize {
        self.instances.len() + 3
    }

    /// The weight indices (within a stage) that `pos` reads, in a fixed
    /// order, [`Layout::active`] of them. Shared by the training tool and
    /// the tests; the evaluation computes the same indices.
    pub fn feature_indices(&self, pos: Position) -> Vec<u32> {
        let (p, o) = (pos.player, pos.opponent);
        let ps = all_symmetries(p);
        let os = all_symmetries(o);
        let mut out: Vec<u32> = self
            .instances
            .iter()
            .map(|inst| {
                let s = inst.symmetry as usize;
                inst.offset + config_index(ps[s], os[s], inst.mask, pext_soft) as u32
            })
            .collect();
        let (mp, mo) = mobility(p, o);
        out.push((self.mobility_offset + mp) as u32);
        out.push((self.opponent_mobility_offset + mo) as u32);
        out.push((self.bias_offset + (!(p | o)).count_ones() as usize) as u32);
        out
    }
}

/// The index in its pattern's table of the configuration on `mask` of `p`
/// (digit 1) and `o` (digit 2), their squares extracted by `pext`.
#[inline(always)]
pub(super) fn config_index(p: u64, o: u64, mask: u64, pext: impl Fn(u64, u64) -> u64) -> usize {
    BASE3[pext(p, mask) as usize] as usize + 2 * BASE3[pext(o, mask) as usize] as usize
}

/// The mobility tables' indices of `p` to move against `o`.
#[inline(always)]
pub(super) fn mobility(p: u64, o: u64) -> (usize, usize) {
    (capped(moves_of(p, o)), capped(moves_of(o, p)))
}

/// The mobility table's index of `moves`: their number, capped.
#[inline(always)]
pub(super) fn capped(moves: u64) -> usize {
    (moves.count_ones() as usize).min(MOBILITY_MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map_square(sq: u64, s: usize) -> u64 {
        symmetry(1u64 << sq, s).trailing_zeros() as u64
    }

    #[test]
    fn transforms_are_the_eight_symmetries() {
        for s in 0..8 {
            for sq in 0..64u64 {
                let (r, c) = (sq / 8, sq % 8);
                let (r1, c1) = if s & 1 != 0 { (r, 7 - c) } else { (r, c) };
                let (r2, c2) = if s & 2 != 0 { (7 - r1, c1) } else { (r1, c1) };
                let (r3, c3) = if s & 4 != 0 { (c2, r2) } else { (r2, c2) };
                assert_eq!(map_square(sq, s), r3 * 8 + c3);
            }
        }
        let x = 0x0123_4567_89ab_cdefu64;
        assert_eq!(
            all_symmetries(x).to_vec(),
            (0..8).map(|s| symmetry(x, s)).collect::<Vec<_>>()
        );
    }

    #[test]
    #[cfg_attr(miri, ignore = "the built-in and extended sets: minutes under Miri")]
    fn pattern_set_has_46_instances_covering_the_board() {
        let layout = Layout::standard();
        assert_eq!(layout.instances(), 46);
        assert_eq!(layout.active(), 49);
        let sizes: Vec<u32> = PATTERNS.iter().map(|p| p.mask.count_ones()).collect();
        assert_eq!(sizes, [10, 10, 9, 8, 8, 8, 8, 7, 6, 5, 4]);
        let covered = layout
            .instances
            .iter()
            .map(|i| read_mask(i.mask, i.symmetry as usize))
            .fold(0, |a, m| a | m);
        assert_eq!(covered, u64::MAX);
        // The extra patterns are symmetric about a1-h8's diagonal (triangle,
        // cross) or about the middle of their edge (edge block): 4
        // placements each.
        let extended = Layout::extended();
        assert_eq!(extended.instances(), 46 + 12);
        assert_eq!(&extended.masks()[..11], layout.masks());
        assert!(EXTRA_PATTERNS.iter().all(|p| p.mask.count_ones() == 10));
    }

    #[test]
    fn bad_pattern_sets_are_rejected() {
        let too_big = PATTERNS[0].mask | 1 << 63;
        for (masks, says) in [
            (vec![], "0 patterns"),
            (vec![0x0f, 0], "0 squares"),
            (vec![too_big], "11 squares"),
            (vec![0x0f, 0xf0, 0x0f], "listed twice"),
            (vec![1; 33], "33 patterns"),
        ] {
            let err = Layout::new(&masks).unwrap_err().to_string();
            assert!(err.contains(says), "{masks:x?}: {err}");
        }
    }
}
