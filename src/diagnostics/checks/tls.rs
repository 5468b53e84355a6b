//! TLS: hosts no rule serves, rule hosts without TLS, secrets.

use super::*;

/// A `spec.tls[].hosts[]` entry that no rule host of the same Ingress matches: controllers pick a
/// certificate per rule host, so this one is never served. Host-less rules do not count: they
/// answer on the controller's catch-all server, with its default certificate.
pub(super) fn check_tls_hosts_served(ingress: &Ingress, out: &mut Vec<Diagnostic>) {
    let rule_hosts: Vec<&str> = rule_hosts(ingress).map(|(_, h)| h).collect();
    let rule_index = HostIndex::new(&rule_hosts);
    let hostless = rules(ingress).any(|(_, r)| r.host.as_deref().unwrap_or("").is_empty());
    for (t, h, tls_host) in tls_hosts(ingress) {
        if rule_index.overlaps(tls_host) {
            continue;
        }
        let mut message = format!(
            "{}: spec.tls[{t}].hosts[{h}]: {tls_host:?} matches no rule host of this Ingress (rule hosts: {}), \
             so its certificate is never served for it",
            ingress_label(ingress),
            if rule_hosts.is_empty() { String::from("none") } else { host_list(&rule_hosts) },
        );
        if hostless {
            message.push_str(
                "; the host-less rules answer on the controller's catch-all server, with its default certificate",
            );
        }
        out.push(diagnostic(
            code::TLS_HOST_WITHOUT_RULE,
            Severity::Warning,
            message,
            vec![ingress_ref(ingress).with_field(format!("spec.tls[{t}].hosts[{h}]"))],
            format!("add a rule with host {tls_host:?}, or remove it from spec.tls[{t}].hosts"),
        ));
    }
}

/// A rule host that no TLS entry covers while the same Ingress terminates TLS for other hosts.
/// A TLS entry without hosts covers every host (the API's default), so it silences this check.
pub(super) fn check_hosts_without_tls(ingress: &Ingress, out: &mut Vec<Diagnostic>) {
    let tls = &ingress.spec.tls;
    if tls.is_empty() || tls.iter().any(|t| t.hosts.is_empty()) {
        return;
    }
    let covered: Vec<&str> = tls_hosts(ingress).map(|(_, _, h)| h).collect();
    let covered_index = HostIndex::new(&covered);
    let mut seen: hashbrown::HashSet<&str> = hashbrown::HashSet::new();
    for (i, host) in rule_hosts(ingress) {
        if seen.contains(host) || covered_index.overlaps(host) {
            continue;
        }
        seen.insert(host);
        out.push(diagnostic(
            code::HOST_WITHOUT_TLS,
            Severity::Warning,
            format!(
                "{}: spec.rules[{i}].host: {host:?} has no TLS entry while this Ingress terminates TLS for {}; \
                 HTTPS requests for it get the controller's default certificate, and plain HTTP is not redirected",
                ingress_label(ingress),
                host_list(&covered),
            ),
            vec![ingress_ref(ingress).with_field(format!("spec.rules[{i}].host"))],
            format!(
                "add {host:?} to spec.tls[].hosts with a certificate for it, or move the rule to an Ingress without TLS"
            ),
        ));
    }
}

/// A TLS entry without `secretName`: the controller serves its default certificate.
pub(super) fn check_tls_secrets(ingress: &Ingress, out: &mut Vec<Diagnostic>) {
    for (t, tls) in ingress.spec.tls.iter().enumerate() {
        if tls.secret_name.as_deref().is_some_and(|s| !s.is_empty()) {
            continue;
        }
        let hosts = if tls.hosts.is_empty() { String::from("every host") } else { tls.hosts.join(", ") };
        out.push(diagnostic(
            code::TLS_WITHOUT_SECRET,
            Severity::Note,
            format!(
                "{}: spec.tls[{t}] has no secretName: HTTPS for {hosts} is answered with the controller's default \
                 certificate (ingress-nginx: --default-ssl-certificate, else a self-signed one)",
                ingress_label(ingress),
            ),
            vec![ingress_ref(ingress).with_field(format!("spec.tls[{t}].secretName"))],
            format!(
                "set spec.tls[{t}].secretName to a kubernetes.io/tls Secret in namespace {}, unless the default certificate is meant",
                namespace(ingress)
            ),
        ));
    }
}

/// Does a TLS host cover a rule host (or the other way round)? Equal, or one is a wildcard whose
/// `*` covers the first label of the other: `*.foo.com` and `a.foo.com` overlap.
/// At most this many hosts are listed in a message (a message stays a line, whatever the input).
pub(super) const MAX_LISTED_HOSTS: usize = 10;

/// `a, b, c` or `a, b, c and 12 more`.
pub(super) fn host_list(hosts: &[&str]) -> String {
    let mut text = hosts.iter().take(MAX_LISTED_HOSTS).copied().collect::<Vec<_>>().join(", ");
    if hosts.len() > MAX_LISTED_HOSTS {
        text.push_str(&format!(" and {} more", hosts.len() - MAX_LISTED_HOSTS));
    }
    text
}

/// A set of hosts, asked whether a host overlaps one of them (equal without case, or one a
/// wildcard covering the other) with a few hash lookups.
pub(super) struct HostIndex {
    /// Every host, lowercased.
    hosts: hashbrown::HashSet<String>,
    /// `foo.com` for each `*.foo.com`.
    wildcard_suffixes: hashbrown::HashSet<String>,
    /// What each non-wildcard host would be covered by: `foo.com` for `bar.foo.com`.
    covered_suffixes: hashbrown::HashSet<String>,
}

impl HostIndex {
    pub(super) fn new(hosts: &[&str]) -> Self {
        let mut index = HostIndex {
            hosts: hashbrown::HashSet::new(),
            wildcard_suffixes: hashbrown::HashSet::new(),
            covered_suffixes: hashbrown::HashSet::new(),
        };
        for h in hosts {
            index.hosts.insert(h.to_ascii_lowercase());
            match h.strip_prefix("*.") {
                Some(suffix) => {
                    index.wildcard_suffixes.insert(suffix.to_string());
                }
                None => {
                    if let Some(s) = wildcard_suffix(h.as_bytes()) {
                        index.covered_suffixes.insert(String::from_utf8_lossy(s).into_owned());
                    }
                }
            }
        }
        index
    }

    /// Whether `host` overlaps some host of the set.
    pub(super) fn overlaps(&self, host: &str) -> bool {
        if self.hosts.contains(&host.to_ascii_lowercase()) {
            return true;
        }
        match host.strip_prefix("*.") {
            Some(suffix) => self.covered_suffixes.contains(suffix),
            None => wildcard_suffix(host.as_bytes())
                .is_some_and(|s| core::str::from_utf8(s).is_ok_and(|s| self.wildcard_suffixes.contains(s))),
        }
    }
}
