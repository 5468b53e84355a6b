//! The diagnostics of `Router::lint`: each fires on its mistake and stays quiet on a clean near-miss.

use ingress_router::explain::ObjectRef;
use ingress_router::{Code, Diagnostic};

const NGINX_PREFIX: &str = "nginx.ingress.kubernetes.io/";
use ingress_router::Router;
use ingress_router::input::Input;
use ingress_router::{CompileOptions, Severity, input};

/// The one entry point, for inputs that compile.
fn compile(input: &Input, options: &CompileOptions) -> Router {
    ingress_router::compile(input, options).expect("the input compiles")
}

fn objects(yaml: &str) -> Input {
    input::parse("test.yaml", yaml).expect("test input parses")
}

fn run(yaml: &str) -> Vec<Diagnostic> {
    let objects = objects(yaml);
    compile(&objects, &CompileOptions::default()).lint(&objects)
}

fn run_for_class(yaml: &str, class: &str) -> Vec<Diagnostic> {
    let objects = objects(yaml);
    compile(&objects, &CompileOptions::default().with_ingress_class(class)).lint(&objects)
}

fn with_code(diagnostics: &[Diagnostic], code: Code) -> Vec<&Diagnostic> {
    diagnostics.iter().filter(|d| d.code == code).collect()
}

/// The one diagnostic with `code`, failing with everything found otherwise.
fn only(diagnostics: &[Diagnostic], code: Code) -> Diagnostic {
    let found = with_code(diagnostics, code);
    assert_eq!(found.len(), 1, "expected one {code}, got: {diagnostics:#?}");
    found[0].clone()
}

fn none(diagnostics: &[Diagnostic], code: Code) {
    assert!(with_code(diagnostics, code).is_empty(), "expected no {code}, got: {diagnostics:#?}");
}

fn at(kind: &'static str, namespace: Option<&str>, name: &str, field: &str) -> ObjectRef {
    ObjectRef { kind, namespace: namespace.map(Into::into), name: name.into(), field: Some(field.into()) }
}

fn ingress_at(field: &str) -> ObjectRef {
    at("Ingress", Some("shop"), "web", field)
}

fn has(text: &str, part: &str) {
    assert!(text.contains(part), "{part:?} not in {text:?}");
}

/// An Ingress `shop/web` with one rule for `shop.example.com` and one path whose backend is `backend`.
fn ingress_with_backend(backend: &str) -> String {
    format!(
        r#"
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {{name: web, namespace: shop}}
spec:
  rules:
  - host: shop.example.com
    http:
      paths:
      - {{path: /, pathType: Prefix, backend: {{service: {backend}}}}}
"#
    )
}

const CART_SERVICE: &str = r#"
---
apiVersion: v1
kind: Service
metadata: {name: cart, namespace: shop}
spec:
  selector: {app: cart}
  ports:
  - {name: http, port: 80, targetPort: 8080}
  - {name: metrics, port: 9090, targetPort: prom}
"#;

const BACKEND_FIELD: &str = "spec.rules[0].http.paths[0].backend.service";

// --- Services -------------------------------------------------------------------------------

#[test]
fn missing_service() {
    let yaml = ingress_with_backend("{name: carts, port: {number: 80}}") + CART_SERVICE;
    let d = run(&yaml);
    let found = only(&d, Code::MissingService);
    assert_eq!(found.severity, Severity::Warning);
    assert_eq!(found.objects, vec![ingress_at(&format!("{BACKEND_FIELD}.name"))]);
    has(&found.message, "Ingress shop/web");
    has(&found.message, "Service shop/carts is not in the input");
    has(&found.message, "did you mean Service shop/cart?");
    has(&found.fix, "set spec.rules[0].http.paths[0].backend.service.name to \"cart\"");

    // Near-miss: the Service exists, in the Ingress's namespace.
    none(&run(&(ingress_with_backend("{name: cart, port: {number: 80}}") + CART_SERVICE)), Code::MissingService);
    // No Service in the input at all: Service checks are skipped.
    assert!(run(&ingress_with_backend("{name: carts, port: {number: 80}}")).is_empty());
}

#[test]
fn missing_service_in_another_namespace_is_explained() {
    let yaml = ingress_with_backend("{name: cart, port: {number: 80}}") + &CART_SERVICE.replace("shop}", "other}");
    let found = only(&run(&yaml), Code::MissingService);
    has(&found.message, "exists in namespace other");
    has(&found.fix, "create Service shop/cart");
}

#[test]
fn missing_service_under_default_backend() {
    let yaml = r#"
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: web, namespace: shop}
spec:
  defaultBackend: {service: {name: fallback, port: {name: http}}}
"#
    .to_string()
        + CART_SERVICE;
    let found = only(&run(&yaml), Code::MissingService);
    assert_eq!(found.objects, vec![ingress_at("spec.defaultBackend.service.name")]);
    has(&found.message, "spec.defaultBackend.service.name");

    let clean = yaml.replace("fallback", "cart");
    assert!(run(&clean).is_empty(), "{:#?}", run(&clean));
}

#[test]
fn missing_port_name() {
    let d = run(&(ingress_with_backend("{name: cart, port: {name: htpp}}") + CART_SERVICE));
    let found = only(&d, Code::MissingPortName);
    assert_eq!(found.severity, Severity::Warning);
    assert_eq!(
        found.objects,
        vec![ingress_at(&format!("{BACKEND_FIELD}.port.name")), at("Service", Some("shop"), "cart", "spec.ports")]
    );
    has(&found.message, "Service shop/cart has no port named \"htpp\" (its ports: 80 (http), 9090 (metrics))");
    has(&found.fix, "name: \"http\"");

    // Near-miss: the Service defines the named port.
    none(&run(&(ingress_with_backend("{name: cart, port: {name: http}}") + CART_SERVICE)), Code::MissingPortName);
}

#[test]
fn missing_port_name_that_is_a_container_port() {
    let found =
        only(&run(&(ingress_with_backend("{name: cart, port: {name: prom}}") + CART_SERVICE)), Code::MissingPortName);
    has(&found.message, "\"prom\" is the targetPort");
    has(&found.fix, "name: \"metrics\" (port 9090)");
}

#[test]
fn missing_port_number() {
    let d = run(&(ingress_with_backend("{name: cart, port: {number: 8080}}") + CART_SERVICE));
    let found = only(&d, Code::MissingPortNumber);
    assert_eq!(found.severity, Severity::Warning);
    assert_eq!(
        found.objects,
        vec![ingress_at(&format!("{BACKEND_FIELD}.port.number")), at("Service", Some("shop"), "cart", "spec.ports")]
    );
    has(&found.message, "Service shop/cart does not expose port 8080");
    has(&found.message, "8080 is the targetPort (the container port) of its port 80 (http)");
    has(&found.fix, "port.number to 80");

    // Near-miss: the Service port, not the container port.
    none(&run(&(ingress_with_backend("{name: cart, port: {number: 9090}}") + CART_SERVICE)), Code::MissingPortNumber);
}

#[test]
fn service_without_ports() {
    let service = "\n---\napiVersion: v1\nkind: Service\nmetadata: {name: cart, namespace: shop}\nspec: {selector: {app: cart}}\n";
    let d = run(&(ingress_with_backend("{name: cart, port: {name: http}}") + service));
    let found = only(&d, Code::ServiceWithoutPorts);
    assert_eq!(found.severity, Severity::Warning);
    assert_eq!(
        found.objects,
        vec![ingress_at(&format!("{BACKEND_FIELD}.name")), at("Service", Some("shop"), "cart", "spec.ports")]
    );
    has(&found.message, "Service shop/cart defines no ports");
    has(&found.fix, "spec.ports");
    // The port checks do not pile on.
    none(&d, Code::MissingPortName);

    // Near-miss: a Service with ports.
    none(&run(&(ingress_with_backend("{name: cart, port: {name: http}}") + CART_SERVICE)), Code::ServiceWithoutPorts);
}

#[test]
fn external_name_backend() {
    let service = "\n---\napiVersion: v1\nkind: Service\nmetadata: {name: cart, namespace: shop}\n\
                   spec: {type: ExternalName, externalName: cart.example.net}\n";
    let d = run(&(ingress_with_backend("{name: cart, port: {number: 443}}") + service));
    let found = only(&d, Code::ExternalNameBackend);
    assert_eq!(found.severity, Severity::Warning);
    assert_eq!(
        found.objects,
        vec![ingress_at(&format!("{BACKEND_FIELD}.name")), at("Service", Some("shop"), "cart", "spec.externalName")]
    );
    has(&found.message, "ExternalName (\"cart.example.net\")");
    has(&found.fix, "ClusterIP Service");
    // ExternalName Services need no ports.
    assert_eq!(d.len(), 1, "{d:#?}");

    // Near-miss: a ClusterIP Service.
    none(&run(&(ingress_with_backend("{name: cart, port: {number: 80}}") + CART_SERVICE)), Code::ExternalNameBackend);
}

// --- IngressClass ---------------------------------------------------------------------------

const CLASSES: &str = r#"
---
apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata:
  name: nginx
spec: {controller: k8s.io/ingress-nginx}
---
apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata:
  name: traefik
spec: {controller: traefik.io/ingress-controller}
"#;

fn ingress_with_class(class: &str) -> String {
    ingress_with_backend("{name: cart, port: {number: 80}}")
        .replace("spec:\n", &format!("spec:\n  ingressClassName: {class}\n"))
}

#[test]
fn unknown_ingress_class() {
    let d = run(&(ingress_with_class("ngnix") + CLASSES));
    let found = only(&d, Code::UnknownIngressClass);
    assert_eq!(found.severity, Severity::Warning);
    assert_eq!(found.objects, vec![ingress_at("spec.ingressClassName")]);
    has(&found.message, "no IngressClass named \"ngnix\" in the input (IngressClasses: nginx, traefik)");
    has(&found.message, "did you mean \"nginx\"?");
    assert_eq!(found.fix, "set spec.ingressClassName to \"nginx\"");

    // Near-miss: the class exists.
    none(&run(&(ingress_with_class("nginx") + CLASSES)), Code::UnknownIngressClass);
    // No IngressClass in the input: nothing to check against.
    none(&run(&ingress_with_class("ngnix")), Code::UnknownIngressClass);
    // The served class itself: the compiler reports it (class-not-served), not the lint.
    none(&run_for_class(&(ingress_with_class("haproxy") + CLASSES), "haproxy"), Code::UnknownIngressClass);
}

#[test]
fn multiple_default_classes() {
    let defaults = CLASSES.replace(
        "metadata:\n  name: ",
        "metadata:\n  annotations: {ingressclass.kubernetes.io/is-default-class: \"true\"}\n  name: ",
    );
    let d = run(&defaults);
    let found = only(&d, Code::MultipleDefaultClasses);
    assert_eq!(found.severity, Severity::Warning);
    let field = "metadata.annotations[ingressclass.kubernetes.io/is-default-class]";
    assert_eq!(
        found.objects,
        vec![at("IngressClass", None, "nginx", field), at("IngressClass", None, "traefik", field)]
    );
    has(&found.message, "2 IngressClasses are marked default");
    has(&found.message, "nginx, traefik");
    has(&found.fix, "on one IngressClass only");

    // Near-miss: one default.
    let one = CLASSES.replacen(
        "metadata:\n  name: ",
        "metadata:\n  annotations: {ingressclass.kubernetes.io/is-default-class: \"true\"}\n  name: ",
        1,
    );
    assert!(run(&one).is_empty(), "{:#?}", run(&one));
}

#[test]
fn deprecated_class_annotation() {
    let legacy = ingress_with_backend("{name: cart, port: {number: 80}}").replace(
        "metadata: {name: web, namespace: shop}",
        "metadata:\n  name: web\n  namespace: shop\n  annotations: {kubernetes.io/ingress.class: nginx}",
    );
    let d = run(&legacy);
    let found = only(&d, Code::DeprecatedClassAnnotation);
    assert_eq!(found.severity, Severity::Note);
    assert_eq!(found.objects, vec![ingress_at("metadata.annotations[kubernetes.io/ingress.class]")]);
    has(&found.message, "deprecated");
    assert_eq!(found.fix, "set spec.ingressClassName: nginx and remove the annotation kubernetes.io/ingress.class");

    // Near-miss: spec.ingressClassName alone.
    none(&run(&ingress_with_class("nginx")), Code::DeprecatedClassAnnotation);
    // Annotation and field disagreeing is a validation error, not this note.
    let disagree = legacy.replace("spec:\n", "spec:\n  ingressClassName: traefik\n");
    none(&run(&disagree), Code::DeprecatedClassAnnotation);
    // Agreeing: the annotation is only redundant.
    let agree = legacy.replace("spec:\n", "spec:\n  ingressClassName: nginx\n");
    has(&only(&run(&agree), Code::DeprecatedClassAnnotation).fix, "remove the annotation");
}

// --- TLS ------------------------------------------------------------------------------------

fn tls_ingress(tls: &str, hosts: &[&str]) -> String {
    let mut yaml = format!(
        "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {{name: web, namespace: shop}}\nspec:\n  tls: {tls}\n  rules:\n"
    );
    for host in hosts {
        yaml.push_str(&format!(
            "  - host: \"{host}\"\n    http: {{paths: [{{path: /, pathType: Prefix, backend: {{service: {{name: cart, port: {{number: 80}}}}}}}}]}}\n"
        ));
    }
    yaml
}

#[test]
fn tls_host_without_rule() {
    let d = run(&tls_ingress(
        r#"[{hosts: [shop.example.com, api.example.com], secretName: shop-tls}]"#,
        &["shop.example.com"],
    ));
    let found = only(&d, Code::TlsHostWithoutRule);
    assert_eq!(found.severity, Severity::Warning);
    assert_eq!(found.objects, vec![ingress_at("spec.tls[0].hosts[1]")]);
    has(&found.message, "\"api.example.com\" matches no rule host of this Ingress (rule hosts: shop.example.com)");
    has(&found.fix, "add a rule with host \"api.example.com\"");

    // Near-miss: a wildcard rule serves the TLS host, and a wildcard TLS host serves the rule host.
    let clean = run(&tls_ingress(
        r#"[{hosts: [a.example.com, "*.example.org"], secretName: t}]"#,
        &["*.example.com", "b.example.org"],
    ));
    assert!(clean.is_empty(), "{clean:#?}");
}

#[test]
fn host_without_tls() {
    let d = run(&tls_ingress(
        r#"[{hosts: [shop.example.com], secretName: shop-tls}]"#,
        &["shop.example.com", "admin.example.com"],
    ));
    let found = only(&d, Code::HostWithoutTls);
    assert_eq!(found.severity, Severity::Warning);
    assert_eq!(found.objects, vec![ingress_at("spec.rules[1].host")]);
    has(
        &found.message,
        "\"admin.example.com\" has no TLS entry while this Ingress terminates TLS for shop.example.com",
    );
    has(&found.fix, "add \"admin.example.com\" to spec.tls[].hosts");

    // Near-miss: a wildcard TLS host covers both.
    none(
        &run(&tls_ingress(
            r#"[{hosts: ["*.example.com"], secretName: t}]"#,
            &["shop.example.com", "admin.example.com"],
        )),
        Code::HostWithoutTls,
    );
    // A TLS entry without hosts covers every host.
    none(&run(&tls_ingress(r#"[{secretName: t}]"#, &["shop.example.com", "admin.example.com"])), Code::HostWithoutTls);
}

#[test]
fn tls_without_secret() {
    let d = run(&tls_ingress(r#"[{hosts: [shop.example.com]}]"#, &["shop.example.com"]));
    let found = only(&d, Code::TlsWithoutSecret);
    assert_eq!(found.severity, Severity::Note);
    assert_eq!(found.objects, vec![ingress_at("spec.tls[0].secretName")]);
    has(&found.message, "no secretName");
    has(&found.message, "default certificate");
    has(&found.fix, "set spec.tls[0].secretName");
    assert_eq!(d.len(), 1, "{d:#?}");

    none(
        &run(&tls_ingress(r#"[{hosts: [shop.example.com], secretName: shop-tls}]"#, &["shop.example.com"])),
        Code::TlsWithoutSecret,
    );
}

// --- Annotations ----------------------------------------------------------------------------

fn annotated(key: &str, value: &str) -> String {
    ingress_with_backend("{name: cart, port: {number: 80}}").replace(
        "metadata: {name: web, namespace: shop}",
        &format!("metadata:\n  name: web\n  namespace: shop\n  annotations: {{\"{key}\": \"{value}\"}}"),
    )
}

#[test]
fn unknown_annotation() {
    let d = run(&annotated("nginx.ingress.kubernetes.io/rewrite-targt", "/"));
    let found = only(&d, Code::UnknownAnnotation);
    assert_eq!(found.severity, Severity::Warning);
    assert_eq!(found.objects, vec![ingress_at("metadata.annotations[nginx.ingress.kubernetes.io/rewrite-targt]")]);
    has(&found.message, "ingress-nginx has no annotation \"rewrite-targt\" and ignores it");
    has(&found.message, "did you mean nginx.ingress.kubernetes.io/rewrite-target?");
    assert_eq!(found.fix, "rename the annotation to nginx.ingress.kubernetes.io/rewrite-target");

    // Nothing close: no suggestion, still a warning.
    let far = run(&annotated("nginx.ingress.kubernetes.io/make-it-fast", "true"));
    assert!(!only(&far, Code::UnknownAnnotation).message.contains("did you mean"));

    // Near-miss: correctly spelled.
    assert!(run(&annotated("nginx.ingress.kubernetes.io/ssl-redirect", "false")).is_empty());
    // Other prefixes are not ingress-nginx's business.
    assert!(run(&annotated("alb.ingress.kubernetes.io/scheme", "internet-facing")).is_empty());
}

#[test]
fn newer_release_annotation() {
    let d = run(&annotated("nginx.ingress.kubernetes.io/relative-redirects", "true"));
    assert_eq!(d.len(), 1, "only the note: {d:#?}");
    let found = only(&d, Code::NewerReleaseAnnotation);
    assert_eq!(found.severity, Severity::Note);
    assert_eq!(found.objects, vec![ingress_at("metadata.annotations[nginx.ingress.kubernetes.io/relative-redirects]")]);
    has(&found.message, "since controller v1.13.0");
    has(&found.fix, "v1.13.0 or newer");

    // Near-miss: long-standing keys are not "newer" (the old hand-made list called these so).
    for key in ["enable-opentelemetry", "session-cookie-max-age", "auth-signin", "limit-rpm"] {
        assert!(run(&annotated(&format!("{NGINX_PREFIX}{key}"), "1")).is_empty(), "{key}");
    }
}

#[test]
fn removed_annotation() {
    let d = run(&annotated("nginx.ingress.kubernetes.io/enable-opentracing", "true"));
    let found = only(&d, Code::RemovedAnnotation);
    assert_eq!(found.severity, Severity::Warning);
    has(&found.message, "v1.10.2 and later no longer read it");
    has(&found.fix, "remove the annotation");
    // Near-miss: the key that replaced it.
    none(&run(&annotated("nginx.ingress.kubernetes.io/enable-opentelemetry", "true")), Code::RemovedAnnotation);
    // Keys of old blog posts are removed keys, not typos.
    let d = run(&annotated("nginx.ingress.kubernetes.io/secure-backends", "true"));
    has(&only(&d, Code::RemovedAnnotation).message, "controller v0.21.0 and later no longer read it");
    none(&d, Code::UnknownAnnotation);
}

#[test]
fn other_controllers_annotations_are_recognised() {
    for key in [
        "alb.ingress.kubernetes.io/scheme",
        "alb.ingress.kubernetes.io/actions.ssl-redirect",
        "alb.ingress.kubernetes.io/conditions.web",
        "kubernetes.io/ingress.global-static-ip-name",
        "networking.gke.io/managed-certificates",
        "traefik.ingress.kubernetes.io/router.middlewares",
        "haproxy.org/path-rewrite",
        "projectcontour.io/response-timeout",
        "konghq.com/strip-path",
        "nginx.org/rewrites",
        "appgw.ingress.kubernetes.io/backend-path-prefix",
        "cert-manager.io/cluster-issuer",
        "external-dns.alpha.kubernetes.io/hostname",
        "argocd.argoproj.io/sync-wave",
        "meta.helm.sh/release-name",
        "kubectl.kubernetes.io/last-applied-configuration",
    ] {
        let d = run(&annotated(key, "x"));
        none(&d, Code::UnknownAnnotation);
        none(&d, Code::MisspelledAnnotationPrefix);
    }
}

#[test]
fn other_controllers_typos_get_a_did_you_mean() {
    let d = run(&annotated("alb.ingress.kubernetes.io/healthcheck-pth", "/healthz"));
    let found = only(&d, Code::UnknownAnnotation);
    has(&found.message, "the AWS Load Balancer Controller documents no annotation \"healthcheck-pth\"");
    has(&found.message, "did you mean alb.ingress.kubernetes.io/healthcheck-path?");
    let d = run(&annotated("cert-manager.io/cluster-isuer", "letsencrypt"));
    has(&only(&d, Code::UnknownAnnotation).fix, "cert-manager.io/cluster-issuer");
    // Near-miss: a key far from every listed one is not called a typo (the lists are not exhaustive).
    assert!(run(&annotated("traefik.ingress.kubernetes.io/some-future-option", "x")).is_empty());
}

// --- Paths ----------------------------------------------------------------------------------

fn path_ingress(path: &str, path_type: &str) -> String {
    ingress_with_backend("{name: cart, port: {number: 80}}")
        .replace("{path: /, pathType: Prefix,", &format!("{{path: \"{path}\", pathType: {path_type},"))
}

#[test]
fn regex_path_literal() {
    let d = run(&path_ingress("/api/(.*)", "Prefix"));
    let found = only(&d, Code::RegexPathLiteral);
    assert_eq!(found.severity, Severity::Warning);
    assert_eq!(found.objects, vec![ingress_at("spec.rules[0].http.paths[0].path")]);
    has(&found.message, "\"/api/(.*)\" looks like a regular expression, but pathType Prefix matches it literally");
    has(&found.message, "path /api/(.*) cannot be used with pathType Prefix");
    has(&found.fix, "pathType: ImplementationSpecific with nginx.ingress.kubernetes.io/use-regex: \"true\"");
    has(&found.fix, "\"/api\"");

    for path in ["/foo/.*", "/v1/users/[0-9]+", "/a|b", "^/x$", "/*.php"] {
        only(&run(&path_ingress(path, "Exact")), Code::RegexPathLiteral);
    }

    // Near-miss: the same path under ImplementationSpecific, and a plain path with dots.
    assert!(run(&path_ingress("/api/(.*)", "ImplementationSpecific")).is_empty());
    assert!(run(&path_ingress("/v1.0/index.html", "Prefix")).is_empty());
}

#[test]
fn regex_path_literal_with_use_regex_names_the_annotation() {
    let yaml = path_ingress("/api/(.*)", "Prefix").replace(
        "metadata: {name: web, namespace: shop}",
        "metadata:\n  name: web\n  namespace: shop\n  annotations: {nginx.ingress.kubernetes.io/use-regex: \"true\"}",
    );
    let found = only(&run(&yaml), Code::RegexPathLiteral);
    has(&found.message, "only because use-regex or rewrite-target is set for host shop.example.com");
}

// --- Scope and order ------------------------------------------------------------------------

#[test]
fn ingresses_of_another_class_get_only_class_checks() {
    let yaml = ingress_with_class("traefik").replace("{path: /,", "{path: /a+,") + CLASSES;
    none(&run_for_class(&yaml, "nginx"), Code::RegexPathLiteral);
    only(&run_for_class(&yaml, "traefik"), Code::RegexPathLiteral);
    only(&run(&yaml), Code::RegexPathLiteral);
}

#[test]
fn order_is_by_object_then_field() {
    let mut paths = String::new();
    for i in 0..11 {
        paths.push_str(&format!("      - {{path: \"/p{i}/*\", pathType: Prefix, backend: {{service: {{name: cart, port: {{number: 80}}}}}}}}\n"));
    }
    let two = |name: &str| {
        format!(
            "---\napiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {{name: {name}, namespace: shop}}\nspec:\n  rules:\n  - http:\n      paths:\n{paths}"
        )
    };
    let yaml = two("b") + &two("a");
    // The same paths twice are also duplicates (the table's own diagnostics, listed first).
    let lint_only = |d: Vec<Diagnostic>| {
        d.into_iter().filter(|d| !matches!(d.code, Code::DuplicatePath | Code::UnreachablePath)).collect::<Vec<_>>()
    };
    let d = lint_only(run(&yaml));
    assert_eq!(d.len(), 22, "{d:#?}");
    let order: Vec<String> = d.iter().map(|d| format!("{}", d.objects[0])).collect();
    assert_eq!(order[0], "Ingress shop/a (spec.rules[0].http.paths[0].path)");
    assert_eq!(order[2], "Ingress shop/a (spec.rules[0].http.paths[2].path)");
    assert_eq!(order[10], "Ingress shop/a (spec.rules[0].http.paths[10].path)");
    assert_eq!(order[11], "Ingress shop/b (spec.rules[0].http.paths[0].path)");
    assert_eq!(lint_only(run(&yaml)), d, "deterministic");
}
