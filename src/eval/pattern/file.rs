//! The weights file: [`PatternWeights::to_bytes`] writes it (its doc states
//! the format), [`PatternWeights::from_bytes`] and [`PatternWeights::load`]
//! read and check it, naming what is wrong in a malformed or truncated file.

use super::layout::{check_pattern_count, Layout, BIAS_LEN, MOBILITY_MAX};
use super::{bad, PatternWeights};
use crate::error::Error;
use std::sync::Arc;

/// The file magic.
pub const MAGIC: &[u8; 8] = b"OTHWEIGH";
/// The format version written and read.
pub const VERSION: u32 = 1;

/// The checksum: FNV-1a, 64 bits.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

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

    fn u32(&mut self, what: &str) -> Result<u32, Error> {
        Ok(u32::from_le_bytes(
            self.take(4, what)?.try_into().expect("4 bytes"),
        ))
    }

    fn u64(&mut self, what: &str) -> Result<u64, Error> {
        Ok(u64::from_le_bytes(
            self.take(8, what)?.try_into().expect("8 bytes"),
        ))
    }
}

/// Zero-run marker in the payload.
const ZERO_RUN: i16 = i16::MIN;

impl PatternWeights {
    /// The file form, little-endian, version 1:
    ///
    /// - magic `OTHWEIGH` (8 bytes), version (u32);
    /// - stage count (u32) and empties per stage (u32): a position with `e`
    ///   empties uses stage `min(e / width, count - 1)`;
    /// - pattern count (u32), then each pattern's canonical mask (u64): the
    ///   file's pattern set (see [`Layout::new`] for what it may hold);
    /// - the sizes of the mobility and bias tables (u32 each);
    /// - payload length in bytes (u32) and the payload: for each stage, each
    ///   weight of the set's [`Layout`] in order whose configuration is
    ///   canonical (the smallest index among those a pattern symmetry maps it
    ///   to), as i16;
    ///   a run of `n` zero weights is written as -32768 followed by `n` (u16);
    /// - an FNV-1a 64 checksum (u64) of every byte before it.
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
        if rd.take(8, "magic")? != MAGIC {
            return Err(bad("not a weights file (the magic is not OTHWEIGH)"));
        }
        let version = rd.u32("version")?;
        if version != VERSION {
            return Err(bad(format!(
                "format version {version}, this library reads version {VERSION}"
            )));
        }
        let stages = rd.u32("stage count")?;
        let width = rd.u32("stage width")?;
        let count = rd.u32("pattern count")? as usize;
        // Checked before the masks are read: the count sizes that read.
        check_pattern_count(count)?;
        let mut masks = Vec::with_capacity(count);
        for _ in 0..count {
            masks.push(rd.u64("pattern masks")?);
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
        let mob = rd.u32("mobility table size")?;
        let bias = rd.u32("bias table size")?;
        if mob as usize != MOBILITY_MAX + 1 || bias as usize != BIAS_LEN {
            return Err(bad(format!(
                "table sizes {mob} and {bias}, this library expects {} and {BIAS_LEN}",
                MOBILITY_MAX + 1
            )));
        }
        let len = rd.u32("payload length")? as usize;
        let payload = rd.take(len, "payload")?;
        let sum_at = rd.at;
        let sum = rd.u64("checksum")?;
        if rd.at != bytes.len() {
            return Err(bad(format!(
                "{} bytes after the checksum",
                bytes.len() - rd.at
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::pattern::tests::{random_positions, random_weights, random_weights_with};
    use crate::eval::pattern::PATTERNS;

    #[test]
    #[cfg_attr(miri, ignore = "weighs the extended set: minutes under Miri")]
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
    #[cfg_attr(miri, ignore = "the 3.4 MB embedded file: minutes under Miri")]
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
    #[cfg_attr(miri, ignore = "weighs the built-in set: minutes under Miri")]
    fn a_file_with_a_bad_pattern_set_is_rejected() {
        let too_big = PATTERNS[0].mask | 1 << 63;
        // Its pattern count and masks are read before the layout is made.
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
    #[cfg_attr(miri, ignore = "weighs the built-in set: minutes under Miri")]
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
