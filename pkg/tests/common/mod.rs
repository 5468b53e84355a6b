//! The tests both wasm runs share (Node and headless Chromium): the routing conformance cases and
//! bad input, through the exported bindings exactly as JavaScript calls them.

use ingress_router_wasm::{Router, compile, run_tests, scratch, validate};
use serde::Serialize;
use serde_json::{Value, json};
use wasm_bindgen::JsCast;
use wasm_bindgen::JsValue;

const CASES: &str = include_str!(concat!(env!("OUT_DIR"), "/routing.json"));

fn js(value: &Value) -> JsValue {
    value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).unwrap()
}

fn rust(value: JsValue) -> Value {
    serde_wasm_bindgen::from_value(value).unwrap()
}

/// Every routing case, as a tests file through `runTests`; then `route()` and `explain()` must
/// give the very decision the report holds (one shape everywhere). A case the package cannot run
/// (an option it does not know, say) fails.
pub fn routing_cases() {
    let cases: Vec<Value> = serde_json::from_str(CASES).unwrap();
    assert!(!cases.is_empty());
    let mut failures = Vec::new();
    for case in &cases {
        let options = case.get("options").cloned().unwrap_or_else(|| json!({}));
        let tests = json!({"options": options, "tests": [{"name": case["id"], "request": case["request"], "expect": case["expect"]}]});
        let report = match run_tests(js(&case["ingresses"]), tests.to_string().into()) {
            Ok(report) => rust(report),
            Err(e) => {
                failures.push(format!("{}: {e:?}", case["id"]));
                continue;
            }
        };
        let router: Router = compile(js(&case["ingresses"]), js(&options)).unwrap();
        let request = js(&case["request"]);
        let decision = rust(router.route(request.clone()).unwrap());
        let explained = rust(router.explain(request).unwrap());
        let actual = &report["results"][0]["actual"];
        if report["passed"] != 1 || *actual != decision || explained["decision"] != decision {
            failures
                .push(format!("{}: report {report}, route {decision}, explain {}", case["id"], explained["decision"]));
        }
        drop(router);
    }
    assert!(failures.is_empty(), "{} failing cases:\n{}", failures.len(), failures.join("\n"));
}

fn kind(error: JsValue) -> String {
    js_sys::Reflect::get(&error, &"kind".into()).unwrap().as_string().unwrap()
}

const SHOP: &str = "apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: shop, namespace: default}
spec:
  rules:
  - host: shop.example.com
    http:
      paths:
      - {path: /cart, pathType: Prefix, backend: {service: {name: cart, port: {number: 80}}}}
";

/// Every kind of bad input is an error with a kind, and the next call works.
pub fn bad_input_then_next_call_works() {
    let works = || {
        let router = compile(SHOP.into(), JsValue::UNDEFINED).unwrap();
        let decision = rust(router.route("https://shop.example.com/cart/1".into()).unwrap());
        assert_eq!(decision["label"], "cart:80");
        router
    };
    let alias_bomb = "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n\
        c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n\
        e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n\
        g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]\nh: [*g, *g, *g, *g, *g, *g, *g, *g, *g]\n";
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let deep_yaml = format!("a: {}{}", "{a: ".repeat(5_000), "}".repeat(5_000));
    let bad: Vec<(JsValue, &str)> = vec![
        (JsValue::NULL, "argument"),
        (JsValue::UNDEFINED, "argument"),
        (JsValue::from(42), "argument"),
        (JsValue::from(true), "argument"),
        ("kind: [unclosed".into(), "syntax"),
        ("{\"kind\": ".into(), "syntax"),
        ("just a string".into(), "shape"),
        ("kind: Ingress\nspec: 5\n".into(), "type"),
        (alias_bomb.into(), "syntax"),
        (deep.into(), "syntax"),
        (deep_yaml.into(), "syntax"),
        (js(&json!([1, 2])), "shape"),
    ];
    for (input, want) in bad {
        let error = compile(input, JsValue::UNDEFINED).err().expect("bad input is an error");
        assert_eq!(kind(error), want);
        drop(works());
    }
    let syntax = compile("a: b\nkind: [x\n".into(), JsValue::UNDEFINED).err().unwrap();
    assert_eq!(js_sys::Reflect::get(&syntax, &"line".into()).unwrap().as_f64(), Some(3.0));

    let router = works();
    // Each bad request with the kind it gets: `url` for a URL that cannot be read, else `request`.
    let bad_requests: Vec<(JsValue, &str)> = vec![
        (JsValue::NULL, "request"),
        (JsValue::from(7), "request"),
        (js(&json!({"path": "/"})), "request"),
        (js(&json!({"url": "http://a/", "host": "a"})), "request"),
        (js(&json!({"host": 1, "path": "/"})), "request"),
        (js(&json!({"host": "a", "pth": "/"})), "request"),
        ("".into(), "url"),
        ("http://".into(), "url"),
        (js(&json!({"url": "http://"})), "url"),
    ];
    for (request, want) in bad_requests {
        let shown = format!("{request:?}");
        let error = router.route(request).err().unwrap_or_else(|| panic!("{shown} is an error"));
        assert_eq!(kind(error), want, "{shown}");
    }
    // Odd but well-formed requests route (404 or a rule), never fail.
    let long_host = "h".repeat(100_000);
    let odd = [
        json!({"host": "shop.example.com"}), // the path defaults to `/`, as in a tests file
        json!({"host": "shop.example.com", "path": "/cart", "method": null, "headers": null}),
        json!({"host": long_host, "path": "/cart"}),
        json!({"host": "", "path": ""}),
        json!({"host": "shop.example.com.", "path": "/cart/../admin"}),
        json!({"host": "[::1]:8080", "path": "*"}),
        json!({"host": "shop.example.com", "path": "/%2e%2e/\u{0}/\u{1F600}"}),
        json!({"host": "shop.example.com", "path": format!("/{}", "a/".repeat(50_000))}),
    ];
    for request in odd {
        rust(router.route(js(&request)).unwrap());
    }
    assert_eq!(kind(compile(SHOP.into(), js(&json!({"implementationSpecific": "regex"}))).err().unwrap()), "options");
    assert_eq!(kind(compile(SHOP.into(), js(&json!({"ingresClass": "x"}))).err().unwrap()), "options");
    assert_eq!(kind(compile(SHOP.into(), "nginx".into()).err().unwrap()), "options");
    assert_eq!(kind(validate(JsValue::NULL, JsValue::UNDEFINED).err().unwrap()), "argument");
    drop(router);
    drop(works());
}

/// The scratch buffer the entry writes requests into (`routeScratch`, `routeUrlScratch`): what is
/// there answers as the same strings passed directly; lengths past its end, or bytes that are not
/// UTF-8, send the entry to the glue's path (`-1`; `-2` for a URL) instead of reading anything.
pub fn scratch_answers_as_the_strings() {
    let router = compile(SHOP.into(), JsValue::UNDEFINED).unwrap();
    let [pointer, length] = scratch()[..] else { panic!("scratch() is [pointer, length]") };
    let memory = wasm_bindgen::memory().unchecked_into::<js_sys::WebAssembly::Memory>();
    let write = |bytes: &[u8]| {
        let view = js_sys::Uint8Array::new_with_byte_offset_and_length(&memory.buffer(), pointer, length);
        view.subarray(0, bytes.len() as u32).copy_from(bytes);
    };
    for (host, path) in
        [("shop.example.com", "/cart/1"), ("SHOP.example.com:443", "/"), ("", ""), ("unknown.example.org", "/cart")]
    {
        write(format!("{host}{path}").as_bytes());
        assert_eq!(router.route_scratch(host.len(), path.len()), router.route_slot(host, path), "{host}{path}");
        let url = format!("http://{host}{path}");
        write(url.as_bytes());
        assert_eq!(router.route_url_scratch(url.len()), router.route_url_slot(&url), "{url}");
    }
    assert!(router.route_slot("shop.example.com", "/cart/1") >= 0, "a fixed answer has a slot");
    let length = length as usize;
    assert_eq!(router.route_scratch(length, 1), -1);
    assert_eq!(router.route_scratch(usize::MAX, 1), -1);
    assert_eq!(router.route_url_scratch(length + 1), -2);
    write(b"shop.example.com/\xff");
    assert_eq!(router.route_scratch(16, 2), -1);
    assert_eq!(router.route_url_scratch(18), -2);
}

/// `routeRequestScratch`: a request object as the entry writes it into the scratch buffer (see
/// `fields` in src/lib.rs) answers with the slot of the same request given as strings; a layout
/// past the buffer's end, unknown flags, both schemes, a port over 65 535, a repeated header name
/// or bytes that are not UTF-8 send the entry to the general path (`-2`).
pub fn request_scratch_answers_as_the_strings() {
    let router = compile(SHOP.into(), JsValue::UNDEFINED).unwrap();
    let [pointer, length] = scratch()[..] else { panic!("scratch() is [pointer, length]") };
    let memory = wasm_bindgen::memory().unchecked_into::<js_sys::WebAssembly::Memory>();
    let write = |bytes: &[u8]| {
        let view = js_sys::Uint8Array::new_with_byte_offset_and_length(&memory.buffer(), pointer, length);
        view.subarray(0, bytes.len() as u32).copy_from(bytes);
    };
    // host, path, method "POST", one header `a: b`.
    let mut bytes = b"shop.example.com/cart/1POST".to_vec();
    bytes.extend([1, 0, 1, 0]);
    bytes.extend(b"ab");
    write(&bytes);
    let slot = router.route_request_scratch(2 | 4, 16, 7, 4, 0, 6, 0);
    assert!(slot >= 0, "a fixed answer has a slot");
    assert_eq!(slot, router.route_slot("shop.example.com", "/cart/1"));
    assert_eq!(router.route_request_scratch(2 | 4 | 128, 16, 7, 4, 0, 6, 0), -2, "an unknown flag");
    assert_eq!(router.route_request_scratch(2 | 4 | 16 | 32, 16, 7, 4, 0, 6, 0), -2, "both schemes");
    assert_eq!(router.route_request_scratch(2 | 4 | 64, 16, 7, 4, 0, 6, 70_000), -2, "a port past 65 535");
    assert_eq!(router.route_request_scratch(2 | 4, 16, 7, 4, 0, length as usize, 0), -2, "past the end");
    assert_eq!(router.route_request_scratch(2 | 4, 16, 7, 4, 0, 5, 0), -2, "a header cut short");
    assert_eq!(router.route_request_scratch(2, 16, 7, 4, 0, 0, 0), -2, "a length without its flag");
    bytes.extend([1, 0, 1, 0]);
    bytes.extend(b"ac");
    write(&bytes);
    assert_eq!(router.route_request_scratch(2 | 4, 16, 7, 4, 0, 12, 0), -2, "a header name twice");
    write(b"shop.example.com/\xff");
    assert_eq!(router.route_request_scratch(2, 16, 2, 0, 0, 0, 0), -2, "not UTF-8");
    // A gRPC call the core refuses (not SERVICE/METHOD): the general path says why.
    write(b"shop.example.comnoslash");
    assert_eq!(router.route_request_scratch(8, 16, 0, 0, 7, 0, 0), -2);
}
