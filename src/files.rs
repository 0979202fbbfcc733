//! Writing files so that an interrupted run never leaves half of one.

use std::io::Write;
use std::path::Path;

/// Writes `text` to `path` through a temporary file in the same folder and a rename, so an
/// interrupted run never leaves a half-written file. Fixture lists are written only through
/// `pipeline::save`, which takes a list the checker has accepted.
pub fn write_atomically(path: &Path, text: impl AsRef<[u8]>) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    // The temporary file is removed when anything fails before the rename; it is created as
    // `File::create` would (0666 less the umask), not private, as pages are served from it.
    let mut builder = tempfile::Builder::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(dir)?;
    tmp.write_all(text.as_ref())?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map(|_| ()).map_err(|e| e.error)
}

/// Whether two paths name the same existing file.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_write_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("fixtures.csv");
        write_atomically(&target, "date\n").unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "date\n");
        // A folder where the file should go: the rename fails.
        let blocked = dir.path().join("site");
        std::fs::create_dir(blocked.join("")).unwrap();
        std::fs::write(blocked.join("inside"), "x").unwrap();
        assert!(write_atomically(&blocked, "text").is_err());
        let mut names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["fixtures.csv", "site"]);
    }
}
