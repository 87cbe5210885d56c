//! The allocator's settings, the one home for them (glibc on Linux; elsewhere they do nothing).

/// One heap for every thread. glibc gives threads arenas of their own, and each keeps what it
/// freed: a client whose threads mostly wait on the network pays megabytes for nothing
/// (measured on the large organization: 35 MB resident with the default arenas, 27 MB with
/// one). Call first thing in `main`, before any thread starts.
pub fn single_arena() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes the allocator's tuning; called before other threads exist.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

/// Give the heap's free memory back to the system. glibc keeps what a large answer (a register
/// of 20,000 users is ten megabytes of JSON) used once decoded, so without this the resident
/// size stays at the start-up peak for the whole session. Called after such peaks, never per
/// event: it walks the heap.
pub fn trim() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free pages of the allocator's own heap.
    unsafe {
        libc::malloc_trim(0);
    }
}
