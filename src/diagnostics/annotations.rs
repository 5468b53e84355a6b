//! Annotation keys the ingress-nginx controller reads, with the release that introduced each
//! (and the one that dropped it), and the small string distance used for "did you mean" suggestions.
//!
//! Source: kubernetes/ingress-nginx, its git history. At every `controller-v*` release tag (v0.34.0
//! to v1.15.1): the keys its annotation parsers read (`internal/ingress/annotations/*/main.go`: the
//! `parser.Get*Annotation("key", ...)` calls of older releases, the `...Annotation = "key"`
//! constants behind `parser.AnnotationsRefs` of newer ones), together with the keys of the
//! annotation reference (`docs/user-guide/nginx-configuration/annotations.md`,
//! `annotations-risk.md`). Releases v0.9.0 to v0.33.0 have no tag in the repository: they are read
//! at the commit that added the release's heading to `Changelog.md`, parsers only. `since` is the
//! first release holding the key, `removed` the first release after the last one holding it.
//! v0.9.0 (when the prefix became `nginx.ingress.kubernetes.io/`) is the oldest release read, so
//! `since: "0.9.0"` reads "v0.9.0 or earlier". Keys only the docs ever named (the typo
//! `opentelemetry-trust-incoming-spans`) are left out: no release reads them.

use crate::spelling::{edit_distance, suggestion_threshold};

/// The prefix of every ingress-nginx annotation (the controller's `--annotations-prefix` default).
pub const NGINX_PREFIX: &str = "nginx.ingress.kubernetes.io/";

/// One annotation the controller reads (or read), without [`NGINX_PREFIX`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NginxAnnotation {
    pub name: &'static str,
    /// The first controller release that reads it (`0.9.0`: that release or an earlier one).
    pub since: &'static str,
    /// The first controller release that no longer reads it.
    pub removed: Option<&'static str>,
}

impl NginxAnnotation {
    /// Introduced in a release newer than [`WIDELY_DEPLOYED`]: clusters may run a controller that ignores it.
    pub fn is_recent(&self) -> bool {
        version(self.since) > version(WIDELY_DEPLOYED)
    }

    /// Read by the newest release.
    pub fn is_current(&self) -> bool {
        self.removed.is_none()
    }

    /// `v0.9.0 or earlier`, `v1.13.0`: the release that introduced it, in words.
    pub fn since_text(&self) -> alloc::string::String {
        if self.since == OLDEST_RELEASE {
            alloc::format!("v{OLDEST_RELEASE} or earlier")
        } else {
            alloc::format!("v{}", self.since)
        }
    }
}

/// The oldest release of the catalogue's history.
pub const OLDEST_RELEASE: &str = "0.9.0";
/// The release line the `newer-release-annotation` note measures from: keys introduced after
/// it are noted (v1.10.0, March 2024; older lines are long out of support).
pub const WIDELY_DEPLOYED: &str = "1.10.0";

/// `1.10.2` as (1, 10, 2); missing or bad parts count as 0.
fn version(v: &str) -> (u32, u32, u32) {
    let mut parts = v.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
    (parts.next().unwrap_or(0), parts.next().unwrap_or(0), parts.next().unwrap_or(0))
}

/// Every key ingress-nginx has read since v0.9.0, sorted by name (generated from the release tags, see above).
pub const NGINX_ANNOTATIONS: &[NginxAnnotation] = &[
    NginxAnnotation { name: "add-base-url", since: "0.9.0", removed: Some("0.22.0") },
    NginxAnnotation { name: "affinity", since: "0.9.0", removed: None },
    NginxAnnotation { name: "affinity-canary-behavior", since: "0.49.0", removed: None },
    NginxAnnotation { name: "affinity-mode", since: "0.26.0", removed: None },
    NginxAnnotation { name: "allowlist-source-range", since: "1.9.1", removed: None },
    NginxAnnotation { name: "app-root", since: "0.9.0", removed: None },
    NginxAnnotation { name: "auth-always-set-cookie", since: "1.2.1", removed: None },
    NginxAnnotation { name: "auth-cache-duration", since: "0.25.1", removed: None },
    NginxAnnotation { name: "auth-cache-key", since: "0.25.1", removed: None },
    NginxAnnotation { name: "auth-keepalive", since: "1.2.0", removed: None },
    NginxAnnotation { name: "auth-keepalive-requests", since: "1.2.0", removed: None },
    NginxAnnotation { name: "auth-keepalive-share-vars", since: "1.9.1", removed: None },
    NginxAnnotation { name: "auth-keepalive-timeout", since: "1.2.0", removed: None },
    NginxAnnotation { name: "auth-method", since: "0.9.0", removed: None },
    NginxAnnotation { name: "auth-proxy-set-headers", since: "0.26.0", removed: None },
    NginxAnnotation { name: "auth-realm", since: "0.9.0", removed: None },
    NginxAnnotation { name: "auth-request-redirect", since: "0.11.0", removed: None },
    NginxAnnotation { name: "auth-response-headers", since: "0.9.0", removed: None },
    NginxAnnotation { name: "auth-secret", since: "0.9.0", removed: None },
    NginxAnnotation { name: "auth-secret-type", since: "0.26.0", removed: None },
    NginxAnnotation { name: "auth-signin", since: "0.9.0", removed: None },
    NginxAnnotation { name: "auth-signin-redirect-param", since: "0.42.0", removed: None },
    NginxAnnotation { name: "auth-snippet", since: "0.21.0", removed: None },
    NginxAnnotation { name: "auth-tls-error-page", since: "0.9.0", removed: None },
    NginxAnnotation { name: "auth-tls-match-cn", since: "1.2.0", removed: None },
    NginxAnnotation { name: "auth-tls-pass-certificate-to-upstream", since: "0.9.0", removed: None },
    NginxAnnotation { name: "auth-tls-secret", since: "0.9.0", removed: None },
    NginxAnnotation { name: "auth-tls-verify-client", since: "0.9.0", removed: None },
    NginxAnnotation { name: "auth-tls-verify-depth", since: "0.9.0", removed: None },
    NginxAnnotation { name: "auth-type", since: "0.9.0", removed: None },
    NginxAnnotation { name: "auth-url", since: "0.9.0", removed: None },
    NginxAnnotation { name: "backend-protocol", since: "0.18.0", removed: None },
    NginxAnnotation { name: "base-url-scheme", since: "0.9.0", removed: Some("0.22.0") },
    NginxAnnotation { name: "canary", since: "0.21.0", removed: None },
    NginxAnnotation { name: "canary-by-cookie", since: "0.21.0", removed: None },
    NginxAnnotation { name: "canary-by-header", since: "0.21.0", removed: None },
    NginxAnnotation { name: "canary-by-header-pattern", since: "0.31.0", removed: None },
    NginxAnnotation { name: "canary-by-header-value", since: "0.23.0", removed: None },
    NginxAnnotation { name: "canary-weight", since: "0.21.0", removed: None },
    NginxAnnotation { name: "canary-weight-total", since: "1.1.1", removed: None },
    NginxAnnotation { name: "client-body-buffer-size", since: "0.9.0", removed: None },
    NginxAnnotation { name: "configuration-snippet", since: "0.9.0", removed: None },
    NginxAnnotation { name: "connection-proxy-header", since: "0.11.0", removed: None },
    NginxAnnotation { name: "cors-allow-credentials", since: "0.9.0", removed: None },
    NginxAnnotation { name: "cors-allow-headers", since: "0.9.0", removed: None },
    NginxAnnotation { name: "cors-allow-methods", since: "0.9.0", removed: None },
    NginxAnnotation { name: "cors-allow-origin", since: "0.9.0", removed: None },
    NginxAnnotation { name: "cors-expose-headers", since: "0.40.0", removed: None },
    NginxAnnotation { name: "cors-max-age", since: "0.10.0", removed: None },
    NginxAnnotation { name: "custom-headers", since: "1.10.1", removed: None },
    NginxAnnotation { name: "custom-http-errors", since: "0.21.0", removed: None },
    NginxAnnotation { name: "default-backend", since: "0.9.0", removed: None },
    NginxAnnotation { name: "denylist-source-range", since: "1.6.4", removed: None },
    NginxAnnotation { name: "disable-proxy-intercept-errors", since: "1.9.5", removed: None },
    NginxAnnotation { name: "enable-access-log", since: "0.12.0", removed: None },
    NginxAnnotation { name: "enable-cors", since: "0.9.0", removed: None },
    NginxAnnotation { name: "enable-global-auth", since: "0.25.0", removed: None },
    NginxAnnotation { name: "enable-influxdb", since: "0.16.0", removed: Some("1.7.1") },
    NginxAnnotation { name: "enable-modsecurity", since: "0.21.0", removed: None },
    NginxAnnotation { name: "enable-opentelemetry", since: "1.7.0", removed: None },
    NginxAnnotation { name: "enable-opentracing", since: "0.26.2", removed: Some("1.10.2") },
    NginxAnnotation { name: "enable-owasp-core-rules", since: "0.21.0", removed: None },
    NginxAnnotation { name: "enable-rewrite-log", since: "0.14.0", removed: None },
    NginxAnnotation { name: "fastcgi-index", since: "0.25.1", removed: None },
    NginxAnnotation { name: "fastcgi-params-configmap", since: "0.25.1", removed: None },
    NginxAnnotation { name: "force-ssl-redirect", since: "0.9.0", removed: None },
    NginxAnnotation { name: "from-to-www-redirect", since: "0.9.0", removed: None },
    NginxAnnotation { name: "global-rate-limit", since: "0.44.0", removed: Some("1.12.0") },
    NginxAnnotation { name: "global-rate-limit-ignored-cidrs", since: "0.44.0", removed: Some("1.12.0") },
    NginxAnnotation { name: "global-rate-limit-key", since: "0.44.0", removed: Some("1.12.0") },
    NginxAnnotation { name: "global-rate-limit-window", since: "0.44.0", removed: Some("1.12.0") },
    NginxAnnotation { name: "grpc-backend", since: "0.13.0", removed: Some("0.21.0") },
    NginxAnnotation { name: "http2-push-preload", since: "0.22.0", removed: None },
    NginxAnnotation { name: "influxdb-host", since: "0.16.0", removed: Some("1.7.1") },
    NginxAnnotation { name: "influxdb-measurement", since: "0.16.0", removed: Some("1.7.1") },
    NginxAnnotation { name: "influxdb-port", since: "0.16.0", removed: Some("1.7.1") },
    NginxAnnotation { name: "influxdb-server-name", since: "0.16.0", removed: Some("1.7.1") },
    NginxAnnotation { name: "limit-allowlist", since: "1.9.1", removed: None },
    NginxAnnotation { name: "limit-burst-multiplier", since: "0.40.0", removed: None },
    NginxAnnotation { name: "limit-connections", since: "0.9.0", removed: None },
    NginxAnnotation { name: "limit-rate", since: "0.9.0", removed: None },
    NginxAnnotation { name: "limit-rate-after", since: "0.9.0", removed: None },
    NginxAnnotation { name: "limit-rpm", since: "0.9.0", removed: None },
    NginxAnnotation { name: "limit-rps", since: "0.9.0", removed: None },
    NginxAnnotation { name: "limit-whitelist", since: "0.9.0", removed: None },
    NginxAnnotation { name: "load-balance", since: "0.12.0", removed: None },
    NginxAnnotation { name: "lua-resty-waf", since: "0.13.0", removed: Some("0.26.2") },
    NginxAnnotation { name: "lua-resty-waf-allow-unknown-content-types", since: "0.21.0", removed: Some("0.26.2") },
    NginxAnnotation { name: "lua-resty-waf-debug", since: "0.13.0", removed: Some("0.26.2") },
    NginxAnnotation { name: "lua-resty-waf-extra-rules", since: "0.13.0", removed: Some("0.26.2") },
    NginxAnnotation { name: "lua-resty-waf-ignore-rulesets", since: "0.13.0", removed: Some("0.26.2") },
    NginxAnnotation { name: "lua-resty-waf-process-multipart-body", since: "0.21.0", removed: Some("0.26.2") },
    NginxAnnotation { name: "lua-resty-waf-score-threshold", since: "0.21.0", removed: Some("0.26.2") },
    NginxAnnotation { name: "mirror-host", since: "1.2.1", removed: None },
    NginxAnnotation { name: "mirror-request-body", since: "0.25.1", removed: None },
    NginxAnnotation { name: "mirror-target", since: "0.29.0", removed: None },
    NginxAnnotation { name: "mirror-uri", since: "0.25.1", removed: Some("0.29.0") },
    NginxAnnotation { name: "modsecurity-snippet", since: "0.21.0", removed: None },
    NginxAnnotation { name: "modsecurity-transaction-id", since: "0.21.0", removed: None },
    NginxAnnotation { name: "opentelemetry-operation-name", since: "1.7.0", removed: None },
    NginxAnnotation { name: "opentelemetry-trust-incoming-span", since: "1.7.0", removed: None },
    NginxAnnotation { name: "opentracing-trust-incoming-span", since: "1.0.5", removed: Some("1.10.2") },
    NginxAnnotation { name: "permanent-redirect", since: "0.9.0", removed: None },
    NginxAnnotation { name: "permanent-redirect-code", since: "0.18.0", removed: None },
    NginxAnnotation { name: "preserve-trailing-slash", since: "0.47.0", removed: None },
    NginxAnnotation { name: "proxy-body-size", since: "0.9.0", removed: None },
    NginxAnnotation { name: "proxy-buffer-size", since: "0.9.0", removed: None },
    NginxAnnotation { name: "proxy-buffering", since: "0.11.0", removed: None },
    NginxAnnotation { name: "proxy-buffers-number", since: "0.23.0", removed: None },
    NginxAnnotation { name: "proxy-busy-buffers-size", since: "1.13.0", removed: None },
    NginxAnnotation { name: "proxy-connect-timeout", since: "0.9.0", removed: None },
    NginxAnnotation { name: "proxy-cookie-domain", since: "0.9.0", removed: None },
    NginxAnnotation { name: "proxy-cookie-path", since: "0.9.0", removed: None },
    NginxAnnotation { name: "proxy-http-version", since: "0.25.1", removed: None },
    NginxAnnotation { name: "proxy-max-temp-file-size", since: "0.26.0", removed: None },
    NginxAnnotation { name: "proxy-next-upstream", since: "0.9.0", removed: None },
    NginxAnnotation { name: "proxy-next-upstream-timeout", since: "0.25.0", removed: None },
    NginxAnnotation { name: "proxy-next-upstream-tries", since: "0.13.0", removed: None },
    NginxAnnotation { name: "proxy-pass-params", since: "0.9.0", removed: Some("0.12.0") },
    NginxAnnotation { name: "proxy-read-timeout", since: "0.9.0", removed: None },
    NginxAnnotation { name: "proxy-redirect-from", since: "0.9.0", removed: None },
    NginxAnnotation { name: "proxy-redirect-to", since: "0.9.0", removed: None },
    NginxAnnotation { name: "proxy-request-buffering", since: "0.9.0", removed: None },
    NginxAnnotation { name: "proxy-send-timeout", since: "0.9.0", removed: None },
    NginxAnnotation { name: "proxy-ssl-ciphers", since: "0.26.0", removed: None },
    NginxAnnotation { name: "proxy-ssl-name", since: "0.31.0", removed: None },
    NginxAnnotation { name: "proxy-ssl-protocols", since: "0.26.0", removed: None },
    NginxAnnotation { name: "proxy-ssl-secret", since: "0.26.0", removed: None },
    NginxAnnotation { name: "proxy-ssl-server-name", since: "0.34.0", removed: None },
    NginxAnnotation { name: "proxy-ssl-verify", since: "0.26.0", removed: None },
    NginxAnnotation { name: "proxy-ssl-verify-depth", since: "0.26.0", removed: None },
    NginxAnnotation { name: "relative-redirects", since: "1.13.0", removed: None },
    NginxAnnotation { name: "rewrite-target", since: "0.9.0", removed: None },
    NginxAnnotation { name: "satisfy", since: "0.23.0", removed: None },
    NginxAnnotation { name: "secure-backends", since: "0.9.0", removed: Some("0.21.0") },
    NginxAnnotation { name: "secure-verify-ca-secret", since: "0.9.0", removed: Some("1.7.1") },
    NginxAnnotation { name: "server-alias", since: "0.9.0", removed: None },
    NginxAnnotation { name: "server-snippet", since: "0.9.0", removed: None },
    NginxAnnotation { name: "service-upstream", since: "0.9.0", removed: None },
    NginxAnnotation { name: "session-cookie-change-on-failure", since: "0.25.0", removed: None },
    NginxAnnotation { name: "session-cookie-conditional-samesite-none", since: "0.29.0", removed: None },
    NginxAnnotation { name: "session-cookie-domain", since: "1.4.0", removed: None },
    NginxAnnotation { name: "session-cookie-expires", since: "0.21.0", removed: None },
    NginxAnnotation { name: "session-cookie-hash", since: "0.9.0", removed: Some("0.24.0") },
    NginxAnnotation { name: "session-cookie-max-age", since: "0.21.0", removed: None },
    NginxAnnotation { name: "session-cookie-name", since: "0.9.0", removed: None },
    NginxAnnotation { name: "session-cookie-path", since: "0.21.0", removed: None },
    NginxAnnotation { name: "session-cookie-samesite", since: "0.29.0", removed: None },
    NginxAnnotation { name: "session-cookie-secure", since: "1.0.1", removed: None },
    NginxAnnotation { name: "ssl-ciphers", since: "0.11.0", removed: None },
    NginxAnnotation { name: "ssl-passthrough", since: "0.9.0", removed: None },
    NginxAnnotation { name: "ssl-prefer-server-ciphers", since: "0.33.0", removed: None },
    NginxAnnotation { name: "ssl-redirect", since: "0.9.0", removed: None },
    NginxAnnotation { name: "stream-snippet", since: "1.1.1", removed: None },
    NginxAnnotation { name: "temporal-redirect", since: "0.9.0", removed: None },
    NginxAnnotation { name: "temporal-redirect-code", since: "1.12.0", removed: None },
    NginxAnnotation { name: "upstream-fail-timeout", since: "0.9.0", removed: Some("0.21.0") },
    NginxAnnotation { name: "upstream-hash-by", since: "0.9.0", removed: None },
    NginxAnnotation { name: "upstream-hash-by-subset", since: "0.22.0", removed: None },
    NginxAnnotation { name: "upstream-hash-by-subset-size", since: "0.22.0", removed: None },
    NginxAnnotation { name: "upstream-max-fails", since: "0.9.0", removed: Some("0.21.0") },
    NginxAnnotation { name: "upstream-vhost", since: "0.9.0", removed: None },
    NginxAnnotation { name: "use-port-in-redirects", since: "0.9.0", removed: None },
    NginxAnnotation { name: "use-regex", since: "0.20.0", removed: None },
    NginxAnnotation { name: "vts-filter-key", since: "0.9.0", removed: Some("0.16.0") },
    NginxAnnotation { name: "whitelist-source-range", since: "0.9.0", removed: None },
    NginxAnnotation { name: "x-forwarded-prefix", since: "0.10.0", removed: None },
];

/// Looks up an annotation name (the part after [`NGINX_PREFIX`]).
pub fn nginx_annotation(name: &str) -> Option<&'static NginxAnnotation> {
    NGINX_ANNOTATIONS.binary_search_by(|a| a.name.cmp(name)).ok().map(|i| &NGINX_ANNOTATIONS[i])
}

/// The current annotation closest to `name` within the spelling threshold, if any. Ties go to
/// keys every supported release knows, then to the first in the list. Removed keys are never suggested.
pub fn closest_nginx_annotation(name: &str) -> Option<&'static NginxAnnotation> {
    let limit = suggestion_threshold(name);
    NGINX_ANNOTATIONS
        .iter()
        .filter(|a| a.is_current())
        .map(|a| (edit_distance(name, a.name), a.is_recent(), a))
        .filter(|&(d, _, _)| d <= limit)
        .min_by_key(|&(d, recent, _)| (d, recent))
        .map(|(_, _, a)| a)
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
    fn catalogue_is_sorted_and_unique() {
        assert!(NGINX_ANNOTATIONS.windows(2).all(|w| w[0].name < w[1].name));
        for a in NGINX_ANNOTATIONS {
            assert_eq!(nginx_annotation(a.name), Some(a));
            assert!(version(a.since) >= version(OLDEST_RELEASE), "{}", a.name);
            assert!(a.removed.is_none_or(|r| version(r) > version(a.since)), "{}", a.name);
        }
    }

    #[test]
    fn release_data() {
        let rewrite = nginx_annotation("rewrite-target").unwrap();
        assert_eq!((rewrite.since, rewrite.removed, rewrite.is_recent()), ("0.9.0", None, false));
        assert_eq!(rewrite.since_text(), "v0.9.0 or earlier");
        let secure = nginx_annotation("secure-backends").unwrap();
        assert_eq!((secure.since, secure.removed), ("0.9.0", Some("0.21.0")));
        assert_eq!(nginx_annotation("use-regex").unwrap().since, "0.20.0");
        assert_eq!(nginx_annotation("global-rate-limit").unwrap().removed, Some("1.12.0"));
        assert!(nginx_annotation("relative-redirects").unwrap().is_recent());
        assert!(!nginx_annotation("session-cookie-max-age").unwrap().is_recent());
        assert_eq!(version("1.10.2"), (1, 10, 2));
    }

    #[test]
    fn suggestions() {
        assert_eq!(closest_nginx_annotation("rewrite-targt").map(|a| a.name), Some("rewrite-target"));
        assert_eq!(closest_nginx_annotation("cors-allowed-origin").map(|a| a.name), Some("cors-allow-origin"));
        assert_eq!(closest_nginx_annotation("totally-made-up"), None);
    }
}
