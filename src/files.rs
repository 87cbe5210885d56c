//! Files this machine keeps (drafts, accounts, the last session): the one way they are written.

/// Write a file atomically (temp file in the same folder, synced, then renamed over the old
/// one): a crash or `kill -9` leaves the old or the new contents, never a torn file.
pub fn write_atomic(path: &std::path::Path, body: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    std::io::Write::write_all(&mut tmp, body)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}
