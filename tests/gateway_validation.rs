//! `ingress-router validate` on Gateway API objects: each apiserver error pointed at, exit codes.

mod cli {
    use std::process::Command;

    const BAD_ROUTE: &str = "\
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: shop
  namespace: shop
spec:
  parentRefs:
  - name: public
  hostnames: [Shop.example.com]
  rules:
  - matches:
    - path: {type: PathPrefix, value: cart}
    backendRefs:
    - name: cart
      port: 8080
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: public, namespace: shop}
spec:
  gatewayClassName: eg
  listeners:
  - {name: http, port: 80, protocol: HTTP}
";

    fn run(args: &[&str]) -> (i32, String) {
        let out = Command::new(env!("CARGO_BIN_EXE_ingress-router")).args(args).output().unwrap();
        let stdout = String::from_utf8(out.stdout).unwrap();
        (out.status.code().unwrap_or(-1), stdout + &String::from_utf8(out.stderr).unwrap())
    }

    fn write(name: &str, text: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("ingress-router-gwvalid-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join(name);
        std::fs::write(&file, text).unwrap();
        file
    }

    #[test]
    fn validate_points_at_each_error_and_exits_1() {
        let file = write("bad-route.yaml", BAD_ROUTE);
        let name = file.to_str().unwrap();
        let (code, out) = run(&["validate", "-f", name]);
        assert_eq!(code, 1, "{out}");
        let lines: Vec<&str> = out.lines().collect();
        let hostname = "spec.hostnames[0]: Invalid value: \"Shop.example.com\": spec.hostnames[0] in body should match '^(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$'";
        let path = "spec.rules[0].matches[0].path: Invalid value: value must be an absolute path and start with '/' when type one of ['Exact', 'PathPrefix']";
        assert!(
            lines.contains(
                &format!("HTTPRoute.gateway.networking.k8s.io \"shop\" is invalid: [{hostname}, {path}]").as_str()
            ),
            "{out}"
        );
        assert!(lines.contains(&format!("  {name}:9:15: {hostname}").as_str()), "{out}");
        assert!(lines.contains(&format!("  {name}:12:7: {path}").as_str()), "{out}");
        assert_eq!(lines.last(), Some(&"2 objects: 1 invalid, 0 warnings, 0 notes"), "{out}");

        let (code, out) = run(&["validate", "-f", name, "--json"]);
        assert_eq!(code, 1, "{out}");
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        let objects = json["objects"].as_array().unwrap();
        assert_eq!(objects.len(), 2);
        let route = &objects[0];
        assert_eq!(
            (route["kind"].as_str(), route["namespace"].as_str(), route["valid"].as_bool()),
            (Some("HTTPRoute"), Some("shop"), Some(false))
        );
        assert_eq!(route["errors"][0]["field"], "spec.hostnames[0]");
        assert_eq!(route["errors"][0]["type"], "FieldValueInvalid");
        assert_eq!((route["errors"][0]["line"].as_u64(), route["errors"][0]["column"].as_u64()), (Some(9), Some(15)));
        assert_eq!(objects[1]["kind"], "Gateway");
        assert_eq!(objects[1]["valid"], true);
        assert_eq!(json["summary"]["invalid"], 1);

        // Routing leaves the refused route out, with the apiserver's answer as the warning.
        let (code, out) = run(&["gateway", "-f", name, "http://shop.example.com/cart"]);
        assert_eq!(code, 0, "{out}");
        assert!(
            out.contains("warning[invalid-gateway-object]: ")
                && out.contains("HTTPRoute \"shop\" left out: HTTPRoute.gateway.networking.k8s.io \"shop\" is invalid"),
            "{out}"
        );
        let _ = std::fs::remove_dir_all(file.parent().unwrap());
    }

    #[test]
    fn validate_lists_unknown_fields_as_strict_field_validation_refuses_them() {
        let file = write(
            "typo-route.yaml",
            "\
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop}
spec:
  rules:
  - backendRef:
    - {name: cart, port: 8080}
",
        );
        let name = file.to_str().unwrap();
        let (code, out) = run(&["validate", "-f", name]);
        assert_eq!(code, 1, "{out}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines[0],
            format!(
                "Error from server (BadRequest): error when creating {name:?}: HTTPRoute in version \"v1\" cannot be handled as a HTTPRoute: strict decoding error: unknown field \"spec.rules[0].backendRef\""
            )
        );
        assert_eq!(
            lines[1],
            format!("  {name}:6:5: unknown field \"spec.rules[0].backendRef\": did you mean \"backendRefs\"?")
        );
        assert_eq!(lines.last(), Some(&"1 object: 1 invalid, 0 warnings, 0 notes"), "{out}");
        let _ = std::fs::remove_dir_all(file.parent().unwrap());
    }
}
