//! Command-line values the tools share.

use othello::eval::pattern::PatternWeights;
use othello::eval::Evaluator;
use std::sync::Arc;

/// `K/N`, 1 <= K <= N: this process's part of a sharded run (see
/// [`crate::label`] for how the parts divide the work).
pub fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let (k, n) = s.split_once('/').ok_or("K/N, as 2/4")?;
    let k: usize = k.parse().map_err(|_| "K/N, as 2/4")?;
    let n: usize = n.parse().map_err(|_| "K/N, as 2/4")?;
    if k < 1 || k > n {
        return Err(format!("{k}/{n}: K must be within 1..={n}"));
    }
    Ok((k, n))
}

/// The evaluation a `--weights` value names: `builtin` (the library's
/// weights), `v1`, or a weights file (a bad file stops the tool).
pub fn evaluator(weights: &str) -> Evaluator {
    match weights {
        "builtin" => Evaluator::trained(),
        "v1" => Evaluator::V1,
        path => Evaluator::Pattern(Arc::new(
            PatternWeights::load(path.as_ref()).unwrap_or_else(|e| panic!("{e}")),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_k_of_n() {
        assert_eq!(parse_shard("2/4"), Ok((2, 4)));
        for bad in ["0/4", "5/4", "1/0", "1", "a/2", "1/b"] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
    }
}
