//! A ZIP archive written as a stream: each entry's bytes are known whole when it is added,
//! so the local header carries its CRC and sizes and the archive never needs seeking.
//! Entries are stored (PDFs are compressed already). ZIP64 records are written where an
//! offset, the directory or the entry count outgrows the classic fields, so archives of
//! any print run open everywhere.

/// Entries carry this date (1980-01-01 00:00, the earliest ZIP can say): archives are
/// byte-stable, like the PDFs in them.
const DOS_TIME: u16 = 0;
const DOS_DATE: u16 = (1 << 5) | 1;
/// Bit 11: names are UTF-8.
const FLAGS: u16 = 1 << 11;
const VERSION_ZIP64: u16 = 45;
const U32_MAX: u64 = u32::MAX as u64;

/// Builds an archive entry by entry: [`ZipStream::entry`] returns the bytes to send for
/// one file, [`ZipStream::finish`] the central directory that ends the archive.
#[derive(Debug, Default)]
pub struct ZipStream {
    /// Bytes handed out so far.
    offset: u64,
    directory: Vec<u8>,
    entries: u64,
}

impl ZipStream {
    pub fn new() -> ZipStream {
        ZipStream::default()
    }

    /// The local header and data of file `name` (sizes below 4 GiB).
    pub fn entry(&mut self, name: &str, data: &[u8]) -> Vec<u8> {
        let crc = crc32fast::hash(data);
        let size = u32::try_from(data.len()).expect("an archive entry is smaller than 4 GiB");
        let mut out = Vec::with_capacity(30 + name.len() + data.len());
        put32(&mut out, 0x0403_4b50);
        put16(&mut out, VERSION_ZIP64);
        put16(&mut out, FLAGS);
        put16(&mut out, 0); // stored
        put16(&mut out, DOS_TIME);
        put16(&mut out, DOS_DATE);
        put32(&mut out, crc);
        put32(&mut out, size);
        put32(&mut out, size);
        put16(&mut out, name.len() as u16);
        put16(&mut out, 0);
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(data);

        // Its central directory record, with the offset in a ZIP64 field past 4 GiB.
        let d = &mut self.directory;
        let far = self.offset >= U32_MAX;
        put32(d, 0x0201_4b50);
        put16(d, (3 << 8) | VERSION_ZIP64); // made by: Unix, 4.5
        put16(d, VERSION_ZIP64);
        put16(d, FLAGS);
        put16(d, 0);
        put16(d, DOS_TIME);
        put16(d, DOS_DATE);
        put32(d, crc);
        put32(d, size);
        put32(d, size);
        put16(d, name.len() as u16);
        put16(d, if far { 12 } else { 0 });
        put16(d, 0); // comment
        put16(d, 0); // disk
        put16(d, 0); // internal attributes
        put32(d, 0o100644 << 16); // external attributes: a regular file, rw-r--r--
        put32(d, if far { u32::MAX } else { self.offset as u32 });
        d.extend_from_slice(name.as_bytes());
        if far {
            put16(d, 0x0001);
            put16(d, 8);
            put64(d, self.offset);
        }
        self.offset += out.len() as u64;
        self.entries += 1;
        out
    }

    /// The central directory and end records.
    pub fn finish(self) -> Vec<u8> {
        let mut out = self.directory;
        let (start, size) = (self.offset, out.len() as u64);
        if self.entries >= 0xFFFF || start >= U32_MAX || size >= U32_MAX {
            let record = start + size;
            put32(&mut out, 0x0606_4b50);
            put64(&mut out, 44);
            put16(&mut out, (3 << 8) | VERSION_ZIP64);
            put16(&mut out, VERSION_ZIP64);
            put32(&mut out, 0);
            put32(&mut out, 0);
            put64(&mut out, self.entries);
            put64(&mut out, self.entries);
            put64(&mut out, size);
            put64(&mut out, start);
            put32(&mut out, 0x0706_4b50);
            put32(&mut out, 0);
            put64(&mut out, record);
            put32(&mut out, 1);
        }
        put32(&mut out, 0x0605_4b50);
        put16(&mut out, 0);
        put16(&mut out, 0);
        put16(&mut out, self.entries.min(0xFFFF) as u16);
        put16(&mut out, self.entries.min(0xFFFF) as u16);
        put32(&mut out, size.min(U32_MAX) as u32);
        put32(&mut out, start.min(U32_MAX) as u32);
        put16(&mut out, 0);
        out
    }
}

fn put16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put64(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(&v.to_le_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads an archive back by its central directory, checking each local header.
    fn read_back(zip: &[u8]) -> Vec<(String, Vec<u8>)> {
        let u16at = |i: usize| u16::from_le_bytes([zip[i], zip[i + 1]]) as usize;
        let u32at = |i: usize| u32::from_le_bytes(zip[i..i + 4].try_into().unwrap()) as usize;
        let end = zip.len() - 22;
        assert_eq!(u32at(end), 0x0605_4b50);
        let (count, mut at) = (u16at(end + 10), u32at(end + 16));
        let mut files = Vec::new();
        for _ in 0..count {
            assert_eq!(u32at(at), 0x0201_4b50);
            let (crc, size, name_len, extra_len, local) =
                (u32at(at + 16), u32at(at + 24), u16at(at + 28), u16at(at + 30), u32at(at + 42));
            let name = String::from_utf8(zip[at + 46..at + 46 + name_len].to_vec()).unwrap();
            assert_eq!(u32at(local), 0x0403_4b50);
            let data_at = local + 30 + u16at(local + 26) + u16at(local + 28);
            let data = zip[data_at..data_at + size].to_vec();
            assert_eq!(crc32fast::hash(&data) as usize, crc, "{name}");
            files.push((name, data));
            at += 46 + name_len + extra_len;
        }
        files
    }

    #[test]
    fn entries_read_back_by_their_directory() {
        let mut zip = ZipStream::new();
        let mut bytes = zip.entry("NCB5919RTQP/interior.pdf", b"%PDF-1.7 one");
        bytes.extend(zip.entry("manifest.csv", b"serial,pages\n"));
        bytes.extend(zip.finish());
        let files = read_back(&bytes);
        assert_eq!(files.len(), 2);
        assert_eq!(files[0], ("NCB5919RTQP/interior.pdf".to_string(), b"%PDF-1.7 one".to_vec()));
        assert_eq!(files[1].1, b"serial,pages\n");
    }

    #[test]
    fn offsets_past_4_gib_use_zip64_records() {
        let mut zip = ZipStream { offset: 5 << 30, ..ZipStream::new() };
        zip.entry("far.pdf", b"x");
        let end = zip.finish();
        assert!(end.windows(4).any(|w| w == 0x0606_4b50u32.to_le_bytes()), "a ZIP64 end record");
        assert!(end.windows(4).any(|w| w == 0x0706_4b50u32.to_le_bytes()), "a ZIP64 locator");
        let offset_field = 42;
        assert_eq!(&end[offset_field..offset_field + 4], &u32::MAX.to_le_bytes(), "the offset moved to ZIP64");
    }
}
