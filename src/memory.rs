//! Handing freed memory back to the operating system after work that allocated a lot of
//! it at once (a large upload read, a large PDF rendered). glibc's allocator keeps freed
//! memory in its per-thread arenas for reuse, so without this a burst of large requests
//! leaves the process's resident size at its peak long after the requests are gone.

/// Returns the allocator's free memory to the system (glibc's `malloc_trim`; a no-op
/// elsewhere). It walks every arena: call it after large work, not per small request.
pub fn release() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only reorganises the allocator's own free lists.
    unsafe {
        libc::malloc_trim(0);
    }
}
