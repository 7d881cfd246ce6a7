//! Finds libsched with pkg-config (package `libsched`) and generates the
//! declarations of `sched/sched.h` with bindgen, so they cannot drift from
//! the header the library was built with.

use std::env;
use std::path::PathBuf;

fn main() {
    let statik = env::var_os("CARGO_FEATURE_STATIC").is_some();
    let lib = pkg_config::Config::new()
        .atleast_version("0.1")
        .statik(statik)
        // In static mode the link lines are written below.
        .cargo_metadata(!statik)
        .probe("libsched")
        .unwrap_or_else(|e| panic!("libsched not found through pkg-config: {e}"));
    if statik {
        // libsched.pc says -lsched, which a linker resolves to libsched.so;
        // name the archive, then its private dependencies (cJSON, xxHash,
        // libstdc++, libm) as pkg-config --static lists them.
        for dir in &lib.link_paths {
            println!("cargo:rustc-link-search=native={}", dir.display());
        }
        println!("cargo:rustc-link-lib=static=sched");
        for l in lib.libs.iter().filter(|l| l.as_str() != "sched") {
            println!("cargo:rustc-link-lib={l}");
        }
    }
    let header = lib
        .include_paths
        .iter()
        .map(|dir| dir.join("sched/sched.h"))
        .find(|h| h.exists())
        .expect("sched/sched.h is not under any include path libsched.pc gives");
    println!("cargo:rerun-if-changed={}", header.display());
    println!(
        "cargo:include={}",
        header.parent().unwrap().parent().unwrap().display()
    );
    let bindings = bindgen::Builder::default()
        .header(header.to_string_lossy())
        .clang_args(
            lib.include_paths
                .iter()
                .map(|p| format!("-I{}", p.display())),
        )
        .allowlist_function("sched_.*")
        .allowlist_type("sched_.*")
        .allowlist_var("SCHED_.*")
        // sched_status is a C enum whose values callers must not assume
        // closed (docs/abi.md: statuses may be added): plain constants.
        .default_enum_style(bindgen::EnumVariation::Consts)
        .prepend_enum_name(false)
        .generate()
        .expect("bindgen could not parse sched/sched.h");
    let out = PathBuf::from(env::var("OUT_DIR").unwrap()).join("bindings.rs");
    bindings.write_to_file(out).expect("writing bindings.rs");
}
