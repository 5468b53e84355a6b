//! Regexes with bounded work, for every regex the core runs (Gateway API `RegularExpression`
//! matches; the ingress-nginx profile's regex locations, server names and canary header
//! patterns).
//!
//! A tenant writes the pattern and anyone sends the request, so both sides of the work are
//! bounded:
//!
//! - **Compile**: a pattern becomes a dense DFA (`regex-automata`) no larger than
//!   [`RegexLimits::size`] bytes; a larger one is refused with [`RegexError::TooLarge`], as Envoy
//!   refuses an RE2 program over its size budget. Building it is bounded by the same figure.
//! - **Match**: one table step per byte of the subject, whatever the pattern (no backtracking, no
//!   NFA simulation), and every request carries a [`Fuel`] of [`RegexLimits::scan`] bytes for all
//!   its regexes together. A match that would run past it answers "no match" for that rule and
//!   marks the fuel [`spent`](Fuel::exhausted), so the decision says so and a proxy logs it; it
//!   never stalls the request, nor another tenant's behind it.
//! - **Captures** (an nginx `rewrite` with `$1`): a bounded backtracker whose visited set is
//!   capped, so the work is at most [`CAPTURE_STEPS`] steps; a longer subject is refused before
//!   the location is chosen ([`Regex::captures_fit`]).
//!
//! Matching is on bytes, with ASCII classes and ASCII case folding (`\w`, `\d`, `\s`, `(?i)`):
//! as nginx's PCRE without UTF, and as request paths are (percent-encoded ASCII).

use alloc::string::{String, ToString};
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::cell::{Cell, RefCell};

use core::fmt;
use hashbrown::HashMap;

use regex_automata::dfa::{Automaton, StartKind, dense};
use regex_automata::nfa::thompson::{self, backtrack::BoundedBacktracker};
use regex_automata::util::captures::Captures;
use regex_automata::util::{start, syntax};
use regex_automata::{Anchored, Input};

use crate::options::RegexLimits;

/// The steps a capture search may take (bits of the backtracker's visited set): about a
/// millisecond.
pub const CAPTURE_STEPS: usize = 1 << 20;

/// Why a pattern was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RegexError {
    /// Not a valid regular expression; the parser's message.
    Invalid(String),
    /// Its automaton would exceed [`RegexLimits::size`] bytes.
    TooLarge { limit: usize },
    /// The configuration's patterns before it took the [`RegexLimits::total`] bytes.
    OverTotal { limit: usize },
}

impl fmt::Display for RegexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegexError::Invalid(message) => write!(f, "not a valid regular expression: {message}"),
            RegexError::TooLarge { limit } => write!(
                f,
                "too complex: its compiled automaton would exceed the regex size limit of {limit} bytes \
                 (option regexLimits.size)"
            ),
            RegexError::OverTotal { limit } => write!(
                f,
                "refused: the patterns before it in the input already take the configuration's regex limit \
                 of {limit} bytes in all (option regexLimits.total)"
            ),
        }
    }
}

/// The regex budget of one request, shared by all the regexes it meets. Not `Sync`: one per
/// lookup, on the stack.
#[derive(Debug)]
pub struct Fuel {
    left: Cell<usize>,
    exhausted: Cell<bool>,
}

impl Fuel {
    pub fn new(bytes: usize) -> Fuel {
        Fuel { left: Cell::new(bytes), exhausted: Cell::new(false) }
    }

    /// Whether some regex was answered "no match" because the budget ran out.
    pub fn exhausted(&self) -> bool {
        self.exhausted.get()
    }
}

/// Compiles the patterns of one configuration within its [`RegexLimits`]: each within
/// [`size`](RegexLimits::size), all together within [`total`](RegexLimits::total). A pattern
/// seen before (with the same flags) is the same compiled regex, shared, and counted once:
/// generated configurations repeat their patterns.
#[derive(Debug)]
pub struct Compiler {
    size: usize,
    total: usize,
    left: Cell<usize>,
    seen: RefCell<HashMap<(String, Flags), Result<Regex, RegexError>>>,
}

impl Compiler {
    pub fn new(limits: &RegexLimits) -> Compiler {
        Compiler { size: limits.size, total: limits.total, left: Cell::new(limits.total), seen: RefCell::default() }
    }

    pub fn compile(&self, pattern: &str, flags: Flags) -> Result<Regex, RegexError> {
        let key = (String::from(pattern), flags);
        if let Some(done) = self.seen.borrow().get(&key) {
            return done.clone();
        }
        let left = self.left.get();
        let regex = Regex::new(pattern, flags, self.size.min(left)).map_err(|e| match e {
            RegexError::TooLarge { .. } if left < self.size => RegexError::OverTotal { limit: self.total },
            RegexError::TooLarge { .. } => RegexError::TooLarge { limit: self.size },
            other => other,
        });
        if let Ok(regex) = &regex {
            self.left.set(left.saturating_sub(regex.size()));
        }
        self.seen.borrow_mut().insert(key, regex.clone());
        regex
    }
}

/// A compiled pattern; clones share it.
#[derive(Clone, Debug)]
pub struct Regex(Arc<Compiled>);

#[derive(Debug)]
struct Compiled {
    dfa: dense::DFA<Vec<u32>>,
    anchored: Anchored,
    /// Only for patterns whose captures are read (an nginx `rewrite`).
    captures: Option<BoundedBacktracker>,
}

/// How a pattern is compiled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Flags {
    pub case_insensitive: bool,
    /// Keep what [`Regex::captures`] needs.
    pub captures: bool,
}

impl Regex {
    /// Compiles `pattern` (RE2-like syntax: `regex-automata`'s, Unicode off) within `limit` bytes.
    fn new(pattern: &str, flags: Flags, limit: usize) -> Result<Regex, RegexError> {
        let syntax =
            syntax::Config::new().unicode(false).utf8(false).case_insensitive(flags.case_insensitive).nest_limit(64);
        // The NFA is built first, within a budget of its own (a few bytes per state).
        let thompson = thompson::Config::new().utf8(false).nfa_size_limit(Some(limit.saturating_mul(4)));
        let nfa = thompson::Compiler::new()
            .syntax(syntax)
            .configure(thompson.clone())
            .build(pattern)
            .map_err(|e| nfa_error(&innermost(&e), limit))?;
        // A pattern that starts with `^` needs no unanchored start (a DFA half as large).
        let start_kind = if nfa.is_always_start_anchored() { StartKind::Anchored } else { StartKind::Unanchored };
        let dfa = dense::Builder::new()
            .configure(
                dense::Config::new()
                    .start_kind(start_kind)
                    .dfa_size_limit(Some(limit))
                    .determinize_size_limit(Some(limit.saturating_mul(4))),
            )
            .build_from_nfa(&nfa)
            .map_err(|e| if e.is_size_limit_exceeded() { RegexError::TooLarge { limit } } else { invalid(&e) })?;
        let anchored = if dfa.is_always_start_anchored() { Anchored::Yes } else { Anchored::No };
        let captures = match flags.captures {
            false => None,
            true => Some(
                BoundedBacktracker::builder()
                    .configure(BoundedBacktracker::config().visited_capacity(CAPTURE_STEPS / 8))
                    .build_from_nfa(nfa)
                    .map_err(|e| invalid(&e))?,
            ),
        };
        Ok(Regex(Arc::new(Compiled { dfa, anchored, captures })))
    }

    /// The bytes of its automaton.
    pub fn size(&self) -> usize {
        self.0.dfa.memory_usage()
    }

    /// Whether the pattern matches somewhere in `subject` (a pattern anchors itself with `^` and
    /// `$`), reading at most what `fuel` has left: `None` when it ran out first.
    pub fn is_match(&self, subject: &[u8], fuel: &Fuel) -> Option<bool> {
        let allowed = fuel.left.get();
        let (read, answer) = self.run(subject, allowed);
        fuel.left.set(allowed - read);
        if answer.is_none() {
            fuel.exhausted.set(true);
        }
        answer
    }

    /// Whether it matches within `fuel` and, when compiled for captures, they can be read: a
    /// match it cannot afford is "no match" (and the fuel says so).
    pub fn matches(&self, subject: &[u8], fuel: &Fuel) -> bool {
        if self.is_match(subject, fuel) != Some(true) {
            return false;
        }
        if !self.captures_fit(subject) {
            fuel.exhausted.set(true);
            return false;
        }
        true
    }

    /// The DFA over at most `allowed` bytes of `subject`: the bytes read, and the answer (`None`
    /// when it needed more).
    fn run(&self, subject: &[u8], allowed: usize) -> (usize, Option<bool>) {
        let dfa = &self.0.dfa;
        let config = start::Config::new().anchored(self.0.anchored);
        let Ok(mut state) = dfa.start_state(&config) else { return (0, Some(false)) };
        let affordable = &subject[..subject.len().min(allowed)];
        for (i, &byte) in affordable.iter().enumerate() {
            state = dfa.next_state(state, byte);
            if dfa.is_special_state(state) {
                // Match states come one byte late: a match here ended before this byte.
                if dfa.is_match_state(state) {
                    return (i + 1, Some(true));
                }
                if dfa.is_dead_state(state) || dfa.is_quit_state(state) {
                    return (i + 1, Some(false));
                }
            }
        }
        if affordable.len() < subject.len() {
            return (affordable.len(), None);
        }
        (subject.len(), Some(dfa.is_match_state(dfa.next_eoi_state(state))))
    }

    /// Whether [`captures`](Self::captures) can read `subject` within [`CAPTURE_STEPS`].
    pub fn captures_fit(&self, subject: &[u8]) -> bool {
        self.0.captures.as_ref().is_none_or(|b| subject.len() <= b.max_haystack_len())
    }

    /// Group 0..n of the leftmost match (`None` for a group that did not take part), or `None`
    /// when there is no match, the pattern was compiled without [`Flags::captures`], or the
    /// subject does not [`fit`](Self::captures_fit).
    pub fn captures<'s>(&self, subject: &'s [u8]) -> Option<Vec<Option<&'s [u8]>>> {
        let backtracker = self.0.captures.as_ref()?;
        let mut cache = backtracker.create_cache();
        let mut caps = Captures::all(backtracker.get_nfa().group_info().clone());
        let input = Input::new(subject).anchored(self.0.anchored);
        backtracker.try_search(&mut cache, &input, &mut caps).ok()?;
        caps.is_match()
            .then(|| (0..caps.group_len()).map(|g| caps.get_group(g).map(|span| &subject[span.range()])).collect())
    }
}

fn invalid(error: &dyn core::error::Error) -> RegexError {
    RegexError::Invalid(first_line(&innermost(error)).to_string())
}

/// The message of the innermost error: the parser's, under "error parsing regex".
fn innermost(error: &dyn core::error::Error) -> String {
    let mut error = error;
    while let Some(source) = error.source() {
        error = source;
    }
    error.to_string()
}

/// The NFA builder reports its size limit in its message only.
fn nfa_error(message: &str, limit: usize) -> RegexError {
    if message.contains("exceeded limit") || message.contains("exceeded size limit") {
        RegexError::TooLarge { limit }
    } else {
        RegexError::Invalid(first_line(message).to_string())
    }
}

/// regex-syntax's messages draw the pattern over several lines; the `error:` line says what.
fn first_line(s: &str) -> &str {
    let line = s.lines().rfind(|l| l.starts_with("error:")).unwrap_or_else(|| s.lines().next().unwrap_or(s));
    line.strip_prefix("error: ").unwrap_or(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn re(p: &str) -> Regex {
        Regex::new(p, Flags::default(), RegexLimits::DEFAULT_SIZE).unwrap()
    }

    fn matches(r: &Regex, s: &str) -> bool {
        r.is_match(s.as_bytes(), &Fuel::new(usize::MAX)).unwrap()
    }

    #[test]
    fn anchors_and_unanchored() {
        let whole = re("^(?:/a/[0-9]+)$");
        assert!(matches(&whole, "/a/12"));
        assert!(!matches(&whole, "/a/12/x"));
        assert!(!matches(&whole, "x/a/12"));
        let prefix = re("^/api");
        assert!(matches(&prefix, "/api/x") && !matches(&prefix, "/x/api"));
        let anywhere = re("bot|crawler");
        assert!(matches(&anywhere, "Mozilla googlebot/2.1") && !matches(&anywhere, "Mozilla"));
        assert!(matches(&re("^$"), ""));
        assert!(!matches(&re("^a$"), ""));
    }

    #[test]
    fn ascii_classes_and_case() {
        let r = Regex::new("^/users/\\w+$", Flags { case_insensitive: true, captures: false }, 1 << 16).unwrap();
        assert!(matches(&r, "/USERS/ab_9"));
        assert!(!matches(&r, "/users/é"));
        // Bytes that are not UTF-8 are matched as they are.
        assert!(re("^/a.b$").is_match(b"/a\xffb", &Fuel::new(100)).unwrap());
    }

    #[test]
    fn an_early_dead_state_reads_little() {
        let fuel = Fuel::new(1000);
        let long = "/x".repeat(10_000);
        assert_eq!(re("^/api/.*").is_match(long.as_bytes(), &fuel), Some(false));
        assert!(fuel.left.get() >= 990, "read {} bytes", 1000 - fuel.left.get());
        assert!(!fuel.exhausted());
    }

    #[test]
    fn fuel_runs_out_as_no_match() {
        let fuel = Fuel::new(100);
        let long = "a".repeat(150);
        assert_eq!(re("^a*b$").is_match(long.as_bytes(), &fuel), None);
        assert!(fuel.exhausted());
        // Nothing left for the next pattern either.
        assert_eq!(re("^a").is_match(b"a", &fuel), None);
        // A subject that fits exactly is read whole.
        assert_eq!(re("^a*$").is_match(&long.as_bytes()[..50], &Fuel::new(50)), Some(true));
    }

    #[test]
    fn too_large_is_refused_by_the_limit() {
        for p in ["(?:[a-z/]{0,100}){0,1000}", "(?:(?:[a-z/]?){20000})*", "(a|b)*a(a|b){20}"] {
            assert_eq!(Regex::new(p, Flags::default(), 1 << 16).unwrap_err(), RegexError::TooLarge { limit: 1 << 16 });
        }
        let error = Regex::new("(", Flags::default(), 1 << 16).unwrap_err();
        assert!(matches!(&error, RegexError::Invalid(m) if m.contains("unclosed group")), "{error}");
        assert!(error.to_string().starts_with("not a valid regular expression: "));
    }

    #[test]
    fn captures_are_bounded() {
        let r = Regex::new("^/something(/|$)(.*)", Flags { case_insensitive: true, captures: true }, 1 << 16).unwrap();
        let caps = r.captures(b"/SOMETHING/a/b").unwrap();
        assert_eq!(caps[1], Some(&b"/"[..]));
        assert_eq!(caps[2], Some(&b"a/b"[..]));
        let huge = "/something/".repeat(100_000);
        assert!(!r.captures_fit(huge.as_bytes()));
        assert_eq!(r.captures(huge.as_bytes()), None);
    }

    /// Patterns people write: the Gateway API conformance suite's and implementations' docs,
    /// ingress-nginx's documentation and tests, and common user patterns (ids, versions, bots).
    /// Each compiles within the default limit, with room to spare.
    pub const ORDINARY: &[&str] = &[
        "/foo/.*",
        "/foo/bar/(.+)",
        "/foo/bar/[A-Z0-9]{3}",
        "/something(/|$)(.*)",
        "/a/[0-9]+",
        "v[0-9]",
        "/v[0-9]+/users.*",
        "/[A-Z]{3}",
        ".*/[a-z]+",
        "/api/v[0-9]+/users/[^/]+/orders/[0-9]+",
        "^/service/([^/]+)(/.*)$",
        "/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
        "(\\d{1,3}\\.){3}\\d{1,3}",
        "\\d{4}-\\d{2}-\\d{2}",
        "v?[0-9]+\\.[0-9]+\\.[0-9]+(-[0-9A-Za-z.-]+)?",
        "[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}",
        "(?i)bearer .+",
        "Mozilla/5\\.0.*(iPhone|Android).*",
        "/(en|de|fr|es|it|nl|pt|ja|zh)(/.*)?",
        "/static/.*\\.(css|js|png|jpg|jpeg|gif|svg|ico|woff2?)",
        "/api/(v1|v2|v3)/(users|orders|products|carts)(/.*)?",
        "(?i).*(googlebot|bingbot|yandex|baiduspider|facebookexternalhit|twitterbot|rogerbot|linkedinbot|embedly|quora link preview|showyoubot|outbrain|pinterest|slackbot|vkshare|w3c_validator|whatsapp|telegrambot|discordbot|applebot|duckduckbot|semrushbot|ahrefsbot|mj12bot|petalbot).*",
        "(.*a){20}",
        "/[^/]+/[^/]+/[^/]+/[^/]+/[^/]+",
    ];

    #[test]
    fn ordinary_patterns_fit_the_default_limit() {
        let mut sizes = Vec::new();
        for p in ORDINARY {
            // As a Gateway API match (whole value), an nginx location (`~* ^p`, with captures),
            // and a canary header pattern (anywhere).
            let forms = [
                (alloc::format!("^(?:{p})$"), Flags::default()),
                (alloc::format!("^{p}"), Flags { case_insensitive: true, captures: true }),
                (String::from(*p), Flags::default()),
            ];
            for (pattern, flags) in forms {
                let r =
                    Regex::new(&pattern, flags, RegexLimits::DEFAULT_SIZE).unwrap_or_else(|e| panic!("{pattern}: {e}"));
                sizes.push(r.size());
            }
        }
        // The crawler list (three forms) is the largest by far; everything else leaves the
        // default 8x room.
        sizes.sort_unstable();
        let (next, largest) = (sizes[sizes.len() - 4], sizes[sizes.len() - 1]);
        assert!(next <= RegexLimits::DEFAULT_SIZE / 8, "{next}");
        assert!(largest <= RegexLimits::DEFAULT_SIZE, "{largest}");
    }

    #[test]
    fn the_total_is_shared_in_input_order() {
        let limits = RegexLimits { size: 8 * 1024, total: 12 * 1024, scan: 1024 };
        let compiler = Compiler::new(&limits);
        let first = compiler.compile("^/api/v[0-9]+/users/[^/]+/orders/[0-9]+", Flags::default()).unwrap();
        assert!(first.size() > 2 * 1024);
        let mut refused = None;
        for i in 0..10 {
            let distinct = alloc::format!("^/api/v[0-9]+/users/[^/]+/orders/[0-9]+/{i}");
            if let Err(e) = compiler.compile(&distinct, Flags::default()) {
                refused = Some(e);
                break;
            }
        }
        assert_eq!(refused, Some(RegexError::OverTotal { limit: 12 * 1024 }));
        // A small one still fits in what is left, if anything is.
        let tiny = Compiler::new(&limits);
        assert!(tiny.compile("^a", Flags::default()).is_ok());
        // The per-pattern limit is named as such.
        assert_eq!(
            tiny.compile("(a|b)*a(a|b){20}", Flags::default()).unwrap_err(),
            RegexError::TooLarge { limit: 8 * 1024 }
        );
    }

    #[test]
    fn a_repeated_pattern_is_compiled_once_and_counted_once() {
        let limits = RegexLimits { size: 8 * 1024, total: 8 * 1024, scan: 1024 };
        let compiler = Compiler::new(&limits);
        let p = "^/api/v[0-9]+/users/[^/]+/orders/[0-9]+";
        let first = compiler.compile(p, Flags::default()).unwrap();
        // Far more copies than the total holds, were each counted.
        for _ in 0..100 {
            let again = compiler.compile(p, Flags::default()).unwrap();
            assert!(Arc::ptr_eq(&first.0, &again.0));
        }
        // Other flags are another regex.
        let folded = compiler.compile(p, Flags { case_insensitive: true, captures: false });
        assert!(folded.is_err() || !Arc::ptr_eq(&first.0, &folded.unwrap().0));
        // A refusal is remembered too.
        assert!(compiler.compile("(", Flags::default()).is_err());
        assert!(compiler.compile("(", Flags::default()).is_err());
    }
}
