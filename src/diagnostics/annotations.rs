//! Annotation keys the ingress-nginx controller knows, and the small string distance used for
//! "did you mean" suggestions.
//!
//! The key list is the project's copy of `shared/data/ingress-nginx-annotations.txt` (taken from the
//! controller's annotation reference); `tests/diagnostics.rs` checks that both hold the same keys.

/// The prefix of every ingress-nginx annotation (the controller's `--annotations-prefix` default).
pub const NGINX_PREFIX: &str = "nginx.ingress.kubernetes.io/";

/// One annotation the controller reads, without [`NGINX_PREFIX`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KnownAnnotation {
    pub name: &'static str,
    /// Added or renamed in later controller releases: older controllers ignore it.
    pub later: bool,
}

/// Every ingress-nginx annotation, in the order of the controller's reference.
pub const NGINX_ANNOTATIONS: &[KnownAnnotation] = &[
    KnownAnnotation { name: "app-root", later: false },
    KnownAnnotation { name: "affinity", later: false },
    KnownAnnotation { name: "affinity-mode", later: false },
    KnownAnnotation { name: "affinity-canary-behavior", later: false },
    KnownAnnotation { name: "auth-realm", later: false },
    KnownAnnotation { name: "auth-secret", later: false },
    KnownAnnotation { name: "auth-secret-type", later: false },
    KnownAnnotation { name: "auth-type", later: false },
    KnownAnnotation { name: "auth-tls-secret", later: false },
    KnownAnnotation { name: "auth-tls-verify-depth", later: false },
    KnownAnnotation { name: "auth-tls-verify-client", later: false },
    KnownAnnotation { name: "auth-tls-error-page", later: false },
    KnownAnnotation { name: "auth-tls-pass-certificate-to-upstream", later: false },
    KnownAnnotation { name: "auth-url", later: false },
    KnownAnnotation { name: "auth-cache-key", later: false },
    KnownAnnotation { name: "auth-cache-duration", later: false },
    KnownAnnotation { name: "auth-proxy-set-headers", later: false },
    KnownAnnotation { name: "auth-snippet", later: false },
    KnownAnnotation { name: "enable-global-auth", later: false },
    KnownAnnotation { name: "backend-protocol", later: false },
    KnownAnnotation { name: "canary", later: false },
    KnownAnnotation { name: "canary-by-header", later: false },
    KnownAnnotation { name: "canary-by-header-value", later: false },
    KnownAnnotation { name: "canary-by-header-pattern", later: false },
    KnownAnnotation { name: "canary-by-cookie", later: false },
    KnownAnnotation { name: "canary-weight", later: false },
    KnownAnnotation { name: "canary-weight-total", later: false },
    KnownAnnotation { name: "client-body-buffer-size", later: false },
    KnownAnnotation { name: "configuration-snippet", later: false },
    KnownAnnotation { name: "custom-http-errors", later: false },
    KnownAnnotation { name: "default-backend", later: false },
    KnownAnnotation { name: "enable-cors", later: false },
    KnownAnnotation { name: "cors-allow-origin", later: false },
    KnownAnnotation { name: "cors-allow-methods", later: false },
    KnownAnnotation { name: "cors-allow-headers", later: false },
    KnownAnnotation { name: "cors-expose-headers", later: false },
    KnownAnnotation { name: "cors-allow-credentials", later: false },
    KnownAnnotation { name: "cors-max-age", later: false },
    KnownAnnotation { name: "force-ssl-redirect", later: false },
    KnownAnnotation { name: "from-to-www-redirect", later: false },
    KnownAnnotation { name: "http2-push-preload", later: false },
    KnownAnnotation { name: "limit-connections", later: false },
    KnownAnnotation { name: "limit-rps", later: false },
    KnownAnnotation { name: "global-rate-limit", later: false },
    KnownAnnotation { name: "global-rate-limit-window", later: false },
    KnownAnnotation { name: "global-rate-limit-key", later: false },
    KnownAnnotation { name: "global-rate-limit-ignored-cidrs", later: false },
    KnownAnnotation { name: "permanent-redirect", later: false },
    KnownAnnotation { name: "permanent-redirect-code", later: false },
    KnownAnnotation { name: "temporal-redirect", later: false },
    KnownAnnotation { name: "preserve-trailing-slash", later: false },
    KnownAnnotation { name: "proxy-body-size", later: false },
    KnownAnnotation { name: "proxy-cookie-domain", later: false },
    KnownAnnotation { name: "proxy-cookie-path", later: false },
    KnownAnnotation { name: "proxy-connect-timeout", later: false },
    KnownAnnotation { name: "proxy-send-timeout", later: false },
    KnownAnnotation { name: "proxy-read-timeout", later: false },
    KnownAnnotation { name: "proxy-next-upstream", later: false },
    KnownAnnotation { name: "proxy-next-upstream-timeout", later: false },
    KnownAnnotation { name: "proxy-next-upstream-tries", later: false },
    KnownAnnotation { name: "proxy-request-buffering", later: false },
    KnownAnnotation { name: "proxy-redirect-from", later: false },
    KnownAnnotation { name: "proxy-redirect-to", later: false },
    KnownAnnotation { name: "proxy-http-version", later: false },
    KnownAnnotation { name: "proxy-ssl-secret", later: false },
    KnownAnnotation { name: "proxy-ssl-ciphers", later: false },
    KnownAnnotation { name: "proxy-ssl-name", later: false },
    KnownAnnotation { name: "proxy-ssl-protocols", later: false },
    KnownAnnotation { name: "proxy-ssl-verify", later: false },
    KnownAnnotation { name: "proxy-ssl-verify-depth", later: false },
    KnownAnnotation { name: "proxy-ssl-server-name", later: false },
    KnownAnnotation { name: "enable-rewrite-log", later: false },
    KnownAnnotation { name: "rewrite-target", later: false },
    KnownAnnotation { name: "satisfy", later: false },
    KnownAnnotation { name: "server-alias", later: false },
    KnownAnnotation { name: "server-snippet", later: false },
    KnownAnnotation { name: "service-upstream", later: false },
    KnownAnnotation { name: "session-cookie-name", later: false },
    KnownAnnotation { name: "session-cookie-path", later: false },
    KnownAnnotation { name: "session-cookie-change-on-failure", later: false },
    KnownAnnotation { name: "session-cookie-samesite", later: false },
    KnownAnnotation { name: "session-cookie-conditional-samesite-none", later: false },
    KnownAnnotation { name: "ssl-redirect", later: false },
    KnownAnnotation { name: "ssl-passthrough", later: false },
    KnownAnnotation { name: "stream-snippet", later: false },
    KnownAnnotation { name: "upstream-hash-by", later: false },
    KnownAnnotation { name: "x-forwarded-prefix", later: false },
    KnownAnnotation { name: "load-balance", later: false },
    KnownAnnotation { name: "upstream-vhost", later: false },
    KnownAnnotation { name: "whitelist-source-range", later: false },
    KnownAnnotation { name: "proxy-buffering", later: false },
    KnownAnnotation { name: "proxy-buffers-number", later: false },
    KnownAnnotation { name: "proxy-buffer-size", later: false },
    KnownAnnotation { name: "proxy-max-temp-file-size", later: false },
    KnownAnnotation { name: "ssl-ciphers", later: false },
    KnownAnnotation { name: "ssl-prefer-server-ciphers", later: false },
    KnownAnnotation { name: "connection-proxy-header", later: false },
    KnownAnnotation { name: "enable-access-log", later: false },
    KnownAnnotation { name: "enable-opentracing", later: false },
    KnownAnnotation { name: "opentracing-trust-incoming-span", later: false },
    KnownAnnotation { name: "enable-influxdb", later: false },
    KnownAnnotation { name: "influxdb-measurement", later: false },
    KnownAnnotation { name: "influxdb-port", later: false },
    KnownAnnotation { name: "influxdb-host", later: false },
    KnownAnnotation { name: "influxdb-server-name", later: false },
    KnownAnnotation { name: "use-regex", later: false },
    KnownAnnotation { name: "enable-modsecurity", later: false },
    KnownAnnotation { name: "enable-owasp-core-rules", later: false },
    KnownAnnotation { name: "modsecurity-transaction-id", later: false },
    KnownAnnotation { name: "modsecurity-snippet", later: false },
    KnownAnnotation { name: "mirror-request-body", later: false },
    KnownAnnotation { name: "mirror-target", later: false },
    KnownAnnotation { name: "upstream-hash-by-subset", later: false },
    KnownAnnotation { name: "upstream-hash-by-subset-size", later: false },
    KnownAnnotation { name: "allowlist-source-range", later: true },
    KnownAnnotation { name: "denylist-source-range", later: true },
    KnownAnnotation { name: "limit-rpm", later: true },
    KnownAnnotation { name: "limit-burst-multiplier", later: true },
    KnownAnnotation { name: "limit-allowlist", later: true },
    KnownAnnotation { name: "limit-whitelist", later: true },
    KnownAnnotation { name: "limit-rate", later: true },
    KnownAnnotation { name: "limit-rate-after", later: true },
    KnownAnnotation { name: "auth-signin", later: true },
    KnownAnnotation { name: "auth-signin-redirect-param", later: true },
    KnownAnnotation { name: "auth-method", later: true },
    KnownAnnotation { name: "auth-response-headers", later: true },
    KnownAnnotation { name: "auth-request-redirect", later: true },
    KnownAnnotation { name: "auth-keepalive", later: true },
    KnownAnnotation { name: "auth-keepalive-requests", later: true },
    KnownAnnotation { name: "auth-keepalive-timeout", later: true },
    KnownAnnotation { name: "auth-keepalive-share-vars", later: true },
    KnownAnnotation { name: "auth-always-set-cookie", later: true },
    KnownAnnotation { name: "auth-tls-match-cn", later: true },
    KnownAnnotation { name: "custom-headers", later: true },
    KnownAnnotation { name: "enable-opentelemetry", later: true },
    KnownAnnotation { name: "opentelemetry-trust-incoming-span", later: true },
    KnownAnnotation { name: "opentelemetry-operation-name", later: true },
    KnownAnnotation { name: "mirror-host", later: true },
    KnownAnnotation { name: "session-cookie-max-age", later: true },
    KnownAnnotation { name: "session-cookie-expires", later: true },
    KnownAnnotation { name: "session-cookie-secure", later: true },
    KnownAnnotation { name: "session-cookie-domain", later: true },
];

/// Looks up an annotation name (the part after [`NGINX_PREFIX`]).
pub fn nginx_annotation(name: &str) -> Option<&'static KnownAnnotation> {
    NGINX_ANNOTATIONS.iter().find(|a| a.name == name)
}

/// The known annotation closest to `name` within [`suggestion_threshold`], if any. Ties go to
/// keys every release knows, then to the first in the list.
pub fn closest_nginx_annotation(name: &str) -> Option<&'static KnownAnnotation> {
    let limit = suggestion_threshold(name);
    NGINX_ANNOTATIONS
        .iter()
        .map(|a| (edit_distance(name, a.name), a.later, a))
        .filter(|&(d, _, _)| d <= limit)
        .min_by_key(|&(d, later, _)| (d, later))
        .map(|(_, _, a)| a)
}

/// How many edits a misspelling may be away from the word it is taken for: 1 for short words,
/// 2 up to 11 characters, 3 beyond.
pub fn suggestion_threshold(word: &str) -> usize {
    match word.chars().count() {
        0..=4 => 1,
        5..=11 => 2,
        _ => 3,
    }
}

/// The closest of `candidates` to `word` within [`suggestion_threshold`] (first on ties), never
/// `word` itself.
pub fn closest<'c>(word: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<&'c str> {
    let limit = suggestion_threshold(word);
    candidates
        .into_iter()
        .filter(|c| *c != word)
        .map(|c| (edit_distance(word, c), c))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// Optimal-string-alignment distance (Levenshtein plus transposition of two adjacent characters):
/// `ngnix` is one edit from `nginx`. Counts `char`s; costs O(|a|·|b|) time and O(|b|) memory.
pub fn edit_distance(a: &str, b: &str) -> usize {
    use alloc::vec::Vec;
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Three rows: i-2, i-1, i.
    let mut before: Vec<usize> = (0..=b.len()).collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current: Vec<usize> = alloc::vec![0; b.len() + 1];
    for i in 1..=a.len() {
        current[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (previous[j] + 1).min(current[j - 1] + 1).min(previous[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(before[j - 2] + 1);
            }
            current[j] = d;
        }
        core::mem::swap(&mut before, &mut previous);
        core::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

/// A key whose prefix is a misspelling of [`NGINX_PREFIX`] (`ngnix.ingress.kubernetes.io/`,
/// `nginx.ingress.kuberntes.io/`, `nginx.ingress.kubernetes.io.`): returns what follows the
/// misspelled prefix. `None` for keys under the real prefix and for keys that are not close.
pub fn misspelled_nginx_prefix(key: &str) -> Option<&str> {
    if key.starts_with(NGINX_PREFIX) {
        return None;
    }
    let want = NGINX_PREFIX.len();
    let mut best: Option<(usize, bool, usize, &str)> = None;
    for end in want.saturating_sub(2)..=want + 2 {
        let (Some(prefix), Some(rest)) = (key.get(..end), key.get(end..)) else { continue };
        if rest.is_empty() {
            continue;
        }
        let d = edit_distance(NGINX_PREFIX, prefix);
        if d > 2 {
            continue;
        }
        // Prefer fewer edits, then a rest that starts like a name, then the expected length.
        let clean = !rest.starts_with(|c: char| !c.is_ascii_alphanumeric());
        let candidate = (d, !clean, end.abs_diff(want), rest);
        if best.is_none_or(|b| (candidate.0, candidate.1, candidate.2) < (b.0, b.1, b.2)) {
            best = Some(candidate);
        }
    }
    best.map(|(_, _, _, rest)| rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance() {
        assert_eq!(edit_distance("", ""), 0);
        assert_eq!(edit_distance("abc", ""), 3);
        assert_eq!(edit_distance("nginx", "ngnix"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("rewrite-target", "rewrite-targte"), 1);
        assert_eq!(edit_distance("ca", "abc"), 3);
    }

    #[test]
    fn prefixes() {
        assert_eq!(misspelled_nginx_prefix("ngnix.ingress.kubernetes.io/use-regex"), Some("use-regex"));
        assert_eq!(misspelled_nginx_prefix("nginx.ingress.kuberntes.io/use-regex"), Some("use-regex"));
        assert_eq!(misspelled_nginx_prefix("nginx.ingress.kubernetes.io.use-regex"), Some("use-regex"));
        assert_eq!(misspelled_nginx_prefix("nginx.ingress.kubernetes.io/use-regex"), None);
        assert_eq!(misspelled_nginx_prefix("alb.ingress.kubernetes.io/scheme"), None);
        assert_eq!(misspelled_nginx_prefix("ingress.kubernetes.io/rewrite-target"), None);
        assert_eq!(misspelled_nginx_prefix("nginx.org/rewrites"), None);
    }

    #[test]
    fn suggestions() {
        assert_eq!(closest_nginx_annotation("rewrite-targt").map(|a| a.name), Some("rewrite-target"));
        assert_eq!(closest_nginx_annotation("cors-allowed-origin").map(|a| a.name), Some("cors-allow-origin"));
        assert_eq!(closest_nginx_annotation("totally-made-up"), None);
    }
}
