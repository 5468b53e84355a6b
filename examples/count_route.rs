// Throwaway: instructions per route() call, Gateway API and ingress-nginx profile (callgrind).
use ingress_router::gateway::{self, GatewayOptions, GatewayRequest, Objects};
use ingress_router::{CompileOptions, Profile, Request, compile, input};
use serde_json::{Value, json};
use std::hint::black_box;

fn main() {
    let n: usize = std::env::args().nth(1).unwrap().parse().unwrap();
    let mut values = vec![json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway",
        "metadata": {"name": "gw", "namespace": "infra"},
        "spec": {"gatewayClassName": "c", "listeners": [{"name": "http", "port": 80, "protocol": "HTTP",
                 "allowedRoutes": {"namespaces": {"from": "All"}}}]}})];
    for r in 0..1000 {
        let rules: Vec<Value> = (0..8).map(|j| json!({"matches": [
            {"path": {"type": "PathPrefix", "value": format!("/api/v{j}/items")}, "headers": [{"name": "x-env", "value": "prod"}]},
            {"path": {"type": "Exact", "value": format!("/e{j}")}}],
            "backendRefs": [{"name": format!("s{j}"), "port": 80}]})).collect();
        let mut rules = rules;
        rules.push(json!({"matches": [{"path": {"type": "RegularExpression", "value": "/re/[0-9]+/x"}}], "backendRefs": [{"name": "re", "port": 80}]}));
        values.push(json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
            "metadata": {"name": format!("r{r}"), "namespace": "apps"},
            "spec": {"parentRefs": [{"name": "gw", "namespace": "infra"}],
                     "hostnames": [format!("host{r}.example.com"), format!("*.t{r}.example.com")], "rules": rules}}));
    }
    let router = gateway::compile(&Objects::from_values(&values), &GatewayOptions::default());
    let headers = [("x-env", "prod")];
    let reqs = [
        GatewayRequest::new("host500.example.com", "/api/v7/items/1").with_headers(&headers),
        GatewayRequest::new("a.b.t999.example.com", "/e3"),
        GatewayRequest::new("host7.example.com", "/re/123/x"),
        GatewayRequest::new("nohost.example.org", "/"),
    ];
    let mut yaml = String::new();
    for h in 0..50 {
        yaml.push_str(&format!("apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {{name: i{h}, namespace: n, annotations: {{nginx.ingress.kubernetes.io/use-regex: \"true\"}}}}\nspec:\n  ingressClassName: nginx\n  rules:\n  - host: h{h}.example.com\n    http:\n      paths:\n      - {{path: \"/v[0-9]+/users\", pathType: ImplementationSpecific, backend: {{service: {{name: u, port: {{number: 80}}}}}}}}\n      - {{path: /orders, pathType: Prefix, backend: {{service: {{name: o, port: {{number: 80}}}}}}}}\n---\n"));
    }
    let objects = input::parse("x.yaml", &yaml).unwrap().into_objects();
    let nginx = compile(&objects, &CompileOptions::default().with_profile(Profile::IngressNginx));
    let nreqs = [Request::new("h7.example.com", "/v2/users/9"), Request::new("h7.example.com", "/orders/1")];
    let which = std::env::args().nth(2).unwrap();
    let mut sum = 0usize;
    for i in 0..n {
        if which == "gateway" {
            sum += black_box(&router).route(black_box(&reqs[i % 4])).status() as usize;
        } else {
            sum += black_box(&nginx).route(black_box(&nreqs[i % 2])).answer_slot().unwrap_or(7);
        }
    }
    println!("{sum}");
}
