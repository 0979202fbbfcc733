//! `scripts/setup` finds the libclang that bindgen loads, and only that: a fresh Debian machine
//! carries `libclang-cpp.so.N` (the C++ interface), which is not libclang.

use std::path::Path;
use std::process::Command;

/// Runs `scripts/setup --find-libclang DIR` (report only; nothing is installed).
fn finds_libclang(dir: &Path) -> (bool, String) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/setup");
    let out = Command::new("bash")
        .arg(script)
        .arg("--find-libclang")
        .arg(dir)
        .output()
        .expect("bash runs scripts/setup");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

fn folder_with(files: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for f in files {
        std::fs::write(dir.path().join(f), b"").unwrap();
    }
    dir
}

#[test]
fn libclang_cpp_alone_is_reported_missing() {
    let dir = folder_with(&["libclang-cpp.so.14"]);
    let (found, text) = finds_libclang(dir.path());
    assert!(!found, "libclang-cpp taken for libclang: {text}");
    assert!(text.contains("none"), "{text}");
}

#[test]
fn versioned_libclang_is_reported_present() {
    let dir = folder_with(&["libclang-14.so.1"]);
    let (found, text) = finds_libclang(dir.path());
    assert!(found, "{text}");
    assert!(text.contains("libclang-14.so.1"), "{text}");
}

#[test]
fn every_name_bindgen_loads_is_found() {
    for name in [
        "libclang.so",
        "libclang.so.1",
        "libclang-16.so",
        "libclang-14.so.14.0.6",
    ] {
        let dir = folder_with(&["libclang-cpp.so.14", name]);
        let (found, text) = finds_libclang(dir.path());
        assert!(found, "{name}: {text}");
        assert!(text.contains(name), "{name}: {text}");
    }
    let empty = folder_with(&[]);
    assert!(!finds_libclang(empty.path()).0);
}

/// `scripts/postgres --check`: which PostgreSQL the tests would use, without starting one.
fn postgres_check(env: &[(&str, &str)]) -> (bool, String) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/postgres");
    let mut cmd = Command::new("bash");
    cmd.arg(script).arg("--check").env_remove("DATABASE_URL");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("bash runs scripts/postgres");
    (
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

#[test]
fn postgres_detection_prefers_database_url_and_reports_none() {
    let (ok, text) = postgres_check(&[("DATABASE_URL", "postgres://u@db.example/x")]);
    assert!(ok, "{text}");
    assert_eq!(text.trim(), "postgres://u@db.example/x");
    // Nothing listens on port 1: no server, said so, exit 1 (and nothing installed).
    let (ok, text) = postgres_check(&[("FIXTURES_PG_LOCAL_PORT", "1")]);
    assert!(!ok, "{text}");
    assert!(text.contains("nothing answers"), "{text}");
}
