//! Precompiled tables (`Router::to_table_file`, `load_table`): a loaded table answers every
//! request, explanation and table view as the compiled one did, over the routing cases, the
//! corpus and generated tables; anything else (another format, a damaged or hostile file) is
//! refused with the reason and never panics.

use ingress_router::{
    CompileOptions, Request, RequestSpec, Router, TableFileError, compile, compile_seeded, input, load_table,
    load_table_seeded,
};
use proptest::prelude::*;
use serde_json::Value;

/// Requests that exercise every path named in `v` (Ingresses, or a table view: every `host` and
/// `path` field): each host (a host under each wildcard, and unknown ones) with each path as
/// written, under it, beside it and its parent.
fn probes(v: &Value) -> Vec<(String, String)> {
    let mut hosts = vec![String::from("example.com"), String::from("unknown.test")];
    let mut paths = vec![String::from("/"), String::new(), String::from("/x")];
    fn walk(v: &Value, hosts: &mut Vec<String>, paths: &mut Vec<String>) {
        match v {
            Value::Object(map) => {
                for (key, value) in map {
                    match (key.as_str(), value.as_str()) {
                        ("host", Some(host)) => hosts.push(host.replace("*.", "a.")),
                        ("path", Some(path)) => {
                            let parent = path.rsplit_once('/').map_or("", |(parent, _)| parent);
                            paths.extend([
                                path.into(),
                                format!("{path}/"),
                                format!("{path}/x"),
                                format!("{path}x"),
                                parent.into(),
                            ]);
                        }
                        _ => walk(value, hosts, paths),
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|item| walk(item, hosts, paths)),
            _ => {}
        }
    }
    walk(v, &mut hosts, &mut paths);
    hosts.sort();
    hosts.dedup();
    paths.sort();
    paths.dedup();
    hosts.iter().flat_map(|h| paths.iter().map(move |p| (h.clone(), p.clone()))).collect()
}

/// The table view as JSON without the excluded Ingresses' field errors (a table file keeps the
/// reason, not the errors).
fn view(router: &Router) -> Value {
    let mut view = serde_json::to_value(router.table()).unwrap();
    for excluded in view["excluded"].as_array_mut().into_iter().flatten() {
        excluded.as_object_mut().unwrap().remove("errors");
    }
    view
}

/// Loads `router`'s table file and checks the loaded router against it; `Err` says where they part.
fn same_after_loading(router: &Router, requests: &[(String, String)]) -> Result<usize, String> {
    let bytes = router.to_table_file().map_err(|e| e.to_string())?;
    let loaded = load_table(&bytes).map_err(|e| e.to_string())?;
    if view(&loaded) != view(router) {
        return Err(format!("table views differ:\n{}\n{}", view(&loaded), view(router)));
    }
    for (host, path) in requests {
        let request = Request::new(host, path);
        let (a, b) = (router.route(&request).view(&request), loaded.route(&request).view(&request));
        if a != b {
            return Err(format!("{host} {path}: compiled {a:?}, loaded {b:?}"));
        }
        if router.explain(&request) != loaded.explain(&request) {
            return Err(format!("{host} {path}: explanations differ"));
        }
    }
    // Written again, the loaded table gives the same bytes: nothing is lost on the way.
    if loaded.to_table_file().map_err(|e| e.to_string())? != bytes {
        return Err(String::from("the loaded table writes other bytes"));
    }
    Ok(requests.len())
}

#[test]
fn every_routing_case_routes_the_same_from_a_table_file() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cases/routing.json");
    let cases: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert!(cases.len() > 100, "{path}: {} cases", cases.len());
    let mut requests = 0;
    for case in &cases {
        let id = case["id"].as_str().unwrap_or("(no id)");
        let options: CompileOptions =
            serde_json::from_value(case.get("options").cloned().unwrap_or(serde_json::json!({}))).unwrap();
        let router = compile(&input::parse("case", &case["ingresses"].to_string()).unwrap(), &options).unwrap();
        let mut probes = probes(&case["ingresses"]);
        let spec: RequestSpec = serde_json::from_value(case["request"].clone()).unwrap();
        if let (Some(host), Some(path)) = (spec.host.clone(), spec.path.clone()) {
            probes.push((host, path));
        }
        requests += same_after_loading(&router, &probes).unwrap_or_else(|e| panic!("{id}: {e}"));
    }
    eprintln!("{} cases, {requests} requests: the same from a table file", cases.len());
}

#[test]
fn every_corpus_file_routes_the_same_from_a_table_file() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/files");
    let mut files = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let input = input::parse_all(&path.display().to_string(), &text);
        // Each option that changes what the table holds or how a path is read.
        for options in [
            CompileOptions::default(),
            serde_json::from_str(r#"{"ingressClass": "nginx", "implementationSpecific": "string-prefix"}"#).unwrap(),
            serde_json::from_str(
                r#"{"normalizePath": true, "mergeSlashes": true, "escapedSlashes": "UNESCAPE_AND_FORWARD",
                    "defaultBackend": {"service": {"name": "fallback", "port": {"name": "http"}}}}"#,
            )
            .unwrap(),
        ] {
            match compile(&input, &options) {
                Ok(router) if router.table().gateway.is_none() => {
                    let probes = probes(&serde_json::to_value(router.table()).unwrap());
                    same_after_loading(&router, &probes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                }
                // A Gateway API router is refused by name.
                Ok(router) => assert_eq!(
                    router.to_table_file(),
                    Err(TableFileError::Unsupported("a Gateway API router")),
                    "{}",
                    path.display()
                ),
                Err(_) => {}
            }
        }
        files += 1;
    }
    assert!(files >= 40, "{dir}: {files} files");
}

const SHOP: &str = r#"{"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {"name": "shop"},
  "spec": {"defaultBackend": {"service": {"name": "web", "port": {"number": 80}}},
           "rules": [{"host": "*.example.com", "http": {"paths": [{"path": "/cart", "pathType": "Prefix",
    "backend": {"service": {"name": "cart", "port": {"number": 80}}}}]}}]}}"#;

fn shop_file() -> Vec<u8> {
    compile(&input::parse("shop.json", SHOP).unwrap(), &CompileOptions::default()).unwrap().to_table_file().unwrap()
}

/// Sets the header's CRC to the payload's, so that a change reaches the decoder.
fn fix_checksum(bytes: &mut [u8]) {
    let header = 8 + 4 + 1 + bytes[12] as usize;
    let crc = crc32(&bytes[header + 8..]);
    bytes[header + 4..header + 8].copy_from_slice(&crc.to_le_bytes());
}

/// CRC-32 (IEEE), bit by bit: the test's own, not the crate's.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

#[test]
fn other_files_are_refused_with_the_reason() {
    let good = shop_file();
    assert!(load_table(&good).is_ok());
    assert_eq!(load_table(b"apiVersion: v1\n").unwrap_err(), TableFileError::NotATable);
    assert_eq!(load_table(&[]).unwrap_err(), TableFileError::NotATable);
    for len in [8, 12, 13, 20, good.len() - 1] {
        assert_eq!(load_table(&good[..len]).unwrap_err(), TableFileError::Truncated, "cut at {len}");
    }
    let mut newer = good.clone();
    newer[8..12].copy_from_slice(&2u32.to_le_bytes());
    let error = load_table(&newer).unwrap_err();
    assert_eq!(error, TableFileError::Version { found: 2, writer: env!("CARGO_PKG_VERSION").into() });
    assert!(error.to_string().contains("table format 2") && error.to_string().contains("reads format 1"), "{error}");
    let mut damaged = good.clone();
    *damaged.last_mut().unwrap() ^= 1;
    assert_eq!(load_table(&damaged).unwrap_err(), TableFileError::Checksum);
    let mut longer = good.clone();
    longer.push(0);
    assert!(matches!(load_table(&longer).unwrap_err(), TableFileError::Malformed(_)));
    // A payload changed and its checksum fixed reaches the decoder, which refuses what it cannot read.
    let mut rewritten = good.clone();
    let at = rewritten.len() - 3;
    rewritten[at..].fill(0xff);
    fix_checksum(&mut rewritten);
    assert!(matches!(load_table(&rewritten).unwrap_err(), TableFileError::Malformed(_)));
}

#[test]
fn only_the_spec_profile_is_written() {
    let options: CompileOptions = serde_json::from_str(r#"{"profile": "ingress-nginx"}"#).unwrap();
    let router = compile(&input::parse("shop.json", SHOP).unwrap(), &options).unwrap();
    let error = router.to_table_file().unwrap_err();
    assert_eq!(error, TableFileError::Unsupported("the ingress-nginx profile"));
    assert!(error.to_string().contains("only the spec profile"), "{error}");
}

/// The seed keys a loaded table's hashes as it keys a compiled one's: a table file holds no seed,
/// so colliding keys cannot be computed from it either.
#[test]
fn a_loaded_table_routes_the_same_whatever_the_seed() {
    let bytes = shop_file();
    let request = Request::new("a.example.com", "/cart/1");
    let answers: Vec<String> = [0, 1, u64::MAX]
        .into_iter()
        .map(|seed| load_table_seeded(&bytes, seed).unwrap().route(&request).to_string())
        .collect();
    assert_eq!(answers, ["cart:80"; 3]);
    let compiled = compile_seeded(&input::parse("shop.json", SHOP).unwrap(), &CompileOptions::default(), 7).unwrap();
    assert_eq!(compiled.to_table_file().unwrap(), bytes, "the seed is not in the file");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Any bytes: refused or loaded, never a panic; a loaded table routes without one.
    #[test]
    fn hostile_bytes_never_panic(edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..8), cut in any::<usize>()) {
        let mut bytes = shop_file();
        for (at, byte) in edits {
            let at = at % bytes.len();
            bytes[at] = byte;
        }
        bytes.truncate(cut % (bytes.len() + 1));
        if bytes.len() > 12 && bytes.len() > 21 + bytes[12] as usize {
            fix_checksum(&mut bytes);
        }
        if let Ok(router) = load_table(&bytes) {
            for (host, path) in [("a.example.com", "/cart/x"), ("example.com", "/"), ("", "")] {
                let _ = router.route(&Request::new(host, path)).to_string();
                let _ = router.explain(&Request::new(host, path));
            }
            let _ = router.table();
        }
    }
}
