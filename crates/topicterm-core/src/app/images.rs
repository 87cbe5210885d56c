//! Pictures of inline images: which are being fetched, which failed and why, and the decoded
//! ones — at most [`KEPT`] of them, the oldest let go first (drawn again, one comes back from
//! the disk cache). Only pictures on the user's own server are fetched: that is where the
//! credentials go, and an image elsewhere is not loaded behind the user's back (the server
//! proxies external images itself).

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

/// Decoded pictures kept in memory at most.
pub const KEPT: usize = 16;

/// A decoded picture (a few hundred kilobytes to a few megabytes), shared with the views.
#[derive(Clone)]
pub struct Picture(pub Arc<image::DynamicImage>);

impl std::fmt::Debug for Picture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Picture({}×{})", self.0.width(), self.0.height())
    }
}

impl PartialEq for Picture {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// Where one picture is.
#[derive(Debug, Clone, PartialEq)]
pub enum Slot {
    Loading,
    /// Not shown, and why (in the user's words).
    Failed(String),
    Ready(Picture),
}

#[derive(Debug, Default)]
pub struct Images {
    slots: HashMap<String, Slot>,
    /// Ready pictures, oldest first.
    ready: VecDeque<String>,
}

impl Images {
    pub fn get(&self, src: &str) -> Option<&Slot> {
        self.slots.get(src)
    }

    /// Not asked for yet.
    pub fn is_new(&self, src: &str) -> bool {
        !self.slots.contains_key(src)
    }

    pub fn set(&mut self, src: String, slot: Slot) {
        if matches!(slot, Slot::Ready(_)) {
            self.ready.retain(|s| *s != src);
            self.ready.push_back(src.clone());
            while self.ready.len() > KEPT {
                if let Some(old) = self.ready.pop_front() {
                    self.slots.remove(&old);
                }
            }
        }
        self.slots.insert(src, slot);
    }

    /// Decoded pictures held now.
    pub fn ready_count(&self) -> usize {
        self.ready.len()
    }
}

/// Is `src` on the server at `site` (a path on it, or an address of the same scheme, host
/// and port)?
pub fn on_own_server(site: &str, src: &str) -> bool {
    if src.starts_with('/') {
        return !src.starts_with("//");
    }
    match (url::Url::parse(site), url::Url::parse(src)) {
        (Ok(a), Ok(b)) => a.origin() == b.origin(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_own_server_is_asked() {
        let site = "https://chat.example.com";
        assert!(on_own_server(site, "/user_uploads/2/ab/cat.png"));
        assert!(on_own_server(site, "https://chat.example.com/user_uploads/thumbnail/2/x.webp"));
        assert!(!on_own_server(site, "//evil.example/cat.png"));
        assert!(!on_own_server(site, "https://chat.example.com.evil.example/cat.png"));
        assert!(!on_own_server(site, "http://chat.example.com/cat.png"), "another scheme");
        assert!(!on_own_server(site, "https://chat.example.com:8443/cat.png"), "another port");
        assert!(!on_own_server(site, "https://img.example/cat.png"));
        assert!(!on_own_server(site, "data:image/png;base64,AAAA"));
    }

    #[test]
    fn at_most_kept_pictures_are_held_the_oldest_let_go() {
        let mut images = Images::default();
        let pic = || Picture(Arc::new(image::DynamicImage::new_rgb8(1, 1)));
        for i in 0..KEPT + 3 {
            images.set(format!("/p/{i}"), Slot::Ready(pic()));
        }
        assert_eq!(images.ready_count(), KEPT);
        assert!(images.is_new("/p/0") && images.is_new("/p/2"), "let go: asked again when drawn");
        assert!(matches!(images.get("/p/3"), Some(Slot::Ready(_))));
        images.set("/p/x".into(), Slot::Failed("no".into()));
        assert_eq!(images.get("/p/x"), Some(&Slot::Failed("no".into())));
    }
}
