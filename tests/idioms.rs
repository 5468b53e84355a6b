//! Controller idioms named as diagnostics: each fires on the idiom and stays quiet on the
//! controller-neutral near-miss.

use ingress_router::compile;
use ingress_router::{Code, CompileOptions, Diagnostic, input};

fn run(yaml: &str) -> Vec<Diagnostic> {
    let input = input::parse("t.yaml", yaml).expect("parses");
    compile(&input, &CompileOptions::default()).unwrap().lint(&input)
}

fn with_code(d: &[Diagnostic], code: Code) -> Vec<&Diagnostic> {
    d.iter().filter(|x| x.code == code).collect()
}

fn ingress(name: &str, annotations: &str, paths: &str) -> String {
    format!(
        "---\napiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: {name}\n  namespace: shop\n  annotations: {{{annotations}}}\nspec:\n  rules:\n  - host: shop.example.com\n    http:\n      paths:\n{paths}"
    )
}

fn path(p: &str, t: &str, svc: &str) -> String {
    format!("      - {{path: '{p}', pathType: {t}, backend: {{service: {{name: {svc}, port: {{number: 80}}}}}}}}\n")
}

#[test]
fn nginx_regex_host_names_every_path_of_the_host() {
    let yaml = ingress(
        "rewrite",
        "nginx.ingress.kubernetes.io/rewrite-target: /$2",
        &path("/api(/|$)(.*)", "ImplementationSpecific", "api"),
    ) + &ingress("plain", "", &path("/app", "Prefix", "app"));
    let d = run(&yaml);
    let found = with_code(&d, Code::NginxRegexHost);
    assert_eq!(found.len(), 1, "{d:#?}");
    let m = &found[0].message;
    assert!(m.contains("host shop.example.com (2 paths in 2 Ingresses)"), "{m}");
    assert!(m.contains("case-insensitive regular expression"), "{m}");
    assert!(m.contains("\"/api(/|$)(.*)\" (shop/rewrite spec.rules[0].http.paths[0])"), "{m}");
    assert_eq!(
        found[0].objects[0].field.as_deref(),
        Some("metadata.annotations[nginx.ingress.kubernetes.io/rewrite-target]")
    );
    // Near-miss: use-regex: "false" and no rewrite-target.
    let quiet = ingress("plain", "nginx.ingress.kubernetes.io/use-regex: 'false'", &path("/app", "Prefix", "app"));
    assert!(with_code(&run(&quiet), Code::NginxRegexHost).is_empty());
}

const CANARY: &str = "nginx.ingress.kubernetes.io/canary: 'true', nginx.ingress.kubernetes.io/canary-weight: '20'";

#[test]
fn canary_is_named_and_duplicate_wording_says_so() {
    let main = ingress("main", "", &path("/", "Prefix", "web"))
        .replace("namespace: shop", "namespace: shop\n  creationTimestamp: '2024-01-01T00:00:00Z'");
    let yaml = main + &ingress("main-canary", CANARY, &path("/", "Prefix", "web-v2"));
    let d = run(&yaml);
    let found = with_code(&d, Code::NginxCanary);
    assert_eq!(found.len(), 1, "{d:#?}");
    assert!(found[0].message.contains("canary-weight: \"20\"; main Ingress shop/main"), "{}", found[0].message);
    assert!(found[0].message.contains("ordinary Ingress that competes"));

    let input = input::parse("t.yaml", &yaml).unwrap();
    let diagnostics = compile(&input, &CompileOptions::default()).unwrap().lint(&input);
    let duplicate = diagnostics.iter().find(|d| d.code == Code::DuplicatePath).expect("a duplicate is reported");
    assert!(duplicate.message.contains("Ingress shop/main-canary is an ingress-nginx canary"), "{}", duplicate.message);
    // Near-miss: canary: "false" is an ordinary Ingress, and its duplicate keeps the plain wording.
    let plain = ingress("main", "", &path("/", "Prefix", "web"))
        + &ingress("other", "nginx.ingress.kubernetes.io/canary: 'false'", &path("/", "Prefix", "web-v2"));
    assert!(with_code(&run(&plain), Code::NginxCanary).is_empty());
    let input = input::parse("t.yaml", &plain).unwrap();
    let diagnostics = compile(&input, &CompileOptions::default()).unwrap().lint(&input);
    assert!(diagnostics.iter().all(|d| !d.message.contains("canary")));
}

#[test]
fn glob_paths_of_gke_and_alb() {
    let alb = ingress(
        "alb",
        "alb.ingress.kubernetes.io/scheme: internet-facing",
        &path("/api/*", "ImplementationSpecific", "api"),
    );
    let d = run(&alb);
    let found = with_code(&d, Code::GlobPath);
    assert_eq!(found.len(), 1, "{d:#?}");
    assert!(
        found[0].message.contains("a wildcard for the AWS Load Balancer Controller (every path below /api)"),
        "{}",
        found[0].message
    );
    assert!(found[0].message.contains("ImplementationSpecific, routed here as prefix"));
    assert_eq!(
        found[0].fix,
        "write path: /api with pathType: Prefix (GKE and ALB both read it as every path below /api)"
    );
    assert!(with_code(&d, Code::RegexPathLiteral).is_empty(), "named once, as a glob");
    let gke = ingress(
        "gke",
        "kubernetes.io/ingress.global-static-ip-name: web-ip",
        &path("/*", "ImplementationSpecific", "web"),
    );
    assert!(with_code(&run(&gke), Code::GlobPath)[0].message.contains("the GKE Ingress controller"));
    // Near-miss: the plain prefix it should be.
    assert!(with_code(&run(&ingress("gke", "", &path("/api", "Prefix", "api"))), Code::GlobPath).is_empty());
}

#[test]
fn alb_actions_and_conditions() {
    let annotations = r#"alb.ingress.kubernetes.io/actions.ssl-redirect: '{"Type": "redirect", "type": "redirect", "RedirectConfig": {"Protocol": "HTTPS", "Port": "443", "StatusCode": "HTTP_301"}}', alb.ingress.kubernetes.io/conditions.web: '[{"field": "http-header", "httpHeaderConfig": {"httpHeaderName": "X-Beta", "values": ["1"]}}]'"#;
    let paths =
        "      - {path: /, pathType: Prefix, backend: {service: {name: ssl-redirect, port: {name: use-annotation}}}}\n"
            .to_string()
            + &path("/", "Prefix", "web");
    let d = run(&ingress("alb", annotations, &paths));
    let found = with_code(&d, Code::AlbActionAnnotation);
    assert_eq!(found.len(), 2, "{d:#?}");
    let action = found.iter().find(|d| d.message.contains("actions.ssl-redirect")).unwrap();
    assert!(action.message.contains("the ALB action \"ssl-redirect\" (type redirect)"), "{}", action.message);
    assert!(action.message.contains("used by spec.rules[0].http.paths[0].backend"));
    assert!(action.message.contains("Service \"ssl-redirect\" port \"use-annotation\""));
    let condition = found.iter().find(|d| d.message.contains("conditions.web")).unwrap();
    assert!(condition.message.contains("ignores the conditions"));
    // Near-miss: other ALB annotations are not routing.
    let plain = ingress("alb", "alb.ingress.kubernetes.io/target-type: ip", &path("/", "Prefix", "web"));
    assert!(with_code(&run(&plain), Code::AlbActionAnnotation).is_empty());
}

#[test]
fn an_alb_action_backend_is_no_missing_service() {
    let annotations = r#"alb.ingress.kubernetes.io/actions.ssl-redirect: '{"Type": "redirect"}'"#;
    let paths =
        "      - {path: /, pathType: Prefix, backend: {service: {name: ssl-redirect, port: {name: use-annotation}}}}\n"
            .to_string()
            + &path("/app", "Prefix", "missing");
    let service =
        "---\napiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: shop}\nspec: {ports: [{port: 80}]}\n";
    let d = run(&(ingress("alb", annotations, &paths) + service));
    let missing = with_code(&d, Code::MissingService);
    assert_eq!(missing.len(), 1, "only the real Service is missing: {d:#?}");
    assert!(missing[0].message.contains("Service shop/missing"));
    // Near-miss: without the action annotation, ssl-redirect is a missing Service like any other.
    let d = run(&(ingress("alb", "", &paths) + service));
    assert_eq!(with_code(&d, Code::MissingService).len(), 2, "{d:#?}");
}
