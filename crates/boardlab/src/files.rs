//! Reading what a user names on the command line (a layout, a puzzle, a position, a save file) without trusting
//! it: every read is capped at a size the file can sensibly have, a named pipe (FIFO) that no program writes to
//! is an error after [`FIFO_WAIT`] instead of a hang, a directory is named as such, and a UTF-8 byte-order mark
//! at the start of a text file is dropped.

use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::path::Path;
use std::time::Duration;

use anyhow::{Context, bail};

/// How long opening a named pipe waits for a program to open it for writing.
pub const FIFO_WAIT: Duration = Duration::from_secs(5);

/// The UTF-8 byte-order mark some editors put at the start of a text file.
const BOM: &str = "\u{feff}";

/// Parse a size such as `512M`, `4G`, `1.5GiB`, `300MB`, or a bare number of MiB.
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let value: f64 = num
        .parse()
        .map_err(|_| format!("{s:?} is not a size (write for example 512M or 4G)"))?;
    let mult: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "m" | "mb" | "mib" => 1 << 20,
        "k" | "kb" | "kib" => 1 << 10,
        "g" | "gb" | "gib" => 1 << 30,
        "t" | "tb" | "tib" => 1 << 40,
        "b" => 1,
        _ => return Err(format!("unknown unit in size {s:?} (use K, M, G or T)")),
    };
    let bytes = value * mult as f64;
    if !(1.0..1e18).contains(&bytes) {
        return Err(format!("size {s:?} is out of range"));
    }
    Ok(bytes as u64)
}

/// A size in bytes, written for a person: `64 KiB`, `4 MiB`, `12 B`.
pub fn size_text(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut unit = 0;
    let mut n = bytes;
    while n >= 1024 && n.is_multiple_of(1024) && unit + 1 < UNITS.len() {
        n /= 1024;
        unit += 1;
    }
    format!("{n} {}", UNITS[unit])
}

/// Open `path` for reading. A directory is an error naming it; a named pipe must be opened for writing by
/// some program within [`FIFO_WAIT`] (a FIFO's open waits for its writer, which may never come).
///
/// # Errors
/// The path cannot be opened, is a directory, or is a FIFO nobody writes to.
pub fn open(path: &Path) -> anyhow::Result<File> {
    let meta =
        std::fs::metadata(path).with_context(|| format!("cannot open {}", path.display()))?;
    if meta.is_dir() {
        bail!("{} is a directory, not a file", path.display());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if meta.file_type().is_fifo() {
            return open_fifo(path);
        }
    }
    File::open(path).with_context(|| format!("cannot open {}", path.display()))
}

/// Open a FIFO for reading on a helper thread (the open blocks until a writer comes), giving up after
/// [`FIFO_WAIT`]. On giving up, the waiting open is released by opening the FIFO for writing without blocking,
/// so that no thread stays behind.
#[cfg(unix)]
fn open_fifo(path: &Path) -> anyhow::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    let (tx, rx) = std::sync::mpsc::channel();
    let owned = path.to_path_buf();
    let waiter = std::thread::spawn(move || {
        let _ = tx.send(File::open(&owned));
    });
    match rx.recv_timeout(FIFO_WAIT) {
        Ok(file) => {
            let _ = waiter.join();
            file.with_context(|| format!("cannot open {}", path.display()))
        }
        Err(_) => {
            // Our own write end lets the waiting open return; both ends are then dropped.
            if let Ok(release) = OpenOptions::new()
                .write(true)
                .custom_flags(libc::O_NONBLOCK)
                .open(path)
            {
                let _ = rx.recv_timeout(Duration::from_secs(1));
                drop(release);
                let _ = waiter.join();
            }
            bail!(
                "{} is a named pipe and no program opened it for writing within {} s",
                path.display(),
                FIFO_WAIT.as_secs()
            )
        }
    }
}

/// Read all of `source`, named `name` in messages, as UTF-8 text of at most `cap` bytes; `what` says what the
/// text is ("a layout file"), for the message when it is too big. A leading byte-order mark is dropped.
///
/// # Errors
/// A read error, more than `cap` bytes, or text that is not UTF-8.
pub fn read_text(source: impl Read, name: &str, what: &str, cap: u64) -> anyhow::Result<String> {
    let mut bytes = Vec::new();
    source
        .take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {name}"))?;
    if bytes.len() as u64 > cap {
        bail!(
            "{name} is too big: {what} is at most {}, and this one is longer",
            size_text(cap)
        );
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{name} is not UTF-8 text (byte {} is not)",
            e.utf8_error().valid_up_to() + 1
        )
    })?;
    Ok(match text.strip_prefix(BOM) {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// [`read_text`] of the file at `path` (opened with [`open`]).
///
/// # Errors
/// As [`open`] and [`read_text`].
pub fn read_file(path: &Path, what: &str, cap: u64) -> anyhow::Result<String> {
    let file = open(path)?;
    read_text(file, &path.display().to_string(), what, cap)
}

/// [`read_text`] of standard input.
///
/// # Errors
/// As [`read_text`].
pub fn read_stdin(what: &str, cap: u64) -> anyhow::Result<String> {
    read_text(io::stdin().lock(), "standard input", what, cap)
}

/// One line typed at a prompt, read from `input` without holding more than `cap` bytes of it: the rest of a
/// longer line is read and dropped. Returns `None` at the end of the input, else the line (without its line
/// end; bytes that are not UTF-8 replaced) and whether it was cut.
///
/// # Errors
/// Those of the read.
pub fn read_line_capped(
    input: &mut dyn io::BufRead,
    cap: usize,
) -> io::Result<Option<(String, bool)>> {
    let mut bytes = Vec::new();
    let mut cut = false;
    let mut any = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            if !any {
                return Ok(None);
            }
            break;
        }
        any = true;
        let (take, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (buf.len(), false),
        };
        // One byte more than the cap: room for the `\r` of a CRLF line end, dropped below.
        let room = (cap + 1).saturating_sub(bytes.len());
        cut |= take > room;
        bytes.extend_from_slice(&buf[..take.min(room)]);
        input.consume(if done { take + 1 } else { take });
        if done {
            break;
        }
    }
    if bytes.last() == Some(&b'\r') && !cut {
        bytes.pop();
    }
    if bytes.len() > cap {
        bytes.truncate(cap);
        cut = true;
    }
    Ok(Some((String::from_utf8_lossy(&bytes).into_owned(), cut)))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn sizes_are_written_in_whole_units() {
        assert_eq!(size_text(64 << 10), "64 KiB");
        assert_eq!(size_text(4 << 20), "4 MiB");
        assert_eq!(size_text(1000), "1000 B");
    }

    #[test]
    fn reads_are_capped_and_name_the_file() {
        let e = read_text(io::repeat(0), "/dev/zero", "a layout file", 1 << 20).unwrap_err();
        assert_eq!(
            e.to_string(),
            "/dev/zero is too big: a layout file is at most 1 MiB, and this one is longer"
        );
        assert_eq!(read_text(&b"abc"[..], "x", "y", 3).unwrap(), "abc");
        assert!(read_text(&b"abcd"[..], "x", "y", 3).is_err());
        assert_eq!(
            read_text("\u{feff}o.o\n".as_bytes(), "x", "y", 100).unwrap(),
            "o.o\n"
        );
        let e = read_text(&b"ab\xffc"[..], "f.txt", "y", 100).unwrap_err();
        assert_eq!(e.to_string(), "f.txt is not UTF-8 text (byte 3 is not)");
    }

    #[test]
    fn prompt_lines_are_capped() {
        let mut input = io::Cursor::new(b"e1f2\r\nxxxxxxxxxx\n\xff\nlast".to_vec());
        let mut next = || read_line_capped(&mut input, 4).unwrap();
        assert_eq!(next(), Some(("e1f2".into(), false)));
        assert_eq!(next(), Some(("xxxx".into(), true)));
        assert_eq!(next(), Some(("\u{fffd}".into(), false)));
        assert_eq!(next(), Some(("last".into(), false)));
        assert_eq!(next(), None);
        let mut zeros = io::BufReader::new(io::repeat(0).take(10 << 20));
        let (line, cut) = read_line_capped(&mut zeros, 100).unwrap().unwrap();
        assert!(cut && line.len() == 100);
    }

    #[test]
    fn a_directory_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let e = open(dir.path()).unwrap_err().to_string();
        assert!(e.ends_with("is a directory, not a file"), "{e}");
        assert!(e.contains(&dir.path().display().to_string()), "{e}");
    }
}
