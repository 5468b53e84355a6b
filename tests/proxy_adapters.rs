//! What a proxy adapter (the Envoy filter, `envoy-config`) asks the core instead of deciding
//! itself: the cluster name of each backend, whether the table reads the scheme and which
//! headers, and which side of a weighted split a random number picks.

use ingress_router::input::Input;
use ingress_router::options::ClusterNames;
use ingress_router::{CompileOptions, Request, Router, input};

/// The one entry point, for inputs that compile.
fn compile(input: &Input, options: &CompileOptions) -> Router {
    ingress_router::compile(input, options).expect("the input compiles")
}

const SHOP: &str = r#"
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: storefront, namespace: shop}
spec:
  defaultBackend: {service: {name: web, port: {name: http}}}
  rules:
  - host: shop.example.com
    http:
      paths:
      - {path: /cart, pathType: Prefix, backend: {service: {name: cart, port: {number: 8080}}}}
      - {path: /assets, pathType: Prefix, backend: {resource: {apiGroup: k8s.example.com, kind: Bucket, name: assets}}}
"#;

fn objects(yaml: &str) -> Input {
    input::parse("test.yaml", yaml).unwrap()
}

/// The cluster name of every answer, as an adapter renders them ahead of time.
fn answer_names(router: &Router, names: &ClusterNames) -> Vec<String> {
    (0..router.answer_count()).map(|a| names.name(&router.answer(a).unwrap().backend().unwrap())).collect()
}

#[test]
fn cluster_names_of_a_table() {
    let router = compile(&objects(SHOP), &CompileOptions::default());
    let defaults = answer_names(&router, &ClusterNames::default());
    assert_eq!(defaults, ["shop/cart:8080", "shop/resource/k8s.example.com/Bucket/assets", "shop/web:http"]);
    let custom = ClusterNames::default()
        .with_service_template("{service}.{namespace}.svc:{port}")
        .unwrap()
        .with_resource_template("{apiGroup}|{kind}|{name}")
        .unwrap();
    assert_eq!(
        answer_names(&router, &custom),
        ["cart.shop.svc:8080", "k8s.example.com|Bucket|assets", "web.shop.svc:http"]
    );
}

#[test]
fn default_templates_are_the_constants() {
    let by_constants = ClusterNames::default()
        .with_service_template(ClusterNames::SERVICE_DEFAULT)
        .unwrap()
        .with_resource_template(ClusterNames::RESOURCE_DEFAULT)
        .unwrap();
    assert_eq!(by_constants, ClusterNames::default());
    assert_eq!(ClusterNames::SERVICE_DEFAULT, "{namespace}/{service}:{port}");
    assert_eq!(ClusterNames::RESOURCE_DEFAULT, "{namespace}/resource/{apiGroup}/{kind}/{name}");
}

#[test]
fn template_errors_say_what_is_wrong() {
    let names = ClusterNames::default();
    let error = names.clone().with_service_template("{namespace}/{name}").unwrap_err().to_string();
    assert!(error.contains("{name}") && error.contains("{service}"), "{error}");
    let error = names.clone().with_resource_template("{port}").unwrap_err().to_string();
    assert!(error.contains("{port}") && error.contains("{apiGroup}"), "{error}");
    assert!(names.clone().with_service_template("a{b").unwrap_err().to_string().contains("without '}'"));
    assert!(names.with_resource_template("").unwrap_err().to_string().contains("empty"));
}

/// The spec profile reads neither the scheme nor a header: a proxy fetches neither, and a
/// decision is never a split.
#[test]
fn spec_profile_reads_only_host_and_path() {
    let router = compile(&objects(SHOP), &CompileOptions::default());
    assert!(!router.reads_scheme());
    assert!(router.header_names().is_empty());
    let decision = router.route(&Request::new("shop.example.com", "/cart"));
    assert_eq!(decision.pick_side(0), None);
    assert_eq!(decision.pick_side(u64::MAX), None);
}

#[cfg(feature = "nginx")]
mod nginx {
    use super::*;
    use ingress_router::{Decision, Profile, Scheme};

    /// A main Ingress and its canary taking `weight` out of `total`, over TLS (so that plain
    /// http is redirected) with a canary header.
    fn canary(weight: u32, total: u32) -> Router {
        let yaml = format!(
            r#"
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {{name: checkout, namespace: pay}}
spec:
  tls: [{{hosts: [pay.example.com]}}]
  rules:
  - host: pay.example.com
    http: {{paths: [{{path: /, pathType: Prefix, backend: {{service: {{name: main, port: {{number: 80}}}}}}}}]}}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: checkout-canary
  namespace: pay
  annotations:
    nginx.ingress.kubernetes.io/canary: "true"
    nginx.ingress.kubernetes.io/canary-by-header: X-Canary
    nginx.ingress.kubernetes.io/canary-weight: "{weight}"
    nginx.ingress.kubernetes.io/canary-weight-total: "{total}"
spec:
  rules:
  - host: pay.example.com
    http: {{paths: [{{path: /, pathType: Prefix, backend: {{service: {{name: canary, port: {{number: 80}}}}}}}}]}}
"#
        );
        compile(&objects(&yaml), &CompileOptions::default().with_profile(Profile::IngressNginx))
    }

    fn split(router: &Router) -> Decision<'_> {
        let decision = router.route(&Request::new("pay.example.com", "/").with_scheme(Scheme::Https));
        assert!(decision.split().is_some(), "{decision:?}");
        decision
    }

    fn side_name(decision: &Decision<'_>, random: u64) -> String {
        decision.pick_side(random).unwrap().backend.to_string()
    }

    #[test]
    fn nginx_profile_reads_the_scheme_and_the_canary_header() {
        let router = canary(10, 100);
        assert!(router.reads_scheme());
        assert_eq!(router.header_names(), ["x-canary"]);
        // It does read the scheme: the same request over http is redirected.
        assert!(router.route(&Request::new("pay.example.com", "/")).redirect().is_some());
        assert!(split(&router).redirect().is_none());
    }

    /// 2^16 values, evenly spaced over the whole `u64` range: each side is picked for its weight's
    /// share of them, to within one value.
    #[test]
    fn sides_are_picked_in_proportion_to_their_weights() {
        const SAMPLES: u64 = 1 << 16;
        for (weight, total) in [(10, 100), (25, 100), (50, 100), (99, 100), (1, 1000), (999, 1000), (1234, 4096)] {
            let router = canary(weight, total);
            let decision = split(&router);
            let sides = decision.split().unwrap();
            assert_eq!((sides[0].weight, sides[1].weight), (total - weight, weight));
            let to_canary =
                (0..SAMPLES).filter(|i| decision.pick_side(i << 48).unwrap().answer == sides[1].answer).count() as f64;
            let expected = SAMPLES as f64 * f64::from(weight) / f64::from(total);
            assert!(
                (to_canary - expected).abs() <= 1.0,
                "{weight}/{total}: {to_canary} of {SAMPLES}, expected {expected}"
            );
        }
    }

    /// The first side takes the low values, the second the high ones, and the edges are exact.
    #[test]
    fn the_range_is_cut_at_the_weights() {
        let router = canary(25, 100);
        let decision = split(&router);
        assert_eq!(side_name(&decision, 0), "main:80");
        assert_eq!(side_name(&decision, (3 << 62) - 1), "main:80");
        assert_eq!(side_name(&decision, 3 << 62), "canary:80");
        assert_eq!(side_name(&decision, u64::MAX), "canary:80");
    }
}
