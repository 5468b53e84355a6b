//! The ingress-nginx profile against cases from ingress-nginx's own documentation and e2e tests
//! (the source of each is named: file and test name in the kubernetes/ingress-nginx repository).

use crate::input;
use crate::nginx::{self, Answer, Options};
use crate::request::{Request, Scheme};

/// An Ingress as the e2e framework's `NewSingleIngress` builds it (pathType Prefix).
fn ingress(name: &str, host: &str, paths: &[(&str, &str, &str)], annotations: &[(&str, &str)]) -> String {
    let annotations: Vec<String> =
        annotations.iter().map(|(k, v)| format!("    nginx.ingress.kubernetes.io/{k}: {v:?}\n")).collect();
    let paths: Vec<String> = paths
        .iter()
        .map(|(path, path_type, service)| {
            format!(
                "      - path: {path:?}\n        pathType: {path_type}\n        backend: {{service: {{name: {service}, port: {{number: 80}}}}}}\n"
            )
        })
        .collect();
    let host = if host.is_empty() { String::new() } else { format!("host: {host:?}") };
    format!(
        "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: {name}\n  namespace: default\n  annotations:\n{}    x: y\nspec:\n  rules:\n  - {host}\n    http:\n      paths:\n{}---\n",
        annotations.concat(),
        paths.concat()
    )
}

/// Ingresses in creation order (the e2e tests create them one after the other).
fn router(docs: &[String]) -> nginx::Conf {
    let stamped: Vec<String> = docs
        .iter()
        .enumerate()
        .map(|(i, d)| {
            d.replacen(
                "  namespace: default\n",
                &format!("  namespace: default\n  creationTimestamp: \"2024-01-01T00:00:{i:02}Z\"\n"),
                1,
            )
        })
        .collect();
    let objects = input::parse("test.yaml", &stamped.concat()).unwrap().into_objects();
    let (router, issues) = nginx::build(&objects, &Options::default());
    for i in &issues {
        eprintln!("issue: {i}");
    }
    router
}

fn get(router: &nginx::Conf, host: &str, path: &str) -> String {
    router.route(&Request::new(host, path)).answer.to_string()
}

fn location(router: &nginx::Conf, host: &str, path: &str) -> String {
    router.route(&Request::new(host, path)).location.map(|l| l.nginx_syntax()).unwrap_or_default()
}

// --- paths and locations ---

/// test/e2e/ingress/pathtype_prefix.go: "should return 404 when prefix /aaa does not match request /aaaccc".
#[test]
fn prefix_is_element_wise() {
    let r = router(&[ingress("exact", "prefix.path", &[("/aaa", "Prefix", "echo")], &[])]);
    assert_eq!(get(&r, "prefix.path", "/aaa"), "echo:80");
    assert_eq!(get(&r, "prefix.path", "/aaacccc"), "404");
    assert_eq!(get(&r, "prefix.path", "/aaa/cccc"), "echo:80");
    assert_eq!(get(&r, "prefix.path", "/aaa/"), "echo:80");
    assert_eq!(location(&r, "prefix.path", "/aaa"), "= /aaa");
    assert_eq!(location(&r, "prefix.path", "/aaa/x"), "/aaa/");
}

/// test/e2e/ingress/pathtype_exact.go: "should choose exact location for /exact" (with the
/// duplicated Prefix of a third Ingress ignored).
#[test]
fn exact_and_prefix_on_the_same_path() {
    let r = router(&[
        ingress("exact", "exact.path", &[("/exact", "Exact", "exact")], &[]),
        ingress("exact-suffix", "exact.path", &[("/exact", "Prefix", "prefix")], &[]),
        ingress("duplicated-prefix", "exact.path", &[("/exact", "Prefix", "duplicated")], &[]),
    ]);
    assert_eq!(get(&r, "exact.path", "/exact"), "exact:80");
    assert_eq!(get(&r, "exact.path", "/exact/suffix"), "prefix:80");
    // The third Ingress's Prefix is added too (the loop in `getBackendServers` stops at the Exact
    // one), and both Prefix halves become `location /exact/`: nginx refuses the duplicate, which
    // is reported, and the older one stays.
    let server = &r.servers.iter().find(|s| s.hostname == "exact.path").unwrap().locations.list;
    let written: Vec<String> = server.iter().map(|l| l.nginx_syntax()).collect();
    assert_eq!(written, ["= /exact", "/exact/", "/exact/", "/"], "the Prefix adds no second `= /exact`");
}

/// test/e2e/ingress/pathtype_mixed.go: "should choose the correct location".
#[test]
fn mixed_exact_and_prefix() {
    let r = router(&[
        ingress("exact-root", "mixed.path", &[("/", "Exact", "exact-root")], &[]),
        ingress("prefix-root", "mixed.path", &[("/", "Prefix", "prefix-root")], &[]),
        ingress("exact-foo", "mixed.path", &[("/foo", "Exact", "exact-foo")], &[]),
        ingress("prefix-foo", "mixed.path", &[("/foo", "Prefix", "prefix-foo")], &[]),
    ]);
    assert_eq!(get(&r, "mixed.path", "/"), "exact-root:80");
    assert_eq!(get(&r, "mixed.path", "/bar"), "prefix-root:80");
    assert_eq!(get(&r, "mixed.path", "/foo"), "exact-foo:80");
    assert_eq!(get(&r, "mixed.path", "/foo/bar"), "prefix-foo:80");
    assert_eq!(get(&r, "mixed.path", "/foobar"), "prefix-root:80");
}

/// internal/k8s/main.go `SetDefaultNGINXPathType`: ImplementationSpecific is Prefix (the code;
/// older docs call it controller-specific string prefix matching).
#[test]
fn implementation_specific_is_prefix() {
    let r = router(&[ingress("is", "is.example", &[("/foo", "ImplementationSpecific", "foo")], &[])]);
    assert_eq!(get(&r, "is.example", "/foo/x"), "foo:80");
    assert_eq!(get(&r, "is.example", "/foobar"), "404");
}

/// nginx `auto_redirect` (ngx_http_core_find_static_location): `Prefix /foo/` is `location /foo/`
/// and `location = /foo/`; `/foo` gets a 301 to `/foo/` with its query.
#[test]
fn trailing_slash_prefix_redirects() {
    let r = router(&[ingress("slash", "s.example", &[("/foo/", "Prefix", "foo")], &[])]);
    assert_eq!(get(&r, "s.example", "/foo?a=1"), "redirect 301 http://s.example/foo/?a=1");
    assert_eq!(get(&r, "s.example", "/foo/"), "foo:80");
}

/// nginx matches the decoded, normalised URI.
#[test]
fn normalised_uri() {
    let r = router(&[ingress("n", "n.example", &[("/admin", "Prefix", "admin"), ("/", "Prefix", "root")], &[])]);
    assert_eq!(get(&r, "n.example", "/public/../admin/x"), "admin:80");
    assert_eq!(get(&r, "n.example", "//admin"), "admin:80");
    assert_eq!(get(&r, "n.example", "/%61dmin"), "admin:80");
    assert_eq!(get(&r, "n.example", "/../x"), "400");
}

// --- regex and rewrite ---

/// docs/user-guide/ingress-path-matching.md, "Path Priority" example.
#[test]
fn docs_path_priority() {
    let r = router(&[
        ingress(
            "test-ingress-1",
            "test.com",
            &[("/foo/bar", "Prefix", "service1"), ("/foo/bar/", "Prefix", "service2")],
            &[],
        ),
        ingress(
            "test-ingress-2",
            "test.com",
            &[("/foo/bar/(.+)", "ImplementationSpecific", "service3")],
            &[("rewrite-target", "/$1")],
        ),
    ]);
    assert_eq!(get(&r, "test.com", "/foo/bar/1"), "service3:80");
    assert_eq!(get(&r, "test.com", "/foo/bar/"), "service2:80");
    assert_eq!(get(&r, "test.com", "/foo/bar"), "service1:80");
    let d = r.route(&Request::new("test.com", "/foo/bar/1"));
    assert_eq!(d.upstream_path.as_deref(), Some("/1"));
    assert!(d.rule().contains("regex location ~* ^/foo/bar/(.+)"), "{}", d.rule());
}

/// docs/user-guide/ingress-path-matching.md, "Warning": the first regex wins, not the longest.
#[test]
fn docs_first_regex_wins() {
    let r = router(&[ingress(
        "test-ingress-3",
        "test.com",
        &[("/foo/bar/bar", "Prefix", "exact"), ("/foo/bar/[A-Z0-9]{3}", "ImplementationSpecific", "regex")],
        &[("use-regex", "true")],
    )]);
    assert_eq!(get(&r, "test.com", "/foo/bar/bar"), "regex:80");
    assert_eq!(location(&r, "test.com", "/foo/bar/bar"), "~* ^/foo/bar/[A-Z0-9]{3}");
}

/// test/e2e/annotations/rewrite.go: "should use ~* location modifier if regex annotation is present".
#[test]
fn regex_spreads_to_the_host() {
    let r = router(&[
        ingress("foo", "rewrite.bar.com", &[("/foo", "Prefix", "foo")], &[]),
        ingress(
            "regex",
            "rewrite.bar.com",
            &[("/foo.+", "Prefix", "regex")],
            &[("use-regex", "true"), ("rewrite-target", "/new/backend")],
        ),
    ]);
    let d = r.route(&Request::new("rewrite.bar.com", "/foo"));
    assert_eq!((d.answer.to_string(), d.upstream_path), ("foo:80".into(), None));
    let d = r.route(&Request::new("rewrite.bar.com", "/foo/bar"));
    assert_eq!((d.answer.to_string(), d.upstream_path.as_deref()), ("regex:80".into(), Some("/new/backend")));
    // Case-insensitive once the host is regex: `/FOO` now matches `~* ^/foo`.
    assert_eq!(get(&r, "rewrite.bar.com", "/FOO"), "foo:80");
}

/// test/e2e/annotations/rewrite.go: "should use correct longest path match" (rewrite on `/`).
#[test]
fn rewrite_on_root_keeps_longer_locations() {
    let r = router(&[
        ingress("kube-lego", "rewrite.bar.com", &[("/.well-known/acme/challenge", "Prefix", "lego")], &[]),
        ingress("rewrite-index", "rewrite.bar.com", &[("/", "Prefix", "index")], &[("rewrite-target", "/new/backend")]),
    ]);
    let d = r.route(&Request::new("rewrite.bar.com", "/.well-known/acme/challenge"));
    assert_eq!((d.answer.to_string(), d.upstream_path), ("lego:80".into(), None));
    let d = r.route(&Request::new("rewrite.bar.com", "/other"));
    assert_eq!(d.upstream_path.as_deref(), Some("/new/backend"));
}

/// test/e2e/annotations/rewrite.go: "should allow for custom rewrite parameters".
#[test]
fn rewrite_captures() {
    let r = router(&[ingress(
        "regex",
        "rewrite.bar.com",
        &[("/foo/bar/(.+)", "Prefix", "echo")],
        &[("use-regex", "true"), ("rewrite-target", "/new/backend/$1")],
    )]);
    let d = r.route(&Request::new("rewrite.bar.com", "/foo/bar/bar?q=1"));
    assert_eq!(d.upstream_path.as_deref(), Some("/new/backend/bar?q=1"));
}

/// test/e2e/ingress/pathtype_prefix.go: the `/id/{int}` regex tests.
#[test]
fn regex_paths_from_e2e() {
    let r = router(&[
        ingress("a", "echo.com.br", &[("/id/[0-9]+", "Prefix", "echo")], &[("use-regex", "true")]),
        ingress("b", "echo.regex.br", &[("/id/[0-9]+$", "Prefix", "echo")], &[("use-regex", "true")]),
        ingress("c", "echo.regex.size.br", &[("/id/[0-9]{3}$", "Prefix", "echo")], &[("use-regex", "true")]),
        ingress(
            "d",
            "echo.multi.segment.br",
            &[("/id/[0-9]+/post/[a-zA-Z]+$", "Prefix", "echo")],
            &[("use-regex", "true")],
        ),
    ]);
    for (host, path, want) in [
        ("echo.com.br", "/id/1", "echo:80"),
        ("echo.com.br", "/id/123", "echo:80"),
        ("echo.com.br", "/id/aaa", "404"),
        ("echo.com.br", "/id/123a", "echo:80"),
        ("echo.regex.br", "/id/1", "echo:80"),
        ("echo.regex.br", "/id/aaa", "404"),
        ("echo.regex.br", "/id/123a", "404"),
        ("echo.regex.size.br", "/id/99", "404"),
        ("echo.regex.size.br", "/id/123", "echo:80"),
        ("echo.regex.size.br", "/id/9999", "404"),
        ("echo.multi.segment.br", "/id/123/post/abc", "echo:80"),
        ("echo.multi.segment.br", "/id/123/post/abc123", "404"),
        ("echo.multi.segment.br", "/id/abc/post/abc", "404"),
    ] {
        assert_eq!(get(&r, host, path), want, "{host}{path}");
    }
}

/// Exact paths are no longer exact on a regex host (`buildLocation` ignores the type).
#[test]
fn exact_becomes_a_regex_prefix() {
    let r = router(&[
        ingress("e", "x.example", &[("/login", "Exact", "login")], &[]),
        ingress("r", "x.example", &[("/api/.*", "ImplementationSpecific", "api")], &[("use-regex", "true")]),
    ]);
    assert_eq!(get(&r, "x.example", "/login/extra"), "login:80");
}

/// An invalid regex is reported with the Ingress and field; the other paths still route.
#[test]
fn invalid_regex_is_an_issue() {
    let docs = [ingress(
        "bad",
        "x.example",
        &[("/a(", "ImplementationSpecific", "a"), ("/b", "Prefix", "b")],
        &[("use-regex", "true")],
    )];
    let objects = input::parse("t.yaml", &docs.concat()).unwrap().into_objects();
    let (r, issues) = nginx::build(&objects, &Options::default());
    assert!(
        issues
            .iter()
            .any(|i| i.ingress.as_deref() == Some("default/bad") && i.field == "spec.rules[0].http.paths[0].path")
    );
    assert_eq!(get(&r, "x.example", "/b"), "b:80");
}

// --- redirects ---

/// test/e2e/annotations/approot.go: "should redirect to /foo".
#[test]
fn app_root() {
    let r = router(&[ingress("approot", "approot.bar.com", &[("/", "Prefix", "echo")], &[("app-root", "/foo")])]);
    assert_eq!(get(&r, "approot.bar.com", "/"), "redirect 302 http://approot.bar.com/foo");
    assert_eq!(get(&r, "approot.bar.com", "/x"), "echo:80");
}

/// test/e2e/annotations/redirect.go: "should respond with a standard / custom redirect code".
#[test]
fn permanent_redirect() {
    let r = router(&[
        ingress(
            "r1",
            "redirect",
            &[("/something", "Prefix", "echo")],
            &[("permanent-redirect", "http://redirect-target.com")],
        ),
        ingress(
            "r2",
            "redirect2",
            &[("/something", "Prefix", "echo")],
            &[("permanent-redirect", "http://t.com"), ("permanent-redirect-code", "308")],
        ),
    ]);
    assert_eq!(get(&r, "redirect", "/something"), "redirect 301 http://redirect-target.com");
    assert_eq!(get(&r, "redirect2", "/something"), "redirect 308 http://t.com");
}

/// test/e2e/annotations/forcesslredirect.go and test/e2e/ssl/http_redirect.go: 308 to https,
/// without the trailing slash.
#[test]
fn ssl_redirects() {
    let r = router(&[ingress(
        "f",
        "forcesslredirect.bar.com",
        &[("/", "Prefix", "echo")],
        &[("force-ssl-redirect", "true")],
    )]);
    assert_eq!(get(&r, "forcesslredirect.bar.com", "/"), "redirect 308 https://forcesslredirect.bar.com");
    assert_eq!(
        r.route(&Request::new("forcesslredirect.bar.com", "/").with_scheme(Scheme::Https)).answer.to_string(),
        "echo:80"
    );
    let tls = ingress("tls", "redirect.com", &[("/", "Prefix", "echo")], &[])
        .replace("spec:\n", "spec:\n  tls:\n  - hosts: [redirect.com]\n");
    let r = router(&[tls]);
    assert_eq!(get(&r, "redirect.com", "/a/?x"), "redirect 308 https://redirect.com/a/?x");
    assert_eq!(get(&r, "redirect.com", "/a/"), "redirect 308 https://redirect.com/a");
}

// --- servers ---

/// test/e2e/annotations/alias.go: the alias tests.
#[test]
fn server_alias() {
    let r = router(&[ingress("foo", "foo", &[("/", "Prefix", "echo")], &[])]);
    assert_eq!(get(&r, "foo", "/"), "echo:80");
    assert_eq!(get(&r, "bar", "/"), "404");
    let r = router(&[
        ingress("app-a", "foo", &[("/app-a", "Prefix", "a")], &[]),
        ingress("app-b", "foo", &[("/app-b", "Prefix", "b")], &[("server-alias", "bar")]),
    ]);
    assert_eq!(get(&r, "bar", "/app-a"), "a:80");
}

/// template.go `buildServerName`: `*.foo.com` is `~^(?<subdomain>[\w-]+)\.foo\.com$`, tried after exact names.
#[test]
fn wildcard_server_names() {
    let r = router(&[
        ingress("w", "*.foo.com", &[("/", "Prefix", "wild")], &[]),
        ingress("e", "www.foo.com", &[("/", "Prefix", "www")], &[]),
        ingress("any", "", &[("/", "Prefix", "catch-all")], &[]),
    ]);
    assert_eq!(get(&r, "www.foo.com", "/"), "www:80");
    assert_eq!(get(&r, "A_b-1.FOO.com:8080", "/"), "wild:80");
    assert_eq!(get(&r, "a.b.foo.com", "/"), "catch-all:80");
    assert_eq!(get(&r, "foo.com", "/"), "catch-all:80");
    let wild = r.servers.iter().find(|s| s.hostname == "*.foo.com").unwrap();
    assert_eq!(wild.server_name(), r"~^(?<subdomain>[\w-]+)\.foo\.com$");
}

// --- canaries ---

fn canary_pair(annotations: &[(&str, &str)]) -> nginx::Conf {
    let mut all = vec![("canary", "true")];
    all.extend_from_slice(annotations);
    router(&[
        ingress("foo", "foo", &[("/info", "Prefix", "httpbun")], &[]),
        ingress("foo-canary", "foo", &[("/info", "Prefix", "canary")], &all),
    ])
}

fn get_with(router: &nginx::Conf, headers: &[(&str, &str)]) -> String {
    router.route(&Request::new("foo", "/info").with_headers(headers)).answer.to_string()
}

/// test/e2e/annotations/canary.go, "when canaried by header with no value".
#[test]
fn canary_by_header() {
    let r = canary_pair(&[("canary-by-header", "CanaryByHeader")]);
    assert_eq!(get_with(&r, &[("CanaryByHeader", "always")]), "canary:80");
    assert_eq!(get_with(&r, &[("CanaryByHeader", "never")]), "httpbun:80");
    assert_eq!(get_with(&r, &[("CanaryByHeader", "badheadervalue")]), "httpbun:80");
}

/// test/e2e/annotations/canary.go, "when canaried by header with value" and "... with value and cookie".
#[test]
fn canary_by_header_value_and_cookie() {
    let r = canary_pair(&[("canary-by-header", "CanaryByHeader"), ("canary-by-header-value", "DoCanary")]);
    assert_eq!(get_with(&r, &[("CanaryByHeader", "DoCanary")]), "canary:80");
    assert_eq!(get_with(&r, &[("CanaryByHeader", "always")]), "httpbun:80");
    let r = canary_pair(&[
        ("canary-by-header", "CanaryByHeader"),
        ("canary-by-header-value", "DoCanary"),
        ("canary-by-cookie", "CanaryByCookie"),
    ]);
    assert_eq!(
        get_with(&r, &[("CanaryByHeader", "otherheadervalue"), ("Cookie", "CanaryByCookie=always")]),
        "canary:80"
    );
}

/// test/e2e/annotations/canary.go, "when canaried by header with pattern" and "should routes to
/// mainline upstream when the given Regex causes error".
#[test]
fn canary_by_header_pattern() {
    let r = canary_pair(&[("canary-by-header", "CanaryByHeader"), ("canary-by-header-pattern", "^Do[A-Z][a-z]+y$")]);
    assert_eq!(get_with(&r, &[("CanaryByHeader", "DoCanary")]), "canary:80");
    assert_eq!(get_with(&r, &[("CanaryByHeader", "DontCanary")]), "httpbun:80");
    let r = canary_pair(&[
        ("canary-by-header", "CanaryByHeader"),
        ("canary-by-header-pattern", "[][**da?$&*"),
        ("canary-by-cookie", "CanaryByCookie"),
    ]);
    assert_eq!(get_with(&r, &[("CanaryByHeader", "DoCanary"), ("Cookie", "CanaryByCookie=always")]), "httpbun:80");
}

/// test/e2e/annotations/canary.go, "when canaried by cookie": "respects always and never values".
#[test]
fn canary_by_cookie() {
    let r = canary_pair(&[("canary-by-cookie", "Canary-By-Cookie")]);
    assert_eq!(get_with(&r, &[("Cookie", "Canary-By-Cookie=always")]), "canary:80");
    assert_eq!(get_with(&r, &[("Cookie", "Canary-By-Cookie=never")]), "httpbun:80");
    assert_eq!(get_with(&r, &[("Cookie", "Canary-By-Cookie=badcookievalue")]), "httpbun:80");
}

/// test/e2e/annotations/canary.go, "when canaried by weight": 0, 100, equal to the total, 50,
/// 100 out of 200.
#[test]
fn canary_by_weight() {
    assert_eq!(get_with(&canary_pair(&[("canary-weight", "0")]), &[]), "httpbun:80");
    assert_eq!(get_with(&canary_pair(&[("canary-weight", "100")]), &[]), "canary:80");
    assert_eq!(get_with(&canary_pair(&[("canary-weight", "1000"), ("canary-weight-total", "1000")]), &[]), "canary:80");
    assert_eq!(get_with(&canary_pair(&[("canary-weight", "50")]), &[]), "split(httpbun:80 50, canary:80 50)");
    let r = canary_pair(&[("canary-weight", "100"), ("canary-weight-total", "200")]);
    let d = r.route(&Request::new("foo", "/info"));
    assert!(matches!(d.answer, Answer::Split { primary_weight: 100, canary_weight: 100, .. }));
    assert!(d.rule().contains("the weight splits traffic"), "{}", d.rule());
}

/// test/e2e/annotations/canary.go: "should return 404 status for requests to the canary if no
/// matching ingress is found" and "should not use canary with domain as a server".
#[test]
fn canary_alone_adds_nothing() {
    let r = router(&[ingress(
        "foo-canary",
        "foo",
        &[("/info", "Prefix", "canary")],
        &[("canary", "true"), ("canary-by-header", "CanaryByHeader")],
    )]);
    assert_eq!(get_with(&r, &[("CanaryByHeader", "always")]), "404");
    assert!(r.servers.iter().all(|s| s.hostname != "foo"));
}

/// controller.go `mergeAlternativeBackends`: a canary path with no main location of the same
/// host, path and type is dropped, and the canary's upstream deleted (also for the paths that matched).
#[test]
fn canary_cannot_add_paths() {
    let docs = [
        ingress("foo", "foo", &[("/info", "Prefix", "main")], &[]),
        ingress(
            "foo-canary",
            "foo",
            &[("/info", "Prefix", "canary"), ("/new", "Prefix", "canary")],
            &[("canary", "true"), ("canary-weight", "100")],
        ),
    ];
    let r = router(&docs);
    assert_eq!(get(&r, "foo", "/new"), "404");
    assert_eq!(get(&r, "foo", "/info"), "main:80");
    let objects = input::parse("t.yaml", &docs.concat()).unwrap().into_objects();
    let (_, issues) = nginx::build(&objects, &Options::default());
    assert!(issues.iter().any(|i| i.message.contains("deletes it")), "{issues:?}");
}

/// internal/ingress/annotations/defaultbackend and controller.go ("custom-default-backend-"):
/// a path whose Service has no endpoints goes to the `default-backend` annotation's Service.
#[test]
fn default_backend_annotation() {
    let service = |name: &str, port: u16| {
        format!(
            "apiVersion: v1\nkind: Service\nmetadata: {{name: {name}, namespace: default}}\nspec:\n  ports: [{{port: {port}}}]\n---\n"
        )
    };
    let docs = [
        ingress(
            "web",
            "d.example",
            &[("/gone", "Prefix", "gone"), ("/up", "Prefix", "up")],
            &[("default-backend", "fallback")],
        ),
        service("up", 80),
        service("fallback", 8080),
    ];
    let r = router(&docs);
    let d = r.route(&Request::new("d.example", "/gone"));
    assert_eq!(d.answer.to_string(), "fallback:8080");
    assert!(d.rule().contains("Service default/gone has no endpoints"), "{}", d.rule());
    assert_eq!(get(&r, "d.example", "/up"), "up:80");
}

/// internal/ingress/controller/store/store.go `sortIngressSlice`: by creationTimestamp, then on a
/// tie (or with none, Go's zero time) by `namespace/name` descending; the first wins a duplicate path.
#[test]
fn controller_order_of_ingresses() {
    let docs = [
        ingress("alpha", "o.example", &[("/x", "Prefix", "alpha")], &[]),
        ingress("beta", "o.example", &[("/x", "Prefix", "beta")], &[]),
    ];
    let objects = input::parse("t.yaml", &docs.concat()).unwrap().into_objects();
    let (r, issues) = nginx::build(&objects, &Options::default());
    assert_eq!(get(&r, "o.example", "/x"), "beta:80");
    assert!(
        issues.iter().any(|i| i.ingress.as_deref() == Some("default/alpha")
            && i.message.contains("already a location of default/beta"))
    );
    // With timestamps, the older wins.
    let r = router(&docs);
    assert_eq!(get(&r, "o.example", "/x"), "alpha:80");
}

/// internal/ingress/annotations/rewrite: the validator (`RegexPathWithCapture`) refuses a target
/// with `?` or `=`, so the controller ignores it; the path is not rewritten and the host not regex.
#[test]
fn rewrite_target_with_query_is_refused() {
    let docs = [ingress("q", "q.example", &[("/old", "Prefix", "svc")], &[("rewrite-target", "/new?id=$1")])];
    let objects = input::parse("t.yaml", &docs.concat()).unwrap().into_objects();
    let (r, issues) = nginx::build(&objects, &Options::default());
    assert!(issues.iter().any(|i| i.field.ends_with("[nginx.ingress.kubernetes.io/rewrite-target]")), "{issues:?}");
    let d = r.route(&Request::new("q.example", "/old/7?x=1"));
    assert_eq!((d.answer.to_string(), d.upstream_path), ("svc:80".into(), None));
    assert!(!d.server.enforce_regex);
}

/// test/e2e/annotations/fromtowwwredirect.go: "should redirect from www HTTP to HTTP" (308 to
/// `http://host:80/foo`) and the HTTPS variant (`https://host:443`, trailing slash removed).
#[test]
fn from_to_www_redirect() {
    let r = router(&[ingress(
        "w",
        "fromtowwwredirect.bar.com",
        &[("/foo", "Prefix", "echo")],
        &[("from-to-www-redirect", "true")],
    )]);
    assert_eq!(
        get(&r, "www.fromtowwwredirect.bar.com", "/foo"),
        "redirect 308 http://fromtowwwredirect.bar.com:80/foo"
    );
    let d = r.route(&Request::new("www.fromtowwwredirect.bar.com", "/").with_scheme(Scheme::Https));
    assert_eq!(d.answer.to_string(), "redirect 308 https://fromtowwwredirect.bar.com:443");
    assert_eq!(get(&r, "fromtowwwredirect.bar.com", "/foo"), "echo:80");
    // No redirect server when a server of that name exists.
    let r = router(&[
        ingress("w", "www.a.example", &[("/", "Prefix", "www")], &[("from-to-www-redirect", "true")]),
        ingress("bare", "a.example", &[("/", "Prefix", "bare")], &[]),
    ]);
    assert_eq!(get(&r, "a.example", "/"), "bare:80");
}

/// controller.go `mergeAlternativeBackend`: the canary becomes an alternative of the *upstream*
/// (namespace, Service, port), so every location using that Service gets it, on any host.
#[test]
fn canary_follows_the_upstream() {
    let r = router(&[
        ingress("a", "a.example", &[("/x", "Prefix", "shared")], &[]),
        ingress("b", "b.example", &[("/y", "Prefix", "shared")], &[]),
        ingress("a-canary", "a.example", &[("/x", "Prefix", "next")], &[("canary", "true"), ("canary-weight", "100")]),
    ]);
    assert_eq!(get(&r, "a.example", "/x"), "next:80");
    assert_eq!(get(&r, "b.example", "/y"), "next:80");
}
