//! What the benches share: reading their command line.

/// The bench's arguments, without the `--bench` that `cargo bench` adds.
pub fn args() -> Vec<String> {
    std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect()
}

/// Takes `name N` out of `args`: N, or `default` when `name` is absent.
/// Panics when N is no number.
pub fn take_number(args: &mut Vec<String>, name: &str, default: u64) -> u64 {
    match args.iter().position(|a| a == name) {
        None => default,
        Some(i) => {
            let v = args
                .get(i + 1)
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{name} takes a number"));
            args.drain(i..i + 2);
            v
        }
    }
}

/// The evaluation that `OTHELLO_EVAL` (`v1` or `trained`) and `--weights
/// FILE` (taken out of `args`; it wins) choose, or None for the engine's
/// default. Panics when FILE is missing or no weights file.
#[allow(dead_code)] // not every bench chooses an evaluation
pub fn take_evaluator(args: &mut Vec<String>) -> Option<othello::eval::Evaluator> {
    use othello::eval::{pattern::PatternWeights, Evaluator};
    if let Some(i) = args.iter().position(|a| a == "--weights") {
        let file = args.get(i + 1).cloned().expect("--weights takes a file");
        args.drain(i..i + 2);
        let w = PatternWeights::load(file.as_ref()).unwrap_or_else(|e| panic!("{file}: {e}"));
        return Some(Evaluator::Pattern(std::sync::Arc::new(w)));
    }
    match std::env::var("OTHELLO_EVAL").as_deref() {
        Ok("v1") => Some(Evaluator::V1),
        Ok("trained") => Some(Evaluator::trained()),
        _ => None,
    }
}
