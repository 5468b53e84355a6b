//! What the filter reports: the problems configuring found, and per request whether the regex
//! budget ran out (both tables' answers carry it).

/// An answer of the core, and whether the request's regex budget (`regexLimits.scan`) ran out on
/// the way to it: some regexes then answered "no match" unread, which the filter logs and counts.
/// The answer stands as the core decided it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Routed<O> {
    pub outcome: O,
    pub regex_budget_exhausted: bool,
}

/// The log line for a request whose regex budget ran out. `regexes` names what answered "no
/// match"; the host and path are cut to [`EXCERPT`] bytes each and shown as printable ASCII: the
/// client wrote them, up to 60 KiB, and they go to an operator's terminal.
pub fn regex_budget_line(regexes: &str, host: &[u8], path: &[u8]) -> String {
    format!(
        "regex budget exhausted (regexLimits.scan): some {regexes} answered no match for {}{}",
        excerpt(host),
        excerpt(path)
    )
}

/// How many bytes of the host and of the path a log line shows.
pub const EXCERPT: usize = 100;

fn excerpt(bytes: &[u8]) -> String {
    let mut out: String =
        bytes.iter().take(EXCERPT).map(|&b| if (0x20..0x7f).contains(&b) { char::from(b) } else { '?' }).collect();
    if bytes.len() > EXCERPT {
        out.push_str(&format!("... ({} bytes)", bytes.len()));
    }
    out
}

/// What configuring found: problems that stop the configuration from serving, and the rest.
#[derive(Debug, Default)]
pub struct Report {
    pub errors: Vec<String>,
    pub warnings: Vec<String>,
    /// `namespace/name` of each invalid Ingress left out (each also has a warning per bad field).
    pub excluded: Vec<String>,
}
