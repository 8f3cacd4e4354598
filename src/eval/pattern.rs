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
//! Three small tables complete the sum: the number of legal moves of the
//! side to move (0..=[`MOBILITY_MAX`], capped), the same for the opponent,
//! and a bias by the number of empty squares (which carries parity).
//!
//! Evaluating from scratch costs 46 table reads and two move generations;
//! `cargo bench --bench eval` measures it against evaluation v1. An
//! incremental form, which updated the configurations of the instances
//! through the placed and flipped squares (about 7 instances a square), was
//! measured on random games at only ~7% less than reading the patterns from
//! the board (137 vs 147 ns: the time goes to the weight reads, 334 KB of
//! tables per stage, and the two mobility counts), so the search, which
//! would pay the update at interior nodes too, evaluates from scratch.
//!
//! # Weights file (little-endian), version 1
//!
//! - magic `OTHWEIGH` (8 bytes), version (u32);
//! - stage count (u32) and empties per stage (u32): a position with `e`
//!   empties uses stage `min(e / width, count - 1)`;
//! - pattern count (u32), then each pattern's canonical mask (u64): a file
//!   trained on another pattern set is rejected;
//! - the sizes of the mobility and bias tables (u32 each);
//! - payload length in bytes (u32) and the payload: for each stage, each
//!   weight of [`FEATURES`] in order whose configuration is canonical (the
//!   smallest index among those a pattern symmetry maps it to), as i16;
//!   a run of `n` zero weights is written as -32768 followed by `n` (u16);
//! - an FNV-1a 64 checksum (u64) of every byte before it.

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

/// One placement of a pattern: the symmetry to apply, the pattern's number.
#[derive(Clone, Copy, Debug)]
struct Instance {
    symmetry: u8,
    pattern: u8,
}

/// Squares of the original board that symmetry `s` brings onto `mask`.
fn read_mask(mask: u64, s: usize) -> u64 {
    (0..64)
        .filter(|&sq| symmetry(1u64 << sq, s) & mask != 0)
        .fold(0, |m, sq| m | 1u64 << sq)
}

/// The number of pattern instances.
pub const INSTANCES: usize = 46;

/// Every instance: for each pattern, the first symmetry giving each
/// distinct read mask.
static INSTANCE_LIST: Lazy<[Instance; INSTANCES]> = Lazy::new(|| {
    let mut out = Vec::new();
    for (k, p) in PATTERNS.iter().enumerate() {
        let mut seen = Vec::new();
        for s in 0..8 {
            let m = read_mask(p.mask, s);
            if !seen.contains(&m) {
                seen.push(m);
                out.push(Instance {
                    symmetry: s as u8,
                    pattern: k as u8,
                });
            }
        }
    }
    out.try_into().expect("46 pattern instances")
});

/// The weight layout of one stage: each pattern's table, then the two
/// mobility tables, then the bias table.
pub struct Features {
    /// Offset of each pattern's table.
    pub offsets: [usize; PATTERNS.len()],
    /// Its size, 3^squares.
    pub sizes: [usize; PATTERNS.len()],
    pub mobility_offset: usize,
    pub opponent_mobility_offset: usize,
    pub bias_offset: usize,
    /// Weights per stage.
    pub len: usize,
    /// `canonical[j]`: the weight that weight `j` shares (the smallest index
    /// of its orbit under the pattern's own symmetries); `j` for the others.
    pub canonical: Vec<u32>,
}

/// The layout of [`PATTERNS`].
pub static FEATURES: Lazy<Features> = Lazy::new(|| {
    let mut offsets = [0; PATTERNS.len()];
    let mut sizes = [0; PATTERNS.len()];
    let mut at = 0;
    for (k, p) in PATTERNS.iter().enumerate() {
        offsets[k] = at;
        sizes[k] = 3usize.pow(p.mask.count_ones());
        at += sizes[k];
    }
    let mobility_offset = at;
    let opponent_mobility_offset = at + MOBILITY_MAX + 1;
    let bias_offset = opponent_mobility_offset + MOBILITY_MAX + 1;
    let len = bias_offset + BIAS_LEN;
    let mut canonical: Vec<u32> = (0..len as u32).collect();
    for (k, p) in PATTERNS.iter().enumerate() {
        let stabiliser: Vec<usize> = (1..8).filter(|&s| symmetry(p.mask, s) == p.mask).collect();
        let squares: Vec<u64> = (0..64)
            .filter(|sq| p.mask >> sq & 1 != 0)
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
                .map(|&s| config_index(symmetry(me, s), symmetry(you, s), p.mask))
                .fold(idx, usize::min);
            canonical[offsets[k] + idx] = (offsets[k] + best) as u32;
        }
    }
    Features {
        offsets,
        sizes,
        mobility_offset,
        opponent_mobility_offset,
        bias_offset,
        len,
        canonical,
    }
});

#[inline(always)]
fn config_index(p: u64, o: u64, mask: u64) -> usize {
    BASE3[pext_soft(p, mask) as usize] as usize + 2 * BASE3[pext_soft(o, mask) as usize] as usize
}

/// The stage of a position with `empties` empty squares.
#[inline(always)]
fn stage_of(empties: u32, width: u32, count: u32) -> usize {
    (empties / width).min(count - 1) as usize
}

/// The features of a position: the index (within a stage's weights, see
/// [`Features`]) of every weight its evaluation adds.
pub const ACTIVE: usize = INSTANCES + 3;

/// The weight indices that `pos` reads, in a fixed order. Shared by the
/// training tool and the tests; the evaluation computes the same indices.
pub fn feature_indices(pos: Position) -> [u32; ACTIVE] {
    let f = &*FEATURES;
    let (p, o) = (pos.player, pos.opponent);
    let ps = all_symmetries(p);
    let os = all_symmetries(o);
    let mut out = [0u32; ACTIVE];
    for (slot, inst) in out.iter_mut().zip(INSTANCE_LIST.iter()) {
        let k = inst.pattern as usize;
        let s = inst.symmetry as usize;
        *slot = (f.offsets[k] + config_index(ps[s], os[s], PATTERNS[k].mask)) as u32;
    }
    let (mp, mo) = mobility(p, o);
    out[INSTANCES] = (f.mobility_offset + mp) as u32;
    out[INSTANCES + 1] = (f.opponent_mobility_offset + mo) as u32;
    out[INSTANCES + 2] = (f.bias_offset + (!(p | o)).count_ones() as usize) as u32;
    out
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
    stages: u32,
    width: u32,
    /// `stages * FEATURES.len` weights, in 1/SCALE disc.
    weights: Vec<i16>,
}

impl std::fmt::Debug for PatternWeights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "PatternWeights {{ stages: {}, width: {} }}",
            self.stages, self.width
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
static EMBEDDED: &[u8] = include_bytes!("../../weights/pattern.bin");

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

    /// All-zero weights: `stages` stages of `width` empties each.
    pub fn zero(stages: u32, width: u32) -> Result<PatternWeights, Error> {
        if stages == 0 || width == 0 || stages > 65 || width > 65 {
            return Err(bad(format!(
                "{stages} stages of {width} empties: both must be within 1..65"
            )));
        }
        Ok(PatternWeights {
            stages,
            width,
            weights: vec![0; stages as usize * FEATURES.len],
        })
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
    /// [`FEATURES`], in discs); shared weights take their canonical index's
    /// value; values are rounded to 1/SCALE disc and saturated to i16.
    pub fn set_stage(&mut self, stage: usize, values: &[f32]) {
        let f = &*FEATURES;
        assert_eq!(values.len(), f.len);
        let base = stage * f.len;
        for j in 0..f.len {
            let v = values[f.canonical[j] as usize] * SCALE as f32;
            self.weights[base + j] = v.round().clamp(-32767.0, 32767.0) as i16;
        }
    }

    /// The weights of `stage`, in 1/SCALE disc.
    pub fn stage(&self, stage: usize) -> &[i16] {
        let n = FEATURES.len;
        &self.weights[stage * n..(stage + 1) * n]
    }

    /// The file form (see the module documentation).
    pub fn to_bytes(&self) -> Vec<u8> {
        let f = &*FEATURES;
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&self.stages.to_le_bytes());
        out.extend_from_slice(&self.width.to_le_bytes());
        out.extend_from_slice(&(PATTERNS.len() as u32).to_le_bytes());
        for p in &PATTERNS {
            out.extend_from_slice(&p.mask.to_le_bytes());
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
        let f = &*FEATURES;
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
        let mut w = PatternWeights::zero(stages, width)?;
        let count = u32_of(take(4, "pattern count")?);
        if count as usize != PATTERNS.len() {
            return Err(bad(format!(
                "{count} patterns, this library has {}",
                PATTERNS.len()
            )));
        }
        for p in &PATTERNS {
            let mask = u64::from_le_bytes(take(8, "pattern masks")?.try_into().expect("8 bytes"));
            if mask != p.mask {
                return Err(bad(format!(
                    "pattern {} has mask {mask:#x}, this library expects {:#x}",
                    p.name, p.mask
                )));
            }
        }
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
        self.sum_over(pos, |inst| {
            let s = inst.symmetry as usize;
            let mask = PATTERNS[inst.pattern as usize].mask;
            BASE3[pext(ps[s], mask) as usize] as usize
                + 2 * BASE3[pext(os[s], mask) as usize] as usize
        })
    }

    /// The evaluation of `pos` given `config(instance)`, the configuration
    /// index of each instance: its pattern weights plus the mobility and bias
    /// weights, clamped.
    #[inline(always)]
    fn sum_over(&self, pos: Position, config: impl Fn(&Instance) -> usize) -> i32 {
        let f = &*FEATURES;
        let (p, o) = (pos.player, pos.opponent);
        let empties = (!(p | o)).count_ones();
        let base = self.stage_of(empties) * f.len;
        let w = &self.weights[base..base + f.len];
        let mut sum = 0i32;
        for inst in INSTANCE_LIST.iter() {
            sum += w[f.offsets[inst.pattern as usize] + config(inst)] as i32;
        }
        let (mp, mo) = mobility(p, o);
        sum += w[f.mobility_offset + mp] as i32
            + w[f.opponent_mobility_offset + mo] as i32
            + w[f.bias_offset + empties as usize] as i32;
        sum.clamp(-MAX_EVAL, MAX_EVAL)
    }

    /// The evaluation as the plain sum of [`feature_indices`]: what the
    /// training tool fits, and a check of [`PatternWeights::evaluate`].
    pub fn evaluate_reference(&self, pos: Position) -> i32 {
        let empties = pos.empties().count();
        let w = self.stage(self.stage_of(empties));
        let sum: i32 = feature_indices(pos)
            .iter()
            .map(|&j| w[j as usize] as i32)
            .sum();
        sum.clamp(-MAX_EVAL, MAX_EVAL)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::S8;

    fn random_positions(seed: u64, games: usize) -> Vec<Position> {
        crate::board::testing::random_positions::<S8>(seed, games)
    }

    use crate::rng::Rng;

    /// Weights with a random value on every index (shared ones equal).
    fn random_weights(seed: u64) -> PatternWeights {
        let mut rng = Rng::new(seed);
        let mut w = PatternWeights::zero(6, 11).unwrap();
        for s in 0..6 {
            let values: Vec<f32> = (0..FEATURES.len)
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
        assert_eq!(INSTANCE_LIST.len(), INSTANCES);
        let sizes: Vec<u32> = PATTERNS.iter().map(|p| p.mask.count_ones()).collect();
        assert_eq!(sizes, [10, 10, 9, 8, 8, 8, 8, 7, 6, 5, 4]);
        let covered = INSTANCE_LIST
            .iter()
            .map(|i| read_mask(PATTERNS[i.pattern as usize].mask, i.symmetry as usize))
            .fold(0, |a, m| a | m);
        assert_eq!(covered, u64::MAX);
    }

    #[test]
    fn evaluation_is_the_sum_of_the_features() {
        let w = random_weights(1);
        for pos in random_positions(2, 30) {
            assert_eq!(w.evaluate(pos), w.evaluate_reference(pos), "{pos:?}");
            assert_eq!(w.evaluate(pos), w.evaluate_with(pos, pext_soft));
        }
    }

    #[test]
    fn symmetric_positions_evaluate_the_same() {
        let w = random_weights(3);
        let mut differing = 0;
        for pos in random_positions(4, 60) {
            let v = w.evaluate(pos);
            for s in 1..8 {
                let image = Position::new(symmetry(pos.player, s), symmetry(pos.opponent, s));
                differing += (image != pos) as usize;
                assert_eq!(w.evaluate(image), v, "{pos:?} symmetry {s}");
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
