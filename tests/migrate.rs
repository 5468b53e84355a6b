//! `diff --to gateway-api`: ingress-nginx Ingresses against the HTTPRoutes replacing them, on the
//! pairs in `tests/cases/migration/` (each a classic migration mistake, with the causes it must be
//! found under) and the careful translation in `examples/migration/` (no difference).

use std::path::Path;
use std::process::Command;

use ingress_router::migrate::MigrationReport;
use ingress_router::{CompileOptions, Profile, input};

fn report(dir: &Path) -> MigrationReport {
    let mut all = input::Input::default();
    let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    for file in files.iter().filter(|f| f.extension().is_some_and(|e| e == "yaml")) {
        let text = std::fs::read_to_string(file).unwrap();
        all.extend(input::parse(&file.display().to_string(), &text).unwrap());
    }
    ingress_router::migrate(&all, &CompileOptions::default(), Profile::IngressNginx)
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_careful_translation_changes_no_request() {
    let r = report(&root().join("examples/migration"));
    assert!(r.probes >= 10, "probes from both sides: {}", r.probes);
    assert_eq!(r.differences(), 0, "{}", serde_json::to_string_pretty(&r).unwrap());
    assert_eq!(r.gateway.as_deref(), Some("infra/public"));
}

#[test]
fn each_classic_mistake_is_found_and_named() {
    let cases = root().join("tests/cases/migration");
    let mut seen = 0;
    for dir in std::fs::read_dir(&cases).unwrap().map(|e| e.unwrap().path()) {
        let expected: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("expected-causes")).unwrap()).unwrap();
        let r = report(&dir);
        let found: Vec<&str> = r.causes.iter().map(|c| c.cause.as_str()).collect();
        for cause in expected["causes"].as_array().unwrap() {
            assert!(found.contains(&cause.as_str().unwrap()), "{}: {cause} not among {found:?}", dir.display());
        }
        for group in &r.causes {
            assert!(!group.title.is_empty() && !group.advice.is_empty());
            for d in &group.differences {
                // Each difference names the rule on the side that had one, and the answers differ.
                assert_ne!(d.ingress.summary(), d.gateway.summary(), "{}", dir.display());
                if d.ingress.status == 200 {
                    assert!(d.ingress.rule.is_some() || d.ingress.reason.contains("default"), "{d:?}");
                }
                if d.gateway.status == 200 {
                    assert!(d.gateway.rule.is_some(), "{d:?}");
                }
            }
        }
        seen += 1;
    }
    assert!(seen >= 7, "every mistake case ran: {seen}");
}

#[test]
fn specific_answers_on_both_sides() {
    let r = report(&root().join("tests/cases/migration/regex-case-and-prefix"));
    let find = |url: &str| r.causes.iter().flat_map(|c| &c.differences).find(|d| d.probe.url == url);
    // `/[A-Z]{3}` in ingress-nginx is `~* ^/[A-Z]{3}`: the lower-case `/aaa` matches there, not in Envoy.
    let d = find("http://regex.example.com/aaa").expect("the case variant differs");
    assert_eq!(d.ingress.backend.as_deref(), Some("web/httpbin:8000"));
    assert_eq!(d.gateway.status, 404);
    let d = find("http://regex.example.com/AAA/x").expect("the prefix differs");
    assert_eq!(d.ingress.status, 200);
    assert_eq!(d.gateway.status, 404);

    let r = report(&root().join("tests/cases/migration/rewrite-capture"));
    let d =
        r.causes.iter().flat_map(|c| &c.differences).find(|d| d.probe.url == "http://rewrite.example.com/something/x");
    let d = d.expect("the dropped rewrite differs");
    assert_eq!(d.ingress.upstream_path.as_deref(), Some("/x"));
    assert_eq!(d.gateway.upstream_path.as_deref(), Some("/something/x"));

    let r = report(&root().join("tests/cases/migration/canary-dropped"));
    let d = r.causes.iter().flat_map(|c| &c.differences).next().expect("the canary differs");
    assert_eq!(d.probe.headers, [("X-Canary".to_string(), "always".to_string())]);
    assert_eq!(d.ingress.backend.as_deref(), Some("web/app-next:80"));
    assert_eq!(d.gateway.backend.as_deref(), Some("web/app:80"));
}

fn cli(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ingress-router")).args(args).current_dir(root()).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn the_cli_exits_1_on_a_difference_and_names_the_cause() {
    let (code, out) = cli(&["diff", "--from", "ingress-nginx", "--to", "gateway-api", "-f", "examples/migration"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("0 of "), "{out}");
    let (code, out) = cli(&["diff", "--to", "gateway-api", "-f", "tests/cases/migration/trailing-slash"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("[trailing-slash-redirect]") && out.contains("GET http://docs.example.com/guide "), "{out}");
    let (code, out) = cli(&["diff", "-f", "tests/cases/migration/wildcard-depth", "--json"]);
    assert_eq!(code, 1, "HTTPRoutes in the input: gateway-api is the default target");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["causes"][0]["cause"], "wildcard-depth");
    let (code, _) = cli(&["diff", "--to", "gateway-api", "-f", "examples/shop/manifests"]);
    assert_eq!(code, 2, "no HTTPRoute: bad input");
}

#[test]
fn tests_written_by_diff_pin_the_new_routing_and_pass() {
    let tests = std::env::temp_dir().join(format!("migration-pinned-{}.yaml", std::process::id()));
    let tests_arg = tests.display().to_string();
    let (code, _) = cli(&[
        "diff",
        "--to",
        "gateway-api",
        "-f",
        "tests/cases/migration/use-regex-whole-host",
        "--tests",
        &tests_arg,
    ]);
    assert_eq!(code, 1);
    let written = std::fs::read_to_string(&tests).unwrap();
    assert!(written.contains("gateway: infra/public") && written.contains("status: 200"), "{written}");
    let (code, out) = cli(&["test", "-f", "tests/cases/migration/use-regex-whole-host", &tests_arg]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(" passed, 0 failed"), "{out}");
    std::fs::remove_file(&tests).unwrap();
}

/// `backend-protocol: GRPC` (issue 30): each path of such an Ingress is probed with a gRPC call
/// (POST, `content-type: application/grpc`, at `/SERVICE/METHOD` under the path), and a GRPCRoute
/// that routes every call of the service agrees; one that names a single method does not.
#[test]
fn grpc_backends_are_probed_with_grpc_calls() {
    let ingress = "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: greeter\n  namespace: apps\n  \
                   annotations: {nginx.ingress.kubernetes.io/backend-protocol: GRPC}\nspec:\n  ingressClassName: nginx\n  rules:\n  \
                   - host: grpc.example.com\n    http:\n      paths:\n      - {path: /helloworld.Greeter, pathType: Prefix, \
                   backend: {service: {name: greeter, port: {number: 50051}}}}\n";
    let gateway = "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: public, namespace: infra}\n\
                   spec:\n  gatewayClassName: eg\n  listeners:\n  - {name: http, port: 80, protocol: HTTP, allowedRoutes: {namespaces: {from: All}}}\n";
    let route = |method: &str| {
        format!(
            "apiVersion: gateway.networking.k8s.io/v1\nkind: GRPCRoute\nmetadata: {{name: greeter, namespace: apps}}\nspec:\n  \
             parentRefs: [{{name: public, namespace: infra}}]\n  hostnames: [grpc.example.com]\n  rules:\n  \
             - matches: [{{method: {{service: helloworld.Greeter{method}}}}}]\n    backendRefs: [{{name: greeter, port: 50051}}]\n"
        )
    };
    let run = |route: &str| {
        let mut all = input::parse("ingress.yaml", ingress).unwrap();
        all.extend(input::parse("gateway.yaml", gateway).unwrap());
        all.extend(input::parse("route.yaml", route).unwrap());
        ingress_router::migrate(&all, &CompileOptions::default(), Profile::IngressNginx)
    };
    let whole_service = run(&route(""));
    // A call under the declared path, and one at the host's root (another service: 404 on both sides).
    let grpc: Vec<_> = whole_service.agreed.iter().filter(|(p, _)| p.kind == "grpc").collect();
    let urls: Vec<&str> = grpc.iter().map(|(p, _)| p.url.as_str()).collect();
    assert_eq!(
        urls,
        ["http://grpc.example.com/grpc.probe.Service/Call", "http://grpc.example.com/helloworld.Greeter/Call"]
    );
    let (probe, answer) = grpc[1];
    assert_eq!(probe.method, "POST");
    assert_eq!(probe.headers, [("content-type".to_string(), "application/grpc".to_string())]);
    assert_eq!(answer.backend.as_deref(), Some("apps/greeter:50051"));
    assert_eq!(whole_service.differences(), 0, "{}", serde_json::to_string_pretty(&whole_service).unwrap());
    // A GRPCRoute naming one method leaves the probe's call unrouted: a difference.
    let one_method = run(&route(", method: SayHello"));
    let differences: Vec<_> =
        one_method.causes.iter().flat_map(|c| &c.differences).filter(|d| d.probe.kind == "grpc").collect();
    assert_eq!(differences.len(), 1, "{}", serde_json::to_string_pretty(&one_method).unwrap());
    assert_eq!((differences[0].ingress.status, differences[0].gateway.status), (200, 404));
}
