//! The ingress-nginx profile through the crate's one entry point: `compile` with
//! `Profile::IngressNginx`, then `route`, `explain`, `table` and `lint` as for the spec profile.

use ingress_router::Router;
use ingress_router::decision::{BackendRef, Tier, WeightedBackend};
use ingress_router::input::Input;
use ingress_router::{Code, CompileOptions, Profile, Request, Scheme, Via, input};

/// The one entry point, for inputs that compile.
fn compile(input: &Input, options: &CompileOptions) -> Router {
    ingress_router::compile(input, options).expect("the input compiles")
}

fn objects(file: &str) -> Input {
    let path = format!("{}/tests/data/nginx/{file}", env!("CARGO_MANIFEST_DIR"));
    input::parse(&path, &std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn nginx() -> CompileOptions {
    CompileOptions::default().with_profile(Profile::IngressNginx)
}

#[test]
fn profile_names() {
    assert_eq!("ingress-nginx".parse::<Profile>(), Ok(Profile::IngressNginx));
    let options: CompileOptions = serde_json::from_str(r#"{"profile": "ingress-nginx"}"#).unwrap();
    assert_eq!(options.profile, Profile::IngressNginx);
    let error = "nginx".parse::<Profile>().unwrap_err().to_string();
    assert_eq!(error, r#"unknown profile "nginx": expected spec or ingress-nginx"#);
}

#[test]
fn rewrite_redirect_and_namespace() {
    let objects = objects("api-rewrite.yaml");
    let router = compile(&objects, &nginx());
    let https = |path| Request::new("shop.example.com", path).with_scheme(Scheme::Https);
    let d = router.route(&https("/api/users?x=1"));
    assert_eq!(d.via(), Via::Rule);
    assert_eq!(d.backend().map(|b| (b.namespace(), b.to_string())), Some(("shop", "api:8080".into())));
    assert_eq!(d.upstream_path(), Some("/users?x=1"));
    assert_eq!(d.matched().map(|m| (m.path, m.ingress.name)), Some(("/api(/|$)(.*)", "api")));
    // The host has TLS: over http, the location redirects to https (a decision too).
    let d = router.route(&Request::new("shop.example.com", "/api/users"));
    assert_eq!(d.via(), Via::Redirect);
    let r = d.redirect().unwrap();
    assert_eq!((r.status, r.location.as_ref()), (308, "https://shop.example.com/api/users"));
    assert_eq!(d.backend(), None);
    // The JSON view (CLI --json, npm, playground) carries them in camelCase.
    let json = serde_json::to_value(router.route(&https("/api/users")).view(&https("/api/users"))).unwrap();
    assert_eq!(json["upstreamPath"], "/users");
    let json = serde_json::to_value(d.view(&Request::new("shop.example.com", "/api/users"))).unwrap();
    assert_eq!(json["redirect"], serde_json::json!({"status": 308, "location": "https://shop.example.com/api/users"}));
    // Spec profile, same objects: the regex path is literal and headers/scheme are ignored.
    let spec = compile(&objects, &CompileOptions::default());
    assert_eq!(spec.route(&https("/api/users")).to_string(), "web:80");
}

#[test]
fn canary_split_and_headers() {
    let objects = objects("canary.yaml");
    let router = compile(&objects, &nginx());
    let d = router.route(&Request::new("pay.example.com", "/checkout"));
    let split = d.split().expect("a canary weight is a split");
    let pairs: Vec<(String, u32)> =
        split.iter().map(|WeightedBackend { backend, weight, .. }| (backend.to_string(), *weight)).collect();
    assert_eq!(pairs, [("checkout:80".to_string(), 90), ("checkout-v2:80".to_string(), 10)]);
    assert_eq!(d.backend(), None);
    let headers = [("X-Canary", "always")];
    let d = router.route(&Request::new("pay.example.com", "/checkout").with_headers(&headers));
    assert!(matches!(d.backend(), Some(BackendRef::Service { name: "checkout-v2", .. })));
    let e = router.explain(&Request::new("pay.example.com", "/checkout").with_headers(&headers));
    assert!(e.decided_by.as_deref().unwrap().contains("the canary header selects it"), "{e:?}");
    assert!(e.steps.iter().any(|s| s.starts_with("server pay.example.com")), "{:?}", e.steps);
}

#[test]
fn table_in_nginx_order_and_lint_codes() {
    let objects = objects("canary.yaml");
    let router = compile(&objects, &nginx());
    let table = router.table();
    let pay = table.hosts.iter().find(|h| h.host == "pay.example.com").unwrap();
    assert_eq!(pay.tier, Tier::Exact);
    let paths: Vec<&str> = pay.paths.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(paths, ["/checkout/", "= /checkout", "/"]);
    assert!(table.hosts.iter().any(|h| h.tier == Tier::Any));

    // A canary for a host nobody defines: inert, with a stable code.
    let yaml = r#"
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: lonely
  namespace: pay
  annotations: {nginx.ingress.kubernetes.io/canary: "true", nginx.ingress.kubernetes.io/canary-weight: "abc"}
spec:
  rules:
  - host: nowhere.example.com
    http: {paths: [{path: /, pathType: Prefix, backend: {service: {name: v2, port: {number: 80}}}}]}
"#;
    let mut all = objects.clone();
    all.extend(input::parse("lonely.yaml", yaml).unwrap());
    let diagnostics = compile(&all, &nginx()).lint(&all);
    let codes: Vec<&str> = diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert!(codes.contains(&"nginx-inert-canary"), "{codes:?}");
    assert!(diagnostics.iter().any(|d| d.code == Code::NginxIgnoredAnnotation), "{codes:?}");
}

#[test]
fn nginx_refuses_bad_uris_and_explains_in_json() {
    let router = compile(&objects("canary.yaml"), &nginx());
    let d = router.route(&Request::new("pay.example.com", "/../etc"));
    assert_eq!((d.via(), d.rejection().map(|r| r.status())), (Via::Rejected, Some(400)));
    let json = serde_json::to_value(router.explain(&Request::new("pay.example.com", "/checkout/a"))).unwrap();
    assert!(json["decidedBy"].as_str().unwrap().starts_with("prefix location /checkout/ is the longest"), "{json}");
    assert!(json["steps"].as_array().is_some_and(|s| !s.is_empty()), "{json}");
    assert_eq!(json["decision"]["split"][1]["label"], "checkout-v2:80");
}

/// Guards the numbering the Envoy filter renders cluster names by: every backend the profile can
/// send a request to has an answer, `Router::answer` gives back its backend and rule, and each side
/// of a split names its own.
#[test]
fn answers_are_numbered_for_adapters() {
    for file in ["canary.yaml", "api-rewrite.yaml", "tenants.yaml"] {
        let router = compile(&objects(file), &nginx());
        assert!(router.answer_count() > 0, "{file}");
        for n in 0..router.answer_count() {
            let d = router.answer(n).unwrap_or_else(|| panic!("{file}: answer {n} has no decision"));
            assert_eq!(d.answer(), Some(n), "{file}");
            assert!(d.backend().is_some(), "{file}: answer {n}");
        }
        assert_eq!(router.answer(router.answer_count()), None);
    }
    let router = compile(&objects("canary.yaml"), &nginx());
    let same = |d: &ingress_router::Decision<'_>| {
        let n = d.answer().expect("one backend answers");
        let a = router.answer(n).unwrap();
        assert_eq!((a.backend(), a.matched(), a.via()), (d.backend(), d.matched(), d.via()));
    };
    let d = router.route(&Request::new("pay.example.com", "/checkout/x"));
    let split = d.split().unwrap();
    assert_eq!(d.answer(), None);
    assert_ne!(split[0].answer, split[1].answer);
    for side in split {
        assert_eq!(router.answer(side.answer).unwrap().backend(), Some(side.backend));
    }
    let headers = [("x-canary", "always")];
    same(&router.route(&Request::new("pay.example.com", "/checkout/x").with_headers(&headers)));
    let headers = [("x-canary", "never")];
    same(&router.route(&Request::new("pay.example.com", "/checkout").with_headers(&headers)));
    // The canary answer lives in the canary Ingress's namespace and names the primary's rule.
    let canary = router.answer(split[1].answer).unwrap();
    assert_eq!(canary.matched().map(|m| m.ingress.name), Some("checkout"));
    // What a proxy must fetch for the canaries to decide.
    assert_eq!(router.header_names(), ["x-canary", "cookie"]);
    assert!(compile(&objects("canary.yaml"), &CompileOptions::default()).header_names().is_empty());
    // The table view numbers each location's own backend; the controller's built-in 404 has none.
    let table = router.table();
    let pay = table.hosts.iter().find(|h| h.host == "pay.example.com").unwrap();
    let numbered: Vec<bool> = pay.paths.iter().map(|p| p.answer.is_some()).collect();
    assert_eq!(numbered, [true, true, false], "{:?}", pay.paths);
}

/// Guards issue 16's "every profile explains the same way": the ingress-nginx explanation lists
/// each location of the request's server as a candidate (the canary too), matching ones first,
/// with why each won or lost, as the spec profile lists paths.
#[test]
fn nginx_explains_every_location_and_the_canary() {
    let router = compile(&objects("api-rewrite.yaml"), &nginx());
    let e = router.explain(&Request::new("shop.example.com", "/api/users").with_scheme(Scheme::Https));
    let considered: Vec<_> = e.candidates.iter().filter(|c| c.considered).collect();
    assert!(considered.len() >= 3, "{considered:#?}");
    let chosen: Vec<_> = considered.iter().filter(|c| c.chosen).collect();
    assert_eq!(chosen.len(), 1);
    assert_eq!((chosen[0].path.as_str(), chosen[0].rank), ("~* ^/api(/|$)(.*)", Some(0)));
    let root = considered.iter().find(|c| c.path == "~* ^/").unwrap();
    assert!(root.matched && root.rank == Some(1));
    assert_eq!(root.reason, "matches, but regex location ~* ^/api(/|$)(.*) comes first");
    let health = considered.iter().find(|c| c.path == "~* ^/healthz").unwrap();
    assert_eq!((health.matched, health.reason.as_str()), (false, "the regex does not match the URI"));
    // Matching candidates come first.
    let first_miss = considered.iter().position(|c| !c.matched).unwrap();
    assert!(considered[first_miss..].iter().all(|c| !c.matched));
    assert_eq!(e.tier, Some(Tier::Exact));

    let router = compile(&objects("canary.yaml"), &nginx());
    let e = router.explain(&Request::new("pay.example.com", "/checkout/a"));
    let canary = e.candidates.iter().find(|c| c.reason.starts_with("the canary of this location")).unwrap();
    assert_eq!(canary.backend, "checkout-v2:80");
    assert!(canary.matched && canary.chosen, "a split sends to both: {canary:?}");
    let ranks: Vec<_> = e.candidates.iter().filter(|c| c.matched).map(|c| c.rank).collect();
    assert_eq!(ranks, (0..ranks.len()).map(Some).collect::<Vec<_>>(), "ranks are positions");
    // By header: the canary takes the request, so the location's own backend lost to it.
    let headers = [("X-Canary", "always")];
    let e = router.explain(&Request::new("pay.example.com", "/checkout/a").with_headers(&headers));
    let own = e.candidates.iter().find(|c| c.path == "/checkout/" && c.backend == "checkout:80").unwrap();
    assert!(!own.chosen && own.reason.ends_with("its canary checkout-v2:80 takes the request"), "{own:?}");
}

/// Issue 33: an `ImplementationSpecific` path keeps its declared type in the decision (ingress-nginx
/// treats it as `Prefix`, which the explanation says); it was shown as `Prefix`.
#[test]
fn implementation_specific_keeps_its_declared_type() {
    let yaml = "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: docs, namespace: web}\nspec:\n  rules:\n  - host: a.example.com\n    http:\n      paths:\n      - {path: /docs, pathType: ImplementationSpecific, backend: {service: {name: docs, port: {number: 80}}}}\n      - {path: /api, pathType: Prefix, backend: {service: {name: api, port: {number: 80}}}}\n";
    let input = input::parse("docs.yaml", yaml).unwrap();
    let router = compile(&input, &nginx());
    let request = Request::new("a.example.com", "/docs/x");
    let d = router.route(&request);
    assert_eq!(d.matched().map(|m| m.path_type.as_str()), Some("ImplementationSpecific"));
    let api = Request::new("a.example.com", "/api/x");
    assert_eq!(router.route(&api).matched().map(|m| m.path_type.as_str()), Some("Prefix"));
    let text = serde_json::to_string(&router.explain(&request)).unwrap();
    assert!(text.contains("(/docs ImplementationSpecific, which ingress-nginx treats as Prefix)"), "{text}");
}
