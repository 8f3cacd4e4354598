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
