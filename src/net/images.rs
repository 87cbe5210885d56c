//! Pictures of inline images: fetched from the user's own server with the user's credentials
//! (`Client::download_at_most` sends them nowhere else), at most [`MAX_BYTES`]; kept on disk in
//! the cache folder, which is pruned to [`DISK_LIMIT`] (oldest first); decoded off the main
//! task, with the decoder's limits, and scaled down to [`MAX_SIDE`] so that memory stays small.

use crate::api::Client;
use crate::app::Failure;
use crate::app::images::Picture;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The largest picture fetched.
pub const MAX_BYTES: usize = 10 << 20;
/// The disk cache's size, at most.
pub const DISK_LIMIT: u64 = 100 << 20;
/// Decoded pictures are scaled down to fit this many pixels on each side.
pub const MAX_SIDE: u32 = 1024;

/// The cache file of `src` on `site`.
pub fn cache_file(dir: &Path, site: &str, src: &str) -> PathBuf {
    use sha2::Digest as _;
    let digest = sha2::Sha256::digest(format!("{site}\n{src}").as_bytes());
    let name: String = digest.iter().take(16).map(|b| format!("{b:02x}")).collect();
    dir.join(name)
}

/// The picture at `src`: from the disk cache when there, else from the server (and kept).
pub async fn fetch(client: &Client, dir: Option<&Path>, src: &str) -> Result<Picture, Failure> {
    let file = dir.map(|d| cache_file(d, client.site(), src));
    let cached = match &file {
        Some(f) => tokio::fs::read(f).await.ok(),
        None => None,
    };
    let bytes = match cached {
        Some(b) => b,
        None => {
            let b = client.download_at_most(src, MAX_BYTES).await?;
            if let (Some(f), Some(d)) = (file, dir) {
                let (body, d) = (b.clone(), d.to_owned());
                tokio::task::spawn_blocking(move || keep(&d, &f, &body));
            }
            b
        }
    };
    let decoded = tokio::task::spawn_blocking(move || decode(&bytes))
        .await
        .map_err(|e| Failure::Undecodable(e.to_string()))??;
    Ok(Picture(Arc::new(decoded)))
}

/// Decode a picture within the decoder's limits and scale it down to [`MAX_SIDE`].
pub fn decode(bytes: &[u8]) -> Result<image::DynamicImage, Failure> {
    let bad = |e: image::ImageError| Failure::Undecodable(e.to_string());
    let mut reader = image::ImageReader::new(std::io::Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| Failure::Undecodable(e.to_string()))?;
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(16_384);
    limits.max_image_height = Some(16_384);
    limits.max_alloc = Some(256 << 20);
    reader.limits(limits);
    let img = reader.decode().map_err(bad)?;
    Ok(if img.width() > MAX_SIDE || img.height() > MAX_SIDE {
        img.thumbnail(MAX_SIDE, MAX_SIDE)
    } else {
        img
    })
}

/// Write a fetched picture to the disk cache, then let the oldest go while the folder is over
/// [`DISK_LIMIT`]. Failures are logged: the cache only saves fetching again.
fn keep(dir: &Path, file: &Path, body: &[u8]) {
    if let Err(e) = crate::files::write_atomic(file, body) {
        tracing::debug!("picture not kept in {}: {e}", dir.display());
        return;
    }
    prune(dir, DISK_LIMIT);
}

/// Remove the oldest files of `dir` until it holds at most `limit` bytes.
pub fn prune(dir: &Path, limit: u64) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut files: Vec<(std::time::SystemTime, u64, PathBuf)> = entries
        .flatten()
        .filter_map(|e| {
            let m = e.metadata().ok().filter(|m| m.is_file())?;
            Some((m.modified().unwrap_or(std::time::UNIX_EPOCH), m.len(), e.path()))
        })
        .collect();
    let mut total: u64 = files.iter().map(|f| f.1).sum();
    files.sort();
    for (_, len, path) in files {
        if total <= limit {
            break;
        }
        if std::fs::remove_file(&path).is_ok() {
            total -= len;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(w: u32, h: u32) -> Vec<u8> {
        let img = image::DynamicImage::new_rgb8(w, h);
        let mut out = std::io::Cursor::new(Vec::new());
        img.write_to(&mut out, image::ImageFormat::Png).unwrap();
        out.into_inner()
    }

    #[test]
    fn pictures_are_decoded_and_scaled_down_and_garbage_is_refused() {
        let small = decode(&png(40, 30)).unwrap();
        assert_eq!((small.width(), small.height()), (40, 30));
        let big = decode(&png(4000, 1000)).unwrap();
        assert_eq!((big.width(), big.height()), (MAX_SIDE, MAX_SIDE / 4));
        assert!(matches!(decode(b"<html>not a picture</html>"), Err(Failure::Undecodable(_))));
        assert!(matches!(decode(&png(40, 30)[..60]), Err(Failure::Undecodable(_))), "cut short");
    }

    #[test]
    fn the_disk_cache_lets_the_oldest_go_past_its_limit() {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..5u8 {
            let f = cache_file(dir.path(), "https://a.example", &format!("/p/{i}"));
            crate::files::write_atomic(&f, &[i; 1000]).unwrap();
            let t = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000 + u64::from(i));
            std::fs::File::options().write(true).open(&f).unwrap().set_modified(t).unwrap();
        }
        prune(dir.path(), 2500);
        let left: Vec<bool> = (0..5)
            .map(|i| cache_file(dir.path(), "https://a.example", &format!("/p/{i}")).exists())
            .collect();
        assert_eq!(left, vec![false, false, false, true, true]);
        assert_ne!(
            cache_file(dir.path(), "https://a.example", "/p/1"),
            cache_file(dir.path(), "https://b.example", "/p/1")
        );
    }
}
