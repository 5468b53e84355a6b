//! The `ingress-router` binary, run as a user runs it.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};

const SHOP: &str = "examples/shop/manifests";
const SHOP_TESTS: &str = "examples/shop/tests.yaml";

struct Output {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Output {
    /// Lines with runs of spaces collapsed (column widths are not part of the contract).
    fn lines(&self) -> Vec<String> {
        self.stdout.lines().map(|l| l.split_whitespace().collect::<Vec<_>>().join(" ")).collect()
    }

    fn has_line(&self, line: &str) -> bool {
        self.lines().iter().any(|l| l == line)
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}", self.stdout))
    }
}

fn run_with_stdin(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ingress-router"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("RUST_BACKTRACE", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let output = Output {
        code: out.status.code().expect("exited with a code"),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    };
    for bad in ["panicked", "RUST_BACKTRACE", "stack backtrace", "internal error"] {
        assert!(!output.stderr.contains(bad), "{args:?}: stderr has {bad:?}:\n{}", output.stderr);
    }
    output
}

fn run(args: &[&str]) -> Output {
    run_with_stdin(args, "")
}

/// A temporary folder, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> Self {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let n = COUNT.fetch_add(1, Ordering::SeqCst);
        let dir = std::env::temp_dir().join(format!("ingress-router-cli-{}-{name}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn write(&self, name: &str, text: &str) -> String {
        let path = self.0.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const ONE_INGRESS: &str = r#"
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: app, namespace: web}
spec:
  rules:
  - host: app.example.com
    http:
      paths:
      - {path: /api, pathType: Prefix, backend: {service: {name: api, port: {number: 8080}}}}
"#;

#[test]
fn route_prints_the_decision() {
    let out = run(&["route", "-f", SHOP, "--ingress-class", "nginx", "https://Shop.Example.com:443/cart/items?id=1"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    for line in [
        "backend: cart-api:80",
        "via: rule",
        "ingress: shop/storefront",
        "host: shop.example.com",
        "path: /cart",
        "pathType: Prefix",
        "field: spec.rules[0].http.paths[0]",
    ] {
        assert!(out.has_line(line), "missing {line:?} in:\n{}", out.stdout);
    }
    // Diagnostics go to stderr, never stdout.
    assert!(out.stderr.contains("warning[duplicate-path]"), "{}", out.stderr);
    assert!(out.stderr.contains("note[class-not-served]"), "{}", out.stderr);
    assert!(!out.stdout.contains("warning"));
}

#[test]
fn route_host_and_path_and_default_backend() {
    let out = run(&["route", "-f", SHOP, "--ingress-class", "nginx", "api.example.com", "/v3/orders"]);
    assert_eq!(out.code, 0);
    assert!(out.has_line("backend: web:80"), "{}", out.stdout);
    assert!(out.has_line("via: defaultBackend"));
    assert!(out.has_line("from: Ingress shop/storefront"));
}

#[test]
fn route_404_without_default_backend() {
    let dir = TempDir::new("404");
    let file = dir.write("app.yaml", ONE_INGRESS);
    let out = run(&["route", "-f", &file, "app.example.com", "/other"]);
    assert_eq!(out.code, 0);
    assert!(out.has_line("backend: 404"), "{}", out.stdout);
    assert!(out.has_line("via: none"));
}

#[test]
fn route_json_is_the_decision_view() {
    let out =
        run(&["route", "-f", SHOP, "--ingress-class", "nginx", "--json", "https://shop.example.com/cart/checkout"]);
    assert_eq!(out.code, 0);
    let v = out.json();
    assert_eq!(v["label"], "checkout:https");
    // The backend as the Ingress writes it, beside its label.
    assert_eq!(v["backend"], json!({"service": {"name": "checkout", "port": {"name": "https"}}}));
    assert_eq!(v["via"], "rule");
    assert_eq!(v["matched"]["ingress"], "shop/storefront");
    assert_eq!(v["matched"]["pathType"], "Exact");
    assert_eq!(v["matched"]["path"], "/cart/checkout");
    assert!(out.stderr.contains("warning"), "diagnostics still reach stderr");

    let v = run(&["route", "-f", SHOP, "--json", "https://api.example.com/nothing"]).json();
    assert_eq!(v["via"], "defaultBackend");
    assert_eq!(v["defaultFrom"], "shop/storefront");
}

#[test]
fn route_without_ingress_class_serves_every_ingress() {
    let out = run(&["route", "-f", SHOP, "https://shop.example.com/blog/post"]);
    assert!(out.has_line("backend: blog:80"), "{}", out.stdout);
    assert!(out.has_line("ingress: shop/blog"));
}

#[test]
fn proxy_normalisation_flags() {
    let url = "http://shop.example.com//static/../cart/%63heckout";
    let raw = run(&["route", "-f", SHOP, "--json", url]).json();
    assert_eq!(raw["label"], "web:80", "the raw path matches nothing");
    let normalised = run(&["route", "-f", SHOP, "--json", "--normalize-path", "--merge-slashes", url]).json();
    assert_eq!(normalised["label"], "checkout:https");

    let out = run(&["route", "-f", SHOP, "--escaped-slashes", "REJECT_REQUEST", "http://shop.example.com/cart%2Fx"]);
    assert_eq!(out.code, 0);
    assert!(out.has_line("backend: 400"), "{}", out.stdout);
    let v = run(&[
        "route",
        "-f",
        SHOP,
        "--escaped-slashes",
        "REJECT_REQUEST",
        "--json",
        "http://shop.example.com/cart%2fx",
    ])
    .json();
    assert_eq!(v["via"], "rejected");
    let v = run(&[
        "route",
        "-f",
        SHOP,
        "--escaped-slashes",
        "UNESCAPE_AND_FORWARD",
        "--json",
        "http://shop.example.com/cart%2Fcheckout",
    ])
    .json();
    assert_eq!(v["label"], "checkout:https");
}

#[test]
fn explain_prints_the_trace() {
    let out = run(&["explain", "-f", SHOP, "--ingress-class", "nginx", "https://shop.example.com/cart/checkout"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let lines = out.lines();
    assert!(out.has_line("request: host shop.example.com, path /cart/checkout"), "{}", out.stdout);
    assert!(out.has_line("exact shop.example.com found"), "{}", out.stdout);
    assert!(out.has_line("tier: rules with host shop.example.com exist: only they compete"));
    assert!(out.has_line("paths of host shop.example.com, in precedence order:"));
    // Every candidate of the tier, in precedence order, with its verdict and reason.
    let verdicts: Vec<&String> = lines.iter().filter(|l| l.starts_with('✓') || l.starts_with('✗')).collect();
    assert_eq!(verdicts.len(), 4, "{}", out.stdout);
    assert!(verdicts[0].starts_with("✓ #1 Exact /cart/checkout → checkout:https shop/storefront"), "{}", verdicts[0]);
    assert!(verdicts[1].starts_with("✗ ImplementationSpecific (prefix) /static"), "{}", verdicts[1]);
    assert!(verdicts[2].starts_with("✓ #2 Prefix /cart → cart-api:80"), "{}", verdicts[2]);
    assert!(out.stdout.contains("Exact /cart/checkout equals /cart/checkout; chosen"));
    assert!(out.stdout.contains("(shadowed)"));
    assert!(
        out.has_line("decided by: 1. longest match: Exact /cart/checkout matches 14 characters, Prefix /cart only 5")
    );
    assert!(out.has_line(
        "decision: checkout:https via rule (Ingress shop/storefront, host shop.example.com, Exact /cart/checkout)"
    ));
    assert!(out.has_line("paths of other hosts (not considered):"));
    assert!(out.stdout.contains("a wildcard matches exactly one label"));
}

#[test]
fn explain_default_backend_and_json() {
    let out = run(&["explain", "-f", SHOP, "--ingress-class", "nginx", "api.example.com", "/v3"]);
    assert!(
        out.lines().iter().any(|l| l.starts_with("default: no path for host api.example.com matched")),
        "{}",
        out.stdout
    );
    assert!(out.has_line("decision: web:80 via defaultBackend (of Ingress shop/storefront)"));

    let v =
        run(&["explain", "-f", SHOP, "--ingress-class", "nginx", "--json", "https://shop.example.com/cart/checkout"])
            .json();
    assert_eq!(v["decision"]["label"], "checkout:https");
    assert_eq!(v["tier"], "exact");
    assert_eq!(v["normalizedHost"], "shop.example.com");
    assert_eq!(v["candidates"].as_array().unwrap().len(), 8);
    assert_eq!(v["candidates"][0]["chosen"], true);
    assert!(v["decidedBy"].as_str().unwrap().starts_with("1. longest match"));
}

#[test]
fn explain_summarises_large_tables() {
    let dir = TempDir::new("large");
    let rules: Vec<Value> = (0..30)
        .map(|i| {
            json!({"host": format!("h{i}.example.com"), "http": {"paths": [
                {"path": "/", "pathType": "Prefix", "backend": {"service": {"name": format!("s{i}"), "port": {"number": 80}}}}]}})
        })
        .collect();
    let ingress = json!({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress",
        "metadata": {"name": "many", "namespace": "default"}, "spec": {"rules": rules}});
    let file = dir.write("many.json", &ingress.to_string());
    let out = run(&["explain", "-f", &file, "h3.example.com", "/"]);
    assert!(
        out.has_line("decision: s3:80 via rule (Ingress default/many, host h3.example.com, Prefix /)"),
        "{}",
        out.stdout
    );
    assert!(out.has_line("... and 9 more (see --json)"), "{}", out.stdout);
}

#[test]
fn table_prints_tiers_standing_and_exclusions() {
    let out = run(&["table", "-f", SHOP, "--ingress-class", "nginx"]);
    assert_eq!(out.code, 0);
    let lines = out.lines();
    let at = |l: &str| lines.iter().position(|x| x == l).unwrap_or_else(|| panic!("missing {l:?} in:\n{}", out.stdout));
    let (api, shop, wildcard, any) = (
        at("host api.example.com"),
        at("host shop.example.com"),
        at("host *.shop.example.com (wildcard: exactly one label)"),
        at("any host (rules without a host)"),
    );
    assert!(api < shop && shop < wildcard && wildcard < any, "exact hosts, then wildcards, then host-less");
    assert_eq!(lines[shop + 1], "1. Exact /cart/checkout → checkout:https shop/storefront spec.rules[0].http.paths[1]");
    assert_eq!(lines[shop + 3], "3. Prefix /cart → cart-api:80 shop/storefront spec.rules[0].http.paths[0]");
    assert_eq!(lines[shop + 4], "4. Prefix /cart → cart-v2:80 shop/cart-v2 spec.rules[0].http.paths[0]");
    assert!(
        lines[shop + 5].starts_with("shadowed: shop/storefront (spec.rules[0].http.paths[0])"),
        "{}",
        lines[shop + 5]
    );
    assert!(out.has_line("defaultBackend: web:80 (Ingress shop/storefront)"));
    assert!(out.has_line("defaultBackend otherwise: web:80 (Ingress shop/storefront)"));
    assert!(out.has_line("shop/storefront (created 2024-01-10T09:00:00Z)"));
    assert!(out.has_line("excluded:"));
    assert!(out.has_line("shop/blog: belongs to IngressClass \"traefik\", not the served class \"nginx\""));

    let v = run(&["table", "-f", SHOP, "--ingress-class", "nginx", "--json"]).json();
    assert_eq!(v["hosts"][1]["host"], "shop.example.com");
    assert_eq!(v["hosts"][1]["paths"][3]["standing"]["kind"], "shadowed");
    assert_eq!(v["excluded"][0]["name"], "blog");
    assert_eq!(v["defaultBackend"]["backend"], "web:80");
}

#[test]
fn table_implementation_specific_flag() {
    let out = run(&["table", "-f", SHOP, "--implementation-specific", "exact"]);
    assert!(out.stdout.contains("ImplementationSpecific (exact)"), "{}", out.stdout);
    assert!(!out.has_line("excluded:"), "no class served: every Ingress takes part");
}

#[test]
fn files_folders_and_stdin() {
    let dir = TempDir::new("folders");
    dir.write("b/nested/app.yml", ONE_INGRESS);
    dir.write("a/notes.md", "not a manifest");
    dir.write(
        "a/service.json",
        r#"{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "api", "namespace": "web"}}"#,
    );
    let out = run(&["route", "-f", dir.path(), "--json", "http://app.example.com/api/x"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.json()["label"], "api:8080");

    let out = run_with_stdin(&["route", "-f", "-", "--json", "http://app.example.com/api"], ONE_INGRESS);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.json()["label"], "api:8080");
}

#[test]
fn test_passes_on_the_example() {
    let out = run(&["test", "-f", SHOP, SHOP_TESTS]);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    assert!(out.stdout.lines().all(|l| !l.starts_with("FAIL")));
    assert!(out.has_line("PASS cart goes to cart-api"));
    assert!(out.has_line("PASS test #13"), "a test without name is `test #N`");
    let last = out.stdout.lines().last().unwrap();
    assert!(last.ends_with(" passed, 0 failed"), "{last}");
}

#[test]
fn test_fails_on_a_wrong_expectation() {
    let dir = TempDir::new("wrong");
    let tests = dir.write(
        "tests.yaml",
        "tests:\n- name: newer cart\n  request: {url: https://shop.example.com/cart}\n  expect: {backend: cart-v2:80, via: rule}\n",
    );
    let out = run(&["test", "-f", SHOP, "--ingress-class", "nginx", &tests]);
    assert_eq!(out.code, 1);
    assert!(out.has_line("FAIL newer cart"), "{}", out.stdout);
    assert!(out.has_line("expected: backend cart-v2:80, via rule"));
    assert!(out.lines().iter().any(|l| l.starts_with("actual: backend cart-api:80, via rule")));
    assert!(out.has_line("trace:"));
    assert!(out.stdout.contains("decided by: 4. older Ingress: shop/storefront"));
    assert_eq!(out.stdout.lines().last(), Some("0 passed, 1 failed"));
}

#[test]
fn test_matched_and_options_in_the_tests_file() {
    let dir = TempDir::new("options");
    let tests = dir.write(
        "tests.json",
        &json!({
            "options": {"ingressClass": "nginx", "normalizePath": true, "mergeSlashes": true, "implementationSpecific": "exact"},
            "tests": [
                {"name": "normalised", "request": {"url": "http://shop.example.com//x/../cart/checkout"},
                 "expect": {"backend": "checkout:https", "matched": {"ingress": "shop/storefront", "host": "shop.example.com", "path": "/cart/checkout", "pathType": "Exact"}}},
                {"name": "exact ImplementationSpecific", "request": {"host": "shop.example.com", "path": "/static/app.js"},
                 "expect": {"backend": "web:80", "via": "defaultBackend"}},
                {"name": "class from options", "request": {"host": "shop.example.com", "path": "/blog"},
                 "expect": {"backend": "web:80"}},
                {"name": "wrong matched", "request": {"url": "http://shop.example.com/cart"},
                 "expect": {"backend": "cart-api:80", "matched": {"ingress": "shop/cart-v2"}}}
            ]
        })
        .to_string(),
    );
    let out = run(&["test", "-f", SHOP, &tests]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(out.has_line("FAIL wrong matched"), "{}", out.stdout);
    assert_eq!(out.stdout.lines().last(), Some("3 passed, 1 failed"));
    // A flag wins over the file's option.
    let out = run(&["test", "-f", SHOP, "--implementation-specific", "prefix", &tests]);
    assert!(out.has_line("FAIL exact ImplementationSpecific"), "{}", out.stdout);
}

#[test]
fn test_coverage_names_untested_paths() {
    let dir = TempDir::new("coverage");
    let tests = dir.write(
        "tests.yaml",
        "tests:\n- request: {url: https://shop.example.com/cart}\n  expect: {backend: cart-api:80}\n",
    );
    let out = run(&["test", "-f", SHOP, "--ingress-class", "nginx", "--coverage", &tests]);
    assert_eq!(out.code, 0);
    assert!(out.has_line("coverage: 1 of 8 paths chosen by a test; not chosen by any test:"), "{}", out.stdout);
    assert!(out.has_line("shop/api api.example.com /v1 Prefix spec.rules[0].http.paths[0]"), "{}", out.stdout);
    assert!(out.has_line("shop/tenants (any host) /status Exact spec.rules[1].http.paths[0]"));
    assert!(
        !out.lines().iter().any(|l| l.starts_with("shop/storefront shop.example.com /cart Prefix")),
        "chosen paths are not listed"
    );
    assert_eq!(out.stdout.lines().last(), Some("1 passed, 0 failed"));
}

fn assert_bad_input(out: &Output, names: &str) {
    assert_partly_bad_input(out, names);
    assert!(out.stdout.is_empty(), "{}", out.stdout);
}

/// Some input could not be read (exit 2, named on stderr); what could be read was still processed.
fn assert_partly_bad_input(out: &Output, names: &str) {
    assert_eq!(out.code, 2, "stdout:\n{}\nstderr:\n{}", out.stdout, out.stderr);
    let error = out
        .stderr
        .lines()
        .find(|l| l.starts_with("error: "))
        .unwrap_or_else(|| panic!("no error line:\n{}", out.stderr));
    assert!(error.contains(names), "{error:?} does not name {names:?}");
}

#[test]
fn bad_input_is_one_clear_error() {
    let dir = TempDir::new("bad");
    let missing = format!("{}/missing.yaml", dir.path());
    assert_bad_input(&run(&["route", "-f", &missing, "http://a/"]), "missing.yaml");

    let malformed = dir.write("malformed.yaml", &format!("{ONE_INGRESS}---\nkind: Ingress\nmetadata:\n  name: [\n"));
    let out = run(&["table", "-f", &malformed]);
    assert_partly_bad_input(&out, "malformed.yaml: document 2, line");
    assert!(out.stdout.contains("/api"), "the readable document is still routed: {}", out.stdout);

    let config_map = dir.write("cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\n");
    let out = run(&["route", "-f", &config_map, "http://a/"]);
    assert_bad_input(&out, "cm.yaml");
    assert!(out.stderr.contains("note: "), "the skipped ConfigMap is noted: {}", out.stderr);

    let wrong_shape = dir.write(
        "shape.yaml",
        "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: a}\nspec: {rules: 5}\n",
    );
    assert_bad_input(
        &run(&["table", "-f", &wrong_shape]),
        "shape.yaml: document 1, line 4, column 15: spec.rules: Ingress in version \"v1\" cannot be handled as a \
         Ingress: json: cannot unmarshal number into Go struct field IngressSpec.spec.rules of type []v1.IngressRule",
    );

    let app = dir.write("app.yaml", ONE_INGRESS);
    let unknown_key =
        dir.write("t1.yaml", "tests:\n- request: {url: http://a/}\n  expect: {backend: x, colour: red}\n");
    assert_bad_input(&run(&["test", "-f", &app, &unknown_key]), "t1.yaml, line 3");
    assert!(run(&["test", "-f", &app, &unknown_key]).stderr.contains("unknown field `colour`"));
    let bad_option = dir.write("t2.yaml", "options: {profile: nginx}\ntests: []\n");
    assert_bad_input(&run(&["test", "-f", &app, &bad_option]), "t2.yaml");
    let bad_test_url = dir.write("t3.yaml", "tests:\n- request: {url: 'http://'}\n  expect: {backend: 404}\n");
    assert_bad_input(&run(&["test", "-f", &app, &bad_test_url]), "t3.yaml: tests[0].request: bad URL");
    let not_yaml = dir.write("t4.yaml", "tests: [\n");
    assert_bad_input(&run(&["test", "-f", &app, &not_yaml]), "t4.yaml");
    // A tests file given as a manifest is not a Kubernetes object.
    assert_bad_input(&run(&["table", "-f", SHOP_TESTS]), "tests.yaml");

    assert_bad_input(&run(&["route", "-f", &app, "http://"]), "bad URL \"http://\"");
    assert_bad_input(&run(&["route", "-f", &app, "http:///path"]), "bad URL");
    assert_bad_input(&run(&["table", "-f", dir.write("empty/x.txt", "").trim_end_matches("x.txt")]), "empty");

    for flags in [
        &["route", "-f", &app, "--implementation-specific", "regex", "http://a/"][..],
        &["route", "-f", &app, "--escaped-slashes", "sometimes", "http://a/"],
        &["route", "-f", &app, "--profile", "nginx", "http://a/"],
        &["table", "-f", &app, "--no-such-flag"],
        &["route", "http://a/"],
    ] {
        let out = run(flags);
        assert_eq!(out.code, 2, "{flags:?}");
        assert!(out.stderr.starts_with("error: "), "{flags:?}: {}", out.stderr);
        // A bad option value is answered with the values the option takes.
        if flags.len() == 6 {
            assert!(out.stderr.contains(": expected "), "{flags:?}: {}", out.stderr);
        }
    }
}

#[test]
fn help_has_examples() {
    let out = run(&["--help"]);
    assert_eq!(out.code, 0);
    assert!(out.stdout.contains("Examples:") && out.stdout.contains("route -f examples/shop/manifests"));
    assert!(out.stdout.contains("validate -f examples/invalid") && out.stdout.contains("status -f examples/shop"));
    for sub in ["route", "explain", "table", "test", "validate", "status"] {
        let out = run(&[sub, "--help"]);
        assert_eq!(out.code, 0);
        assert!(out.stdout.contains("Examples:"), "{sub}");
        assert!(out.stdout.contains("--filename"), "{sub}");
    }
    assert!(run(&["test", "--help"]).stdout.contains("implementationSpecific"));
    assert!(run(&["validate", "--help"]).stdout.contains("--update"));
    assert!(run(&["status", "--help"]).stdout.contains("--publish-service ingress-nginx/ingress-nginx-controller"));
}

/// The options of a routing case as a tests file's `options:`; `None` for modes the CLI does not have.
#[test]
fn routing_cases_through_the_cli() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cases/routing.json");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let cases: Vec<Value> = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert!(!cases.is_empty(), "{path} holds no cases");
    let dir = TempDir::new("cases");
    let mut failures = Vec::new();
    for case in &cases {
        let id = case["id"].as_str().unwrap();
        // A case's options, request and expect are a tests file's, as they are.
        let mut tests = json!({"tests": [{"name": id, "request": case["request"], "expect": case["expect"]}]});
        if let Some(options) = case.get("options") {
            tests["options"] = options.clone();
        }
        let manifests = dir.write(&format!("{id}.json"), &case["ingresses"].to_string());
        let tests_file = dir.write(&format!("{id}.tests.json"), &tests.to_string());
        let out = run(&["test", "-f", &manifests, &tests_file]);
        if out.code != 0 || out.stdout.lines().last() != Some("1 passed, 0 failed") {
            failures.push(format!("{id} (exit {}):\n{}{}", out.code, out.stdout, out.stderr));
        }
    }
    eprintln!("{} routing cases through the CLI", cases.len());
    assert!(failures.is_empty(), "{} failing cases:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn example_manifests_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert!(root.join(SHOP).is_dir() && root.join(SHOP_TESTS).is_file());
    assert!(root.join(INVALID_FILE).is_file() && root.join(SHOP).join("controller.yaml").is_file());
}

// ------------------------------------------------------------------------------------------------
// validate
// ------------------------------------------------------------------------------------------------

const INVALID: &str = "examples/invalid";
const INVALID_FILE: &str = "examples/invalid/checkout.yaml";
const PUBLISH: &str = "ingress-nginx/ingress-nginx-controller";

/// The apiserver's detail for a name or host that is not a lowercase RFC 1123 subdomain.
const DNS1123: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', \
and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is \
'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

#[test]
fn validate_a_valid_folder() {
    let out = run(&["validate", "-f", SHOP]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(!out.stdout.contains("is invalid"), "{}", out.stdout);
    // compile's warnings, each pointed at the object (and field) to change.
    let lines: Vec<&str> = out.stdout.lines().collect();
    let at =
        lines.iter().position(|l| l.starts_with("warning[duplicate-path]: shop.example.com Prefix /cart")).unwrap();
    assert_eq!(lines[at + 1], "  --> examples/shop/manifests/cart-v2.yaml:15:9");
    assert_eq!(lines[at + 2], "  fix: remove the duplicate path, or give it another host or path");
    let at = lines.iter().position(|l| l.starts_with("warning[unknown-ingress-class]: Ingress shop/blog")).unwrap();
    assert_eq!(lines[at + 1], "  --> examples/shop/manifests/blog.yaml:9:21", "spec.ingressClassName");
    // Five Ingresses and one IngressClass; Services are not validated.
    assert_eq!(lines.last(), Some(&"6 objects: 0 invalid, 2 warnings, 0 notes"));

    // Notes (a class not served) never fail.
    let out = run(&["validate", "-f", SHOP, "--ingress-class", "nginx"]);
    assert_eq!(out.code, 0);
    assert!(out.stdout.contains("note[class-not-served]: Ingress shop/blog is not served"), "{}", out.stdout);
    assert_eq!(out.stdout.lines().last(), Some("6 objects: 0 invalid, 2 warnings, 1 note"), "{}", out.stdout);
}

#[test]
fn validate_strict_fails_on_warnings() {
    let out = run(&["validate", "-f", SHOP, "--strict"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert_eq!(out.stdout.lines().last(), Some("6 objects: 0 invalid, 2 warnings, 0 notes"));
    // Without warnings, --strict passes.
    let dir = TempDir::new("strict");
    let clean = dir.write("app.yaml", ONE_INGRESS);
    let out = run(&["validate", "-f", &clean, "--strict"]);
    assert_eq!(out.code, 0, "{}", out.stdout);
    assert_eq!(out.stdout, "1 object: 0 invalid, 0 warnings, 0 notes\n");
}

#[test]
fn validate_prints_the_apiserver_message_and_each_error_at_its_line() {
    let out = run(&["validate", "-f", INVALID]);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    let lines: Vec<&str> = out.stdout.lines().collect();
    let host = format!("spec.rules[0].host: Invalid value: \"Checkout.Example.com\": {DNS1123}");
    let dots = "spec.rules[0].http.paths[0].path: Invalid value: \"/pay/../admin\": must not contain '/../'";
    let relative = "spec.rules[0].http.paths[1].path: Invalid value: \"api\": must be an absolute path";
    let port = "spec.rules[0].http.paths[1].backend.service.port.name: Invalid value: \"http_port\": \
                must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)";
    let secret = format!("spec.tls[0].secretName: Invalid value: \"Checkout_TLS\": {DNS1123}");
    // What `kubectl apply` prints (the apiserver's message), byte for byte.
    assert_eq!(
        lines[0],
        format!("Ingress.networking.k8s.io \"checkout\" is invalid: [{host}, {dots}, {relative}, {port}, {secret}]")
    );
    assert_eq!(lines[1], format!("  {INVALID_FILE}:14:11: {host}"));
    assert_eq!(lines[2], format!("  {INVALID_FILE}:17:15: {dots}"));
    assert_eq!(lines[3], format!("  {INVALID_FILE}:21:15: {relative}"));
    assert_eq!(lines[4], format!("  {INVALID_FILE}:24:54: {port}"));
    assert_eq!(lines[5], format!("  {INVALID_FILE}:12:17: {secret}"));
    assert_eq!(lines[6], "");
    let controller =
        "spec.controller: Invalid value: \"nginx\": must be a domain-prefixed path (such as \"acme.io/foo\")";
    assert_eq!(lines[7], format!("IngressClass.networking.k8s.io \"nginx\" is invalid: {controller}"));
    assert_eq!(lines[8], format!("  {INVALID_FILE}:31:15: {controller}"));
    assert_eq!(lines.last(), Some(&"2 objects: 2 invalid, 0 warnings, 0 notes"));
}

const LIST: &str = "\
apiVersion: v1
kind: List
items:
- apiVersion: networking.k8s.io/v1
  kind: Ingress
  metadata:
    name: ok
    namespace: web
  spec:
    defaultBackend:
      service: {name: web, port: {number: 80}}
- apiVersion: networking.k8s.io/v1
  kind: Ingress
  metadata:
    name: bad
    namespace: web
    annotations:
      kubernetes.io/ingress.class: traefik
  spec:
    ingressClassName: nginx
    rules:
    - host: 10.0.0.1
      http:
        paths:
        - path: /x
          pathType: Regex
          backend:
            service: {name: web, port: {number: 80}}
";

#[test]
fn validate_points_inside_list_items() {
    let dir = TempDir::new("list");
    let file = dir.write("list.yaml", LIST);
    let out = run(&["validate", "-f", &file]);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    let ip = "spec.rules[0].host: Invalid value: \"10.0.0.1\": must be a DNS name, not an IP address";
    let path_type = "spec.rules[0].http.paths[0].pathType: Unsupported value: \"Regex\": \
                     supported values: \"Exact\", \"ImplementationSpecific\", \"Prefix\"";
    // The create rule's path lacks `metadata.`, as the apiserver writes it.
    let class = "annotations.kubernetes.io/ingress.class: Invalid value: \"traefik\": must match `ingressClassName` when both are specified";
    let expected = format!(
        "Ingress.networking.k8s.io \"bad\" is invalid: [{ip}, {path_type}, {class}]\n  \
         {file}:22:13: {ip}\n  {file}:26:21: {path_type}\n  {file}:18:36: {class}\n\n\
         2 objects: 1 invalid, 0 warnings, 0 notes\n"
    );
    assert_eq!(out.stdout, expected);

    // The same List as kubectl prints it in JSON: positions from the JSON text.
    let backend = json!({"service": {"name": "web", "port": {"number": 80}}});
    let value = json!({"apiVersion": "v1", "kind": "List", "items": [
        {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {"name": "ok", "namespace": "web"},
         "spec": {"defaultBackend": backend}},
        {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {"name": "bad", "namespace": "web"},
         "spec": {"rules": [{"host": "10.0.0.1", "http": {"paths": [{"path": "/x", "pathType": "Prefix", "backend": backend}]}}]}}
    ]});
    let json_file = dir.write("list.json", &serde_json::to_string_pretty(&value).unwrap());
    let out = run(&["validate", "-f", &json_file, "--json"]);
    assert_eq!(out.code, 1);
    let bad = &out.json()["objects"][1];
    assert_eq!(bad["origin"]["item"], 1);
    let text = std::fs::read_to_string(&json_file).unwrap();
    let line = text.lines().position(|l| l.contains("\"10.0.0.1\"")).unwrap() + 1;
    assert_eq!(bad["errors"][0]["line"], line);
    assert_eq!(bad["errors"][0]["field"], "spec.rules[0].host");
}

#[test]
fn validate_json_shape() {
    let out = run(&["validate", "-f", INVALID, "-f", SHOP, "--json"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let v = out.json();
    let objects = v["objects"].as_array().unwrap();
    assert_eq!(objects.len(), 8);
    let checkout = &objects[0];
    assert_eq!(checkout["kind"], "Ingress");
    assert_eq!(checkout["namespace"], "shop");
    assert_eq!(checkout["name"], "checkout");
    assert_eq!(checkout["operation"], "create");
    assert_eq!(checkout["valid"], false);
    assert!(checkout["message"].as_str().unwrap().starts_with("Ingress.networking.k8s.io \"checkout\" is invalid: ["));
    assert_eq!(
        checkout["errors"][1],
        json!({
            "type": "FieldValueInvalid",
            "field": "spec.rules[0].http.paths[0].path",
            "badValue": "/pay/../admin",
            "detail": "must not contain '/../'",
            "message": "spec.rules[0].http.paths[0].path: Invalid value: \"/pay/../admin\": must not contain '/../'",
            "line": 17,
            "column": 15
        })
    );
    let class = &objects[1];
    assert_eq!(
        (&class["kind"], &class["namespace"], &class["name"]),
        (&json!("IngressClass"), &Value::Null, &json!("nginx"))
    );
    assert_eq!(class["errors"][0]["line"], 31);
    let api = objects.iter().find(|o| o["name"] == "api").unwrap();
    assert_eq!((&api["valid"], &api["message"], &api["errors"]), (&json!(true), &Value::Null, &json!([])));
    assert_eq!(api["origin"]["source"], "examples/shop/manifests/api.yaml");
    let diagnostics = v["diagnostics"].as_array().unwrap();
    assert!(diagnostics.iter().any(|d| d["code"] == "duplicate-path" && d["severity"] == "warning"));
    assert!(diagnostics.iter().all(|d| d["code"] != "invalid-ingress"), "invalid objects are listed as objects");
    assert_eq!(
        v["summary"],
        json!({"objects": 8, "valid": 6, "invalid": 2, "warnings": diagnostics.len(), "notes": 0, "inputErrors": 0})
    );
}

const STORED: &str = "\
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: legacy
  namespace: shop
spec:
  tls:
  - hosts: [legacy.example.com]
    secretName: Legacy_Cert
  rules:
  - host: legacy.example.com
    http:
      paths:
      - path: /v1
        pathType: Prefix
        backend:
          service: {name: legacy, port: {number: 80}}
";

#[test]
fn validate_update_keeps_what_the_stored_object_had() {
    let dir = TempDir::new("update");
    let old = dir.write("old.yaml", STORED);
    let new = dir.write("new.yaml", &STORED.replace("path: /v1", "path: /v2"));
    // Created, the invalid secretName is refused.
    let out = run(&["validate", "-f", &new]);
    assert_eq!(out.code, 1);
    assert!(out.stdout.starts_with(&format!(
        "Ingress.networking.k8s.io \"legacy\" is invalid: spec.tls[0].secretName: Invalid value: \"Legacy_Cert\": {DNS1123}\n  {new}:9:17: "
    )), "{}", out.stdout);
    // As an update of a stored object that already had it, it is accepted (ValidateIngressUpdate).
    let out = run(&["validate", "-f", &new, "--update", &old]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert_eq!(out.stdout, "1 object: 0 invalid, 0 warnings, 0 notes\n");
    let out = run(&["validate", "-f", &new, "--update", &old, "--json"]);
    assert_eq!(
        (&out.json()["objects"][0]["operation"], &out.json()["objects"][0]["valid"]),
        (&json!("update"), &json!(true))
    );
    // A stored object with a valid secretName allows no invalid one.
    let valid_old = dir.write("valid-old.yaml", &STORED.replace("Legacy_Cert", "legacy-cert"));
    assert_eq!(run(&["validate", "-f", &new, "--update", &valid_old]).code, 1);
    // Matched by namespace and name: another namespace's object is not its stored version.
    let elsewhere = dir.write("elsewhere.yaml", &STORED.replace("namespace: shop", "namespace: other"));
    let out = run(&["validate", "-f", &new, "--update", &elsewhere]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("note: --update: Ingress other/legacy is not in the input"), "{}", out.stderr);
}

#[test]
fn validate_bad_input_exits_2() {
    let dir = TempDir::new("validate-bad");
    let service = dir.write("svc.yaml", "apiVersion: v1\nkind: Service\nmetadata: {name: web}\n");
    assert_bad_input(&run(&["validate", "-f", &service]), "svc.yaml: no Ingress or IngressClass");
    let app = dir.write("app.yaml", ONE_INGRESS);
    assert_partly_bad_input(
        &run(&["validate", "-f", &app, "--update", &format!("{}/gone.yaml", dir.path())]),
        "gone.yaml",
    );
    let broken = dir.write("broken.yaml", "kind: Ingress\nmetadata: [\n");
    assert_bad_input(&run(&["validate", "-f", &broken]), "broken.yaml");
    let out = run(&["validate", "--json"]);
    assert_eq!(out.code, 2);
}

// ------------------------------------------------------------------------------------------------
// status
// ------------------------------------------------------------------------------------------------

#[test]
fn status_prints_the_addresses_kubectl_would_show() {
    let out = run(&["status", "-f", SHOP, "--publish-service", PUBLISH, "--ingress-class", "nginx"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stdout,
        "\
NAME         CLASS     HOSTS                ADDRESS        PORTS
api          <none>    api.example.com      203.0.113.10   80
blog         traefik   shop.example.com                    80
cart-v2      nginx     shop.example.com     203.0.113.10   80
storefront   <none>    shop.example.com     203.0.113.10   80
tenants      <none>    *.shop.example.com   203.0.113.10   80

publish Service ingress-nginx/ingress-nginx-controller: 203.0.113.10
shop/blog: no address: not served: belongs to IngressClass \"traefik\", not the served class \"nginx\"
"
    );
    // Serving every Ingress, blog gets the address too.
    let out = run(&["status", "-f", SHOP, "--publish-service", PUBLISH]);
    assert!(out.has_line("blog traefik shop.example.com 203.0.113.10 80"), "{}", out.stdout);
    assert!(!out.stdout.contains("no address"), "{}", out.stdout);
}

/// An Ingress that carries an address, and a publish Service of `service_spec`.
fn status_fixture(dir: &TempDir, service_spec: &str) -> String {
    dir.write(
        "status.yaml",
        &format!(
            "{ONE_INGRESS}status:\n  loadBalancer:\n    ingress: [{{ip: 198.51.100.7}}]\n---\n\
             apiVersion: v1\nkind: Service\nmetadata: {{name: lb, namespace: edge}}\nspec: {service_spec}\n"
        ),
    )
}

#[test]
fn status_says_why_there_is_no_address() {
    let dir = TempDir::new("pending");
    let file = status_fixture(&dir, "{type: LoadBalancer, ports: [{port: 80}]}");
    let out = run(&["status", "-f", &file, "--publish-service", "edge/lb"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    // A pending load balancer: the controller clears the address.
    assert!(out.has_line("app <none> app.example.com 80"), "{}", out.stdout);
    assert!(out.has_line(
        "no address: publish Service edge/lb is a LoadBalancer still pending (status.loadBalancer.ingress is empty)"
    ));
    // A publish Service not in the input, or a malformed argument, is an answer too (exit 0): the
    // controller leaves the status as it is.
    let out = run(&["status", "-f", &file, "--publish-service", "edge/missing"]);
    assert_eq!(out.code, 0);
    assert!(out.has_line("app <none> app.example.com 198.51.100.7 80"), "{}", out.stdout);
    assert!(out.stdout.contains("no address: publish Service edge/missing is not in the input"));
    let out = run(&["status", "-f", &file, "--publish-service", "lb"]);
    assert_eq!(out.code, 0);
    assert!(out.has_line("no address: invalid publish-service argument \"lb\": expected <namespace>/<name>"));
}

/// The JSON body after `<key>: PUT <path>` and its headers.
fn request_body(stdout: &str, put_line: &str) -> Value {
    let lines: Vec<&str> = stdout.lines().collect();
    let at = lines.iter().position(|l| *l == put_line).unwrap_or_else(|| panic!("no {put_line:?} in:\n{stdout}"));
    assert_eq!(lines[at + 1], "Content-Type: application/json");
    assert_eq!(lines[at + 2], "");
    let end = at + 3 + lines[at + 3..].iter().position(|l| *l == "}").unwrap();
    serde_json::from_str(&lines[at + 3..=end].join("\n")).unwrap()
}

#[test]
fn status_requests_are_the_puts_the_controller_sends() {
    let out = run(&["status", "-f", SHOP, "--publish-service", PUBLISH, "--ingress-class", "nginx", "--requests"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let body =
        request_body(&out.stdout, "shop/api: PUT /apis/networking.k8s.io/v1/namespaces/shop/ingresses/api/status");
    assert_eq!(body["apiVersion"], "networking.k8s.io/v1");
    assert_eq!(body["kind"], "Ingress");
    assert_eq!(body["metadata"]["name"], "api");
    assert_eq!(body["spec"]["rules"][0]["host"], "api.example.com");
    assert_eq!(body["status"], json!({"loadBalancer": {"ingress": [{"ip": "203.0.113.10"}]}}));
    assert!(out.has_line(
        "shop/blog: left untouched: not served: belongs to IngressClass \"traefik\", not the served class \"nginx\""
    ));
    assert!(!out.stdout.contains("ingresses/blog/status"));

    // Already up to date: no request. Pending: a PUT that clears the address.
    let dir = TempDir::new("requests");
    let file = status_fixture(&dir, "{clusterIP: 198.51.100.7, ports: [{port: 80}]}");
    let out = run(&["status", "-f", &file, "--publish-service", "edge/lb", "--requests"]);
    assert!(out.has_line("web/app: no change (the status already holds these addresses)"), "{}", out.stdout);
    let file = status_fixture(&dir, "{type: LoadBalancer, ports: [{port: 80}]}");
    let out = run(&["status", "-f", &file, "--publish-service", "edge/lb", "--requests"]);
    let body = request_body(&out.stdout, "web/app: PUT /apis/networking.k8s.io/v1/namespaces/web/ingresses/app/status");
    assert_eq!(body["status"], json!({"loadBalancer": {}}));
}

#[test]
fn status_json_is_the_report() {
    let out = run(&["status", "-f", SHOP, "--publish-service", PUBLISH, "--ingress-class", "nginx", "--json"]);
    assert_eq!(out.code, 0);
    let v = out.json();
    assert_eq!(v["publishService"], PUBLISH);
    assert_eq!(v["addresses"], json!([{"ip": "203.0.113.10"}]));
    let api = v["ingresses"].as_array().unwrap().iter().find(|i| i["name"] == "api").unwrap();
    assert_eq!(api["update"]["action"], "put");
    assert_eq!(api["update"]["path"], "/apis/networking.k8s.io/v1/namespaces/shop/ingresses/api/status");
    let blog = v["ingresses"].as_array().unwrap().iter().find(|i| i["name"] == "blog").unwrap();
    assert_eq!((&blog["served"], &blog["update"]["action"]), (&json!(false), &json!("untouched")));
}

#[test]
fn status_of_a_service() {
    let out = run(&["status", "-f", SHOP, "--service", PUBLISH]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    for line in [
        "Name: ingress-nginx-controller",
        "Namespace: ingress-nginx",
        "Type: LoadBalancer",
        "IP: 10.96.120.15",
        "Port: http 80/TCP",
        "NodePort: https 31443/TCP",
        "LoadBalancer Ingress: 203.0.113.10",
    ] {
        assert!(out.has_line(line), "missing {line:?} in:\n{}", out.stdout);
    }
    let out = run(&["status", "-f", SHOP, "--service", PUBLISH, "--json"]);
    let v = out.json();
    assert_eq!(v["type"], "LoadBalancer");
    assert_eq!(v["loadBalancer"]["state"], "provisioned");
    assert_eq!(v["loadBalancer"]["ingress"], json!([{"ip": "203.0.113.10"}]));
    let out = run(&["status", "-f", SHOP, "--service", "shop/web"]);
    assert!(out.has_line("Type: ClusterIP"), "{}", out.stdout);
}

#[test]
fn status_bad_flags_exit_2() {
    for flags in [
        &["status", "-f", SHOP][..],
        &["status", "-f", SHOP, "--publish-service", PUBLISH, "--service", PUBLISH],
        &["status", "-f", SHOP, "--service", PUBLISH, "--requests"],
        &["status", "-f", SHOP, "--service", PUBLISH, "--ingress-class", "nginx"],
        &["status", "--publish-service", PUBLISH],
    ] {
        let out = run(flags);
        assert_eq!(out.code, 2, "{flags:?}: {}", out.stdout);
        assert!(out.stderr.starts_with("error: "), "{flags:?}: {}", out.stderr);
        assert!(out.stdout.is_empty());
    }
    assert_bad_input(&run(&["status", "-f", SHOP, "--service", "shop/nothing"]), "no Service shop/nothing");
    assert_bad_input(&run(&["status", "-f", SHOP, "--service", "web"]), "--service \"web\"");
    let dir = TempDir::new("status-bad");
    let service = dir.write("svc.yaml", "apiVersion: v1\nkind: Service\nmetadata: {name: web}\n");
    assert_bad_input(&run(&["status", "-f", &service, "--publish-service", "default/web"]), "svc.yaml: no Ingress");
}

/// Regression (issue 16): a request in a tests file takes `method` (what Envoy's router_check_tool
/// users write, and what earlier versions accepted), `scheme` and `headers` under every profile;
/// `test --json` prints the core's report, each `actual` the decision `route --json` prints.
#[test]
fn tests_file_requests_take_method_scheme_and_headers() {
    let dir = TempDir::new("method");
    let tests = dir.write(
        "t.yaml",
        "tests:\n\
         - request: {url: https://shop.example.com/cart/items, method: GET}\n  expect: {backend: cart-api:80, via: rule}\n\
         - request: {host: shop.example.com, path: /cart, method: POST, scheme: https, headers: {X-Canary: always}}\n  expect: {backend: cart-api:80}\n\
         - request: {host: shop.example.com, headers: null}\n  expect: {backend: web:80, via: defaultBackend}\n",
    );
    for profile in ["spec", "ingress-nginx"] {
        let out = run(&["test", "-f", SHOP, "--ingress-class", "nginx", "--profile", profile, &tests]);
        assert_eq!(out.code, 0, "{profile}:\n{}{}", out.stdout, out.stderr);
        assert!(out.stdout.ends_with("3 passed, 0 failed\n"), "{profile}: {}", out.stdout);
    }
    let report = run(&["test", "-f", SHOP, "--ingress-class", "nginx", &tests, "--json"]).json();
    let route =
        run(&["route", "-f", SHOP, "--ingress-class", "nginx", "--json", "https://shop.example.com/cart/items"]);
    assert_eq!(report["results"][0]["actual"], route.json());
    assert_eq!((report["passed"].as_u64(), report["failed"].as_u64()), (Some(3), Some(0)));
    // A misspelt key is still an error, named at its line.
    let typo = dir.write("typo.yaml", "tests:\n- request: {url: http://a/, methd: GET}\n  expect: {backend: x}\n");
    let out = run(&["test", "-f", SHOP, &typo]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("typo.yaml, line 2") && out.stderr.contains("unknown field `methd`"), "{}", out.stderr);
}

/// `gateway`: a request through the Gateway API objects of the same files the Ingress commands
/// read (which leave those objects out).
#[test]
fn gateway_routes_explains_and_refuses() {
    let shop = "tests/data/gateway/shop.yaml";
    let out = run(&["gateway", "-f", shop, "http://shop.example.com/cart/items?id=1"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout, "200 shop/cart:8080  (listener http, HTTPRoute shop/shop, rules[0].matches[0])\n");

    let redirect = run(&["gateway", "-f", shop, "http://shop.example.com/old", "--json"]).json();
    assert_eq!(redirect["status"], 301);
    assert_eq!(redirect["redirect"]["location"], "http://shop.example.com/new");
    assert_eq!(redirect["rule"], 1);

    // The route's hostname is shop.example.com only: another host under the listener's wildcard
    // finds no route.
    let other = run(&["gateway", "-f", shop, "http://other.example.com/cart", "--json"]).json();
    assert_eq!((other["status"].as_u64(), other["via"].as_str()), (Some(404), Some("none")));

    // --explain: the listener chosen, and for the other match why it lost.
    let explained = run(&["gateway", "-f", shop, "http://shop.example.com/cart", "--explain", "--json"]).json();
    assert_eq!(explained["listeners"][0]["outcome"], "chosen");
    let candidates = &explained["routes"][0]["candidates"];
    assert_eq!(candidates[0]["outcome"]["outcome"], "won");
    assert_eq!(candidates[1]["outcome"]["mismatch"]["failed"], "path");

    // The Ingress commands leave Gateway API objects out, without a note.
    let table = run(&["table", "-f", shop]);
    assert!(!table.stderr.contains("HTTPRoute"), "{}", table.stderr);

    // No Gateway: a clear error, exit 2.
    let none = run(&["gateway", "-f", "examples/shop/manifests", "http://shop.example.com/"]);
    assert_eq!(none.code, 2);
    assert!(none.stderr.contains("no Gateway in the input"), "{}", none.stderr);
    let header = run(&["gateway", "-f", shop, "http://shop.example.com/", "-H", "no-colon"]);
    assert_eq!(header.code, 2);
    assert!(header.stderr.contains("expected `Name: value`"), "{}", header.stderr);
}

/// Issue 19: `status` without `--publish-service` writes the Gateway API status; `objects` lists
/// every Ingress, GatewayClass, Gateway and HTTPRoute in input order.
#[test]
fn status_of_gateway_api_objects() {
    let dir = TempDir::new("gateway-status");
    let file = dir.write(
        "mixed.yaml",
        &format!(
            "{ONE_INGRESS}---\n\
             apiVersion: gateway.networking.k8s.io/v1\nkind: GatewayClass\nmetadata: {{name: eg, generation: 1}}\n\
             spec: {{controllerName: example.net/gateway-controller}}\n---\n\
             apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {{name: gw, namespace: infra, generation: 4}}\n\
             spec:\n  gatewayClassName: eg\n  listeners:\n\
             \x20 - {{name: http, port: 80, protocol: HTTP, allowedRoutes: {{namespaces: {{from: All}}}}}}\n\
             \x20 - {{name: tcp, port: 5432, protocol: TCP}}\n---\n\
             apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {{name: shop, namespace: shop}}\n\
             spec:\n  parentRefs: [{{name: gw, namespace: infra}}, {{name: gw, namespace: infra, sectionName: nope}}]\n\
             \x20 rules: [{{backendRefs: [{{name: cart, port: 8080}}]}}]\n"
        ),
    );
    let out = run(&["status", "-f", &file, "--json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("note: Ingresses get no address without --publish-service"), "{}", out.stderr);
    let v = out.json();
    assert_eq!(v["controllerName"], "ingress-router.dev/gateway-controller");
    let objects = v["objects"].as_array().unwrap();
    let listed: Vec<(&str, Option<&str>, &str)> = objects
        .iter()
        .map(|o| (o["kind"].as_str().unwrap(), o["namespace"].as_str(), o["name"].as_str().unwrap()))
        .collect();
    assert_eq!(
        listed,
        [
            ("Ingress", Some("web"), "app"),
            ("GatewayClass", None, "eg"),
            ("Gateway", Some("infra"), "gw"),
            ("HTTPRoute", Some("shop"), "shop")
        ]
    );
    assert_eq!(objects[0]["status"], json!({"loadBalancer": {}}));
    assert_eq!(objects[1]["status"]["conditions"][0]["reason"], "Accepted");
    assert_eq!(objects[1]["status"]["conditions"][0]["observedGeneration"], 1);
    let gw = &objects[2]["status"];
    assert_eq!(gw["conditions"][0]["reason"], "ListenersNotValid");
    assert_eq!(gw["conditions"][0]["observedGeneration"], 4);
    assert_eq!(gw["listeners"][0]["attachedRoutes"], 1);
    assert_eq!(gw["listeners"][1]["conditions"][0]["reason"], "UnsupportedProtocol");
    let parents = objects[3]["status"]["parents"].as_array().unwrap();
    assert_eq!(parents[0]["conditions"][0]["reason"], "Accepted");
    assert_eq!(parents[1]["parentRef"]["sectionName"], "nope");
    assert_eq!(parents[1]["conditions"][0]["reason"], "NoMatchingParent");
    let time = parents[0]["conditions"][0]["lastTransitionTime"].as_str().unwrap();
    assert!(time.len() == 20 && time.ends_with('Z') && time.as_bytes()[10] == b'T', "{time}");
    assert_eq!(
        objects[3]["update"]["path"],
        "/apis/gateway.networking.k8s.io/v1/namespaces/shop/httproutes/shop/status"
    );

    // Text: a summary per object; --requests: the PUTs.
    let out = run(&["status", "-f", &file, "--requests"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    for line in [
        "Ingress web/app: no address (give --publish-service)",
        "GatewayClass eg: Accepted",
        "Gateway infra/gw: Programmed",
        "Accepted=True ListenersNotValid: listeners not valid: tcp; accepted: http",
        "listener http: 1 attached route(s): Accepted, Programmed, ResolvedRefs",
        "listener tcp: 0 attached route(s): ResolvedRefs",
        "Accepted=False UnsupportedProtocol: protocol \"TCP\" is not supported (HTTP, HTTPS)",
        "parent Gateway infra/gw (ingress-router.dev/gateway-controller): Accepted, ResolvedRefs",
        "parent Gateway infra/gw sectionName nope (ingress-router.dev/gateway-controller): ResolvedRefs",
        "Accepted=False NoMatchingParent: sectionName \"nope\" names no listener of Gateway infra/gw (listeners: http, tcp)",
    ] {
        assert!(out.has_line(line), "missing {line:?} in:\n{}", out.stdout);
    }
    let body = request_body(
        &out.stdout,
        "Gateway infra/gw: PUT /apis/gateway.networking.k8s.io/v1/namespaces/infra/gateways/gw/status",
    );
    assert_eq!(body["status"]["listeners"][0]["attachedRoutes"], 1);

    // Another controller's class: its objects are left untouched.
    let out = run(&["status", "-f", &file, "--controller-name", "other.io/c", "--json"]);
    let v = out.json();
    assert_eq!(v["controllerName"], "other.io/c");
    assert!(v["objects"][1]["status"].is_null() && v["objects"][3]["status"].is_null(), "{v}");
    assert_eq!(v["objects"][2]["update"]["action"], "untouched");

    // With --publish-service: the Ingress report beside objects, the address on the Gateway too.
    let with_lb = dir.write(
        "lb.yaml",
        "apiVersion: v1\nkind: Service\nmetadata: {name: lb, namespace: edge}\nspec: {clusterIP: 198.51.100.7, ports: [{port: 80}]}\n",
    );
    let v = run(&["status", "-f", &file, "-f", &with_lb, "--publish-service", "edge/lb", "--json"]).json();
    assert_eq!(v["publishService"], "edge/lb");
    assert_eq!(v["objects"][0]["status"], json!({"loadBalancer": {"ingress": [{"ip": "198.51.100.7"}]}}));
    assert_eq!(v["objects"][2]["status"]["addresses"], json!([{"type": "IPAddress", "value": "198.51.100.7"}]));
}

/// `compile -o` writes a table file that `route`, `explain` and `table` load (`-f table.bin`) and
/// answer from as they do from the manifests; options and manifests beside it, a Gateway API
/// router and a damaged file are refused with the reason.
#[test]
fn a_compiled_table_answers_as_the_manifests() {
    let dir = TempDir::new("table-file");
    let table = format!("{}/shop.table", dir.path());
    let out = run(&["compile", "-f", SHOP, "--ingress-class", "nginx", "--normalize-path", "-o", &table]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("shop.table: ") && out.stderr.contains(" paths of "), "{}", out.stderr);
    let from_manifests = ["-f", SHOP, "--ingress-class", "nginx", "--normalize-path"];
    for request in [
        &["route", "--json", "https://shop.example.com/cart/items"][..],
        &["route", "--json", "http://shop.example.com/a/../cart/x"],
        &["route", "--json", "tenant-a.shop.example.com", "/"],
        &["explain", "--json", "https://api.example.com/v2/orders"],
        &["table", "--json"],
    ] {
        let (command, rest) = request.split_first().unwrap();
        let loaded = run(&[&[*command, "-f", &table][..], rest].concat());
        let compiled = run(&[&[*command][..], &from_manifests[..], rest].concat());
        assert_eq!((loaded.code, compiled.code), (0, 0), "{request:?}: {}", loaded.stderr);
        let mut compiled = compiled.json();
        // A table file keeps why an Ingress is left out, not its field errors.
        for excluded in compiled.get_mut("excluded").and_then(Value::as_array_mut).into_iter().flatten() {
            excluded.as_object_mut().unwrap().remove("errors");
        }
        assert_eq!(loaded.json(), compiled, "{request:?}");
        assert_eq!(loaded.stderr, "", "a loaded table is not linted again");
    }
    let refused = |args: &[&str], why: &str| {
        let out = run(args);
        assert_eq!(out.code, 2, "{args:?}");
        assert!(out.stderr.contains(why), "{args:?}: {}", out.stderr);
    };
    refused(
        &["route", "-f", &table, "--ingress-class", "other", "http://a/"],
        "options were fixed by `ingress-router compile`",
    );
    refused(&["route", "-f", &table, "-f", SHOP, "http://a/"], "give it alone");
    refused(
        &["compile", "-f", "examples/gateway/manifests", "--options", r#"{"gateway": "infra/public"}"#, "-o", &table],
        "cannot precompile a Gateway API router",
    );
    refused(&["compile", "-f", SHOP, "--profile", "ingress-nginx", "-o", &table], "only the spec profile");
    let mut damaged = std::fs::read(&table).unwrap();
    let last = damaged.len() - 1;
    damaged[last] ^= 0x55;
    std::fs::write(&table, damaged).unwrap();
    refused(&["route", "-f", &table, "http://a/"], "checksum does not match");
}
