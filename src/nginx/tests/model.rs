//! Property test: the profile's location choice equals a small, obviously correct model of nginx's
//! algorithm (exact `=`; the 301 of `auto_redirect`; the first matching regex in order; the
//! longest prefix), on random location lists and URIs.

use crate::nginx::location::{Choice, Location, Locations, Modifier, Origin, Settings};
use proptest::prelude::*;

fn location(modifier: Modifier, path: &str) -> Location {
    Location {
        path: path.into(),
        modifier,
        regex: None,
        origin: Origin::ServerDefault { ingress: None },
        backend: None,
        upstream: None,
        settings: Settings::default(),
        canary: None,
        fallback_for: None,
    }
}

/// `^path` case-insensitively, where the generated regexes use only literals and `.` (any byte).
fn regex_matches(path: &str, uri: &str) -> bool {
    uri.len() >= path.len() && path.bytes().zip(uri.bytes()).all(|(p, u)| p == b'.' || p.eq_ignore_ascii_case(&u))
}

/// nginx's choice, written the slow and plain way over the list.
fn model(list: &[(Modifier, String)], uri: &str) -> Choice {
    let statics = |name: &str| list.iter().position(|(m, p)| *m != Modifier::Regex && p == name);
    if let Some(i) = list.iter().position(|(m, p)| *m == Modifier::Exact && p == uri) {
        return Choice::Exact(i);
    }
    if statics(uri).is_none()
        && let Some(i) = statics(&format!("{uri}/"))
    {
        return Choice::AutoRedirect(i);
    }
    let mut longest: Option<usize> = None;
    for (i, (m, p)) in list.iter().enumerate() {
        if *m == Modifier::Prefix && uri.starts_with(p.as_str()) && longest.is_none_or(|l| p.len() > list[l].1.len()) {
            longest = Some(i);
        }
    }
    if let Some(index) = list.iter().position(|(m, p)| *m == Modifier::Regex && regex_matches(p, uri)) {
        return Choice::Regex { index, longest_prefix: longest };
    }
    longest.map_or(Choice::None, Choice::Prefix)
}

fn modifier() -> impl Strategy<Value = Modifier> {
    prop_oneof![Just(Modifier::Exact), Just(Modifier::Prefix), Just(Modifier::Regex)]
}

fn path() -> impl Strategy<Value = String> {
    "/[abA/.]{0,5}"
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn location_choice_matches_the_model(
        list in proptest::collection::vec((modifier(), path()), 0..8),
        uri in "/[abAB/.]{0,7}",
    ) {
        let (locations, _) = Locations::new(list.iter().map(|(m, p)| location(*m, p)).collect(), &crate::regex::Compiler::new(&crate::RegexLimits::default()));
        let got = locations.choose(uri.as_bytes(), &crate::regex::Fuel::new(usize::MAX));
        prop_assert_eq!(got, model(&list, &uri), "locations {:?}, uri {:?}", list, uri);
    }
}

/// Hostile input: any host, target, headers and annotation values compile and route without a panic.
mod hostile {
    use crate::input;
    use crate::nginx::{self, Options};
    use crate::request::Request;
    use proptest::prelude::*;

    fn manifest(path: &str, annotation: &str, value: &str) -> String {
        format!(
            "{{\"apiVersion\":\"networking.k8s.io/v1\",\"kind\":\"Ingress\",\"metadata\":{{\"name\":\"h\",\"annotations\":{{\"nginx.ingress.kubernetes.io/{annotation}\":{value:?}}}}},\
             \"spec\":{{\"rules\":[{{\"host\":\"h.example\",\"http\":{{\"paths\":[{{\"path\":{path:?},\"pathType\":\"ImplementationSpecific\",\
             \"backend\":{{\"service\":{{\"name\":\"s\",\"port\":{{\"number\":80}}}}}}}}]}}}}]}}}}"
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        #[test]
        fn anything_routes(
            path in "/[ -~]{0,12}",
            annotation in prop_oneof![Just("use-regex"), Just("rewrite-target"), Just("canary-by-header-pattern"), Just("app-root"), Just("server-alias")],
            value in "[ -~]{0,12}",
            host in proptest::collection::vec(any::<u8>(), 0..40),
            target in proptest::collection::vec(any::<u8>(), 0..60),
            header in "[ -~]{0,10}",
        ) {
            let text = manifest(&path, annotation, &value);
            let Ok(parsed) = input::parse("h.json", &text) else { return Ok(()) };
            let objects = parsed.into_objects();
            let (router, _) = nginx::build(&objects, &Options::default());
            let headers = [("X-Canary", header.as_str()), ("Cookie", header.as_str())];
            let req = Request::from_bytes(&host, &target).with_headers(&headers);
            let d = router.route(&req);
            let _ = (d.answer.to_string(), d.rule(), d.steps());
            let req = Request::new("h.example", "/").with_headers(&headers);
            let _ = router.route(&req).rule();
        }
    }
}
