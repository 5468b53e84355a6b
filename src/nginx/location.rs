//! nginx `location` blocks of one server, and nginx's choice among them
//! (`ngx_http_core_find_location`):
//!
//! 1. an exact location (`= /p`) equal to the URI wins at once;
//! 2. else the longest matching prefix location is remembered; when no location is named the URI
//!    but one is named the URI plus `/`, nginx answers 301 to that name (`auto_redirect`, set by
//!    `proxy_pass` on locations ending in `/`) without looking at regexes;
//! 3. else regex locations are tried in the order they are written, and the first match wins;
//! 4. else the remembered prefix.
//!
//! (`^~` would skip step 3; ingress-nginx never writes it.) Static lookups probe a hash map only
//! at the lengths some prefix location has; regex locations are tried in order, as nginx does.

use alloc::string::String;
use alloc::vec::Vec;
use hashbrown::HashMap;

use super::annotations::Redirect;
use super::regex::{self, Compiler, Fuel, Regex};
use crate::model::IngressBackend;
use crate::path::PathType;

/// How a location matches (`location = /p`, `location /p`, `location ~* "^/p"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Modifier {
    Exact,
    Prefix,
    Regex,
}

/// Where a location comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// `spec.rules[rule].http.paths[path]` of an Ingress.
    /// `path_type` is how ingress-nginx treats it (`Prefix` for `ImplementationSpecific`);
    /// `declared` is the Ingress's.
    Path { ingress: usize, rule: usize, path: usize, path_type: PathType, declared: PathType, ingress_path: String },
    /// The `location /` every server gets, which sends to the server's default backend until a
    /// path `/` replaces it. `ingress`: the Ingress whose annotations and `defaultBackend` it took.
    ServerDefault { ingress: Option<usize> },
}

/// The per-location settings ingress-nginx copies from an Ingress's annotations.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    pub rewrite_target: Option<String>,
    pub use_regex: bool,
    pub redirect: Option<Redirect>,
    pub ssl_redirect: bool,
    pub force_ssl_redirect: bool,
    pub preserve_trailing_slash: bool,
    pub app_root: Option<String>,
    /// `default-backend` annotation: the Service (same namespace) used when this one has no endpoints.
    pub default_backend: Option<String>,
}

/// One `location` block.
#[derive(Clone, Debug)]
pub struct Location {
    /// The path as nginx gets it (`/foo/` for the prefix half of a `Prefix /foo`).
    pub path: String,
    pub modifier: Modifier,
    pub regex: Option<Regex>,
    pub origin: Origin,
    /// `None`: the controller's default backend (`upstream-default-backend`).
    pub backend: Option<IngressBackend>,
    /// The upstream name (`namespace-service-port`), for canaries.
    pub upstream: Option<String>,
    pub settings: Settings,
    /// Index into the router's canaries: the first alternative backend merged into this upstream.
    pub canary: Option<usize>,
    /// `Some(service)`: the input has Services but not this one (so no endpoints), and `backend`
    /// is the `default-backend` annotation's Service instead.
    pub fallback_for: Option<String>,
}

impl Location {
    /// `= "/p"`, `"/p"` or `~* "^/p"`, as nginx.conf writes it.
    pub fn nginx_syntax(&self) -> String {
        match self.modifier {
            Modifier::Exact => alloc::format!("= {}", self.path),
            Modifier::Prefix => self.path.clone(),
            Modifier::Regex => alloc::format!("~* ^{}", self.path),
        }
    }

    /// Whether ingress-nginx writes a `rewrite` for it (`needsRewrite`).
    pub fn needs_rewrite(&self) -> bool {
        self.settings.rewrite_target.as_deref().is_some_and(|t| t != self.path)
    }
}

/// Which step of nginx's search chose a location.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    Exact(usize),
    /// The longest prefix, no regex matched.
    Prefix(usize),
    /// The first matching regex; `longest_prefix` is the prefix it overrode, if any.
    Regex {
        index: usize,
        longest_prefix: Option<usize>,
    },
    /// 301 to the location named URI + `/`.
    AutoRedirect(usize),
    None,
}

#[derive(Clone, Copy, Debug, Default)]
struct Static {
    exact: Option<u32>,
    prefix: Option<u32>,
}

/// The lookup structure of one server's locations.
#[derive(Clone, Debug, Default)]
pub struct Locations {
    pub list: Vec<Location>,
    statics: HashMap<Vec<u8>, Static>,
    /// Names ending in `/`, without it, to their location (for `auto_redirect`).
    slash_names: HashMap<Vec<u8>, u32>,
    /// Distinct prefix location lengths, longest first.
    prefix_lens: Vec<usize>,
    regexes: Vec<u32>,
}

/// A location nginx would refuse to load, and why.
pub struct Refused {
    pub index: usize,
    pub reason: String,
}

impl Locations {
    /// Indexes `list` (already in the order written). Locations nginx would refuse (a bad regex, a
    /// duplicate static location) are reported and never chosen.
    pub fn new(mut list: Vec<Location>, regexes: &Compiler) -> (Locations, Vec<Refused>) {
        let mut refused = Vec::new();
        let mut locations = Locations::default();
        for (i, loc) in list.iter_mut().enumerate() {
            let index = i as u32;
            match loc.modifier {
                Modifier::Regex => {
                    match regex::compile(&alloc::format!("^{}", loc.path), true, loc.needs_rewrite(), regexes) {
                        Ok(r) => {
                            loc.regex = Some(r);
                            locations.regexes.push(index);
                        }
                        Err(reason) => refused.push(Refused { index: i, reason }),
                    }
                }
                Modifier::Exact | Modifier::Prefix => {
                    let slot = locations.statics.entry(loc.path.as_bytes().to_vec()).or_default();
                    let taken = if loc.modifier == Modifier::Exact { &mut slot.exact } else { &mut slot.prefix };
                    if taken.is_some() {
                        let reason =
                            alloc::format!("duplicate location \"{}\": nginx refuses the configuration", loc.path);
                        refused.push(Refused { index: i, reason });
                        continue;
                    }
                    *taken = Some(index);
                    if loc.modifier == Modifier::Prefix && !locations.prefix_lens.contains(&loc.path.len()) {
                        locations.prefix_lens.push(loc.path.len());
                    }
                    if let Some(stem) = loc.path.strip_suffix('/') {
                        locations.slash_names.entry(stem.as_bytes().to_vec()).or_insert(index);
                    }
                }
            }
        }
        locations.prefix_lens.sort_unstable_by(|a, b| b.cmp(a));
        locations.list = list;
        (locations, refused)
    }

    /// nginx's choice for the normalised URI `uri`; its regexes read at most what `fuel` holds.
    pub fn choose(&self, uri: &[u8], fuel: &Fuel) -> Choice {
        let named = self.statics.get(uri);
        if let Some(i) = named.and_then(|s| s.exact) {
            return Choice::Exact(i as usize);
        }
        if named.is_none()
            && let Some(&i) = self.slash_names.get(uri)
        {
            return Choice::AutoRedirect(i as usize);
        }
        let longest_prefix = self
            .prefix_lens
            .iter()
            .filter(|&&len| len <= uri.len())
            .find_map(|&len| self.statics.get(&uri[..len]).and_then(|s| s.prefix).map(|i| i as usize));
        for &i in &self.regexes {
            if self.list[i as usize].regex.as_ref().is_some_and(|r| r.matches(uri, fuel)) {
                return Choice::Regex { index: i as usize, longest_prefix };
            }
        }
        longest_prefix.map_or(Choice::None, Choice::Prefix)
    }
}

/// One location judged against a URI, for `explain`.
pub struct Judged {
    pub index: usize,
    pub matched: bool,
    pub chosen: bool,
    /// Position among the matching locations by nginx's preference (0: the one chosen).
    pub rank: Option<usize>,
    pub reason: String,
}

impl Locations {
    /// Every location against the normalised `uri` (its regexes within `fuel`), given nginx's
    /// `choice`: matching ones first, by nginx's preference, then the rest in its search order
    /// (exact and prefix locations longest first, then regexes as written). Each says why it won
    /// or lost. Allocates freely: this is for people.
    pub fn judge(&self, uri: &[u8], fuel: &Fuel, choice: Choice) -> Vec<Judged> {
        let name = |i: usize| self.list[i].nginx_syntax();
        let winner = match choice {
            Choice::Exact(i) | Choice::Prefix(i) | Choice::AutoRedirect(i) | Choice::Regex { index: i, .. } => Some(i),
            Choice::None => None,
        };
        let mut search: Vec<usize> =
            (0..self.list.len()).filter(|&i| self.list[i].modifier != Modifier::Regex).collect();
        search
            .sort_by_key(|&i| (core::cmp::Reverse(self.list[i].path.len()), self.list[i].modifier != Modifier::Exact));
        search.extend((0..self.list.len()).filter(|&i| self.list[i].modifier == Modifier::Regex));
        let mut judged: Vec<Judged> = search
            .into_iter()
            .map(|i| {
                let loc = &self.list[i];
                let loaded = match loc.modifier {
                    Modifier::Regex => loc.regex.is_some(),
                    Modifier::Exact => self.statics.get(loc.path.as_bytes()).and_then(|s| s.exact) == Some(i as u32),
                    Modifier::Prefix => self.statics.get(loc.path.as_bytes()).and_then(|s| s.prefix) == Some(i as u32),
                };
                let matched = loaded
                    && match loc.modifier {
                        Modifier::Exact => loc.path.as_bytes() == uri,
                        Modifier::Prefix => uri.starts_with(loc.path.as_bytes()),
                        Modifier::Regex => loc.regex.as_ref().is_some_and(|r| r.matches(uri, fuel)),
                    };
                let chosen = winner == Some(i);
                let reason = match (chosen, matched, loc.modifier, choice) {
                    _ if !loaded => String::from("nginx refuses this location (see the diagnostics), so it never matches"),
                    (true, _, _, Choice::AutoRedirect(_)) => {
                        String::from("the URI is its name without the trailing /: nginx answers 301 to its name")
                    }
                    (true, _, Modifier::Exact, _) => String::from("equals the URI: nginx stops looking"),
                    (true, _, Modifier::Prefix, _) => {
                        String::from("the longest matching prefix, and no regex location matches")
                    }
                    (true, _, _, Choice::Regex { longest_prefix, .. }) => {
                        let over = longest_prefix
                            .map(|p| alloc::format!(", over the longest prefix {}", name(p)))
                            .unwrap_or_default();
                        alloc::format!("the first regex location that matches (regexes are tried in order){over}")
                    }
                    (_, false, Modifier::Exact, _) => String::from("does not equal the URI"),
                    (_, false, Modifier::Prefix, _) => String::from("is not a prefix of the URI"),
                    (_, false, Modifier::Regex, _) => String::from("the regex does not match the URI"),
                    (_, true, _, Choice::Exact(w)) => {
                        alloc::format!("matches, but the exact location {} equals the URI and wins at once", name(w))
                    }
                    (_, true, _, Choice::AutoRedirect(w)) => alloc::format!(
                        "matches, but the URI names {} without its trailing /: nginx redirects before any other match",
                        name(w)
                    ),
                    (_, true, Modifier::Prefix, Choice::Prefix(w)) => {
                        alloc::format!("a matching prefix, but {} is longer", name(w))
                    }
                    (_, true, Modifier::Prefix, Choice::Regex { index: w, longest_prefix }) => {
                        if longest_prefix == Some(i) {
                            alloc::format!("the longest matching prefix, but regex location {} matches and a regex match wins over prefixes", name(w))
                        } else {
                            alloc::format!("a matching prefix, but regex location {} matches (and a longer prefix exists)", name(w))
                        }
                    }
                    (_, true, Modifier::Regex, Choice::Regex { index: w, .. }) => {
                        alloc::format!("matches, but regex location {} comes first", name(w))
                    }
                    _ => String::from("matches"),
                };
                Judged { index: i, matched, chosen, rank: None, reason }
            })
            .collect();
        // Matching ones first, the chosen one at the head; the sort is stable, so the rest keep
        // nginx's search order (its preference among matches, after the winner).
        judged.sort_by_key(|j| (!j.matched, !j.chosen));
        for (rank, j) in judged.iter_mut().take_while(|j| j.matched).enumerate() {
            j.rank = Some(rank);
        }
        judged
    }
}
