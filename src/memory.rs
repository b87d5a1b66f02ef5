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

/// A file's bytes, read into memory mapped for them alone.
pub struct FileBytes(Bytes);

enum Bytes {
    /// Anonymous memory of its own: `len` bytes read at `ptr`, of `mapped` mapped.
    Mapped {
        ptr: std::ptr::NonNull<u8>,
        len: usize,
        mapped: usize,
    },
    Heap(Vec<u8>),
}

impl std::ops::Deref for FileBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match &self.0 {
            // SAFETY: `len` bytes at `ptr` were mapped and written by `read_sized`, and
            // stay mapped until the value is dropped.
            Bytes::Mapped { ptr, len, .. } => unsafe { std::slice::from_raw_parts(ptr.as_ptr(), *len) },
            Bytes::Heap(v) => v,
        }
    }
}

impl Drop for FileBytes {
    fn drop(&mut self) {
        if let Bytes::Mapped { ptr, mapped, .. } = self.0 {
            // SAFETY: the mapping was made by `read_sized` and is not used after this.
            unsafe { libc::munmap(ptr.as_ptr().cast(), mapped) };
        }
    }
}

/// The whole of the file at `path`, for a one-shot command: read into memory mapped for
/// it in small pages, faulted in at once, rather than into the allocator's. A large file
/// read into the allocator's memory took a fresh 2 MB huge page that the kernel cleared
/// whole (0.4 ms of a 2,000-entry dictionary's 15, before anything else could start).
pub fn read_file(path: &std::path::Path) -> std::io::Result<FileBytes> {
    let mut file = std::fs::File::open(path)?;
    let size = file.metadata()?.len();
    read_sized(&mut file, size)
}

/// All of `from`, said to hold `size` bytes: into a mapping of that size (and a byte more,
/// to see it end there) on Linux; into the allocator's memory elsewhere, for an empty
/// file, or from where the mapping fills when there is more than was said.
fn read_sized(from: &mut impl std::io::Read, size: u64) -> std::io::Result<FileBytes> {
    #[cfg(target_os = "linux")]
    if let Ok(size @ 1..) = usize::try_from(size) {
        let mapped = size + 1;
        // SAFETY: a fresh private anonymous mapping, owned by the value made below.
        let ptr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                mapped,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_POPULATE,
                -1,
                0,
            )
        };
        if let Some(ptr) = std::ptr::NonNull::new(ptr.cast::<u8>()).filter(|_| ptr != libc::MAP_FAILED) {
            // Owned from here, so that an error below unmaps it.
            let mut bytes = FileBytes(Bytes::Mapped { ptr, len: 0, mapped });
            // SAFETY: `mapped` bytes at `ptr` are mapped, writable and zeroed, and only
            // this slice refers to them while it lives.
            let buf = unsafe { std::slice::from_raw_parts_mut(ptr.as_ptr(), mapped) };
            let mut len = 0;
            while len < mapped {
                match from.read(&mut buf[len..]) {
                    Ok(0) => break,
                    Ok(n) => len += n,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            }
            if len == mapped {
                // More than was said (the file grew): the rest after what was read.
                let mut v = buf.to_vec();
                from.read_to_end(&mut v)?;
                return Ok(FileBytes(Bytes::Heap(v)));
            }
            if let Bytes::Mapped { len: read, .. } = &mut bytes.0 {
                *read = len;
            }
            return Ok(bytes);
        }
    }
    let mut v = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    from.read_to_end(&mut v)?;
    Ok(FileBytes(Bytes::Heap(v)))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_file_is_read_whole_whatever_its_size() {
        let path = std::env::temp_dir().join(format!("pp-read-{}", uuid::Uuid::new_v4().simple()));
        for size in [0usize, 1, 4095, 4096, 4097, 1 << 20] {
            let bytes: Vec<u8> = (0..size).map(|i| (i * 7 + i / 251) as u8).collect();
            std::fs::write(&path, &bytes).unwrap();
            assert_eq!(&*super::read_file(&path).unwrap(), &bytes[..], "{size} bytes");
        }
        std::fs::remove_file(&path).unwrap();
        assert_eq!(super::read_file(&path).err().map(|e| e.kind()), Some(std::io::ErrorKind::NotFound));
    }

    #[test]
    fn a_file_longer_or_shorter_than_it_was_said_to_be_is_read_as_it_is() {
        let bytes: Vec<u8> = (0..10_000u32).map(|i| (i % 253) as u8).collect();
        for said in [0u64, 1, 4_096, 9_999, 10_000, 10_001, 50_000] {
            let read = super::read_sized(&mut std::io::Cursor::new(&bytes), said).unwrap();
            assert_eq!(&*read, &bytes[..], "said {said}");
        }
    }
}
