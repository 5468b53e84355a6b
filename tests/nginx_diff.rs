//! `diff` between the ingress-nginx and spec profiles on the realistic files in
//! `tests/data/nginx/`, through the library and the CLI.

use std::process::Command;

use ingress_router::diff::{DiffReport, Difference};
use ingress_router::{CompileOptions, Profile, input};

fn report(file: &str) -> DiffReport {
    let path = format!("{}/tests/data/nginx/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let input = input::parse(&path, &text).unwrap();
    ingress_router::diff(&input, &CompileOptions::default(), Profile::IngressNginx, Profile::Spec)
}

fn find<'a>(r: &'a DiffReport, url: &str) -> Option<&'a Difference> {
    r.groups.iter().flat_map(|g| &g.differences).find(|d| d.probe.url() == url)
}

#[test]
fn rewrite_host_differences() {
    let r = report("api-rewrite.yaml");
    // The regex path: spec matches it literally, ingress-nginx as a regex, and rewrites.
    let d = find(&r, "https://shop.example.com/api/x").expect("the regex path differs");
    assert_eq!(d.from.answer, "api:8080 (upstream path /x)");
    assert_eq!(d.to.answer, "web:80");
    assert!(d.from.reason.contains("regex location ~* ^/api(/|$)(.*)"), "{}", d.from.reason);
    // The other Ingress's Exact path became a case-insensitive regex prefix on this host.
    let d = find(&r, "https://shop.example.com/HEALTHZ").expect("case variant differs");
    assert_eq!((d.from.answer.as_str(), d.to.answer.as_str()), ("health:80", "web:80"));
    // TLS host over http: ingress-nginx redirects (308), the spec routes.
    let d = find(&r, "http://shop.example.com/").expect("ssl-redirect differs");
    assert_eq!(d.from.answer, "redirect 308 https://shop.example.com");
    // Answers both profiles agree on are not listed.
    assert!(find(&r, "https://shop.example.com/static/x").is_none());
    assert!(r.summary().starts_with(&format!("{} of {} probe requests", r.differences(), r.probes)));
}

#[test]
fn canary_weight_is_a_split() {
    let r = report("canary.yaml");
    let d = find(&r, "http://pay.example.com/checkout").unwrap();
    assert_eq!(d.from.answer, "split(checkout:80 90, checkout-v2:80 10)");
    assert_eq!(d.to.answer, "checkout:80");
    // The spec profile has no canaries: the canary's own backend never appears there.
    assert!(r.groups.iter().flat_map(|g| &g.differences).all(|d| !d.to.answer.contains("v2")));
}

#[test]
fn tenants_redirects_and_aliases() {
    let r = report("tenants.yaml");
    assert_eq!(
        find(&r, "http://probe.example.com/docs").unwrap().from.answer,
        "redirect 301 http://probe.example.com/docs/"
    );
    assert_eq!(
        find(&r, "http://www.example.com/").unwrap().from.answer,
        "redirect 302 http://www.example.com/dashboard"
    );
    // from-to-www-redirect: the bare domain redirects to www.
    let d = find(&r, "http://example.com/").unwrap();
    assert_eq!((d.from.answer.as_str(), d.to.answer.as_str()), ("redirect 308 http://www.example.com:80", "404"));
    // The alias serves the wildcard host's paths in ingress-nginx only.
    let d = find(&r, "http://app.example.org/dashboard").unwrap();
    assert_eq!((d.from.answer.as_str(), d.to.answer.as_str()), ("dashboard:80", "404"));
}

#[test]
fn reversed_direction_swaps_answers() {
    let path = format!("{}/tests/data/nginx/canary.yaml", env!("CARGO_MANIFEST_DIR"));
    let input = input::parse(&path, &std::fs::read_to_string(&path).unwrap()).unwrap();
    let there = ingress_router::diff(&input, &CompileOptions::default(), Profile::IngressNginx, Profile::Spec);
    let back = ingress_router::diff(&input, &CompileOptions::default(), Profile::Spec, Profile::IngressNginx);
    assert_eq!(there.differences(), back.differences());
    let a = there.groups.iter().flat_map(|g| &g.differences).next().unwrap();
    let b = back.groups.iter().flat_map(|g| &g.differences).find(|d| d.probe == a.probe).unwrap();
    assert_eq!((&a.from, &a.to), (&b.to, &b.from));
}

fn cli(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ingress-router"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    (out.status.code().unwrap(), String::from_utf8(out.stdout).unwrap())
}

#[test]
fn cli_diff_exit_codes_and_tests_file() {
    let tests = std::env::temp_dir().join(format!("nginx-diff-tests-{}.yaml", std::process::id()));
    let (code, out) = cli(&["diff", "-f", "tests/data/nginx/canary.yaml", "--tests", tests.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("pay.example.com\n  pay/checkout spec.rules[0].http.paths[0] (/checkout Prefix)\n"), "{out}");
    assert!(out.lines().last().unwrap().contains("3 of 7 probe requests answer differently"), "{out}");
    // The tests file is YAML in the README's format, with the ingress-nginx answers.
    let written = std::fs::read_to_string(&tests).unwrap();
    // `test` runs it with the profile the file names, and today's answers pass.
    let (code, out) = cli(&["test", "-f", "tests/data/nginx/canary.yaml", tests.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(out.ends_with("7 passed, 0 failed\n"), "{out}");
    // Under the spec profile the split is not what it answers: the pinned file fails there.
    let (code, out) =
        cli(&["test", "--profile", "spec", "-f", "tests/data/nginx/canary.yaml", tests.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    std::fs::remove_file(&tests).unwrap();
    let value: serde_json::Value = serde_norway::from_str(&written).unwrap();
    assert_eq!(value["options"]["profile"], "ingress-nginx");
    let cases = value["tests"].as_array().unwrap();
    assert_eq!(cases.len(), 7);
    assert!(cases.iter().any(|t| t["request"]["url"] == "http://pay.example.com/checkout"
        && t["expect"]["backend"] == "split(checkout:80 90, checkout-v2:80 10)"));
    // A `.json` name gets the same file as JSON.
    let json = tests.with_extension("json");
    cli(&["diff", "-f", "tests/data/nginx/canary.yaml", "--tests", json.to_str().unwrap()]);
    let as_json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    std::fs::remove_file(&json).unwrap();
    assert_eq!(as_json, value);
    // Same profile on both sides: nothing differs, exit 0.
    let (code, out) = cli(&["diff", "-f", "tests/data/nginx/canary.yaml", "--from", "spec", "--to", "spec"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("0 of 7"), "{out}");
    // JSON: the groups with both answers.
    let (code, out) = cli(&["diff", "-f", "tests/data/nginx/canary.yaml", "--json"]);
    assert_eq!(code, 1);
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value["groups"][0]["host"], "pay.example.com");
    assert_eq!(value["groups"][0]["differences"][0]["to"]["answer"], "checkout:80");
}

#[test]
fn cli_route_with_the_profile() {
    let (code, out) = cli(&[
        "route",
        "--profile",
        "ingress-nginx",
        "-f",
        "tests/data/nginx/canary.yaml",
        "http://pay.example.com/checkout",
        "-H",
        "X-Canary: always",
    ]);
    assert_eq!(code, 0);
    assert!(out.starts_with("backend:   checkout-v2:80\nvia:       rule\n"), "{out}");
    let args = ["explain", "--profile", "ingress-nginx", "-f", "tests/data/nginx/canary.yaml"];
    let (_, out) = cli(&[&args[..], &["http://pay.example.com/checkout", "-H", "X-Canary: always"]].concat());
    assert!(out.contains("the canary header selects it"), "{out}");
    // Without the header the weight splits: the JSON decision carries {backend, weight} pairs.
    let (_, out) = cli(&[
        "route",
        "--profile",
        "ingress-nginx",
        "-f",
        "tests/data/nginx/canary.yaml",
        "http://pay.example.com/checkout",
        "--json",
    ]);
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        value["split"],
        serde_json::json!([
            {"label": "checkout:80", "backend": {"service": {"name": "checkout", "port": {"number": 80}}}, "weight": 90},
            {"label": "checkout-v2:80", "backend": {"service": {"name": "checkout-v2", "port": {"number": 80}}}, "weight": 10}
        ])
    );
    let (_, out) = cli(&[
        "explain",
        "--profile",
        "ingress-nginx",
        "-f",
        "tests/data/nginx/api-rewrite.yaml",
        "https://shop.example.com/api/users",
    ]);
    assert!(out.contains("upstream:  /users"), "{out}");
    assert!(out.contains("regex location ~* ^/api(/|$)(.*)"), "{out}");
    assert!(out.contains("every location of this server is a case-insensitive regex"), "{out}");
}

#[test]
fn cli_table_with_the_profile() {
    let (code, out) = cli(&["table", "--profile", "ingress-nginx", "-f", "tests/data/nginx/canary.yaml"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("host pay.example.com\n  1.  Prefix  /checkout/   → checkout:80 (canary checkout-v2:80)  pay/checkout  spec.rules[0].http.paths[0]\n  2.  Prefix  = /checkout  → checkout:80 (canary checkout-v2:80)"),
        "{out}"
    );
}

#[test]
fn cli_tests_file_headers_and_redirects() {
    let tests = std::env::temp_dir().join(format!("nginx-headers-tests-{}.yaml", std::process::id()));
    std::fs::write(
        &tests,
        "options: {profile: ingress-nginx}\ntests:\n\
         - name: the canary header\n  request: {url: http://pay.example.com/checkout, headers: {X-Canary: always}}\n  expect: {backend: checkout-v2:80, via: rule}\n\
         - name: no header, the weight\n  request: {host: pay.example.com, path: /checkout}\n  expect: {backend: \"split(checkout:80 90, checkout-v2:80 10)\"}\n\
         - name: nginx resolves .. first\n  request: {url: http://pay.example.com/x/../checkout/, headers: {X-Canary: never}}\n  expect: {backend: checkout:80}\n",
    )
    .unwrap();
    let (code, out) = cli(&["test", "-f", "tests/data/nginx/canary.yaml", tests.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(out.ends_with("3 passed, 0 failed\n"), "{out}");
    // Without the header the first test fails: the header is what decides.
    let text = std::fs::read_to_string(&tests).unwrap().replace(", headers: {X-Canary: always}", "");
    std::fs::write(&tests, text).unwrap();
    let (code, out) = cli(&["test", "-f", "tests/data/nginx/canary.yaml", tests.to_str().unwrap()]);
    std::fs::remove_file(&tests).unwrap();
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("FAIL the canary header"), "{out}");
    // A TLS host over http: the redirect is the decision, in the JSON view too.
    let (_, out) = cli(&[
        "route",
        "--profile",
        "ingress-nginx",
        "-f",
        "tests/data/nginx/api-rewrite.yaml",
        "http://shop.example.com/static/x",
        "--json",
    ]);
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value["via"], "redirect");
    assert_eq!(value["redirect"]["status"], 308);
}

#[test]
fn cli_validate_reports_what_ingress_nginx_ignores() {
    let file = std::env::temp_dir().join(format!("nginx-validate-{}.yaml", std::process::id()));
    std::fs::write(
        &file,
        "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: lonely\n  namespace: pay\n  annotations: {nginx.ingress.kubernetes.io/canary: \"true\"}\nspec:\n  rules:\n  - host: nowhere.example.com\n    http: {paths: [{path: /, pathType: Prefix, backend: {service: {name: v2, port: {number: 80}}}}]}\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ingress-router"))
        .args([
            "validate",
            "--profile",
            "ingress-nginx",
            "-f",
            "tests/data/nginx/canary.yaml",
            "-f",
            file.to_str().unwrap(),
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    std::fs::remove_file(&file).unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("nginx-inert-canary"), "{text}");
}
