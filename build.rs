//! Generates the C header from the FFI sources with cbindgen.
//!
//! The header is always written to `$OUT_DIR/othello.h`; the committed copy in
//! `include/` is rewritten only when `OTHELLO_WRITE_HEADER=1`, so a build never
//! edits the source tree behind the developer's back. A test compares the two.
//!
//! All this with the `header` feature (a default one). Without it
//! (`--no-default-features`, as the install test runs `cargo cinstall`, which
//! installs the committed header) nothing is generated and cbindgen is not
//! even built.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    #[cfg(feature = "header")]
    generate_header();
}

/// The structs' set-up calls pass the size of the caller's struct, as
/// zlib's `deflateInit` passes `sizeof(z_stream)`: a program built against
/// an older header gets its smaller struct filled, no more.
#[cfg(feature = "header")]
const INIT_MACROS: &str = "

/**
 * Set up an othello_search_limits or othello_search_result before use: these
 * macros pass the size of the struct as the program knows it, so that a later
 * library fills no more than that (the functions ending in `_` below).
 */
#define othello_search_limits_init(lim) othello_search_limits_init_((lim), sizeof *(lim))
#define othello_search_result_init(out) othello_search_result_init_((out), sizeof *(out))";

#[cfg(feature = "header")]
fn generate_header() {
    use std::env;
    use std::path::PathBuf;

    let crate_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("set by cargo"));
    println!("cargo:rerun-if-changed=src/ffi");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    println!("cargo:rerun-if-changed=include/header_top.h");
    println!("cargo:rerun-if-env-changed=OTHELLO_WRITE_HEADER");

    let part = |name: &str| -> u32 {
        env::var(name)
            .expect("set by cargo")
            .parse()
            .expect("a version part is a number")
    };
    let (major, minor, patch) = (
        part("CARGO_PKG_VERSION_MAJOR"),
        part("CARGO_PKG_VERSION_MINOR"),
        part("CARGO_PKG_VERSION_PATCH"),
    );
    let mut config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml"))
        .expect("cbindgen.toml is readable");
    let top = std::fs::read_to_string(crate_dir.join("include/header_top.h"))
        .expect("include/header_top.h is readable");
    config.header = Some(top.trim_end().to_string());
    config.after_includes = Some(format!(
        "\n#define OTHELLO_VERSION_MAJOR {major}\n#define OTHELLO_VERSION_MINOR {minor}\n#define OTHELLO_VERSION_PATCH {patch}\n#define OTHELLO_VERSION_STRING \"{}\"\n/* MAJOR * 10000 + MINOR * 100 + PATCH, as othello_version_number() gives it. */\n#define OTHELLO_VERSION_NUMBER {}{INIT_MACROS}",
        env::var("CARGO_PKG_VERSION").expect("set by cargo"),
        major * 10000 + minor * 100 + patch,
    ));
    let bindings = cbindgen::Builder::new()
        .with_src(crate_dir.join("src/ffi/mod.rs"))
        .with_config(config)
        .generate()
        .expect("cbindgen generates the header");
    bindings.write_to_file(out_dir.join("othello.h"));
    if env::var("OTHELLO_WRITE_HEADER").as_deref() == Ok("1") {
        bindings.write_to_file(crate_dir.join("include/othello.h"));
    }
}
