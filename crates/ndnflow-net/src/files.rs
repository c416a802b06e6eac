//! Reading a file the user names, with a ceiling. A key, a certificate or a configuration is a few
//! kilobytes, and a file to publish is held in memory; without a ceiling, a slip such as
//! `--verify /dev/zero` (a device that never ends) read until the machine ran out of memory.

use std::fmt;
use std::io::Read;
use std::path::Path;

/// The largest key or certificate file read (PEM text), in bytes: 1 MiB, far above a P-256 key's
/// few hundred bytes.
pub const MAX_KEY_FILE_BYTES: u64 = 1 << 20;

/// The largest daemon configuration read, in bytes: 64 MiB, room for hundreds of thousands of
/// routes.
pub const MAX_CONFIG_FILE_BYTES: u64 = 64 << 20;

/// Why a file was not read.
#[derive(Debug)]
pub enum ReadRefused {
    /// The system's error (missing, a directory, no permission, not UTF-8 text...).
    Io(std::io::Error),
    /// It holds more than the ceiling.
    TooLarge { cap: u64 },
}

impl fmt::Display for ReadRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadRefused::Io(e) => write!(f, "{e}"),
            ReadRefused::TooLarge { cap } => write!(f, "it holds more than {cap} bytes, the most read"),
        }
    }
}

/// The bytes of `path`, at most `cap` of them. A regular file's size is checked before reading;
/// a device or pipe is read to one byte past the ceiling at most.
pub fn read_capped(path: &Path, cap: u64) -> Result<Vec<u8>, ReadRefused> {
    let file = std::fs::File::open(path).map_err(ReadRefused::Io)?;
    let meta = file.metadata().map_err(ReadRefused::Io)?;
    if meta.is_file() && meta.len() > cap {
        return Err(ReadRefused::TooLarge { cap });
    }
    let mut content = Vec::new();
    file.take(cap + 1).read_to_end(&mut content).map_err(ReadRefused::Io)?;
    if content.len() as u64 > cap {
        return Err(ReadRefused::TooLarge { cap });
    }
    Ok(content)
}

/// `read_capped` for UTF-8 text.
pub fn read_text_capped(path: &Path, cap: u64) -> Result<String, ReadRefused> {
    let bytes = read_capped(path, cap)?;
    String::from_utf8(bytes).map_err(|_| {
        ReadRefused::Io(std::io::Error::new(std::io::ErrorKind::InvalidData, "stream did not contain valid UTF-8"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_past_the_cap_is_refused_and_an_endless_device_read_no_further() {
        let dir = std::env::temp_dir().join(format!("ndnflow-files-cap-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("ten.bin");
        std::fs::write(&path, [7u8; 10]).unwrap();
        assert_eq!(read_capped(&path, 10).unwrap(), vec![7u8; 10]);
        assert!(matches!(read_capped(&path, 9), Err(ReadRefused::TooLarge { cap: 9 })));
        // Read until the machine ran out of memory until 2026-11-28.
        let e = read_capped(Path::new("/dev/zero"), 1000).unwrap_err();
        assert_eq!(e.to_string(), "it holds more than 1000 bytes, the most read");
        assert!(matches!(read_capped(&dir.join("missing"), 10), Err(ReadRefused::Io(_))));
        std::fs::write(&path, [0xffu8, 0xfe]).unwrap();
        let e = read_text_capped(&path, 10).unwrap_err().to_string();
        assert!(e.contains("valid UTF-8"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
