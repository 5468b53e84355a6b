//! The ingress-nginx annotations that change where a request goes, parsed as the controller's
//! parsers do (`internal/ingress/annotations/{rewrite,redirect,canary,alias,defaultbackend}`).
//!
//! A value the controller would refuse is dropped with an [`Issue`] and the controller's default
//! used instead, as the controller does (it logs "... is invalid, defaulting to ...").

use crate::diagnostics::Code;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::Issue;
use crate::model::Ingress;

/// The prefix of every ingress-nginx annotation (the controller's `--annotations-prefix` default).
pub const PREFIX: &str = "nginx.ingress.kubernetes.io/";

/// What one Ingress's annotations say about routing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Annotations {
    /// `use-regex`.
    pub use_regex: bool,
    /// `rewrite-target` (may hold `$1`..`$9`).
    pub rewrite_target: Option<String>,
    /// `app-root`: `/` redirects (302) there.
    pub app_root: Option<String>,
    /// `temporal-redirect` / `permanent-redirect` (temporal wins when both are set).
    pub redirect: Option<Redirect>,
    /// `ssl-redirect` (default `true`: redirect to https when the host has TLS).
    pub ssl_redirect: bool,
    /// `force-ssl-redirect` (redirect to https even without TLS).
    pub force_ssl_redirect: bool,
    /// `preserve-trailing-slash` (keep the trailing `/` in the https redirect).
    pub preserve_trailing_slash: bool,
    /// `from-to-www-redirect`: `www.<host>` (or `<host>` without `www.`) redirects to the host.
    pub from_to_www: bool,
    /// `server-alias`, split at commas, trimmed, deduplicated and sorted (as the parser does).
    pub aliases: Vec<String>,
    /// `default-backend`: a Service in the Ingress's namespace, used when a path's Service has no endpoints.
    pub default_backend: Option<String>,
    /// `canary: "true"` and its rules.
    pub canary: Option<Canary>,
}

/// A `return <code> <url>` location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Redirect {
    pub code: u16,
    pub url: String,
    /// The annotation that set it.
    pub annotation: &'static str,
}

/// A canary Ingress's traffic rules (`internal/ingress/annotations/canary`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Canary {
    pub header: Option<String>,
    pub header_value: Option<String>,
    pub header_pattern: Option<String>,
    pub cookie: Option<String>,
    pub weight: i64,
    /// As written (default 100); the balancer only uses it when it is above 100 (`balancer.lua`).
    pub weight_total: i64,
}

/// The annotations of `ingress` that the profile reads. `issues` gets one entry per value the
/// controller would drop.
pub fn parse(ingress: &Ingress, issues: &mut Vec<Issue>) -> Annotations {
    let reader = Reader { ingress, issues };
    reader.read()
}

struct Reader<'a> {
    ingress: &'a Ingress,
    issues: &'a mut Vec<Issue>,
}

impl Reader<'_> {
    fn raw(&self, name: &str) -> Option<&str> {
        self.ingress.metadata.annotations.get(&format!("{PREFIX}{name}")).map(String::as_str)
    }

    fn drop_value(&mut self, name: &str, value: &str, why: &str) {
        self.issues.push(Issue::for_ingress(
            Code::NginxIgnoredAnnotation,
            self.ingress,
            format!("metadata.annotations[{PREFIX}{name}]"),
            format!("ingress-nginx ignores {name}: {value:?} ({why})"),
        ));
    }

    /// Go's `strconv.ParseBool`, which the controller uses.
    fn bool(&mut self, name: &str, default: bool) -> bool {
        let Some(value) = self.raw(name) else { return default };
        match value.trim() {
            "1" | "t" | "T" | "TRUE" | "true" | "True" => true,
            "0" | "f" | "F" | "FALSE" | "false" | "False" => false,
            _ => {
                let value = value.to_string();
                self.drop_value(name, &value, &format!("not a boolean; the controller uses {default}"));
                default
            }
        }
    }

    fn int(&mut self, name: &str, default: i64) -> i64 {
        let Some(value) = self.raw(name) else { return default };
        match value.trim().parse::<i64>() {
            Ok(n) => n,
            Err(_) => {
                let value = value.to_string();
                let why = format!(
                    "not an integer from {} to {} (Go's int); the controller uses {default}",
                    i64::MIN,
                    i64::MAX
                );
                self.drop_value(name, &value, &why);
                default
            }
        }
    }

    /// A string annotation checked against the controller's validator for it.
    fn string(&mut self, name: &str, valid: fn(&str) -> bool) -> Option<String> {
        let value = self.raw(name)?.trim().to_string();
        if value.is_empty() {
            return None;
        }
        if !valid(&value) || value.contains(['\r', '\n']) {
            self.drop_value(name, &value, "the controller's validator refuses these characters");
            return None;
        }
        Some(value)
    }

    fn read(mut self) -> Annotations {
        let mut a = Annotations {
            use_regex: self.bool("use-regex", false),
            rewrite_target: self.string("rewrite-target", regex_path_with_capture),
            ssl_redirect: self.bool("ssl-redirect", true),
            force_ssl_redirect: self.bool("force-ssl-redirect", false),
            preserve_trailing_slash: self.bool("preserve-trailing-slash", false),
            from_to_www: self.bool("from-to-www-redirect", false),
            ..Annotations::default()
        };
        a.app_root = self.string("app-root", regex_path_with_capture).filter(|root| {
            // The parser needs a path, not an absolute URL (`url.ParseRequestURI`, then `IsAbs`).
            root.starts_with('/')
        });
        a.redirect = self.redirect();
        if let Some(list) = self.raw("server-alias") {
            let mut aliases: Vec<String> =
                list.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_ascii_lowercase).collect();
            aliases.sort();
            aliases.dedup();
            a.aliases = aliases;
        }
        a.default_backend = self.string("default-backend", basic_chars);
        a.canary = self.canary();
        a
    }

    fn redirect(&mut self) -> Option<Redirect> {
        // `redirect.go`: temporal first, code 300..=307 else 302; then permanent, 300..=308 else 301.
        if let Some(url) = self.string("temporal-redirect", url_chars) {
            let code = self.int("temporal-redirect-code", 302);
            let code = if (300..=307).contains(&code) { code as u16 } else { 302 };
            return http_url(&url).then_some(Redirect { code, url, annotation: "temporal-redirect" });
        }
        let url = self.string("permanent-redirect", url_chars)?;
        let code = self.int("permanent-redirect-code", 301);
        let code = if (300..=308).contains(&code) { code as u16 } else { 301 };
        Some(Redirect { code, url, annotation: "permanent-redirect" })
    }

    fn canary(&mut self) -> Option<Canary> {
        let enabled = self.bool("canary", false);
        let canary = Canary {
            weight: self.int("canary-weight", 0),
            weight_total: self.int("canary-weight-total", 100),
            header: self.string("canary-by-header", basic_chars),
            header_value: self.string("canary-by-header-value", basic_chars),
            header_pattern: self.string("canary-by-header-pattern", is_valid_regex),
            cookie: self.string("canary-by-cookie", basic_chars),
        };
        let configured = canary.weight > 0
            || canary.header.is_some()
            || canary.header_value.is_some()
            || canary.header_pattern.is_some()
            || canary.cookie.is_some();
        if !enabled && configured {
            self.issues.push(Issue::for_ingress(
                Code::NginxIgnoredAnnotation,
                self.ingress,
                format!("metadata.annotations[{PREFIX}canary]"),
                String::from("canary rules are configured but canary is not \"true\": ingress-nginx rejects the canary annotations"),
            ));
        }
        enabled.then_some(canary)
    }
}

/// `alphaNumericChars` of the controller's `parser/validators.go`.
fn alphanumeric(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-._~/:".contains(c)
}

/// `RegexPathWithCapture`: `^/?[alphaNumericChars/$]*$`.
fn regex_path_with_capture(s: &str) -> bool {
    s.chars().all(|c| alphanumeric(c) || c == '$')
}

/// `BasicCharsRegex` (spaces are removed before checking).
fn basic_chars(s: &str) -> bool {
    s.chars().filter(|c| *c != ' ').all(alphanumeric)
}

/// `URLIsValidRegex`: alphanumerics plus `,:?&=`.
fn url_chars(s: &str) -> bool {
    s.chars().all(|c| alphanumeric(c) || ",:?&=".contains(c))
}

/// `IsValidRegex`: alphanumerics plus the regex characters `^$[](){}*+?|&=\`.
fn is_valid_regex(s: &str) -> bool {
    s.chars().all(|c| alphanumeric(c) || "^$[](){}*+?|&=\\".contains(c))
}

/// `isValidURL`: the scheme must start with `http`.
fn http_url(s: &str) -> bool {
    s.split_once("://").is_some_and(|(scheme, _)| scheme.starts_with("http"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ObjectMeta;

    fn ingress(pairs: &[(&str, &str)]) -> Ingress {
        let mut meta = ObjectMeta { name: "web".into(), ..ObjectMeta::default() };
        for (k, v) in pairs {
            meta.annotations.insert(format!("{PREFIX}{k}"), (*v).into());
        }
        Ingress { metadata: meta, ..Ingress::default() }
    }

    #[test]
    fn defaults_and_go_booleans() {
        let mut issues = Vec::new();
        let a = parse(&ingress(&[("use-regex", "True"), ("ssl-redirect", "no")]), &mut issues);
        assert!(a.use_regex);
        assert!(a.ssl_redirect, "an invalid boolean keeps the default");
        assert_eq!(issues.len(), 1);
        assert!(issues[0].message.contains("ssl-redirect"));
    }

    #[test]
    fn redirect_codes() {
        // redirect_test.go: an out-of-range code falls back to the default.
        let mut issues = Vec::new();
        let a =
            parse(&ingress(&[("permanent-redirect", "https://x.io"), ("permanent-redirect-code", "200")]), &mut issues);
        assert_eq!(a.redirect.unwrap().code, 301);
        let a = parse(
            &ingress(&[("permanent-redirect", "https://x.io"), ("temporal-redirect", "https://t.io/a")]),
            &mut issues,
        );
        let r = a.redirect.unwrap();
        assert_eq!((r.code, r.url.as_str()), (302, "https://t.io/a"));
    }

    #[test]
    fn aliases_and_canary() {
        let mut issues = Vec::new();
        let a = parse(&ingress(&[("server-alias", " b.io, A.io,,b.io"), ("canary-weight", "10")]), &mut issues);
        assert_eq!(a.aliases, ["a.io", "b.io"]);
        assert!(a.canary.is_none());
        assert!(issues.iter().any(|i| i.message.contains("not \"true\"")));
        let a = parse(&ingress(&[("canary", "true"), ("canary-by-header", "X-Canary")]), &mut Vec::new());
        assert_eq!(a.canary.unwrap().header.as_deref(), Some("X-Canary"));
    }

    #[test]
    fn rewrite_target_validator() {
        let mut issues = Vec::new();
        assert_eq!(parse(&ingress(&[("rewrite-target", "/$2")]), &mut issues).rewrite_target.as_deref(), Some("/$2"));
        assert_eq!(parse(&ingress(&[("rewrite-target", "/a b")]), &mut issues).rewrite_target, None);
        assert_eq!(issues.len(), 1);
    }
}
