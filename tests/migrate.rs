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
    let d = r.causes.iter().flat_map(|c| &c.differences).find(|d| !d.probe.headers.is_empty());
    let d = d.expect("the canary differs");
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
    let causes: Vec<&str> = json["causes"].as_array().unwrap().iter().map(|c| c["cause"].as_str().unwrap()).collect();
    // The golden's Gateway has no HTTPS listener: ingress-nginx's HTTPS on every host differs too.
    assert_eq!(causes, ["https-default-certificate", "wildcard-depth"]);
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

// --- `migrate`: the objects written, and their proof ----------------------------------------------

fn read(path: &Path) -> input::Input {
    input::parse(&path.display().to_string(), &std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The first line of a behaviour file: `# proof: same`, or `# proof: differs (cause, cause)`.
fn expected_causes(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let first = text.lines().next().unwrap_or_default();
    let proof = first.strip_prefix("# proof: ").unwrap_or_else(|| panic!("{}: no `# proof:` line", path.display()));
    match proof.strip_prefix("differs (").and_then(|p| p.strip_suffix(')')) {
        Some(causes) => causes.split(", ").map(str::to_string).collect(),
        None => {
            assert_eq!(proof, "same", "{}", path.display());
            Vec::new()
        }
    }
}

/// `migrate`'s options for the corpus: ingress-nginx's default certificate given, as a careful
/// user gives it (without it, every host without tls differs over HTTPS: see below).
fn careful() -> ingress_router::migrate::MigrateOptions {
    let mut options = ingress_router::migrate::MigrateOptions::default();
    options.default_certificate = Some("ingress-nginx/default-tls".into());
    options
}

/// The bar of issue 31, on one file per ingress-nginx behaviour: every input is migrated; what
/// is written passes the apiserver's Gateway API validation; the proof finds exactly the causes the
/// file expects, and every difference is explained by a line of the report (something the Gateway
/// API cannot say, said as such), never left unexplained.
#[test]
fn every_behaviour_is_migrated_and_every_difference_is_reported() {
    let dir = root().join("tests/cases/migrate");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(files.len() >= 25, "{}", files.len());
    let (mut same, mut differing) = (0, 0);
    for file in &files {
        let input = read(file);
        let conversion = ingress_router::migrate::convert(&input, &CompileOptions::default(), &careful());
        let name = file.display();
        assert!(conversion.proof.probes >= 3, "{name}: {} probes", conversion.proof.probes);
        let written = input::parse("written.yaml", &conversion.translation.yaml()).unwrap();
        let report = ingress_router::views::validation_report(&written, &[], &input::Input::default(), Vec::new());
        let json = serde_json::to_value(&report).unwrap();
        assert!(report.passes(false), "{name}: the objects written are invalid: {json}");
        let causes: Vec<&str> = conversion.proof.causes.iter().map(|c| c.cause.as_str()).collect();
        assert_eq!(causes, expected_causes(file), "{name}");
        let unexplained: Vec<String> =
            conversion.unexplained().iter().map(|d| format!("{} {}", d.probe.method, d.probe.url)).collect();
        assert!(unexplained.is_empty(), "{name}: differences the report does not explain: {unexplained:?}");
        if causes.is_empty() { same += 1 } else { differing += 1 }
    }
    assert!(same >= 19 && differing >= 6, "{same} {differing}");
}

/// ingress-nginx serves HTTPS on every host; without its default certificate the Gateway written
/// serves HTTPS only where an Ingress names a Secret: those requests differ, and the Gateway's
/// note says why.
#[test]
fn https_on_hosts_without_tls_needs_the_default_certificate() {
    let input = read(&root().join("tests/cases/migrate/paths.yaml"));
    let conversion = ingress_router::migrate::convert(&input, &CompileOptions::default(), &Default::default());
    let causes: Vec<&str> = conversion.proof.causes.iter().map(|c| c.cause.as_str()).collect();
    assert_eq!(causes, ["https-default-certificate"]);
    assert!(conversion.proof.causes[0].differences.iter().all(|d| d.probe.url.starts_with("https://")));
    assert!(conversion.unexplained().is_empty());
    let gateway = &conversion.translation.objects[0];
    assert_eq!(gateway["spec"]["listeners"].as_array().unwrap().len(), 1, "{gateway}");
    // With it: a catch-all HTTPS listener with that Secret, granted across namespaces.
    let conversion = ingress_router::migrate::convert(&input, &CompileOptions::default(), &careful());
    assert_eq!(conversion.proof.differences(), 0);
    let gateway = &conversion.translation.objects[0];
    let https = &gateway["spec"]["listeners"][1];
    assert_eq!((https["name"].as_str(), https.get("hostname")), (Some("https"), None));
    assert_eq!(https["tls"]["certificateRefs"][0]["name"], "default-tls");
}

fn notes(file: &str) -> Vec<(String, String, &'static str)> {
    let input = read(&root().join("tests/cases/migrate").join(file));
    let conversion = ingress_router::migrate::convert(&input, &CompileOptions::default(), &careful());
    conversion.translation.notes.iter().map(|n| (n.ingress.clone(), n.what.clone(), n.outcome.as_str())).collect()
}

/// Nothing is dropped silently: each annotation the Gateway API cannot say is reported with the
/// Ingress and the annotation; Ingresses left out are listed with why.
#[test]
fn what_cannot_be_said_is_reported_per_ingress_and_annotation() {
    let guarded = notes("not-expressible.yaml");
    for annotation in ["auth-url", "limit-rps", "configuration-snippet", "affinity", "enable-cors"] {
        let what = format!("nginx.ingress.kubernetes.io/{annotation}");
        assert!(guarded.contains(&("web/guarded".into(), what.clone(), "not expressible")), "{what}: {guarded:?}");
    }
    let classes = notes("classes.yaml");
    assert!(classes.contains(&("web/elsewhere".into(), "Ingress".into(), "left out")), "{classes:?}");
    assert!(!classes.iter().any(|n| n.0 == "web/served" && n.2 == "left out"), "{classes:?}");
    let lonely = notes("canary-without-main.yaml");
    assert!(lonely.iter().any(|n| n.0 == "web/lonely-canary" && n.2 == "left out"), "{lonely:?}");
    let reorder = notes("rewrite-capture-reorder.yaml");
    assert!(
        reorder.contains(&("web/swap".into(), "nginx.ingress.kubernetes.io/rewrite-target".into(), "not expressible")),
        "{reorder:?}"
    );
}

/// What the writer writes for the usual behaviours, object by object.
#[test]
fn the_objects_written_carry_the_behaviour() {
    let convert = |file: &str| {
        let input = read(&root().join("tests/cases/migrate").join(file));
        let mut options = careful();
        options.gateway_class = "eg".into();
        ingress_router::migrate::convert(&input, &CompileOptions::default(), &options).translation
    };
    let kind = |t: &ingress_router::migrate::Translation, kind: &str| -> Vec<serde_json::Value> {
        t.objects.iter().filter(|o| o["kind"] == kind).cloned().collect()
    };
    // TLS: an HTTPS listener with the Ingress's Secret (granted across namespaces), the HTTP
    // listener's rules redirecting with 308.
    let tls = convert("ssl-redirect.yaml");
    let gateway = &kind(&tls, "Gateway")[0];
    assert_eq!(gateway["spec"]["gatewayClassName"], "eg");
    let https = &gateway["spec"]["listeners"][1];
    assert_eq!((https["protocol"].as_str(), https["hostname"].as_str()), (Some("HTTPS"), Some("secure.example.com")));
    assert_eq!(https["tls"]["certificateRefs"][0]["name"], "secure-tls");
    let grants = kind(&tls, "ReferenceGrant");
    assert_eq!(grants[0]["metadata"]["namespace"], "web");
    assert_eq!(grants[0]["spec"]["to"][0]["kind"], "Secret");
    let routes = kind(&tls, "HTTPRoute");
    let http_route = routes.iter().find(|r| r["metadata"]["name"] == "secure-http").unwrap();
    assert_eq!(http_route["spec"]["rules"][0]["filters"][0]["requestRedirect"]["statusCode"], 308);
    // A named Service port becomes its number.
    let https_route = routes.iter().find(|r| r["metadata"]["name"] == "secure").unwrap();
    assert!(https_route.to_string().contains(r#""name":"api","port":8080"#), "{https_route}");
    // Canaries: a header rule, and the weights.
    let canary = convert("canary-header.yaml");
    let rules = kind(&canary, "HTTPRoute")[0]["spec"]["rules"].clone();
    assert!(rules.to_string().contains(r#""headers":[{"name":"X-Canary","value":"always"}]"#), "{rules}");
    assert!(rules.to_string().contains(r#""name":"app-v1","port":80,"weight":80"#), "{rules}");
    // A canary in another namespace: the weighted backendRef names it, and its namespace grants it.
    let other = convert("canary-other-namespace.yaml");
    let refs = kind(&other, "HTTPRoute")[0]["spec"]["rules"][0]["backendRefs"].clone();
    assert_eq!(refs[1], serde_json::json!({"name": "app-v2", "namespace": "canary", "port": 80, "weight": 10}));
    let grant = kind(&other, "ReferenceGrant").into_iter().find(|g| g["metadata"]["namespace"] == "canary").unwrap();
    assert_eq!(
        grant["spec"]["from"][0],
        serde_json::json!({"group": "gateway.networking.k8s.io", "kind": "HTTPRoute", "namespace": "web"})
    );
    assert_eq!(grant["spec"]["to"][0]["kind"], "Service");
    // x-forwarded-prefix: the header set for the backend.
    let prefixed = convert("x-forwarded-prefix.yaml");
    let rule = kind(&prefixed, "HTTPRoute")[0]["spec"]["rules"][0].clone();
    assert_eq!(
        rule["filters"][0]["requestHeaderModifier"]["set"][0],
        serde_json::json!({"name": "X-Forwarded-Prefix", "value": "/shop"})
    );
    // backend-protocol GRPC: a GRPCRoute.
    let grpc = convert("grpc.yaml");
    let route = &kind(&grpc, "GRPCRoute")[0];
    assert_eq!(route["spec"]["rules"][0]["matches"][0]["method"]["service"], "helloworld.Greeter");
}

/// The command: YAML on stdout, the report on stderr, exit 0 when the proof holds, 1 when a
/// difference remains (each listed with the report line that explains it), 2 on input errors;
/// `-o` writes one file per namespace.
#[test]
fn the_migrate_command_writes_reports_and_proves() {
    let out = Command::new(env!("CARGO_BIN_EXE_ingress-router"))
        .args(["migrate", "-f", "tests/cases/migrate/paths.yaml", "--default-certificate", "ingress-nginx/default-tls"])
        .current_dir(root())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let yaml = String::from_utf8(out.stdout).unwrap();
    assert!(yaml.starts_with("apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\n"), "{yaml}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("0 of 26 probe requests answer differently"), "{stderr}");

    let out = Command::new(env!("CARGO_BIN_EXE_ingress-router"))
        .args(["migrate", "-f", "tests/cases/migrate/wildcard-host.yaml"])
        .current_dir(root())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("differs: a Gateway API wildcard hostname covers several labels"), "{stderr}");
    assert!(stderr.contains("explained: web/wild host *.tenants.example.com [partly]"), "{stderr}");

    let (code, _) = cli(&["migrate", "-f", "tests/cases/migrate/paths.yaml", "--gateway", "infra/missing"]);
    assert_eq!(code, 2);
    let (code, _) = cli(&["migrate", "-f", "Cargo.toml"]);
    assert_eq!(code, 2);

    let dir = std::env::temp_dir().join(format!("ingress-router-migrate-{}", std::process::id()));
    let out = dir.to_str().unwrap();
    let certificate = "--default-certificate=ingress-nginx/default-tls";
    let (code, _) = cli(&["migrate", "-f", "tests/cases/migrate/canary-header.yaml", certificate, "-o", out]);
    assert_eq!(code, 0);
    let mut written: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    written.sort();
    assert_eq!(written, ["ingress-nginx.yaml", "web.yaml"]);
    let web = std::fs::read_to_string(dir.join("web.yaml")).unwrap();
    assert!(web.contains("kind: HTTPRoute"), "{web}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--gateway` names an existing Gateway: it is not written, and the routes attach to its
/// listeners by port.
#[test]
fn an_existing_gateway_is_attached_to_not_written() {
    let (code, yaml) = cli(&[
        "migrate",
        "-f",
        "examples/migration/ingresses.yaml",
        "-f",
        "examples/migration/gateway.yaml",
        "--gateway",
        "infra/public",
    ]);
    assert_eq!(code, 0, "{yaml}");
    assert!(!yaml.contains("kind: Gateway\n"), "{yaml}");
    assert!(yaml.contains("  parentRefs:\n  - name: public\n    namespace: infra\n  hostnames:"), "{yaml}");
}

// --- `diff` as the judge: what it must not get wrong ----------------------------------------------

/// Several Gateways and no `--gateway`: refused with the Gateways named (it used to answer 404 to
/// every probe); with one named, an object given twice counts once (the last, with a warning) and
/// a TLSRoute is named as not compared.
#[test]
fn several_gateways_are_refused_and_duplicates_and_other_kinds_are_said() {
    let out = Command::new(env!("CARGO_BIN_EXE_ingress-router"))
        .args(["diff", "--to", "gateway-api", "-f", "tests/cases/diff-trust/several-gateways.yaml"])
        .current_dir(root())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("several Gateways (infra/one, infra/two)"), "{stderr}");

    let options = CompileOptions::default().with_gateway(Some("infra/one".into()));
    let input = read(&root().join("tests/cases/diff-trust/several-gateways.yaml"));
    let r = ingress_router::migrate(&input, &options, Profile::IngressNginx);
    assert_eq!(r.no_gateway, None);
    assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
    assert!(r.warnings[0].starts_with("HTTPRoute web/a is given 2 times: the last one"), "{:?}", r.warnings);
    // The last HTTPRoute sends to `b`: that is what differs from the Ingress's `a`.
    let d = r.causes.iter().flat_map(|c| &c.differences).find(|d| d.probe.url == "http://a.example.com/").unwrap();
    assert_eq!((d.ingress.backend.as_deref(), d.gateway.backend.as_deref()), (Some("web/a:80"), Some("web/b:80")));
    assert_eq!(r.not_compared.len(), 1);
    assert!(r.not_compared[0].starts_with("TLSRoute web/t: not compared"), "{:?}", r.not_compared);
}

/// A Gateway API side of GRPCRoutes only is compared (it was refused as "no HTTPRoute"); one of
/// TLSRoutes only is refused with the kinds named.
#[test]
fn grpcroutes_alone_are_compared_and_other_routes_named() {
    let (code, out) = cli(&["diff", "--to", "gateway-api", "-f", "tests/cases/diff-trust/grpc-only.yaml", "--json"]);
    assert_eq!(code, 0, "{out}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(json["probes"].as_u64().unwrap() >= 2, "{json}");
    let text = std::fs::read_to_string(root().join("tests/cases/diff-trust/several-gateways.yaml")).unwrap();
    let tls_only: String = text.split("---").filter(|d| !d.contains("kind: HTTPRoute")).collect::<Vec<_>>().join("---");
    let path = std::env::temp_dir().join(format!("tls-only-{}.yaml", std::process::id()));
    std::fs::write(&path, tls_only).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ingress-router"))
        .args(["diff", "--to", "gateway-api", "-f", path.to_str().unwrap(), "--gateway", "infra/one"])
        .output()
        .unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no HTTPRoute or GRPCRoute in the input (found: TLSRoute"), "{stderr}");
}

/// Redirect locations are compared as URLs (`http://h:80/x` is `http://h/x`), probes carry a
/// query and HTTPS twins, and the www redirect has its own cause; Ingresses left out are listed.
#[test]
fn redirects_compare_as_urls_with_queries_and_https_probed() {
    let input = read(&root().join("tests/cases/migrate/www-redirect.yaml"));
    let conversion = ingress_router::migrate::convert(&input, &CompileOptions::default(), &careful());
    let proof = &conversion.proof;
    // ingress-nginx answers `http://shop.example.com:80` (the slash dropped), the Gateway
    // `http://shop.example.com/`: one URL.
    let agreed = |url: &str| proof.agreed.iter().find(|(p, _)| p.url == url).map(|(_, a)| a.clone());
    let www = agreed("http://www.shop.example.com/").expect("the www redirect agrees");
    assert_eq!(www.redirect.as_deref(), Some("http://shop.example.com:80"));
    // Only the trailing slash ingress-nginx drops differs, under its own cause.
    let causes: Vec<&str> = proof.causes.iter().map(|c| c.cause.as_str()).collect();
    assert_eq!(causes, ["from-to-www-redirect"]);
    assert!(proof.causes[0].differences.iter().all(|d| d.probe.url.starts_with("http://www.shop.example.com/x")));
    assert!(proof.agreed.iter().any(|(p, _)| p.kind == "query" && p.url.contains("?probe=1")));
    assert!(proof.agreed.iter().any(|(p, _)| p.kind == "https" && p.url.starts_with("https://")));
    let classes = read(&root().join("tests/cases/migrate/classes.yaml"));
    let options = CompileOptions::default().with_ingress_class("nginx");
    let conversion = ingress_router::migrate::convert(&classes, &options, &careful());
    assert_eq!(conversion.proof.left_out.len(), 1, "{:?}", conversion.proof.left_out);
    assert!(conversion.proof.left_out[0].starts_with("Ingress web/elsewhere: "), "{:?}", conversion.proof.left_out);
}

#[test]
fn under_the_spec_profile_no_ingress_nginx_behaviour_is_a_cause() {
    // Issue 33: the Ingresses routed as the specification says (their annotations mean nothing)
    // differ from the routes for reasons of the specification's, never ingress-nginx's.
    let all = read(&root().join("web/gallery/migration-ingress-nginx.yaml"));
    let nginx_only = [
        "ssl-redirect",
        "from-to-www-redirect",
        "https-default-certificate",
        "trailing-slash-redirect",
        "regex-case-insensitive",
        "use-regex-whole-host",
        "rewrite-target-implies-regex",
        "regex-prefix",
        "rewrite-capture-dropped",
        "canary",
    ];
    let spec = ingress_router::migrate(&all, &CompileOptions::default(), Profile::Spec);
    assert!(spec.differences() > 0);
    for group in &spec.causes {
        assert!(!nginx_only.contains(&group.cause.as_str()), "{} under spec: {}", group.cause.as_str(), group.title);
        assert!(!group.title.contains("ingress-nginx"), "{}", group.title);
    }
    // The same manifests under ingress-nginx keep its causes.
    let nginx = ingress_router::migrate(&all, &CompileOptions::default(), Profile::IngressNginx);
    let causes: Vec<&str> = nginx.causes.iter().map(|c| c.cause.as_str()).collect();
    assert!(causes.contains(&"rewrite-capture-dropped") && causes.contains(&"https-default-certificate"), "{causes:?}");
}

/// Bound: `migrate` is linear in the paths and hosts of the estate (it asked each location about
/// every other location of its server: 10 000 paths on one host took 132 s). 20 000 paths on one
/// host and 70 hosts with TLS: the routes are split within the CRD's limits (16 rules, 128
/// matches), the Gateway keeps to 64 listeners and says which hosts have no room, and every
/// difference the proof finds is explained.
#[test]
fn a_large_estate_is_migrated_within_the_apis_limits() {
    let mut yaml = String::from(
        "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: big, namespace: web}\nspec:\n  rules:\n  - host: big.example.com\n    http:\n      paths:\n",
    );
    for i in 0..20_000 {
        yaml.push_str(&format!(
            "      - {{path: /p{i}, pathType: Prefix, backend: {{service: {{name: s{}, port: {{number: 80}}}}}}}}\n",
            i % 40
        ));
    }
    for i in 0..70 {
        yaml.push_str(&format!(
            "---\napiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {{name: t{i}, namespace: web}}\nspec:\n  tls: [{{hosts: [h{i}.example.com], secretName: c{i}}}]\n  rules:\n  - host: h{i}.example.com\n    http: {{paths: [{{path: /, pathType: Prefix, backend: {{service: {{name: a, port: {{number: 80}}}}}}}}]}}\n"
        ));
    }
    let input = input::parse("estate.yaml", &yaml).unwrap();
    let conversion = ingress_router::migrate::convert(&input, &CompileOptions::default(), &careful());
    let t = &conversion.translation;
    let gateway = &t.objects[0];
    assert_eq!(gateway["spec"]["listeners"].as_array().unwrap().len(), 64);
    // 70 TLS hosts, 62 listeners for them beside HTTP and the default certificate's.
    let no_room = t.notes.iter().filter(|n| n.what.starts_with("host h") && n.detail.contains("64 listeners")).count();
    assert_eq!(no_room, 8);
    let big: Vec<_> = t.objects.iter().filter(|o| o["metadata"]["name"].as_str().unwrap().starts_with("big")).collect();
    assert!(big.len() >= 20_000 / 128, "{}", big.len());
    for route in &big {
        let rules = route["spec"]["rules"].as_array().unwrap();
        let matches: usize = rules.iter().map(|r| r["matches"].as_array().map_or(1, Vec::len)).sum();
        assert!(rules.len() <= 16 && matches <= 128, "{} rules, {matches} matches", rules.len());
    }
    let written = input::parse("written.yaml", &t.yaml()).unwrap();
    let report = ingress_router::views::validation_report(&written, &[], &input::Input::default(), Vec::new());
    assert!(report.passes(false));
    assert!(conversion.proof.probes > 20_000 * 3);
    assert!(conversion.unexplained().is_empty());
}
