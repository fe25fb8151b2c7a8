//! Passes the target triple to the integration test, which compiles a C program against the static library
//! for that target with the `cc` crate. Nothing is compiled here.

fn main() {
    for var in ["TARGET", "HOST"] {
        if let Ok(v) = std::env::var(var) {
            println!("cargo:rustc-env=SUDOKU_FFI_{var}={v}");
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
