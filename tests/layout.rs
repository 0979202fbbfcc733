//! The codebase's shape: no function over `MAX_LINES` lines outside the search's hot loops,
//! which `docs/architecture.md` names with the reason.

use std::path::{Path, PathBuf};

/// The longest a function may be.
const MAX_LINES: usize = 80;

/// The hot loops of the search, kept whole (see docs/architecture.md, "Long functions").
const HOT_LOOPS: [(&str, &str); 3] = [
    ("src/solve/local.rs", "try_move"),
    ("src/solve/exact.rs", "walk"),
    ("src/solve/exact.rs", "apply"),
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// A line without its strings, characters and comment, for counting braces.
fn code_of(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                while let Some(d) = chars.next() {
                    match d {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
            }
            '\'' => {
                // A character literal ('x', '\n', '{'), not a lifetime ('a).
                let rest: String = chars.clone().take(3).collect();
                if rest.starts_with('\\') {
                    for d in chars.by_ref() {
                        if d == '\'' {
                            break;
                        }
                    }
                } else if rest.chars().nth(1) == Some('\'') {
                    chars.next();
                    chars.next();
                }
            }
            '/' if chars.peek() == Some(&'/') => break,
            _ => out.push(c),
        }
    }
    out
}

/// The name of the function a line starts, if it starts one.
fn fn_name(line: &str) -> Option<&str> {
    let mut words = line.split_whitespace();
    loop {
        match words.next()? {
            "fn" => {
                let name = words.next()?;
                return Some(name.split(['(', '<']).next().unwrap_or(name));
            }
            w if w.starts_with("pub") || ["const", "async", "unsafe"].contains(&w) => {}
            _ => return None,
        }
    }
}

/// (lines, file, name) of every function longer than `MAX_LINES`, tests left out.
fn long_functions(root: &Path) -> Vec<(usize, String, String)> {
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    rust_files(&root.join("crates"), &mut files);
    let mut long = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let rel = file
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        for (i, line) in lines.iter().enumerate() {
            if line.trim_start().starts_with("#[cfg(test)]") {
                break;
            }
            let Some(name) = fn_name(line) else {
                continue;
            };
            let (mut depth, mut opened, mut end) = (0i64, false, i);
            for (j, l) in lines.iter().enumerate().skip(i) {
                let code = code_of(l);
                for c in code.chars() {
                    match c {
                        '{' => {
                            depth += 1;
                            opened = true;
                        }
                        '}' => depth -= 1,
                        _ => {}
                    }
                }
                end = j;
                if (opened && depth <= 0) || (!opened && code.trim_end().ends_with(';')) {
                    break;
                }
            }
            let n = end - i + 1;
            if n > MAX_LINES {
                long.push((n, rel.clone(), name.to_string()));
            }
        }
    }
    long
}

#[test]
fn no_long_functions_but_the_hot_loops() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let long = long_functions(root);
    let others: Vec<_> = long
        .iter()
        .filter(|(_, file, name)| !HOT_LOOPS.contains(&(file.as_str(), name.as_str())))
        .collect();
    assert!(
        others.is_empty(),
        "functions over {MAX_LINES} lines (split them, or name a hot loop in docs/architecture.md): {others:?}"
    );
    // The scan finds what it looks for: the hot loops themselves are long.
    assert_eq!(long.len(), HOT_LOOPS.len(), "{long:?}");
    let doc = std::fs::read_to_string(root.join("docs/architecture.md")).unwrap();
    for (file, name) in HOT_LOOPS {
        let named =
            doc.contains(&format!("`{}`", file.trim_start_matches("src/"))) || doc.contains(file);
        assert!(
            named && doc.contains(name),
            "{file} {name} is not named in docs/architecture.md"
        );
    }
}
