//! `ingress-router envoy-config`: the Envoy bootstrap it writes (the real Envoy runs it in
//! `make test-envoy`; here its shape, clusters, named ports and the native routes' order).

use std::process::Command;

use ingress_router::model::Object;
use ingress_router::{ClusterNames, CompileOptions, compile, input};
use serde_json::Value;

const SHOP: &str = "examples/shop/manifests";

fn run(args: &[&str]) -> (i32, Value, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ingress-router"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let json = serde_json::from_str(&stdout).unwrap_or(Value::Null);
    (out.status.code().unwrap_or(-1), json, String::from_utf8_lossy(&out.stderr).into_owned())
}

fn hcm(config: &Value) -> &Value {
    &config["static_resources"]["listeners"][0]["filter_chains"][0]["filters"][0]["typed_config"]
}

fn cluster_names(config: &Value) -> Vec<&str> {
    config["static_resources"]["clusters"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect()
}

#[test]
fn filter_bootstrap() {
    let (code, config, stderr) = run(&["envoy-config", "-f", SHOP, "--wasm", "/x.wasm", "--ingress-class", "nginx"]);
    assert_eq!(code, 0, "{stderr}");
    let hcm = hcm(&config);
    assert_eq!(hcm["normalize_path"], true);
    assert_eq!(hcm["merge_slashes"], true);
    assert_eq!(hcm["path_with_escaped_slashes_action"], "REJECT_REQUEST");
    // An edge proxy: a client cannot claim https through x-forwarded-proto.
    assert_eq!(hcm["use_remote_address"], true);
    assert_eq!(
        hcm["early_header_mutation_extensions"][0]["typed_config"]["mutations"][0]["remove"],
        "x-ingress-backend"
    );
    assert_eq!(hcm["route_config"]["virtual_hosts"][0]["routes"][0]["route"]["cluster_header"], "x-ingress-backend");
    let wasm = &hcm["http_filters"][0]["typed_config"]["config"];
    assert_eq!(wasm["failure_policy"], "FAIL_RELOAD");
    assert_eq!(wasm["vm_config"]["runtime"], "envoy.wasm.runtime.v8");
    assert_eq!(wasm["vm_config"]["code"]["local"]["filename"], "/x.wasm");
    let plugin: Value = serde_json::from_str(wasm["configuration"]["value"].as_str().unwrap()).unwrap();
    assert_eq!(plugin["ingressClass"], "nginx");
    // The manifests are embedded without the Services (only the filter reads them).
    let kinds: Vec<&str> = plugin["manifests"].as_array().unwrap().iter().filter_map(|o| o["kind"].as_str()).collect();
    assert!(kinds.contains(&"Ingress") && !kinds.contains(&"Service"), "{kinds:?}");
    assert_eq!(hcm["http_filters"][1]["name"], "envoy.filters.http.router");

    // One cluster per referenced Service port, named as the filter names it (port as written),
    // pointing at the Service's DNS name and port number (named ports through the Service).
    let names = cluster_names(&config);
    assert!(names.contains(&"shop/cart-api:80"), "{names:?}");
    let api_v1 =
        config["static_resources"]["clusters"].as_array().unwrap().iter().find(|c| c["name"] == "shop/api-v1:http");
    let address = &api_v1.expect("named-port cluster")["load_assignment"]["endpoints"][0]["lb_endpoints"][0]["endpoint"]
        ["address"]["socket_address"];
    assert_eq!(address["address"], "api-v1.shop.svc.cluster.local");
    assert_eq!(address["port_value"], 8080);
}

#[test]
fn named_port_without_service_is_a_clear_error() {
    let (code, _, stderr) = run(&["envoy-config", "-f", "examples/shop/manifests/api.yaml", "--wasm", "/x.wasm"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("Ingress shop/api spec.rules[0].http.paths[0]") && stderr.contains("\"http\""), "{stderr}");
    // An upstream without {port} needs no resolution.
    let (code, config, stderr) = run(&[
        "envoy-config",
        "-f",
        "examples/shop/manifests/api.yaml",
        "--wasm",
        "/x.wasm",
        "--upstream",
        "127.0.0.1:8080",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(cluster_names(&config).contains(&"shop/api-v1:http"));
}

#[test]
fn native_routes_follow_the_table_order() {
    let (code, config, stderr) =
        run(&["envoy-config", "-f", SHOP, "--wasm", "/x.wasm", "--native", "--ingress-class", "nginx"]);
    assert_eq!(code, 0, "{stderr}");
    let hcm = hcm(&config);
    assert_eq!(hcm["http_filters"].as_array().unwrap().len(), 1, "no wasm filter in native mode");
    let vhosts = hcm["route_config"]["virtual_hosts"].as_array().unwrap();
    let shop = vhosts.iter().find(|v| v["name"] == "shop.example.com").expect("a virtual host per host");
    let matchers: Vec<String> = shop["routes"].as_array().unwrap().iter().map(|r| r["match"].to_string()).collect();
    // Precedence: the Exact /cart/checkout (longer) before the Prefix /cart, the defaultBackend last.
    let checkout = matchers.iter().position(|m| m.contains("\"path\":\"/cart/checkout\"")).expect("exact route");
    let cart = matchers.iter().position(|m| m.contains("\"path_separated_prefix\":\"/cart\"")).expect("prefix route");
    assert!(checkout < cart, "{matchers:?}");
    assert_eq!(matchers.last().unwrap(), r#"{"prefix":"/"}"#);
    assert_eq!(shop["routes"].as_array().unwrap().last().unwrap()["route"]["cluster"], "shop/web:80");
    // A wildcard covers one label: its routes are guarded, and deeper hosts fall through to the host-less rules.
    let tenants = vhosts.iter().find(|v| v["name"] == "*.shop.example.com").expect("wildcard virtual host");
    let first = &tenants["routes"][0]["match"];
    assert!(
        first["headers"][0]["string_match"]["safe_regex"]["regex"].as_str().unwrap().starts_with("(?i)^[^.:]+\\.shop")
    );
    assert!(
        tenants["routes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["match"]["path"] == "/status" && r["match"]["headers"].is_null())
    );
    assert_eq!(vhosts.last().unwrap()["domains"][0], "*");
}

/// The profile reaches the filter's configuration, with a cluster for each canary backend; native
/// routes cannot express it and say so.
#[test]
fn ingress_nginx_profile() {
    let file = "tests/data/nginx/canary.yaml";
    let (code, config, stderr) = run(&["envoy-config", "-f", file, "--wasm", "/x.wasm", "--profile", "ingress-nginx"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(cluster_names(&config), ["pay/checkout-v2:80", "pay/checkout:80"]);
    let wasm = &hcm(&config)["http_filters"][0]["typed_config"]["config"]["configuration"]["value"];
    let plugin: Value = serde_json::from_str(wasm.as_str().expect("the plugin configuration is JSON text")).unwrap();
    assert_eq!(plugin["profile"], "ingress-nginx");
    let (_, spec, _) = run(&["envoy-config", "-f", file, "--wasm", "/x.wasm"]);
    let wasm = &hcm(&spec)["http_filters"][0]["typed_config"]["config"]["configuration"]["value"];
    assert!(serde_json::from_str::<Value>(wasm.as_str().unwrap()).unwrap().get("profile").is_none());
    let (code, _, stderr) =
        run(&["envoy-config", "-f", file, "--wasm", "/x.wasm", "--native", "--profile", "ingress-nginx"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--native") && stderr.contains("ingress-nginx"), "{stderr}");
}

/// The clusters written are the ones the filter routes to: the core's default names of every
/// backend the filter's own configuration (which sets no template) can answer with.
#[test]
fn clusters_are_named_as_the_filter_names_them() {
    let (code, config, stderr) = run(&["envoy-config", "-f", SHOP, "--wasm", "/x.wasm", "--ingress-class", "nginx"]);
    assert_eq!(code, 0, "{stderr}");
    let wasm = &hcm(&config)["http_filters"][0]["typed_config"]["config"]["configuration"]["value"];
    let plugin: Value = serde_json::from_str(wasm.as_str().unwrap()).unwrap();
    assert!(plugin.get("clusterTemplate").is_none() && plugin.get("resourceClusterTemplate").is_none());
    let objects: Vec<Object> = plugin["manifests"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|o| input::parse("manifest.json", &o.to_string()).unwrap().into_objects())
        .collect();
    let router = compile(&objects, &CompileOptions::default().with_ingress_class("nginx"));
    let names = ClusterNames::default();
    let mut expected: Vec<String> =
        (0..router.answer_count()).filter_map(|a| Some(names.name(&router.answer(a)?.backend()?))).collect();
    expected.sort();
    expected.dedup();
    assert!(expected.iter().any(|n| n.contains("/resource/")), "{expected:?}");
    assert_eq!(cluster_names(&config), expected);
}
