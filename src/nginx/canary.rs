//! Canary Ingresses (`canary: "true"`): the balancer's choice between a location's backend and
//! its first alternative backend (`route_to_alternative_balancer` in `balancer.lua`).
//!
//! In order: the header `canary-by-header` (with `-value`: equal to it; else with `-pattern`: the
//! regex finds a match; else `always` / `never`), then the cookie `canary-by-cookie` (`always` /
//! `never`), then the weight. A header or cookie with any other value falls through to the next
//! rule; so does a header that does not equal `-value` or match `-pattern` (the docs say
//! "ignored"; the code falls through, and a `-pattern` that fails at run time means "primary").
//! The weight is `canary-weight` out of `canary-weight-total`, but the balancer only uses a total
//! above 100 (`weightTotal = 100` otherwise): the code wins over the docs here.
//! Session affinity (`affinity-canary-behavior`) is not modelled.

use alloc::string::String;

use super::annotations;
use super::regex::{self, Compiler, Fuel, Regex};
use crate::model::IngressBackend;

/// An alternative backend with its traffic rules.
#[derive(Clone, Debug)]
pub struct Canary {
    /// Index of the canary Ingress in the router.
    pub ingress: usize,
    pub backend: IngressBackend,
    pub header: Option<String>,
    pub header_value: Option<String>,
    pub header_pattern: Option<Result<Regex, String>>,
    pub cookie: Option<String>,
    pub weight: u32,
    pub weight_total: u32,
    /// The controller deleted this upstream (some path of the canary matched no location): the
    /// balancer finds no alternative and always uses the primary.
    pub deleted: bool,
}

/// Why the canary was or was not chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The header has the value that selects the canary (`always`, `-value`, or a `-pattern` match).
    Header,
    /// The header says `never`, or its `-pattern` is broken.
    HeaderNever,
    Cookie,
    CookieNever,
    /// No header or cookie decided: the weight splits traffic.
    Weight,
    /// The canary's upstream was deleted by the controller.
    Deleted,
}

impl Canary {
    pub fn new(ingress: usize, backend: IngressBackend, rules: &annotations::Canary, regexes: &Compiler) -> Canary {
        let weight_total = if rules.weight_total > 100 { rules.weight_total.min(u32::MAX as i64) as u32 } else { 100 };
        Canary {
            ingress,
            backend,
            header: rules.header.clone(),
            header_value: rules.header_value.clone(),
            header_pattern: rules.header_pattern.as_deref().map(|p| regex::compile(p, false, false, regexes)),
            cookie: rules.cookie.clone(),
            weight: rules.weight.clamp(0, weight_total as i64) as u32,
            weight_total,
            deleted: false,
        }
    }

    /// Decides for one request; `true` in the first field sends it to the canary, `Weight` leaves
    /// it to [`Canary::weight`].
    pub fn decide(&self, headers: &[(&str, &str)], fuel: &Fuel) -> (bool, Verdict) {
        if self.deleted {
            return (false, Verdict::Deleted);
        }
        if let Some(name) = &self.header
            && let Some(value) = header(headers, name)
        {
            if let Some(expected) = self.header_value.as_deref().filter(|v| !v.is_empty()) {
                if value == expected {
                    return (true, Verdict::Header);
                }
            } else if let Some(pattern) = &self.header_pattern {
                match pattern {
                    Ok(r) if r.matches(value.as_bytes(), fuel) => return (true, Verdict::Header),
                    Ok(_) => {}
                    Err(_) => return (false, Verdict::HeaderNever),
                }
            } else if value == "always" {
                return (true, Verdict::Header);
            } else if value == "never" {
                return (false, Verdict::HeaderNever);
            }
        }
        if let Some(name) = &self.cookie
            && let Some(value) = cookie(headers, name)
        {
            if value == "always" {
                return (true, Verdict::Cookie);
            } else if value == "never" {
                return (false, Verdict::CookieNever);
            }
        }
        (false, Verdict::Weight)
    }
}

/// `$http_<name>`: the first header of that name, case-insensitive, `_` in the annotation standing for `-`.
fn header<'h>(headers: &[(&str, &'h str)], name: &str) -> Option<&'h str> {
    let same = |h: &str| {
        h.len() == name.len()
            && h.bytes().zip(name.bytes()).all(|(a, b)| {
                let b = if b == b'_' { b'-' } else { b };
                a.eq_ignore_ascii_case(&b)
            })
    };
    headers.iter().find(|(h, _)| same(h)).map(|(_, v)| *v)
}

/// `$cookie_<name>`: the first cookie of that name (case-insensitive, as nginx compares names).
fn cookie<'h>(headers: &[(&str, &'h str)], name: &str) -> Option<&'h str> {
    headers
        .iter()
        .filter(|(h, _)| h.eq_ignore_ascii_case("cookie"))
        .flat_map(|(_, v)| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(n, _)| n.trim().eq_ignore_ascii_case(name))
        .map(|(_, v)| v.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canary(rules: annotations::Canary) -> Canary {
        Canary::new(0, IngressBackend::default(), &rules, &Compiler::new(&crate::RegexLimits::default()))
    }

    #[test]
    fn header_then_cookie_then_weight() {
        let c = canary(annotations::Canary {
            header: Some("X-Canary".into()),
            cookie: Some("canary".into()),
            weight: 10,
            weight_total: 100,
            ..Default::default()
        });
        assert_eq!(c.decide(&[("x-canary", "always")], &Fuel::new(usize::MAX)), (true, Verdict::Header));
        assert_eq!(
            c.decide(&[("X-Canary", "never"), ("Cookie", "canary=always")], &Fuel::new(usize::MAX)),
            (false, Verdict::HeaderNever)
        );
        assert_eq!(
            c.decide(&[("X-Canary", "maybe"), ("Cookie", "a=b; canary=always")], &Fuel::new(usize::MAX)),
            (true, Verdict::Cookie)
        );
        assert_eq!(c.decide(&[("Cookie", "canary=never")], &Fuel::new(usize::MAX)), (false, Verdict::CookieNever));
        assert_eq!(c.decide(&[], &Fuel::new(usize::MAX)), (false, Verdict::Weight));
    }

    #[test]
    fn value_and_pattern_fall_through() {
        let c = canary(annotations::Canary {
            header: Some("X-Region".into()),
            header_value: Some("eu".into()),
            cookie: Some("c".into()),
            ..Default::default()
        });
        assert!(c.decide(&[("X-Region", "eu")], &Fuel::new(usize::MAX)).0);
        // With a value set, `never` is just another value: it falls through to the cookie.
        assert_eq!(
            c.decide(&[("X-Region", "never"), ("cookie", "c=always")], &Fuel::new(usize::MAX)),
            (true, Verdict::Cookie)
        );
        let c = canary(annotations::Canary {
            header: Some("X-Region".into()),
            header_pattern: Some("^(eu|us)-".into()),
            ..Default::default()
        });
        assert!(c.decide(&[("X-Region", "us-east")], &Fuel::new(usize::MAX)).0);
        assert_eq!(c.decide(&[("X-Region", "ap-south")], &Fuel::new(usize::MAX)), (false, Verdict::Weight));
    }

    #[test]
    fn weight_total_below_100_is_ignored() {
        // balancer.lua: weightTotal = 100 unless the annotation is above 100.
        let c = canary(annotations::Canary { weight: 5, weight_total: 10, ..Default::default() });
        assert_eq!((c.weight, c.weight_total), (5, 100));
        let c = canary(annotations::Canary { weight: 500, weight_total: 1000, ..Default::default() });
        assert_eq!((c.weight, c.weight_total), (500, 1000));
    }
}
