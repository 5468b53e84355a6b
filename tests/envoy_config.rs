//! `ingress-router envoy-config`: the Envoy bootstrap it writes (the real Envoy runs it in
//! `make test-envoy`; here its shape, clusters, named ports and the native routes' order).

use std::process::Command;

use ingress_router::Router;
use ingress_router::input::Input;
use ingress_router::options::ClusterNames;
use ingress_router::{CompileOptions, input};
use serde_json::Value;

/// The one entry point, for inputs that compile.
fn compile(input: &Input, options: &CompileOptions) -> Router {
    ingress_router::compile(input, options).expect("the input compiles")
}

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
    let mut manifests = Input::default();
    for o in plugin["manifests"].as_array().unwrap() {
        manifests.extend(input::parse("manifest.json", &o.to_string()).unwrap());
    }
    let router = compile(&manifests, &CompileOptions::default().with_ingress_class("nginx"));
    let names = ClusterNames::default();
    let mut expected: Vec<String> =
        (0..router.answer_count()).filter_map(|a| Some(names.name(&router.answer(a)?.backend()?))).collect();
    expected.sort();
    expected.dedup();
    assert!(expected.iter().any(|n| n.contains("/resource/")), "{expected:?}");
    assert_eq!(cluster_names(&config), expected);
}

/// The documents of a `--format` stream: `---`-separated, each one JSON (which is YAML). The
/// stream read by a YAML parser gives the same documents.
fn documents(stdout: &str) -> Vec<Value> {
    let json: Vec<Value> = stdout
        .split("---\n")
        .map(|d| d.lines().filter(|l| !l.starts_with('#')).collect::<Vec<_>>().join("\n"))
        .filter(|d| !d.trim().is_empty())
        .map(|d| serde_json::from_str(&d).unwrap_or_else(|e| panic!("{e}: {d}")))
        .collect();
    use serde::Deserialize;
    let yaml: Vec<Value> = serde_norway::Deserializer::from_str(stdout)
        .map(|d| Value::deserialize(d).expect("the stream is YAML"))
        .filter(|v| !v.is_null())
        .collect();
    assert_eq!(yaml, json, "read as YAML, the stream holds the same documents");
    json
}

fn run_text(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ingress-router"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

/// The plugin configuration of the bootstrap for the same arguments: every format carries it.
fn bootstrap_plugin(extra: &[&str]) -> Value {
    let mut args = vec!["envoy-config", "-f", SHOP, "--wasm", "/x.wasm"];
    args.extend_from_slice(extra);
    let (code, config, stderr) = run(&args);
    assert_eq!(code, 0, "{stderr}");
    let value = hcm(&config)["http_filters"][0]["typed_config"]["config"]["configuration"]["value"].as_str().unwrap();
    serde_json::from_str(value).unwrap()
}

/// Service clusters of the bootstrap (resource backends have no Service to route to).
fn service_clusters() -> Vec<String> {
    let (_, config, _) = run(&["envoy-config", "-f", SHOP, "--wasm", "/x.wasm"]);
    cluster_names(&config).into_iter().filter(|n| !n.contains("/resource/")).map(String::from).collect()
}

const DIGEST: &str = "5c6870f1df99d83bc032e9cab7b30d0cb4989267e778beb6b90855f96f0b6ca0";

#[test]
fn istio_wasm_plugin_and_the_routes_that_read_the_header() {
    let url = "oci://ghcr.io/acme/ingress-router-envoy:0.1.0";
    let digest = format!("sha256:{DIGEST}");
    let args = ["envoy-config", "-f", SHOP, "--format", "wasm-plugin", "--url", url, "--sha256", &digest];
    let (code, stdout, stderr) = run_text(&args);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("# an Istio WasmPlugin"), "{stdout}");
    let docs = documents(&stdout);
    assert_eq!(docs.len(), 2);
    let (plugin, routes) = (&docs[0], &docs[1]);
    assert_eq!(plugin["kind"], "WasmPlugin");
    assert_eq!(plugin["apiVersion"], "extensions.istio.io/v1alpha1");
    assert_eq!(plugin["metadata"]["namespace"], "istio-system");
    let spec = &plugin["spec"];
    assert_eq!(spec["url"], url);
    assert_eq!(spec["sha256"], DIGEST, "the sha256: prefix is dropped, as the CRD's pattern wants");
    assert_eq!(spec["failStrategy"], "FAIL_CLOSE");
    assert_eq!(spec["phase"], "UNSPECIFIED_PHASE");
    assert_eq!(spec["priority"], -1000);
    assert_eq!(spec["pluginName"], "ingress-router");
    assert_eq!(spec["type"], "HTTP");
    assert_eq!(spec["selector"]["matchLabels"]["istio"], "ingressgateway");
    assert_eq!(spec["pluginConfig"], bootstrap_plugin(&[]), "the same configuration as the bootstrap's filter");

    // One route per Service cluster, matching the header value the filter sets, to that Service.
    assert_eq!(routes["kind"], "VirtualService");
    assert_eq!(routes["spec"]["gateways"][0], "istio-system/ingressgateway");
    let http = routes["spec"]["http"].as_array().unwrap();
    let matched: Vec<&str> =
        http.iter().map(|r| r["match"][0]["headers"]["x-ingress-backend"]["exact"].as_str().unwrap()).collect();
    assert_eq!(matched, service_clusters());
    let named = http.iter().find(|r| r["name"] == "shop/api-v1:http").expect("a named-port backend");
    assert_eq!(named["route"][0]["destination"]["host"], "api-v1.shop.svc.cluster.local");
    assert_eq!(named["route"][0]["destination"]["port"]["number"], 8080, "named port resolved through the Service");
}

#[test]
fn istio_traffic_extension_nests_the_module_under_wasm() {
    let args = [
        "envoy-config",
        "-f",
        SHOP,
        "--format",
        "traffic-extension",
        "--url",
        "file:///opt/x.wasm",
        "--wasm",
        "examples/shop/tests.yaml",
        "--selector",
        "app=edge",
        "--namespace",
        "edge",
        "--istio-gateway",
        "edge/edge-gateway",
        "--ingress-class",
        "nginx",
    ];
    let (code, stdout, stderr) = run_text(&args);
    assert_eq!(code, 0, "{stderr}");
    let docs = documents(&stdout);
    let spec = &docs[0]["spec"];
    assert_eq!(docs[0]["kind"], "TrafficExtension");
    assert_eq!(spec["phase"], "UNSPECIFIED");
    assert_eq!(spec["selector"]["matchLabels"]["app"], "edge");
    assert_eq!(spec["wasm"]["url"], "file:///opt/x.wasm");
    assert_eq!(spec["wasm"]["failStrategy"], "FAIL_CLOSE");
    assert_eq!(spec["wasm"]["pluginConfig"]["ingressClass"], "nginx");
    // For a file:// URL the pin is the file's own sha256, computed from --wasm.
    let bytes = std::fs::read("examples/shop/tests.yaml").unwrap();
    let sha = spec["wasm"]["sha256"].as_str().unwrap();
    assert_eq!(sha.len(), 64);
    assert_eq!(sha, sha256_of(&bytes));
    assert_eq!(docs[1]["metadata"]["namespace"], "edge");
    assert_eq!(docs[1]["spec"]["gateways"][0], "edge/edge-gateway");
}

/// sha256 through another implementation than the CLI's: `sha256sum`.
fn sha256_of(bytes: &[u8]) -> String {
    let path = std::env::temp_dir().join(format!("ingress-router-sha-{}", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    let out = Command::new("sha256sum").arg(&path).output().expect("sha256sum runs");
    std::fs::remove_file(&path).ok();
    String::from_utf8_lossy(&out.stdout).split_whitespace().next().unwrap().to_string()
}

#[test]
fn envoy_gateway_policy_routes_and_reference_grants() {
    let args = [
        "envoy-config",
        "-f",
        SHOP,
        "--format",
        "envoy-extension-policy",
        "--target-ref",
        "Gateway/eg",
        "--namespace",
        "gateways",
        "--url",
        "oci://ghcr.io/acme/ingress-router-envoy:0.1.0",
        "--sha256",
        DIGEST,
    ];
    let (code, stdout, stderr) = run_text(&args);
    assert_eq!(code, 0, "{stderr}");
    let docs = documents(&stdout);
    let policy = &docs[0];
    assert_eq!(policy["kind"], "EnvoyExtensionPolicy");
    assert_eq!(policy["spec"]["targetRefs"][0]["name"], "eg");
    let wasm = &policy["spec"]["wasm"][0];
    assert_eq!(wasm["rootID"], "ingress-router");
    assert_eq!(wasm["failOpen"], false);
    assert_eq!(wasm["code"]["type"], "Image");
    assert_eq!(wasm["code"]["image"]["url"], "ghcr.io/acme/ingress-router-envoy:0.1.0");
    assert_eq!(wasm["code"]["sha256"], DIGEST);
    assert_eq!(wasm["config"], bootstrap_plugin(&[]));

    let routes: Vec<&Value> = docs.iter().filter(|d| d["kind"] == "HTTPRoute").collect();
    let rules: Vec<&Value> = routes.iter().flat_map(|r| r["spec"]["rules"].as_array().unwrap()).collect();
    assert!(routes.iter().all(|r| r["spec"]["rules"].as_array().unwrap().len() <= 16), "Gateway API's limit");
    let values: Vec<&str> = rules.iter().map(|r| r["matches"][0]["headers"][0]["value"].as_str().unwrap()).collect();
    assert_eq!(values, service_clusters());
    assert!(routes.iter().all(|r| r["spec"]["parentRefs"][0]["name"] == "eg"));
    let web = rules.iter().find(|r| r["matches"][0]["headers"][0]["value"] == "shop/web:80").unwrap();
    assert_eq!(web["backendRefs"][0], serde_json::json!({"name": "web", "namespace": "shop", "port": 80}));
    // The backends live in another namespace than the routes: a ReferenceGrant there allows it.
    let grant = docs.iter().find(|d| d["kind"] == "ReferenceGrant").expect("a ReferenceGrant");
    assert_eq!(grant["metadata"]["namespace"], "shop");
    assert_eq!(grant["spec"]["from"][0]["namespace"], "gateways");
    assert_eq!(grant["spec"]["to"][0]["kind"], "Service");
}

#[test]
fn mesh_formats_refuse_what_they_cannot_pin_or_attach() {
    let oci = "oci://ghcr.io/acme/x:1";
    let cases: [(&[&str], &str); 6] = [
        (&["--format", "wasm-plugin"], "--url is needed"),
        (&["--format", "wasm-plugin", "--url", oci], "--sha256 is needed with an oci:// URL"),
        (&["--format", "wasm-plugin", "--url", oci, "--sha256", "abc"], "expected 64 hex digits"),
        (&["--format", "envoy-extension-policy", "--url", oci, "--sha256", DIGEST], "needs --target-ref"),
        (
            &[
                "--format",
                "envoy-extension-policy",
                "--target-ref",
                "Gateway/eg",
                "--url",
                "file:///x.wasm",
                "--sha256",
                DIGEST,
            ],
            "oci:// image or an http(s):// URL",
        ),
        (&["--format", "ecds"], "--wasm is needed"),
    ];
    for (extra, message) in cases {
        let mut args = vec!["envoy-config", "-f", SHOP];
        args.extend_from_slice(extra);
        let (code, _, stderr) = run_text(&args);
        assert_eq!(code, 2, "{extra:?}: {stderr}");
        assert!(stderr.contains(message), "{extra:?}: {stderr}");
    }
}

#[test]
fn ecds_resource_and_the_bootstrap_that_reads_it() {
    let (code, ecds, stderr) = run(&["envoy-config", "-f", SHOP, "--wasm", "/x.wasm", "--format", "ecds"]);
    assert_eq!(code, 0, "{stderr}");
    let (_, inline, _) = run(&["envoy-config", "-f", SHOP, "--wasm", "/x.wasm"]);
    let resource = &ecds["resources"][0];
    assert_eq!(resource["@type"], "type.googleapis.com/envoy.config.core.v3.TypedExtensionConfig");
    assert_eq!(resource["name"], "ingress-router");
    assert_eq!(resource["typed_config"], hcm(&inline)["http_filters"][0]["typed_config"], "the inline filter, as is");
    let version = ecds["version_info"].as_str().unwrap();
    let (_, again, _) = run(&["envoy-config", "-f", SHOP, "--wasm", "/x.wasm", "--format", "ecds"]);
    assert_eq!(again["version_info"], version, "the version names the content");
    let (_, other, _) =
        run(&["envoy-config", "-f", SHOP, "--wasm", "/x.wasm", "--format", "ecds", "--ingress-class", "nginx"]);
    assert_ne!(other["version_info"], version);

    let (code, bootstrap, stderr) =
        run(&["envoy-config", "-f", SHOP, "--wasm", "/x.wasm", "--ecds", "/etc/envoy/ecds/filter.json"]);
    assert_eq!(code, 0, "{stderr}");
    let filter = &hcm(&bootstrap)["http_filters"][0];
    assert_eq!(filter["name"], "ingress-router", "the ECDS resource's name");
    let discovery = &filter["config_discovery"];
    assert_eq!(discovery["config_source"]["path_config_source"]["path"], "/etc/envoy/ecds/filter.json");
    assert_eq!(discovery["config_source"]["path_config_source"]["watched_directory"]["path"], "/etc/envoy/ecds");
    assert_eq!(discovery["type_urls"][0], "type.googleapis.com/envoy.extensions.filters.http.wasm.v3.Wasm");
    assert!(discovery.get("default_config").is_none(), "no default: the listener waits for the filter's configuration");
}

/// Bound to the mesh (sidecars), the VirtualService lists the hosts the Ingresses name: Istio
/// refuses `*` there, so a rule without a host is refused with what to do instead.
#[test]
fn istio_mesh_binding_lists_the_ingress_hosts() {
    let base = ["envoy-config", "--format", "wasm-plugin", "--url", "oci://r/x:1", "--sha256", DIGEST];
    let api = ["-f", "examples/shop/manifests/api.yaml", "-f", "examples/shop/manifests/services.yaml"];
    let mut args = base.to_vec();
    args.extend_from_slice(&api);
    args.extend_from_slice(&["--selector", "app=edge", "--istio-gateway", "mesh"]);
    let (code, stdout, stderr) = run_text(&args);
    assert_eq!(code, 0, "{stderr}");
    let routes = &documents(&stdout)[1];
    assert_eq!(routes["spec"]["gateways"], serde_json::json!(["mesh"]));
    assert_eq!(routes["spec"]["hosts"], serde_json::json!(["api.example.com"]));

    let mut args = base.to_vec();
    args.extend_from_slice(&["-f", SHOP, "--istio-gateway", "mesh"]);
    let (code, _, stderr) = run_text(&args);
    assert_eq!(code, 2);
    assert!(stderr.contains("an Ingress rule without a host cannot be served"), "{stderr}");
}

const GATEWAY: &str = "examples/gateway/manifests";

/// The plugin configuration inside a bootstrap.
fn plugin_of(config: &Value) -> Value {
    let value = hcm(config)["http_filters"][0]["typed_config"]["config"]["configuration"]["value"].as_str().unwrap();
    serde_json::from_str(value).unwrap()
}

/// Every manifest file of a folder, read as one input.
fn folder_input(folder: &str) -> Input {
    let mut input = Input::default();
    for file in std::fs::read_dir(folder).unwrap() {
        let path = file.unwrap().path();
        input.extend(input::parse(&path.display().to_string(), &std::fs::read_to_string(&path).unwrap()).unwrap());
    }
    input
}

/// The clusters the core's Gateway table names: each valid backendRef of a route attached to the
/// Gateway, by the default template (`{namespace}/{service}:{port}`).
fn gateway_clusters(gateway: &str) -> Vec<String> {
    use ingress_router::CompileOptions;
    use ingress_router::decision::{BackendRef, ServicePort};
    let input = folder_input(GATEWAY);
    let options = CompileOptions::default().with_gateway(Some(gateway.into()));
    let table = ingress_router::compile(&input, &options).unwrap().table().gateway.expect("a Gateway API table");
    let mut names: Vec<String> = table
        .listeners
        .iter()
        .flat_map(|l| &l.routes)
        .filter(|r| r.not_attached.is_none())
        .flat_map(|r| &r.rules)
        .flat_map(|r| &r.backends)
        .filter(|b| b.invalid.is_none())
        .map(|b| {
            let port = Some(ServicePort::Number(b.port.unwrap()));
            ClusterNames::default().name(&BackendRef::Service { namespace: &b.namespace, name: &b.name, port })
        })
        .collect();
    names.sort();
    names.dedup();
    names
}

/// Gateway API input with --gateway: the filter's configuration carries the Gateway API objects,
/// their Services and the Gateway; a cluster per valid backend, named by the core's ClusterNames;
/// the listener as for Ingress input.
#[test]
fn gateway_api_bootstrap() {
    let (code, config, stderr) = run(&[
        "envoy-config",
        "-f",
        GATEWAY,
        "--wasm",
        "/x.wasm",
        "--gateway",
        "infra/public",
        "--listen",
        "127.0.0.1:8080",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let expected = gateway_clusters("infra/public");
    assert!(expected.len() >= 5, "{expected:?}");
    assert_eq!(cluster_names(&config), expected);
    let cart =
        config["static_resources"]["clusters"].as_array().unwrap().iter().find(|c| c["name"] == "shop/cart:8080");
    let address = &cart.expect("the cart cluster")["load_assignment"]["endpoints"][0]["lb_endpoints"][0]["endpoint"]["address"]
        ["socket_address"];
    assert_eq!(
        (&address["address"], &address["port_value"]),
        (&Value::from("cart.shop.svc.cluster.local"), &Value::from(8080))
    );
    let hcm = hcm(&config);
    assert_eq!(hcm["normalize_path"], true);
    assert_eq!(hcm["use_remote_address"], true);
    assert_eq!(hcm["route_config"]["virtual_hosts"][0]["routes"][0]["route"]["cluster_header"], "x-ingress-backend");
    let listener = &config["static_resources"]["listeners"][0]["address"]["socket_address"];
    assert_eq!((&listener["address"], &listener["port_value"]), (&Value::from("127.0.0.1"), &Value::from(8080)));
    let plugin = plugin_of(&config);
    assert_eq!(plugin["gateway"], "infra/public");
    assert!(plugin.get("strict").is_none());
    let kinds: Vec<&str> = plugin["manifests"].as_array().unwrap().iter().filter_map(|o| o["kind"].as_str()).collect();
    // The Services decide whether a backendRef is valid: they go with the routes.
    for kind in ["Gateway", "HTTPRoute", "Service"] {
        assert!(kinds.contains(&kind), "{kinds:?}");
    }
    // The ECDS resource carries the same configuration.
    let (code, ecds, stderr) =
        run(&["envoy-config", "-f", GATEWAY, "--wasm", "/x.wasm", "--gateway", "infra/public", "--format", "ecds"]);
    assert_eq!(code, 0, "{stderr}");
    let value = ecds["resources"][0]["typed_config"]["config"]["configuration"]["value"].as_str().unwrap();
    assert_eq!(serde_json::from_str::<Value>(value).unwrap(), plugin);
}

/// Which API routes is the core's `gateway::wanted`: mixed input routes the Ingresses unless
/// --gateway names a Gateway; several Gateways need one named; what cannot be written says so.
#[test]
fn gateway_api_input_choices_and_refusals() {
    let (code, config, stderr) = run(&["envoy-config", "-f", SHOP, "-f", GATEWAY, "--wasm", "/x.wasm"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(plugin_of(&config).get("gateway").is_none(), "mixed input without --gateway: the Ingresses");
    let (code, config, stderr) =
        run(&["envoy-config", "-f", SHOP, "-f", GATEWAY, "--wasm", "/x.wasm", "--gateway", "public"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(plugin_of(&config)["gateway"], "infra/public");
    let (code, config, stderr) =
        run(&["envoy-config", "-f", GATEWAY, "--wasm", "/x.wasm", "--gateway", "public", "--strict"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(plugin_of(&config)["strict"], true);
    // The regex limits reach the filter as the other Gateway API options do.
    let limits = r#"{"regexLimits": {"scan": 1024}}"#;
    let (code, config, stderr) =
        run(&["envoy-config", "-f", GATEWAY, "--wasm", "/x.wasm", "--gateway", "public", "--options", limits]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(plugin_of(&config)["regexLimits"]["scan"], 1024);
    let (code, _, stderr) = run(&["envoy-config", "-f", GATEWAY, "--wasm", "/x.wasm"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("several Gateways") && stderr.contains("--gateway"), "{stderr}");
    let (code, _, stderr) = run(&["envoy-config", "-f", GATEWAY, "--wasm", "/x.wasm", "--gateway", "infra/nope"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("infra/nope") && stderr.contains("infra/public"), "{stderr}");
    let (code, _, stderr) =
        run(&["envoy-config", "-f", GATEWAY, "--wasm", "/x.wasm", "--gateway", "public", "--native"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--native"), "{stderr}");
    let (code, _, stderr) = run(&[
        "envoy-config",
        "-f",
        GATEWAY,
        "--gateway",
        "public",
        "--format",
        "wasm-plugin",
        "--url",
        "oci://r/i:1",
        "--sha256",
        DIGEST,
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("bootstrap or an ECDS resource"), "{stderr}");
}

/// A manifests file in the temporary folder, unique to this process and `name`.
fn manifest_file(name: &str, text: &str) -> String {
    let path = std::env::temp_dir().join(format!("ingress-router-envoy-config-{}-{name}.yaml", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// The upstream protocol of each cluster: `Some("http2")` when Envoy speaks HTTP/2 (h2c) to it.
fn upstream_protocols(config: &Value) -> Vec<(String, Option<&'static str>)> {
    let options = "envoy.extensions.upstreams.http.v3.HttpProtocolOptions";
    config["static_resources"]["clusters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let typed = &c["typed_extension_protocol_options"][options];
            let http2 = !typed.is_null()
                && typed["@type"] == format!("type.googleapis.com/{options}")
                && typed["explicit_http_config"]["http2_protocol_options"] == serde_json::json!({});
            (c["name"].as_str().unwrap().to_string(), http2.then_some("http2"))
        })
        .collect()
}

const GRPC_AND_HTTP: &str = "\
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: infra}
spec:
  gatewayClassName: c
  listeners:
  - {name: http, port: 80, protocol: HTTP, allowedRoutes: {namespaces: {from: All}}}
  - {name: alt, port: 8080, protocol: HTTP, allowedRoutes: {namespaces: {from: All}}}
---
apiVersion: gateway.networking.k8s.io/v1
kind: GRPCRoute
metadata: {name: calls, namespace: apps}
spec:
  parentRefs: [{name: gw, namespace: infra}]
  hostnames: [grpc.example.com]
  rules:
  - matches: [{method: {service: echo.Echo, method: Echo}}]
    backendRefs: [{name: grpc-only, port: 9000}, {name: both, port: 80}, {name: both-h2c, port: 80}, {name: said-http, port: 80}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: pages, namespace: apps}
spec:
  parentRefs: [{name: gw, namespace: infra}]
  hostnames: [www.example.com]
  rules:
  - backendRefs: [{name: web, port: 80}, {name: both, port: 80}, {name: both-h2c, port: 80}, {name: web-h2c, port: 80}]
---
{apiVersion: v1, kind: Service, metadata: {name: grpc-only, namespace: apps}, spec: {ports: [{port: 9000}]}}
---
{apiVersion: v1, kind: Service, metadata: {name: both, namespace: apps}, spec: {ports: [{port: 80}]}}
---
{apiVersion: v1, kind: Service, metadata: {name: both-h2c, namespace: apps}, spec: {ports: [{port: 80, appProtocol: kubernetes.io/h2c}]}}
---
{apiVersion: v1, kind: Service, metadata: {name: said-http, namespace: apps}, spec: {ports: [{port: 80, appProtocol: http}]}}
---
{apiVersion: v1, kind: Service, metadata: {name: web, namespace: apps}, spec: {ports: [{port: 80}]}}
---
{apiVersion: v1, kind: Service, metadata: {name: web-h2c, namespace: apps}, spec: {ports: [{port: 80, appProtocol: grpc}]}}
";

/// Envoy speaks HTTP/2 to a backend only GRPCRoutes send to, or whose Service port declares it
/// (`appProtocol`); HTTP/1.1 to the others, a Service both kinds send to without a declaration
/// included (noted on stderr). The listener accepts HTTP/2 with prior knowledge (codec AUTO).
#[test]
fn grpc_backends_get_http2_clusters() {
    let file = manifest_file("grpc-and-http", GRPC_AND_HTTP);
    let (code, config, stderr) = run(&["envoy-config", "-f", &file, "--wasm", "/x.wasm"]);
    assert_eq!(code, 0, "{stderr}");
    let http2 = Some("http2");
    assert_eq!(
        upstream_protocols(&config),
        [
            ("apps/both-h2c:80".to_string(), http2),
            ("apps/both:80".to_string(), None),
            ("apps/grpc-only:9000".to_string(), http2),
            ("apps/said-http:80".to_string(), None),
            ("apps/web-h2c:80".to_string(), http2),
            ("apps/web:80".to_string(), None),
        ]
    );
    assert!(
        stderr.contains("apps/both:80") && stderr.contains("kubernetes.io/h2c") && !stderr.contains("apps/both-h2c"),
        "{stderr}"
    );
    assert_eq!(hcm(&config)["codec_type"], "AUTO");
    assert!(plugin_of(&config).get("gatewayPort").is_none(), "the Host header's port by default");

    // Ingress backends: HTTP/2 only when their Service port declares it (by number or by name).
    let ingress = manifest_file(
        "ingress-h2c",
        "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: i, namespace: apps}\nspec:\n  rules:\n  - http:\n      paths:\n      - {path: /a, pathType: Prefix, backend: {service: {name: h2, port: {name: h2}}}}\n      - {path: /b, pathType: Prefix, backend: {service: {name: plain, port: {number: 80}}}}\n---\n{apiVersion: v1, kind: Service, metadata: {name: h2, namespace: apps}, spec: {ports: [{name: h2, port: 81, appProtocol: kubernetes.io/h2c}]}}\n---\n{apiVersion: v1, kind: Service, metadata: {name: plain, namespace: apps}, spec: {ports: [{port: 80}]}}\n",
    );
    let (code, config, stderr) = run(&["envoy-config", "-f", &ingress, "--wasm", "/x.wasm"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(upstream_protocols(&config), [("apps/h2:h2".to_string(), http2), ("apps/plain:80".to_string(), None)]);
}

/// `--gateway-port` tells the filter which Gateway listener the Envoy listener serves; a port the
/// Gateway has no listener on, or Ingress input, is refused.
#[test]
fn gateway_port_reaches_the_filter() {
    let file = manifest_file("gateway-port", GRPC_AND_HTTP);
    let (code, config, stderr) = run(&["envoy-config", "-f", &file, "--wasm", "/x.wasm", "--gateway-port", "8080"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(plugin_of(&config)["gatewayPort"], 8080);
    let (code, _, stderr) = run(&["envoy-config", "-f", &file, "--wasm", "/x.wasm", "--gateway-port", "81"]);
    assert_ne!(code, 0);
    assert!(stderr.contains("--gateway-port 81") && stderr.contains("80, 8080"), "{stderr}");
    let (code, _, stderr) = run(&["envoy-config", "-f", SHOP, "--wasm", "/x.wasm", "--gateway-port", "80"]);
    assert_ne!(code, 0);
    assert!(stderr.contains("--gateway-port"), "{stderr}");
}

/// `--table`: the plugin configuration carries the compiled table (base64) instead of the
/// manifests and options, compiled with the options the filter would compile with (Envoy
/// normalises the path first); it routes as those options do; what a table cannot hold is refused.
#[test]
fn table_ships_the_compiled_table_instead_of_the_manifests() {
    use base64::Engine as _;
    let options = ["--ingress-class", "nginx", "--normalize-path"];
    let plugin = bootstrap_plugin(&[&["--table", "--debug-header"][..], &options].concat());
    let keys: Vec<&str> = plugin.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["debugHeader", "routingHeader", "table"], "no manifests, no compile options beside the table");
    let bytes = base64::engine::general_purpose::STANDARD.decode(plugin["table"].as_str().unwrap()).unwrap();
    let loaded = ingress_router::load_table(&bytes).expect("the table loads");
    let input = folder_input(SHOP);
    let filter_options = CompileOptions::default().with_ingress_class("nginx");
    let compiled = compile(&input, &filter_options);
    for (host, path) in [
        ("shop.example.com", "/cart/items"),
        ("api.example.com", "/v2/orders"),
        ("x.example.com", "/"),
        ("shop.example.com", "/a/../cart"),
    ] {
        let request = ingress_router::Request::new(host, path);
        assert_eq!(
            format!("{:?}", loaded.route(&request)),
            format!("{:?}", compiled.route(&request)),
            "{host}{path}: the table routes as the filter's options do (no normalisation: Envoy's)"
        );
    }
    for (args, why) in [
        (&["--table", "--native"][..], "give one of them"),
        (&["--table", "--profile", "ingress-nginx"][..], "only the spec profile"),
    ] {
        let (code, _, stderr) = run(&[&["envoy-config", "-f", SHOP, "--wasm", "/x.wasm"][..], args].concat());
        assert_eq!(code, 2, "{args:?}");
        assert!(stderr.contains(why), "{args:?}: {stderr}");
    }
    let (code, _, stderr) =
        run(&["envoy-config", "-f", GATEWAY, "--wasm", "/x.wasm", "--gateway", "public", "--table"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("leave out --table"), "{stderr}");
}
