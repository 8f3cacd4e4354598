//! The trained pattern evaluation and its weights file.
//!
//! A position is scored, from the side to move's point of view, as the sum
//! of weights looked up for the configurations of board patterns, in the
//! same unit as evaluation v1 (1/[`SCALE`] disc, the expected final disc
//! difference), with one weight set per game stage (by empty squares).
//!
//! # Features
//!
//! The 11 [`PATTERNS`] (edge + 2 X-squares, 2x5 corner block, 3x3 corner,
//! rows 2, 3 and 4, diagonals of length 8 down to 4) are read in every
//! distinct placement the 8 board symmetries give them (46 instances), all
//! placements of a pattern sharing one table of 3^n weights. A configuration
//! is indexed by its squares in the order of their bit in the canonical mask
//! (digit 0 = the lowest square): each cell is 0 (empty), 1 (side to move)
//! or 2 (opponent). A placement is read by transforming the board with its
//! symmetry and extracting the canonical mask (`pext` on x86-64 with BMI2).
//! Configurations that a symmetry of the pattern itself maps onto each other
//! (a row read left to right or right to left) share one weight, so the sum
//! is exactly invariant under the 8 board symmetries.
//!
//! That is the built-in weights' set. A weights file names its own patterns
//! (any 1 to [`MAX_PATTERNS`] masks of up to [`MAX_PATTERN_SQUARES`]
//! squares; [`Layout`] derives their placements and tables), so weights
//! trained on another set, such as [`Layout::extended`] (the 11 and
//! [`EXTRA_PATTERNS`]), load and evaluate through the same code.
//!
//! Three small tables complete the sum: the number of legal moves of the
//! side to move (0..=[`MOBILITY_MAX`], capped), the same for the opponent,
//! and a bias by the number of empty squares (which carries parity).
//!
//! Evaluating from scratch costs 46 table reads and two move generations
//! besides reading the 46 configurations from the board (16 board
//! symmetries, 92 bit extractions); `cargo bench --bench eval` measures it
//! against evaluation v1. The search reads no configuration from the
//! board: it carries a [`PatternState`], every placement's configuration
//! seen from both sides, from a node to its children, where
//! [`PatternWeights::play`] adds each placed and flipped square's powers of
//! 3 (a precomputed row of [`STATE_LANES`] per square, a few vector adds),
//! and [`PatternWeights::evaluate_state`] reads the weights alone (in the
//! search's AVX2 and AVX-512 copies by AVX2 gathers, eight placements
//! at a time: 1.2x the search's nodes per second). The value
//! is the same as from scratch, so fixed-depth searches visit the same
//! nodes; sets of more than [`STATE_LANES`] placements evaluate from
//! scratch.
//!
//! # Weights file (little-endian), version 1
//!
//! - magic `OTHWEIGH` (8 bytes), version (u32);
//! - stage count (u32) and empties per stage (u32): a position with `e`
//!   empties uses stage `min(e / width, count - 1)`;
//! - pattern count (u32), then each pattern's canonical mask (u64): the
//!   file's pattern set (see [`Layout::new`] for what it may hold);
//! - the sizes of the mobility and bias tables (u32 each);
//! - payload length in bytes (u32) and the payload: for each stage, each
//!   weight of the set's [`Layout`] in order whose configuration is
//!   canonical (the smallest index among those a pattern symmetry maps it
//!   to), as i16;
//!   a run of `n` zero weights is written as -32768 followed by `n` (u16);
//! - an FNV-1a 64 checksum (u64) of every byte before it.

#[cfg(target_arch = "x86_64")]
use crate::board::isa::Haswell;
use crate::board::isa::{Isa, Portable};
use crate::board::s8::moves_of;
use crate::board::Bits;
use crate::error::Error;
use crate::eval::{MAX_EVAL, SCALE};

/// The 8x8 position, the only one with patterns.
type Position = crate::board::Position<crate::board::S8>;
use once_cell::sync::Lazy;
use std::sync::Arc;

/// The file magic.
pub const MAGIC: &[u8; 8] = b"OTHWEIGH";
/// The format version written and read.
pub const VERSION: u32 = 1;
/// The mobility tables cover 0..=MOBILITY_MAX moves (more counts as this).
pub const MOBILITY_MAX: usize = 32;
/// Bias table: one weight per number of empties 0..=64.
const BIAS_LEN: usize = 65;

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
fn all_symmetries(x: u64) -> [u64; 8] {
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
fn pext_soft(x: u64, mut mask: u64) -> u64 {
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
struct Instance {
    symmetry: u8,
    mask: u64,
    offset: u32,
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
    masks: Vec<u64>,
    /// For each pattern, the first symmetry giving each distinct read mask.
    instances: Vec<Instance>,
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
    /// fit a [`PatternState`].
    deltas: Option<Box<Deltas>>,
}

/// Lanes of a [`PatternState`]: the most placements the incremental
/// evaluation follows (the built-in set has 46, [`Layout::extended`] 58).
/// The search evaluates a set with more from scratch.
pub const STATE_LANES: usize = 64;

/// The incremental evaluation's tables, for a set whose placements fit
/// the lanes of a [`PatternState`].
#[derive(PartialEq, Eq)]
struct Deltas {
    /// `rows[sq][i]`: 3^d, `d` the digit of square `sq` in placement `i`'s
    /// configuration, or 0 where the placement does not hold `sq`; lanes
    /// past the last placement are 0. A disc of the side counted as digit
    /// 1 on `sq` adds this to every configuration, a disc of the other
    /// side twice this.
    rows: [[u16; STATE_LANES]; 64],
    /// `offsets[i]`: where placement `i`'s table starts in a stage's
    /// weights; 0 past the last placement.
    offsets: [u32; STATE_LANES],
    /// `last[i]`: the last weight of placement `i`'s table, 0 past the
    /// last placement: the vector reads stop there whatever the state.
    last: [u32; STATE_LANES],
    /// `live[i]`: -1 (all bits) for the placements, 0 past the last: the
    /// mask of the vector reads.
    live: [i32; STATE_LANES],
    /// The number of placements.
    lanes: usize,
    /// The furthest weight a vector read touches: one past the largest
    /// `last`.
    reach: usize,
}

impl std::fmt::Debug for Deltas {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Deltas")
    }
}

impl Deltas {
    /// The deltas of `instances`, if they fit the lanes.
    fn of(instances: &[Instance]) -> Option<Box<Deltas>> {
        if instances.len() > STATE_LANES {
            return None;
        }
        let mut d = Box::new(Deltas {
            rows: [[0; STATE_LANES]; 64],
            offsets: [0; STATE_LANES],
            last: [0; STATE_LANES],
            live: [0; STATE_LANES],
            lanes: instances.len(),
            reach: 0,
        });
        for (i, inst) in instances.iter().enumerate() {
            for (sq, row) in d.rows.iter_mut().enumerate() {
                let t = symmetry(1u64 << sq, inst.symmetry as usize);
                if t & inst.mask != 0 {
                    row[i] = 3u16.pow((inst.mask & (t - 1)).count_ones());
                }
            }
            d.offsets[i] = inst.offset;
            d.last[i] = inst.offset + 3u32.pow(inst.mask.count_ones()) - 1;
            d.live[i] = -1;
            d.reach = d.reach.max(d.last[i] as usize + 1);
        }
        Some(d)
    }

    /// The sum of the deltas of the squares of `b`.
    #[inline(always)]
    fn sum(&self, mut b: u64) -> [u16; STATE_LANES] {
        let mut out = [0u16; STATE_LANES];
        while b != 0 {
            let row = &self.rows[b.trailing_zeros() as usize];
            b &= b - 1;
            for (o, &d) in out.iter_mut().zip(row) {
                *o = o.wrapping_add(d);
            }
        }
        out
    }

    /// The sum of the weights in `w` (a stage's) of the placements'
    /// configurations `configs`, read by `isa`'s kernel.
    #[inline(always)]
    fn weights<I: Isa>(&self, isa: I, w: &[i16], configs: &[u16; STATE_LANES]) -> i32 {
        // The vector kernels read 32 bits, the weight and the one after
        // it, unchecked: each placement's index is held to its table (the
        // configurations of a state made by `state` and `play` are within
        // it anyway), and every table has a weight after it (the mobility
        // tables follow the patterns'), all within a stage of `len`.
        assert!(self.reach < w.len(), "a stage's weights hold every table");
        #[cfg(target_arch = "x86_64")]
        if let Some(v3) = isa.haswell() {
            // SAFETY: `v3` proves the CPU has AVX2 (the AVX-512 copy's
            // too); the reads are within `w` (above).
            return unsafe { weights_gather8(v3, w.as_ptr(), self, configs) };
        }
        let _ = isa;
        self.offsets[..self.lanes]
            .iter()
            .zip(configs)
            .map(|(&at, &c)| w[at as usize + c as usize] as i32)
            .sum()
    }
}

/// The sum over `d`'s placements of `w[offsets[i] + configs[i]]`, each
/// index held to `last[i]`, eight placements a gather, on AVX2.
///
/// # Safety
/// `w` holds the weights at and after every `last` (up to `d.reach`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn weights_gather8(
    _v3: Haswell,
    w: *const i16,
    d: &Deltas,
    configs: &[u16; STATE_LANES],
) -> i32 {
    use std::arch::x86_64::*;
    let mut acc = _mm256_setzero_si256();
    let mut l = 0;
    while l < d.lanes {
        // SAFETY: `l + 8 <= STATE_LANES` (a multiple of 8), so the loads
        // stay within the arrays.
        let (c, at, last, live) = unsafe {
            (
                _mm256_cvtepu16_epi32(_mm_loadu_si128(configs.as_ptr().add(l).cast())),
                _mm256_loadu_si256(d.offsets.as_ptr().add(l).cast()),
                _mm256_loadu_si256(d.last.as_ptr().add(l).cast()),
                _mm256_loadu_si256(d.live.as_ptr().add(l).cast()),
            )
        };
        let idx = _mm256_min_epu32(_mm256_add_epi32(at, c), last);
        // SAFETY: the caller's promise: the 32 bits at `w + idx` (in i16
        // units) are weights of `w`.
        let pair = unsafe {
            _mm256_mask_i32gather_epi32::<2>(_mm256_setzero_si256(), w.cast(), idx, live)
        };
        // The low 16 bits are the weight, sign-extended.
        acc = _mm256_add_epi32(acc, _mm256_srai_epi32::<16>(_mm256_slli_epi32::<16>(pair)));
        l += 8;
    }
    let half = _mm_add_epi32(
        _mm256_castsi256_si128(acc),
        _mm256_extracti128_si256::<1>(acc),
    );
    let quarter = _mm_add_epi32(half, _mm_shuffle_epi32::<0b01_00_11_10>(half));
    let one = _mm_add_epi32(quarter, _mm_shuffle_epi32::<0b10_11_00_01>(quarter));
    _mm_cvtsi128_si32(one)
}

/// The configuration of every placement of a pattern set in a position,
/// seen from each side: what the search carries from a node to its
/// children ([`PatternWeights::play`]) instead of reading the patterns
/// from the board at each leaf. Unused lanes stay 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
pub struct PatternState {
    /// The side to move as digit 1, the opponent as 2 (what the evaluation
    /// reads).
    mover: [u16; STATE_LANES],
    /// The opponent as digit 1 (the configurations after a pass).
    other: [u16; STATE_LANES],
}

impl PatternState {
    /// The state of a set that does not fit the lanes, or of no pattern
    /// evaluation: all zero, never read.
    pub const UNUSED: PatternState = PatternState {
        mover: [0; STATE_LANES],
        other: [0; STATE_LANES],
    };

    /// The state after a pass: the sides' views swapped.
    #[inline(always)]
    pub fn passed(&self) -> PatternState {
        PatternState {
            mover: self.other,
            other: self.mover,
        }
    }
}

/// A set has 1 to [`MAX_PATTERNS`] patterns.
fn check_pattern_count(count: usize) -> Result<(), Error> {
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
                    .map(|&s| config_index(symmetry(me, s), symmetry(you, s), m))
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
                inst.offset + config_index(ps[s], os[s], inst.mask) as u32
            })
            .collect();
        let (mp, mo) = mobility(p, o);
        out.push((self.mobility_offset + mp) as u32);
        out.push((self.opponent_mobility_offset + mo) as u32);
        out.push((self.bias_offset + (!(p | o)).count_ones() as usize) as u32);
        out
    }
}

#[inline(always)]
fn config_index(p: u64, o: u64, mask: u64) -> usize {
    BASE3[pext_soft(p, mask) as usize] as usize + 2 * BASE3[pext_soft(o, mask) as usize] as usize
}

/// The stage of a position with `empties` empty squares.
#[inline(always)]
fn stage_of(empties: u32, width: u32, count: u32) -> usize {
    (empties / width).min(count - 1) as usize
}

#[inline(always)]
fn mobility(p: u64, o: u64) -> (usize, usize) {
    (
        (moves_of(p, o).count_ones() as usize).min(MOBILITY_MAX),
        (moves_of(o, p).count_ones() as usize).min(MOBILITY_MAX),
    )
}

// --- weights ----------------------------------------------------------------

/// A trained weight set: every stage's weights, each shared weight copied to
/// every index that shares it (so evaluation needs no canonical lookup).
#[derive(Clone, PartialEq, Eq)]
pub struct PatternWeights {
    layout: Arc<Layout>,
    stages: u32,
    width: u32,
    /// `stages * layout.len` weights, in 1/SCALE disc.
    weights: Vec<i16>,
}

impl std::fmt::Debug for PatternWeights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "PatternWeights {{ patterns: {}, stages: {}, width: {} }}",
            self.layout.masks.len(),
            self.stages,
            self.width
        )
    }
}

fn bad(msg: impl Into<String>) -> Error {
    Error::InvalidArgument(format!("weights: {}", msg.into()))
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The weights built into the library (`weights/pattern.bin`).
static EMBEDDED: &[u8] = include_bytes!("../../../weights/pattern.bin");

static DEFAULT: Lazy<Arc<PatternWeights>> = Lazy::new(|| {
    Arc::new(PatternWeights::from_bytes(EMBEDDED).expect("the embedded weights file is valid"))
});

/// Reads a weights file front to back.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], Error> {
        if self.bytes.len() - self.at < n {
            return Err(bad(format!(
                "file truncated at byte {} ({} bytes) while reading the {what}",
                self.at,
                self.bytes.len()
            )));
        }
        self.at += n;
        Ok(&self.bytes[self.at - n..self.at])
    }
}

/// Zero-run marker in the payload.
const ZERO_RUN: i16 = i16::MIN;

impl PatternWeights {
    /// The weights built into the library, decoded once.
    pub fn embedded() -> Arc<PatternWeights> {
        DEFAULT.clone()
    }

    /// All-zero weights for [`PATTERNS`]: `stages` stages of `width`
    /// empties each.
    pub fn zero(stages: u32, width: u32) -> Result<PatternWeights, Error> {
        PatternWeights::zero_with(Layout::standard(), stages, width)
    }

    /// All-zero weights for the patterns of `layout`.
    pub fn zero_with(
        layout: Arc<Layout>,
        stages: u32,
        width: u32,
    ) -> Result<PatternWeights, Error> {
        if stages == 0 || width == 0 || stages > 65 || width > 65 {
            return Err(bad(format!(
                "{stages} stages of {width} empties: both must be within 1..65"
            )));
        }
        Ok(PatternWeights {
            weights: vec![0; stages as usize * layout.len],
            layout,
            stages,
            width,
        })
    }

    /// The pattern set and weight layout.
    pub fn layout(&self) -> &Arc<Layout> {
        &self.layout
    }

    pub fn stages(&self) -> u32 {
        self.stages
    }

    /// Empty squares per stage.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The stage used at `empties` empty squares.
    pub fn stage_of(&self, empties: u32) -> usize {
        stage_of(empties, self.width, self.stages)
    }

    /// Sets the weights of `stage` from `values` (one per index of
    /// [`Layout`], in discs); shared weights take their canonical index's
    /// value; values are rounded to 1/SCALE disc and saturated to i16.
    pub fn set_stage(&mut self, stage: usize, values: &[f32]) {
        let f = &*self.layout;
        assert_eq!(values.len(), f.len);
        let base = stage * f.len;
        for j in 0..f.len {
            let v = values[f.canonical[j] as usize] * SCALE as f32;
            self.weights[base + j] = v.round().clamp(-32767.0, 32767.0) as i16;
        }
    }

    /// Adds `by` (in 1/SCALE disc) to the bias weights of every stage, so
    /// every position's value for its side to move rises by that much
    /// (up to the clamp): the recentring of weights whose values read low
    /// or high against exact scores on average.
    pub fn shift_bias(&mut self, by: i16) {
        let f = &*self.layout;
        for stage in 0..self.stages as usize {
            let at = stage * f.len + f.bias_offset;
            for w in &mut self.weights[at..at + BIAS_LEN] {
                *w = w.saturating_add(by);
            }
        }
    }

    /// The weights of `stage`, in 1/SCALE disc.
    pub fn stage(&self, stage: usize) -> &[i16] {
        let n = self.layout.len;
        &self.weights[stage * n..(stage + 1) * n]
    }

    /// The file form (see the module documentation).
    pub fn to_bytes(&self) -> Vec<u8> {
        let f = &*self.layout;
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&self.stages.to_le_bytes());
        out.extend_from_slice(&self.width.to_le_bytes());
        out.extend_from_slice(&(f.masks.len() as u32).to_le_bytes());
        for m in &f.masks {
            out.extend_from_slice(&m.to_le_bytes());
        }
        out.extend_from_slice(&(MOBILITY_MAX as u32 + 1).to_le_bytes());
        out.extend_from_slice(&(BIAS_LEN as u32).to_le_bytes());
        let mut payload = Vec::new();
        let mut zeros = 0u32;
        let flush = |payload: &mut Vec<u8>, zeros: &mut u32| {
            while *zeros > 0 {
                let n = (*zeros).min(u16::MAX as u32);
                payload.extend_from_slice(&ZERO_RUN.to_le_bytes());
                payload.extend_from_slice(&(n as u16).to_le_bytes());
                *zeros -= n;
            }
        };
        for s in 0..self.stages as usize {
            for (j, &v) in self.stage(s).iter().enumerate() {
                if f.canonical[j] as usize != j {
                    continue;
                }
                if v == 0 {
                    zeros += 1;
                } else {
                    flush(&mut payload, &mut zeros);
                    payload.extend_from_slice(&v.to_le_bytes());
                }
            }
        }
        flush(&mut payload, &mut zeros);
        out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        out.extend_from_slice(&payload);
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Decodes and checks a weights file: magic, version, pattern set,
    /// sizes, payload and checksum. A clear error names what is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<PatternWeights, Error> {
        let mut rd = Reader { bytes, at: 0 };
        let mut take = |n: usize, what: &str| rd.take(n, what);
        if take(8, "magic")? != MAGIC {
            return Err(bad("not a weights file (the magic is not OTHWEIGH)"));
        }
        let u32_of = |b: &[u8]| u32::from_le_bytes(b.try_into().expect("4 bytes"));
        let version = u32_of(take(4, "version")?);
        if version != VERSION {
            return Err(bad(format!(
                "format version {version}, this library reads version {VERSION}"
            )));
        }
        let stages = u32_of(take(4, "stage count")?);
        let width = u32_of(take(4, "stage width")?);
        let count = u32_of(take(4, "pattern count")?) as usize;
        // Checked before the masks are read: the count sizes that read.
        check_pattern_count(count)?;
        let mut masks = Vec::with_capacity(count);
        for _ in 0..count {
            masks.push(u64::from_le_bytes(
                take(8, "pattern masks")?.try_into().expect("8 bytes"),
            ));
        }
        // The built-in set shares its layout; another set gets its own.
        let standard = Layout::standard();
        let layout = if masks == standard.masks {
            standard
        } else {
            Arc::new(Layout::new(&masks)?)
        };
        let mut w = PatternWeights::zero_with(layout.clone(), stages, width)?;
        let f = &*layout;
        let mob = u32_of(take(4, "mobility table size")?);
        let bias = u32_of(take(4, "bias table size")?);
        if mob as usize != MOBILITY_MAX + 1 || bias as usize != BIAS_LEN {
            return Err(bad(format!(
                "table sizes {mob} and {bias}, this library expects {} and {BIAS_LEN}",
                MOBILITY_MAX + 1
            )));
        }
        let len = u32_of(take(4, "payload length")?) as usize;
        let payload = take(len, "payload")?;
        let sum_at = payload.as_ptr() as usize - bytes.as_ptr() as usize + len;
        let sum = u64::from_le_bytes(take(8, "checksum")?.try_into().expect("8 bytes"));
        let end = sum_at + 8;
        if end != bytes.len() {
            return Err(bad(format!(
                "{} bytes after the checksum",
                bytes.len() - end
            )));
        }
        if fnv1a(&bytes[..sum_at]) != sum {
            return Err(bad("checksum mismatch: the file is corrupt"));
        }
        // The payload, canonical weights in order, zero runs expanded.
        let mut values = payload
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        if payload.len() % 2 != 0 {
            return Err(bad("payload length is odd"));
        }
        let mut zeros = 0u32;
        for s in 0..stages as usize {
            let base = s * f.len;
            for j in 0..f.len {
                let c = f.canonical[j] as usize;
                if c != j {
                    w.weights[base + j] = w.weights[base + c];
                    continue;
                }
                if zeros == 0 {
                    let v = values
                        .next()
                        .ok_or_else(|| bad("payload ends before the last weight"))?;
                    if v == ZERO_RUN {
                        let n = values
                            .next()
                            .ok_or_else(|| bad("payload ends inside a zero run"))?;
                        if n == 0 {
                            return Err(bad("empty zero run in the payload"));
                        }
                        zeros = n as u16 as u32;
                    } else {
                        w.weights[base + j] = v;
                        continue;
                    }
                }
                zeros -= 1;
                w.weights[base + j] = 0;
            }
        }
        if zeros != 0 || values.next().is_some() {
            return Err(bad("payload holds more weights than the stages need"));
        }
        Ok(w)
    }

    /// Reads a weights file.
    pub fn load(path: &std::path::Path) -> Result<PatternWeights, Error> {
        let bytes =
            std::fs::read(path).map_err(|e| bad(format!("cannot read {}: {e}", path.display())))?;
        PatternWeights::from_bytes(&bytes)
    }

    /// The evaluation of `pos` for the side to move, in 1/SCALE disc, within
    /// `-MAX_EVAL..=MAX_EVAL`.
    #[inline]
    pub fn evaluate(&self, pos: Position) -> i32 {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("bmi2")
                && std::arch::is_x86_feature_detected!("popcnt")
            {
                // SAFETY: the CPU has the features the copy is compiled for.
                return unsafe { self.evaluate_bmi2(pos) };
            }
        }
        self.evaluate_with(pos, pext_soft)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi1,bmi2,popcnt,lzcnt")]
    unsafe fn evaluate_bmi2(&self, pos: Position) -> i32 {
        // SAFETY: this copy runs only on CPUs with BMI2.
        self.evaluate_with(pos, |x, m| std::arch::x86_64::_pext_u64(x, m))
    }

    #[inline(always)]
    fn evaluate_with(&self, pos: Position, pext: impl Fn(u64, u64) -> u64) -> i32 {
        let ps = all_symmetries(pos.player);
        let os = all_symmetries(pos.opponent);
        self.sum_over(pos, mobility(pos.player, pos.opponent), |w, instances| {
            let mut sum = 0i32;
            for inst in instances {
                let s = inst.symmetry as usize;
                let config = BASE3[pext(ps[s], inst.mask) as usize] as usize
                    + 2 * BASE3[pext(os[s], inst.mask) as usize] as usize;
                sum += w[inst.offset as usize + config] as i32;
            }
            sum
        })
    }

    /// Whether [`PatternWeights::play`] follows this set's placements (at
    /// most [`STATE_LANES`] of them); for another set the state is
    /// [`PatternState::UNUSED`] and [`PatternWeights::evaluate_state`]
    /// evaluates from scratch.
    pub fn incremental(&self) -> bool {
        self.layout.deltas.is_some()
    }

    /// The state of `pos`, read from its discs.
    #[inline]
    pub fn state(&self, pos: Position) -> PatternState {
        let Some(d) = &self.layout.deltas else {
            return PatternState::UNUSED;
        };
        let (p, o) = (d.sum(pos.player), d.sum(pos.opponent));
        let mut s = PatternState::UNUSED;
        for l in 0..STATE_LANES {
            s.mover[l] = p[l].wrapping_add(o[l].wrapping_mul(2));
            s.other[l] = o[l].wrapping_add(p[l].wrapping_mul(2));
        }
        s
    }

    /// The state of the child when the side to move of the position of `s`
    /// plays on `x`, flipping `flips`: the placed and flipped discs change
    /// the configurations of the placements through them, and the sides
    /// swap.
    #[inline(always)]
    pub fn play(&self, s: &PatternState, x: u32, flips: u64) -> PatternState {
        let Some(d) = &self.layout.deltas else {
            return *s;
        };
        let flipped = d.sum(flips);
        let placed = &d.rows[x as usize];
        let mut child = PatternState::UNUSED;
        for l in 0..STATE_LANES {
            // For the mover, `x` goes from 0 to 1 and the flips from 2 to
            // 1; for the opponent, `x` to 2 and the flips from 1 to 2.
            child.other[l] = s.mover[l].wrapping_add(placed[l]).wrapping_sub(flipped[l]);
            child.mover[l] = s.other[l]
                .wrapping_add(placed[l].wrapping_mul(2))
                .wrapping_add(flipped[l]);
        }
        child
    }

    /// The evaluation of `pos` whose state is `s` (made by
    /// [`PatternWeights::state`], [`PatternWeights::play`] and
    /// [`PatternState::passed`]): the value of [`PatternWeights::evaluate`],
    /// without reading the patterns from the board.
    #[inline(always)]
    pub fn evaluate_state(&self, s: &PatternState, pos: Position) -> i32 {
        let (p, o) = (pos.player, pos.opponent);
        self.evaluate_state_with(Portable, s, pos, (moves_of(p, o), moves_of(o, p)))
    }

    /// [`PatternWeights::evaluate_state`] given `moves`, the legal moves
    /// of the side to move and of the opponent (the search has them, or
    /// makes them faster), the weights read by `isa`'s kernel.
    #[inline(always)]
    pub fn evaluate_state_with<I: Isa>(
        &self,
        isa: I,
        s: &PatternState,
        pos: Position,
        moves: (u64, u64),
    ) -> i32 {
        let Some(d) = &self.layout.deltas else {
            return self.evaluate(pos);
        };
        let mobility = (
            (moves.0.count_ones() as usize).min(MOBILITY_MAX),
            (moves.1.count_ones() as usize).min(MOBILITY_MAX),
        );
        self.sum_over(pos, mobility, |w, _| d.weights(isa, w, &s.mover))
    }

    /// The evaluation of `pos` given `patterns(w, instances)`, the sum of
    /// the weights in the stage's `w` of the configurations of the
    /// placements: plus the mobility weights of `(mp, mo)` (the sides'
    /// capped move counts) and the bias weight, clamped.
    #[inline(always)]
    fn sum_over(
        &self,
        pos: Position,
        (mp, mo): (usize, usize),
        patterns: impl Fn(&[i16], &[Instance]) -> i32,
    ) -> i32 {
        let f = &*self.layout;
        let (p, o) = (pos.player, pos.opponent);
        let empties = (!(p | o)).count_ones();
        let base = self.stage_of(empties) * f.len;
        let w = &self.weights[base..base + f.len];
        let mut sum = patterns(w, &f.instances);

        sum += w[f.mobility_offset + mp] as i32
            + w[f.opponent_mobility_offset + mo] as i32
            + w[f.bias_offset + empties as usize] as i32;
        sum.clamp(-MAX_EVAL, MAX_EVAL)
    }

    /// The evaluation as the plain sum of [`Layout::feature_indices`]: what
    /// the training tool fits, and a check of [`PatternWeights::evaluate`].
    pub fn evaluate_reference(&self, pos: Position) -> i32 {
        let empties = pos.empties().count();
        let w = self.stage(self.stage_of(empties));
        let sum: i32 = self
            .layout
            .feature_indices(pos)
            .iter()
            .map(|&j| w[j as usize] as i32)
            .sum();
        sum.clamp(-MAX_EVAL, MAX_EVAL)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "x86_64")]
    use crate::board::isa::Avx512;
    use crate::board::S8;

    fn random_positions(seed: u64, games: usize) -> Vec<Position> {
        crate::board::testing::random_positions::<S8>(seed, games)
    }

    use crate::rng::Rng;

    /// Weights with a random value on every index (shared ones equal).
    fn random_weights(seed: u64) -> PatternWeights {
        random_weights_with(Layout::standard(), seed)
    }

    /// The same for the patterns of `layout`.
    fn random_weights_with(layout: Arc<Layout>, seed: u64) -> PatternWeights {
        let mut rng = Rng::new(seed);
        let len = layout.len;
        let mut w = PatternWeights::zero_with(layout, 6, 11).unwrap();
        for s in 0..6 {
            let values: Vec<f32> = (0..len)
                .map(|j| {
                    // Leave some runs of zeros for the encoder.
                    if j % 97 < 20 {
                        0.0
                    } else {
                        (rng.below(2001) as f32 - 1000.0) / 400.0
                    }
                })
                .collect();
            w.set_stage(s, &values);
        }
        w
    }

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
    fn evaluation_is_the_sum_of_the_features() {
        for w in [
            random_weights(1),
            random_weights_with(Layout::extended(), 1),
        ] {
            for pos in random_positions(2, 30) {
                assert_eq!(w.evaluate(pos), w.evaluate_reference(pos), "{pos:?}");
                assert_eq!(w.evaluate(pos), w.evaluate_with(pos, pext_soft));
            }
        }
    }

    /// A set of more placements than a state has lanes: the extended set
    /// and a 2x4 corner block, which no symmetry maps onto itself (8 more).
    fn too_many_placements() -> Arc<Layout> {
        let masks: Vec<u64> = Layout::extended()
            .masks()
            .iter()
            .copied()
            .chain([0x0f0f])
            .collect();
        Arc::new(Layout::new(&masks).unwrap())
    }

    #[test]
    fn incremental_evaluation_is_the_evaluation_through_random_games() {
        for (w, incremental) in [
            (random_weights(11), true),
            (random_weights_with(Layout::extended(), 12), true),
            (random_weights_with(too_many_placements(), 13), false),
        ] {
            assert_eq!(w.incremental(), incremental);
            assert_eq!(w.layout().instances() <= STATE_LANES, incremental);
            let mut rng = Rng::new(14);
            let (mut plies, mut passes) = (0, 0);
            for _ in 0..60 {
                let mut pos = Position::start();
                let mut s = w.state(pos);
                loop {
                    // Both orientations the search reads: the side to move's,
                    // and the opponent's (a leaf whose mover must pass).
                    let other = Position::new(pos.opponent, pos.player);
                    assert_eq!(w.evaluate_state(&s, pos), w.evaluate(pos), "{pos:?}");
                    assert_eq!(w.evaluate_state(&s.passed(), other), w.evaluate(other));
                    // The vector kernels of the weights, where the CPU has
                    // them.
                    #[cfg(target_arch = "x86_64")]
                    {
                        let (p, o) = (pos.player, pos.opponent);
                        let moves = (moves_of(p, o), moves_of(o, p));
                        if let Some(v3) = Haswell::detect() {
                            let v = w.evaluate_state_with(v3, &s, pos, moves);
                            assert_eq!(v, w.evaluate(pos), "{pos:?}");
                        }
                        if let Some(v4) = Avx512::detect() {
                            let v = w.evaluate_state_with(v4, &s, pos, moves);
                            assert_eq!(v, w.evaluate(pos), "{pos:?}");
                        }
                    }
                    assert_eq!(s, w.state(pos), "{pos:?}");
                    plies += 1;
                    let moves: Vec<u32> = pos.legal_moves().squares().collect();
                    if moves.is_empty() {
                        if pos.pass().legal_moves().is_zero() {
                            break;
                        }
                        pos = pos.pass();
                        s = s.passed();
                        passes += 1;
                        continue;
                    }
                    let x = moves[rng.below(moves.len())];
                    let f = pos.flips(x);
                    s = w.play(&s, x, f);
                    pos = pos.play_with(x, f);
                }
            }
            assert!(plies > 3000 && passes > 5, "{plies} plies, {passes} passes");
        }
    }

    /// Configurations no position has (a state made from wrong flips)
    /// are read within their tables by the vector kernels: each index is
    /// held to its table's last weight.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_vector_reads_stay_within_each_table() {
        for w in [
            random_weights(21),
            random_weights_with(Layout::extended(), 22),
        ] {
            let d = w.layout().deltas.as_ref().unwrap();
            let stage = w.stage(0);
            let mut rng = Rng::new(23);
            for _ in 0..200 {
                let mut configs = [0u16; STATE_LANES];
                for c in configs.iter_mut() {
                    *c = rng.below(1 << 16) as u16;
                }
                let expected: i32 = (0..d.lanes)
                    .map(|i| {
                        let at = (d.offsets[i] + configs[i] as u32).min(d.last[i]);
                        stage[at as usize] as i32
                    })
                    .sum();
                if let Some(v3) = Haswell::detect() {
                    assert_eq!(d.weights(v3, stage, &configs), expected);
                }
                if let Some(v4) = Avx512::detect() {
                    assert_eq!(d.weights(v4, stage, &configs), expected);
                }
            }
        }
    }

    #[test]
    fn a_file_carries_its_pattern_set() {
        let w = random_weights_with(Layout::extended(), 7);
        let back = PatternWeights::from_bytes(&w.to_bytes()).unwrap();
        assert!(back == w);
        assert_eq!(back.layout().masks(), Layout::extended().masks());
        let pos = random_positions(8, 1)[20];
        assert_eq!(back.evaluate(pos), w.evaluate(pos));
        // The built-in set's files share one layout.
        let standard = PatternWeights::from_bytes(&random_weights(9).to_bytes()).unwrap();
        assert!(Arc::ptr_eq(standard.layout(), &Layout::standard()));
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
        // The same through a file: its pattern count and masks are read
        // before the layout is made.
        let mut bytes = random_weights(10).to_bytes();
        let at = 8 + 4 + 4 + 4 + 4;
        bytes[at..at + 8].copy_from_slice(&too_big.to_le_bytes());
        let err = PatternWeights::from_bytes(&bytes).unwrap_err().to_string();
        assert!(err.contains("11 squares"), "{err}");
        let mut bytes = random_weights(10).to_bytes();
        bytes[20..24].copy_from_slice(&40u32.to_le_bytes());
        let err = PatternWeights::from_bytes(&bytes).unwrap_err().to_string();
        assert!(err.contains("40 patterns"), "{err}");
    }

    #[test]
    fn symmetric_positions_evaluate_the_same() {
        let w = random_weights(3);
        let extended = random_weights_with(Layout::extended(), 3);
        let mut differing = 0;
        for pos in random_positions(4, 60) {
            let v = w.evaluate(pos);
            let x = extended.evaluate(pos);
            for s in 1..8 {
                let image = Position::new(symmetry(pos.player, s), symmetry(pos.opponent, s));
                differing += (image != pos) as usize;
                assert_eq!(w.evaluate(image), v, "{pos:?} symmetry {s}");
                assert_eq!(extended.evaluate(image), x, "{pos:?} symmetry {s}");
            }
        }
        assert!(differing > 3000);
    }

    #[test]
    fn weights_round_trip() {
        let w = random_weights(5);
        let bytes = w.to_bytes();
        let back = PatternWeights::from_bytes(&bytes).unwrap();
        assert!(back == w);
        assert_eq!(back.to_bytes(), bytes);
        let zero = PatternWeights::zero(3, 20).unwrap();
        assert!(PatternWeights::from_bytes(&zero.to_bytes()).unwrap() == zero);
        // The embedded file decodes too.
        let e = PatternWeights::embedded();
        assert!(PatternWeights::from_bytes(&e.to_bytes()).unwrap() == *e);
    }

    #[test]
    fn a_bias_shift_moves_every_value_by_it_and_survives_the_file() {
        let w = random_weights(7);
        let mut shifted = w.clone();
        shifted.shift_bias(150);
        let back = PatternWeights::from_bytes(&shifted.to_bytes()).unwrap();
        let mut inside = 0;
        for pos in random_positions(9, 20) {
            let (v, s) = (w.evaluate(pos), back.evaluate(pos));
            // Values near the clamp move less.
            assert_eq!(s, (v + 150).clamp(-MAX_EVAL, MAX_EVAL), "{pos:?}");
            inside += usize::from(v + 150 < MAX_EVAL);
        }
        assert!(inside > 100);
    }

    #[test]
    fn corrupt_or_truncated_files_are_rejected() {
        let bytes = random_weights(6).to_bytes();
        for cut in [0, 5, 8, 20, 40, bytes.len() / 2, bytes.len() - 1] {
            let err = PatternWeights::from_bytes(&bytes[..cut]).unwrap_err();
            assert!(err.to_string().contains("weights:"), "{err}");
        }
        let mut flipped = bytes.clone();
        flipped[bytes.len() / 2] ^= 0x10;
        let err = PatternWeights::from_bytes(&flipped)
            .unwrap_err()
            .to_string();
        assert!(err.contains("checksum") || err.contains("payload"), "{err}");
        let mut magic = bytes.clone();
        magic[0] = b'X';
        assert!(PatternWeights::from_bytes(&magic)
            .unwrap_err()
            .to_string()
            .contains("magic"));
        let mut version = bytes.clone();
        version[8] = 9;
        assert!(PatternWeights::from_bytes(&version)
            .unwrap_err()
            .to_string()
            .contains("version"));
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(PatternWeights::from_bytes(&longer).is_err());
    }
}
