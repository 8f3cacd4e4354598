//! The committed header must be exactly what build.rs generates.

/// Needs the generated copy: built with the `header` feature (the default).
#[cfg(feature = "header")]
#[test]
fn committed_header_is_up_to_date() {
    let generated = include_str!(concat!(env!("OUT_DIR"), "/othello.h"));
    let committed = include_str!("../include/othello.h");
    assert!(
        generated == committed,
        "include/othello.h is stale: run `OTHELLO_WRITE_HEADER=1 cargo build` and commit it"
    );
}

#[test]
fn version_macros_match_the_library() {
    let header = include_str!("../include/othello.h");
    let version = unsafe { std::ffi::CStr::from_ptr(othello::ffi::othello_version()) };
    let version = version.to_str().unwrap();
    assert_eq!(version, env!("CARGO_PKG_VERSION"));
    assert!(header.contains(&format!("#define OTHELLO_VERSION_STRING \"{version}\"")));
    let parts: Vec<&str> = version.split('.').collect();
    for (name, part) in ["MAJOR", "MINOR", "PATCH"].iter().zip(parts) {
        assert!(header.contains(&format!("#define OTHELLO_VERSION_{name} {part}\n")));
    }
}
