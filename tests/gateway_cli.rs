//! The CLI contract for the Gateway API (issue 19), driving the binary as other tools do:
//! `route`/`explain`/`table`/`test` with Gateway API input, `--gateway`, `-X`, `-H`, the JSON
//! decision's shape and the exit codes. Fixtures: `examples/gateway` (two Gateways, `infra/public`
//! with listeners on ports 80 and 8080, and `infra/staging`).

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};

const MANIFESTS: &str = "examples/gateway/manifests";
const TESTS: &str = "examples/gateway/tests.yaml";
const PUBLIC: &str = "infra/public";

struct Output {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Output {
    fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}", self.stdout))
    }
}

fn run(args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_ingress-router"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    let output = Output {
        code: out.status.code().expect("exited with a code"),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    };
    for bad in ["panicked", "internal error"] {
        assert!(!output.stderr.contains(bad), "{args:?}: stderr has {bad:?}:\n{}", output.stderr);
    }
    output
}

/// `route -f examples/gateway/manifests --gateway infra/public [extra...] URL --json`, exit 0.
fn route(extra: &[&str], url: &str) -> Value {
    let mut args = vec!["route", "-f", MANIFESTS, "--gateway", PUBLIC];
    args.extend_from_slice(extra);
    args.extend([url, "--json"]);
    let out = run(&args);
    assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
    out.json()
}

/// A file in a fresh folder under the target directory.
fn write(name: &str, text: &str) -> String {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "gateway-cli-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn route_json_backend_and_its_shape() {
    let d = route(&[], "http://shop.example.com/cart/items?id=1");
    // The decision in one line, as in the Ingress decision (a tests file's `expect.backend`).
    assert_eq!(d["label"], "shop/cart:8080");
    assert_eq!(d["status"], 200);
    assert_eq!(d["via"], "rule");
    assert_eq!((d["gateway"].as_str(), d["listener"].as_str()), (Some(PUBLIC), Some("http")));
    assert_eq!(
        (d["route"].as_str(), d["rule"].as_u64(), d["ruleName"].as_str()),
        (Some("shop/storefront"), Some(0), Some("cart"))
    );
    assert_eq!(d["backend"], json!({"service": {"name": "cart", "port": {"number": 8080}}}));
    assert_eq!(d["redirect"], Value::Null);
    assert!(d.get("split").is_none(), "no split for one backend: {d}");
    assert_eq!(d["upstream"], json!({"host": "shop.example.com", "path": "/cart/items?id=1", "headers": []}));
}

#[test]
fn route_json_split() {
    let d = route(&[], "http://shop.example.com/api/orders");
    assert_eq!((d["status"].as_u64(), d["backend"].clone()), (Some(200), Value::Null));
    let split: Vec<(String, u64, u64)> = d["split"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let service = &s["backend"]["service"];
            (
                service["name"].as_str().unwrap().to_owned(),
                service["port"]["number"].as_u64().unwrap(),
                s["weight"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(split, [("api".to_owned(), 8080, 90), ("api-canary".to_owned(), 8080, 10)]);
    assert_eq!(d["split"][0]["label"], "shop/api:8080");
}

#[test]
fn route_json_redirect_is_absolute() {
    let d = route(&[], "http://shop.example.com/old?x=1");
    assert_eq!(d["status"], 301);
    assert_eq!(d["redirect"], json!({"status": 301, "location": "https://shop.example.com/new?x=1"}));
    assert_eq!((d["backend"].clone(), d["upstream"].clone()), (Value::Null, Value::Null));
}

#[test]
fn route_json_upstream_after_rewrite_and_header_modifiers() {
    let d = route(&["-H", "x-debug: 1", "-H", "Accept: text/html"], "http://shop.example.com/legacy/orders?page=2");
    assert_eq!(d["backend"]["service"]["name"], "legacy");
    assert_eq!(d["upstream"]["host"], "legacy.internal");
    assert_eq!(d["upstream"]["path"], "/v1/orders?page=2");
    // set x-from, add x-tenant, remove x-debug; the request's other headers pass.
    assert_eq!(d["upstream"]["headers"], json!([["Accept", "text/html"], ["x-from", "gateway"], ["x-tenant", "shop"]]));
}

#[test]
fn route_json_404_and_500() {
    let none = route(&[], "http://www.example.com/cart");
    assert_eq!((none["status"].as_u64(), none["via"].as_str()), (Some(404), Some("none")));
    assert_eq!(none["label"], "404");
    assert_eq!((none["backend"].clone(), none["upstream"].clone()), (Value::Null, Value::Null));
    let no_listener = route(&[], "http://shop.example.com:9999/cart");
    assert_eq!((no_listener["status"].as_u64(), no_listener["via"].as_str()), (Some(404), Some("noListener")));
    let filter = route(&[], "http://shop.example.com/ext");
    assert_eq!((filter["status"].as_u64(), filter["via"].as_str()), (Some(500), Some("filterError")));
    let missing = route(&[], "http://shop.example.com/gone");
    assert_eq!((missing["status"].as_u64(), missing["via"].as_str()), (Some(500), Some("noValidBackend")));
}

#[test]
fn gateway_chooses_among_two() {
    let staging =
        run(&["route", "-f", MANIFESTS, "--gateway", "infra/staging", "http://shop.example.com/cart", "--json"]);
    assert_eq!(staging.code, 0, "{}", staging.stderr);
    assert_eq!(staging.json()["backend"]["service"]["name"], "cart-staging");
    assert_eq!(route(&[], "http://shop.example.com/cart")["backend"]["service"]["name"], "cart");
    // A name alone, when one Gateway has it.
    let by_name = run(&["route", "-f", MANIFESTS, "--gateway", "staging", "http://shop.example.com/cart", "--json"]);
    assert_eq!(by_name.json()["gateway"], "infra/staging");
    // `--options` carries it too, as a tests file's `options`.
    let options = run(&["table", "-f", MANIFESTS, "--options", r#"{"gateway": "infra/staging"}"#, "--json"]);
    assert_eq!(options.json()["gateway"], "infra/staging");
    // Several Gateways and no --gateway: bad input, naming them.
    let ambiguous = run(&["route", "-f", MANIFESTS, "http://shop.example.com/cart"]);
    assert_eq!(ambiguous.code, 2);
    assert!(
        ambiguous.stderr.contains("infra/public, infra/staging") && ambiguous.stderr.contains("--gateway"),
        "{}",
        ambiguous.stderr
    );
}

#[test]
fn method_and_header_match() {
    let canary = route(&["-X", "POST", "-H", "x-env: canary"], "http://shop.example.com/api/orders");
    assert_eq!(canary["backend"]["service"]["name"], "api-canary");
    assert_eq!(canary["ruleName"], "api-canary");
    // The same header without the method, or the method without the header: the split.
    assert_eq!(route(&["-H", "x-env: canary"], "http://shop.example.com/api/orders")["rule"], 3);
    assert_eq!(route(&["--method", "POST"], "http://shop.example.com/api/orders")["rule"], 3);
}

#[test]
fn url_port_selects_the_listener_and_query_matches() {
    let internal = route(&[], "http://shop.example.com:8080/cart");
    assert_eq!(
        (internal["listener"].as_str(), internal["backend"]["service"]["name"].as_str()),
        (Some("internal"), Some("admin"))
    );
    assert_eq!(internal["upstream"]["host"], "shop.example.com:8080");
    assert_eq!(route(&[], "http://shop.example.com/search?q=a&v=2")["backend"]["service"]["name"], "search-v2");
    assert_eq!(route(&[], "http://shop.example.com/search?q=a&v=1")["backend"]["service"]["name"], "search");
}

#[test]
fn explain_json_names_the_winner_and_why_others_lost() {
    let out = run(&[
        "explain",
        "-f",
        MANIFESTS,
        "--gateway",
        PUBLIC,
        "-X",
        "POST",
        "-H",
        "x-env: canary",
        "http://shop.example.com/api/x",
        "--json",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let e = out.json();
    assert_eq!(e["decision"]["ruleName"], "api-canary");
    let listeners: Vec<(&str, &str)> = e["listeners"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["name"].as_str().unwrap(), l["outcome"].as_str().unwrap()))
        .collect();
    assert_eq!(listeners, [("http", "chosen"), ("internal", "other port")]);
    let routes = e["routes"].as_array().unwrap();
    let storefront = routes.iter().find(|r| r["route"] == "shop/storefront").unwrap();
    let outcome = |rule: u64| {
        storefront["candidates"].as_array().unwrap().iter().find(|c| c["rule"] == rule).unwrap()["outcome"].clone()
    };
    assert_eq!(outcome(2)["outcome"], "won");
    assert_eq!(outcome(3), json!({"outcome": "lostOn", "key": "method"}));
    assert_eq!(outcome(0)["outcome"], "mismatch");
    // Each outcome in words, written by the core for every home.
    let reason = |rule: u64| {
        storefront["candidates"].as_array().unwrap().iter().find(|c| c["rule"] == rule).unwrap()["reason"].clone()
    };
    assert_eq!(reason(2), "matches, and wins");
    assert_eq!(reason(3), "matches, but the winner has a method match");
    assert_eq!(reason(0), "does not match: wants path /cart (PathPrefix)");
    // The routes of other listeners and Gateways say why they are not attached.
    let admin = routes.iter().find(|r| r["route"] == "shop/admin").unwrap();
    assert_eq!(admin["notAttached"], json!({"reason": "sectionName", "sectionName": "internal"}));
    let staging = routes.iter().find(|r| r["route"] == "shop/staging").unwrap();
    assert_eq!(staging["notAttached"]["reason"], "notAParent");
    assert_eq!(staging["reason"], "no parentRef names this Gateway");
    // Text: the decision line first, then each listener, route and candidate with its reason.
    let text = run(&["explain", "-f", MANIFESTS, "--gateway", PUBLIC, "http://shop.example.com/cart"]);
    assert!(
        text.stdout
            .starts_with("200 shop/cart:8080  (listener http, HTTPRoute shop/storefront, rules[0].matches[0])\n"),
        "{}",
        text.stdout
    );
    for line in [
        "  listener internal HTTP:8080 *: other port\n",
        "  HTTPRoute shop/storefront (hostname shop.example.com)\n",
        "    rules[0].matches[0] (cart)        matches, and wins\n",
        "  HTTPRoute shop/staging: not attached: no parentRef names this Gateway\n",
    ] {
        assert!(text.stdout.contains(line), "{line:?} in\n{}", text.stdout);
    }
}

#[test]
fn route_text_is_the_gateway_commands() {
    let route = run(&["route", "-f", MANIFESTS, "--gateway", PUBLIC, "http://shop.example.com/old"]);
    assert_eq!(
        route.stdout,
        "301 redirect to https://shop.example.com/new  (listener http, HTTPRoute shop/storefront, rules[1].matches[0])\n"
    );
    // `gateway` is an alias of the same path.
    let alias = run(&["gateway", "-f", MANIFESTS, "--gateway", PUBLIC, "http://shop.example.com/old"]);
    assert_eq!(alias.stdout, route.stdout);
    let alias = run(&["gateway", "-f", MANIFESTS, "--gateway", PUBLIC, "http://shop.example.com/old", "--json"]);
    assert_eq!(alias.json(), self::route(&[], "http://shop.example.com/old"));
}

#[test]
fn table_lists_listeners_routes_rules() {
    let out = run(&["table", "-f", MANIFESTS, "--gateway", PUBLIC, "--json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let t = out.json();
    assert_eq!(t["gateway"], PUBLIC);
    let http = &t["listeners"][0];
    assert_eq!((http["name"].as_str(), http["port"].as_u64()), (Some("http"), Some(80)));
    let storefront = http["routes"].as_array().unwrap().iter().find(|r| r["route"] == "shop/storefront").unwrap();
    assert_eq!(storefront["hostnames"], json!(["shop.example.com"]));
    assert_eq!(storefront["rules"].as_array().unwrap().len(), 9);
    assert_eq!(storefront["rules"][1]["action"]["action"], "redirect");
    assert_eq!(storefront["rules"][3]["backends"][0]["weight"], 90);
    assert_eq!(t["listeners"][1]["name"], "internal");
    let text = run(&["table", "-f", MANIFESTS, "--gateway", PUBLIC]);
    assert!(text.stdout.contains("listener http HTTP:80 *.example.com"), "{}", text.stdout);
    assert!(text.stdout.contains("HTTPRoute shop/storefront hostnames shop.example.com"), "{}", text.stdout);
    assert!(
        text.stdout.contains("HTTPRoute shop/staging not attached: no parentRef names this Gateway"),
        "{}",
        text.stdout
    );
}

#[test]
fn tests_file_with_every_expectation() {
    let out = run(&["test", "-f", MANIFESTS, TESTS, "--coverage"]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(out.stdout.contains("11 passed, 0 failed"), "{}", out.stdout);
    assert!(out.stdout.contains("coverage: every HTTPRoute rule (10) was chosen by a test"), "{}", out.stdout);
    let report = run(&["test", "-f", MANIFESTS, TESTS, "--json"]).json();
    assert_eq!(report["passed"], 11);
    assert_eq!(report["results"][0]["actual"], route(&[], "http://shop.example.com/cart/items?id=1"));
}

#[test]
fn a_failing_test_exits_1() {
    let tests = write(
        "tests.yaml",
        "options: {gateway: infra/public}\ntests:\n\
         - name: wrong status\n  request: {url: \"http://shop.example.com/old\"}\n  expect: {status: 302}\n\
         - name: wrong redirect\n  request: {url: \"http://shop.example.com/old\"}\n  expect: {redirect: \"http://shop.example.com/new\"}\n\
         - name: wrong upstream\n  request: {url: \"http://shop.example.com/legacy/a\"}\n  expect: {status: 200, upstream: {path: /legacy/a}}\n\
         - name: wrong method\n  request: {url: \"http://shop.example.com/api\", method: PUT, headers: {x-env: canary}}\n  expect: {backend: api-canary:8080}\n\
         - name: right\n  request: {url: \"http://shop.example.com/api\", method: POST, headers: {x-env: canary}}\n  expect: {backend: shop/api-canary:8080, upstreamPath: /api}\n",
    );
    let out = run(&["test", "-f", MANIFESTS, &tests, "--coverage"]);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stdout.contains(
            "FAIL wrong status\n  expected: status 302\n  actual:   301 redirect to https://shop.example.com/new"
        ),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains(
            "FAIL wrong upstream\n  expected: status 200, upstream path /legacy/a\n  actual:   200 shop/legacy:80"
        ),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("upstream host legacy.internal path /v1/a"), "{}", out.stdout);
    assert!(out.stdout.contains("FAIL wrong method") && out.stdout.contains("FAIL wrong redirect"), "{}", out.stdout);
    assert!(out.stdout.contains("PASS right"), "{}", out.stdout);
    assert!(
        out.stdout.contains("HTTPRoute shop/storefront  rules[0]"),
        "coverage lists the rules no test chose: {}",
        out.stdout
    );
    assert!(out.stdout.contains("1 passed, 4 failed"), "{}", out.stdout);
    let report = run(&["test", "-f", MANIFESTS, &tests, "--json"]);
    assert_eq!(report.code, 1);
    assert_eq!(report.json()["failed"], 4);
    // --gateway over the file's options.gateway.
    let staging = write(
        "tests.yaml",
        "tests:\n- request: {url: \"http://shop.example.com/cart\"}\n  expect: {backend: cart-staging:8080}\n",
    );
    assert_eq!(run(&["test", "-f", MANIFESTS, &staging, "--gateway", "infra/staging"]).code, 0);
}

#[test]
fn bad_input_exits_2_saying_what_is_wrong() {
    let unknown = run(&["route", "-f", MANIFESTS, "--gateway", "infra/nope", "http://shop.example.com/", "--json"]);
    assert_eq!(unknown.code, 2);
    assert!(
        unknown
            .stderr
            .contains("gateway infra/nope: no such Gateway; the input's Gateways: infra/public, infra/staging"),
        "{}",
        unknown.stderr
    );
    assert!(unknown.json()["error"]["message"].as_str().unwrap().contains("infra/public"));
    for (url, why) in [
        ("http://shop.example.com:80x/", "port is not a number"),
        ("ftp://shop.example.com/", "neither http nor https"),
        ("http:///cart", "no host"),
    ] {
        let out = run(&["route", "-f", MANIFESTS, "--gateway", PUBLIC, url]);
        assert_eq!(out.code, 2, "{url}");
        assert!(out.stderr.contains(why), "{url}: {}", out.stderr);
    }
    for (header, why) in [("no-colon", "no `:`"), (": v", "the name is empty"), ("a b: c", "holds a space")] {
        let out = run(&["route", "-f", MANIFESTS, "--gateway", PUBLIC, "-H", header, "http://shop.example.com/"]);
        assert_eq!(out.code, 2, "{header}");
        assert!(out.stderr.contains(why) && out.stderr.contains("expected `Name: value`"), "{header}: {}", out.stderr);
    }
    // --gateway with no Gateway in the input.
    let none = run(&["route", "-f", "examples/shop/manifests", "--gateway", PUBLIC, "http://shop.example.com/"]);
    assert_eq!(none.code, 2);
    assert!(none.stderr.contains("no Gateway in the input"), "{}", none.stderr);
    // A tests file expecting nothing, and a Gateway test's bad port, are named at their field.
    let nothing = write("t.yaml", "tests:\n- request: {url: \"http://a/\"}\n  expect: {via: rule}\n");
    let out = run(&["test", "-f", MANIFESTS, &nothing]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("tests[0].expect") && out.stderr.contains("expects nothing"), "{}", out.stderr);
    let port = write(
        "t.yaml",
        "options: {gateway: infra/public}\ntests:\n- request: {url: \"http://a:x/\"}\n  expect: {status: 404}\n",
    );
    let out = run(&["test", "-f", MANIFESTS, &port]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("tests[0].request") && out.stderr.contains("port"), "{}", out.stderr);
}

/// Mixed input: Ingress routing by default (with a note), the Gateway API with `--gateway`; a
/// Gateway alone is routed without `--gateway`. `-X` is accepted by the Ingress router.
#[test]
fn which_router_answers() {
    let gateway_only = "tests/data/gateway/shop.yaml";
    let alone = run(&["route", "-f", gateway_only, "http://shop.example.com/cart", "--json"]);
    assert_eq!((alone.code, alone.json()["backend"]["service"]["name"].as_str()), (0, Some("cart")));
    let alone = run(&["table", "-f", gateway_only, "--json"]);
    assert_eq!(alone.json()["gateway"], "infra/public");

    let mixed = ["-f", "examples/shop/manifests", "-f", gateway_only];
    let ingress =
        run(&[&["route"][..], &mixed, &["-X", "POST", "https://shop.example.com/cart/items", "--json"]].concat());
    assert_eq!(ingress.code, 0, "{}", ingress.stderr);
    assert!(ingress.json().get("label").is_some(), "the Ingress decision: {}", ingress.stdout);
    assert!(ingress.stderr.contains("--gateway NAMESPACE/NAME routes through them"), "{}", ingress.stderr);
    assert_eq!(ingress.stderr.lines().filter(|l| l.contains("--gateway")).count(), 1);
    let through_gateway =
        run(&[&["route"][..], &mixed, &["--gateway", "public", "http://shop.example.com/cart", "--json"]].concat());
    assert_eq!(through_gateway.json()["backend"]["service"]["name"], "cart");
    assert!(!through_gateway.stderr.contains("note"), "{}", through_gateway.stderr);
}

/// `regexOrder` and `checkServices` are compile options like `gateway`: `--options` carries them
/// (as a tests file's `options`, npm's options and the filter's configuration do).
#[test]
fn regex_order_and_check_services_through_options() {
    let objects = json!([
        {"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway", "metadata": {"name": "gw", "namespace": "infra"},
         "spec": {"gatewayClassName": "c", "listeners": [{"name": "http", "port": 80, "protocol": "HTTP",
                  "allowedRoutes": {"namespaces": {"from": "All"}}}]}},
        {"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute", "metadata": {"name": "r", "namespace": "apps"},
         "spec": {"parentRefs": [{"name": "gw", "namespace": "infra"}], "rules": [
             {"matches": [{"path": {"type": "PathPrefix", "value": "/a"}}], "backendRefs": [{"name": "prefix", "port": 80}]},
             {"matches": [{"path": {"type": "RegularExpression", "value": "/a/[0-9]+"}}], "backendRefs": [{"name": "regex", "port": 80}]}]}}
    ]);
    let file = write("regex-order.json", &objects.to_string());
    let backend = |options: &str| {
        let out = run(&["route", "-f", &file, "--options", options, "http://h.com/a/12", "--json"]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        let json = out.json();
        (json["status"].as_u64().unwrap(), json["backend"]["service"]["name"].as_str().map(String::from))
    };
    // Envoy Gateway ranks a regex above a prefix; Istio the prefix above the regex.
    assert_eq!(backend("{}"), (200, Some("regex".into())));
    assert_eq!(backend(r#"{"regexOrder": "Istio"}"#), (200, Some("prefix".into())));
    // checkServices on, and no Service in the input: every backendRef is missing, 500.
    assert_eq!(backend(r#"{"checkServices": true}"#), (500, None));
    let bad = run(&["route", "-f", &file, "--options", r#"{"regexOrder": "Nginx"}"#, "http://h.com/", "--json"]);
    assert_eq!(bad.code, 2, "an unknown order is refused: {}", bad.stdout);
}

/// GRPCRoute through the CLI (issue 30): a gRPC call is `-X POST -H content-type:
/// application/grpc` to `/SERVICE/METHOD`; the decision names the GRPCRoute, a call no rule takes
/// is UNIMPLEMENTED for the client; explain, table, test and status name the route's kind.
#[test]
fn grpc_calls_route_by_grpcroute() {
    let grpc = |method: &str, extra: &[&str]| {
        let url = format!("http://grpc.example.com/echo.v1.Echo/{method}");
        let mut args = vec!["route", "--json", "-f", "examples/grpc/manifests", "-X", "POST"];
        args.extend(["-H", "content-type: application/grpc"]);
        args.extend_from_slice(extra);
        args.push(&url);
        let out = run(&args);
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
        out.json()
    };
    let echo = grpc("Echo", &[]);
    assert_eq!(
        (&echo["status"], &echo["label"], &echo["routeKind"], &echo["route"], &echo["rule"]),
        (&json!(200), &json!("apps/echo-v1:8080"), &json!("GRPCRoute"), &json!("apps/echo"), &json!(0))
    );
    assert!(echo.get("grpcStatus").is_none() && echo.get("grpcStatusName").is_none(), "{echo}");
    let canary = grpc("Echo", &["-H", "x-canary: true"]);
    assert_eq!(canary["label"], "apps/echo-v2:8080");
    assert_eq!(
        canary["upstream"]["headers"],
        json!([["content-type", "application/grpc"], ["x-canary", "true"], ["x-routed-by", "canary"]])
    );
    let missing = grpc("Reverse", &[]);
    assert_eq!(
        (&missing["status"], &missing["grpcStatus"], &missing["grpcStatusName"]),
        (&json!(404), &json!(12), &json!("UNIMPLEMENTED"))
    );
    let text = run(&[
        "route",
        "-f",
        "examples/grpc/manifests",
        "-X",
        "POST",
        "-H",
        "content-type: application/grpc",
        "http://grpc.example.com/echo.v1.Echo/Reverse",
    ]);
    assert!(text.stdout.starts_with("404 (none), gRPC 12 UNIMPLEMENTED"), "{}", text.stdout);
    let explain = run(&[
        "explain",
        "-f",
        "examples/grpc/manifests",
        "-X",
        "POST",
        "http://grpc.example.com/echo.v1.Echo/Reverse",
    ]);
    assert!(explain.stdout.contains("GRPCRoute apps/echo (hostname grpc.example.com)"), "{}", explain.stdout);
    assert!(explain.stdout.contains("does not match: wants method echo.v1.Echo/Echo (Exact)"), "{}", explain.stdout);
    let tests = run(&["test", "-f", "examples/grpc/manifests", "examples/grpc/tests.yaml", "--coverage"]);
    assert_eq!(tests.code, 0, "{}{}", tests.stdout, tests.stderr);
    assert!(tests.stdout.contains("coverage: every GRPCRoute rule (4) was chosen by a test"), "{}", tests.stdout);
    let status = run(&["status", "--json", "-f", "examples/grpc/manifests"]);
    let objects = status.json()["objects"].clone();
    let route = objects.as_array().unwrap().iter().find(|o| o["kind"] == "GRPCRoute").expect("the GRPCRoute's status");
    assert_eq!(route["status"]["parents"][0]["conditions"][0]["reason"], "Accepted");
    assert_eq!(route["update"]["path"], "/apis/gateway.networking.k8s.io/v1/namespaces/apps/grpcroutes/echo/status");
    let gateway = objects.as_array().unwrap().iter().find(|o| o["kind"] == "Gateway").unwrap();
    assert_eq!(gateway["status"]["listeners"][0]["attachedRoutes"], 1);
}

/// A Host header whose port is not the connection's (issue 30, as the conformance suite sends
/// `very.specific.com:1234` to port 80): `--port` picks the listener, the hostname is matched
/// without the Host header's port; a tests file's `port` says the same.
#[test]
fn the_connection_port_is_not_the_host_headers() {
    let manifests = write(
        "port.yaml",
        "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: gw, namespace: infra}\n\
         spec:\n  gatewayClassName: eg\n  listeners:\n  - {name: http, port: 80, protocol: HTTP, hostname: very.specific.com, \
         allowedRoutes: {namespaces: {from: All}}}\n---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\n\
         metadata: {name: r, namespace: apps}\nspec:\n  parentRefs: [{name: gw, namespace: infra}]\n  hostnames: [very.specific.com]\n\
         \x20 rules: [{backendRefs: [{name: svc, port: 80}]}]\n",
    );
    let on = |extra: &[&str]| {
        let mut args = vec!["route", "--json", "-f", manifests.as_str()];
        args.extend_from_slice(extra);
        args.push("http://very.specific.com:1234/");
        run(&args).json()
    };
    assert_eq!((on(&[])["status"].clone(), on(&[])["via"].clone()), (json!(404), json!("noListener")));
    let routed = on(&["--port", "80"]);
    assert_eq!(
        (&routed["status"], &routed["label"], &routed["listener"]),
        (&json!(200), &json!("apps/svc:80"), &json!("http"))
    );
    let tests = write(
        "port.tests.yaml",
        "tests:\n- request: {url: \"http://very.specific.com:1234/\", port: 80}\n  expect: {backend: apps/svc:80}\n",
    );
    let out = run(&["test", "-f", &manifests, &tests]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
}
