//! The input layout the `parse_compile_route` and `nginx_profile` targets share: byte 0 holds
//! option bits, then the manifest text, then after the last NUL byte (if any) one request per
//! line, `host path`.

/// `(flags, text, request lines)`; `None` for an empty input.
pub fn split(data: &[u8]) -> Option<(u8, &[u8], Option<&[u8]>)> {
    let (&flags, rest) = data.split_first()?;
    Some(match rest.iter().rposition(|&b| b == 0) {
        Some(nul) => (flags, &rest[..nul], Some(&rest[nul + 1..])),
        None => (flags, rest, None),
    })
}

/// The requests to route: up to 16 `host path` lines (split at the first space; a line without
/// one is a host and `/`), or `defaults` when the input has none.
pub fn requests<'a>(lines: Option<&'a [u8]>, defaults: &[(&'a [u8], &'a [u8])]) -> Vec<(&'a [u8], &'a [u8])> {
    match lines {
        Some(lines) => lines
            .split(|&b| b == b'\n')
            .take(16)
            .map(|line| match line.iter().position(|&b| b == b' ') {
                Some(space) => (&line[..space], &line[space + 1..]),
                None => (line, &b"/"[..]),
            })
            .collect(),
        None => defaults.to_vec(),
    }
}
