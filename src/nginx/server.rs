//! nginx `server` blocks and the choice of one by the `Host` header
//! (`ngx_http_find_virtual_server`): exact names first, then the longest leading wildcard
//! (`*.foo.com`, `.foo.com`), then the longest trailing wildcard (`www.*`), then regex names in
//! the order written; a host no name matches goes to the catch-all server `_` (`default_server`).
//!
//! ingress-nginx writes a wildcard host `*.foo.com` as the regex name
//! `~^(?<subdomain>[\w-]+)\.foo\.com$` (`buildServerName`): one label of ASCII letters, digits,
//! `_` or `-`; so `a.b.foo.com` and `foo.com` do not match it. `server-alias` values are written as
//! they are, so an alias `*.foo.com` is an nginx wildcard that covers any number of labels.

use alloc::string::String;
use alloc::vec::Vec;
use hashbrown::HashMap;

use super::location::Locations;
use super::regex::{self, Compiler, Fuel, Regex};

/// The catch-all server's name.
pub const CATCH_ALL: &str = "_";

/// One `server` block.
#[derive(Clone, Debug)]
pub struct Server {
    /// The rule host (`*.foo.com` as written in the Ingress), or `_`.
    pub hostname: String,
    pub aliases: Vec<String>,
    pub locations: Locations,
    /// Some location uses `use-regex` or a `rewrite-target`: every location is `~* "^path"`.
    pub enforce_regex: bool,
    /// A TLS certificate is configured for the host (some Ingress lists it under `tls`).
    pub tls: bool,
    /// The first location's `app-root`, written as `if ($uri = /) { return 302 ...; }` in the server.
    pub app_root: Option<(String, usize)>,
}

impl Server {
    /// `server_name` as nginx.conf has it.
    pub fn server_name(&self) -> String {
        match self.hostname.strip_prefix("*.") {
            Some(suffix) => alloc::format!("~^(?<subdomain>[\\w-]+)\\.{}$", suffix.replace('.', "\\.")),
            None => self.hostname.clone(),
        }
    }
}

/// How the server was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ServerMatch {
    /// The host equals the server's host.
    Exact,
    /// The host equals an alias.
    Alias,
    /// The host matched the regex name of a wildcard host (one label).
    Wildcard,
    /// The host matched a wildcard or regex alias.
    AliasPattern,
    /// No name matched: the catch-all server.
    CatchAll,
    /// The host is answered by a `from-to-www-redirect` server, which redirects to this one.
    WwwRedirect,
}

#[derive(Clone, Debug)]
enum Pattern {
    /// A wildcard host's regex name, checked without a regex: `[\w-]+` then `.suffix`.
    OneLabel(String),
    Regex(Regex),
}

/// The server names of all servers.
#[derive(Clone, Debug, Default)]
pub struct Names {
    exact: HashMap<String, (u32, bool)>,
    /// `*.foo.com` / `.foo.com` aliases: suffix `.foo.com` (and `foo.com` itself for `.foo.com`).
    leading: Vec<(String, bool, u32)>,
    /// `www.*` aliases: prefix `www.`.
    trailing: Vec<(String, u32)>,
    /// Regex names in the order written, with the server.
    patterns: Vec<(Pattern, u32)>,
    /// Wildcard hosts by suffix, used when `patterns` holds no alias regex (the usual case).
    one_label: HashMap<String, u32>,
    only_one_label: bool,
    pub catch_all: usize,
}

/// A name nginx would refuse.
pub struct BadName {
    pub server: usize,
    pub name: String,
    pub reason: String,
}

impl Names {
    /// Indexes the names of `servers` (in the order written: sorted by hostname).
    pub fn new(servers: &[Server], regexes: &Compiler) -> (Names, Vec<BadName>) {
        let mut names = Names { only_one_label: true, ..Names::default() };
        let mut bad = Vec::new();
        for (i, server) in servers.iter().enumerate() {
            let index = i as u32;
            if server.hostname == CATCH_ALL {
                names.catch_all = i;
            } else if let Some(suffix) = server.hostname.strip_prefix("*.") {
                names.patterns.push((Pattern::OneLabel(alloc::format!(".{suffix}")), index));
                names.one_label.entry(alloc::format!(".{suffix}")).or_insert(index);
            } else {
                names.exact.entry(server.hostname.clone()).or_insert((index, false));
            }
            for alias in &server.aliases {
                if let Some(pattern) = alias.strip_prefix('~') {
                    match regex::compile(pattern, false, false, regexes) {
                        Ok(r) => {
                            names.patterns.push((Pattern::Regex(r), index));
                            names.only_one_label = false;
                        }
                        Err(reason) => bad.push(BadName { server: i, name: alias.clone(), reason }),
                    }
                } else if let Some(suffix) = alias.strip_prefix('*') {
                    names.leading.push((suffix.into(), false, index));
                } else if alias.starts_with('.') {
                    names.leading.push((alias.clone(), true, index));
                } else if let Some(prefix) = alias.strip_suffix('*') {
                    names.trailing.push((prefix.into(), index));
                } else {
                    names.exact.entry(alias.clone()).or_insert((index, true));
                }
            }
        }
        // Longest wildcard first, as nginx's wildcard hashes pick the most specific.
        names.leading.sort_by_key(|l| core::cmp::Reverse(l.0.len()));
        names.trailing.sort_by_key(|t| core::cmp::Reverse(t.0.len()));
        (names, bad)
    }

    /// The server for a normalised host (lower case, no port, no trailing dot).
    pub fn find(&self, host: &str, fuel: &Fuel) -> (usize, ServerMatch) {
        if let Some(&(i, alias)) = self.exact.get(host) {
            return (i as usize, if alias { ServerMatch::Alias } else { ServerMatch::Exact });
        }
        for (suffix, dot_form, i) in &self.leading {
            let covers = host.len() > suffix.len() && host.ends_with(suffix.as_str()) && suffix.starts_with('.');
            if covers || (*dot_form && host == &suffix[1..]) {
                return (*i as usize, ServerMatch::AliasPattern);
            }
        }
        for (prefix, i) in &self.trailing {
            if host.len() > prefix.len() && host.starts_with(prefix.as_str()) {
                return (*i as usize, ServerMatch::AliasPattern);
            }
        }
        if self.only_one_label {
            if let Some(dot) = host.find('.')
                && one_label(&host[..dot])
                && let Some(&i) = self.one_label.get(&host[dot..])
            {
                return (i as usize, ServerMatch::Wildcard);
            }
        } else {
            for (pattern, i) in &self.patterns {
                match pattern {
                    Pattern::OneLabel(suffix) => {
                        if let Some(label) = host.strip_suffix(suffix.as_str())
                            && one_label(label)
                        {
                            return (*i as usize, ServerMatch::Wildcard);
                        }
                    }
                    Pattern::Regex(r) => {
                        if r.matches(host.as_bytes(), fuel) {
                            return (*i as usize, ServerMatch::AliasPattern);
                        }
                    }
                }
            }
        }
        (self.catch_all, ServerMatch::CatchAll)
    }
}

/// `[\w-]+` without Unicode: what the subdomain of a wildcard host may be.
fn one_label(label: &str) -> bool {
    !label.is_empty() && label.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}
