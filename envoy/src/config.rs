//! The plugin configuration (the JSON in Envoy's `plugin_config.configuration`).
//!
//! ```json
//! {"manifests": "<YAML or JSON text>" | [<text or object>, ...] | {<object>},
//!  "table": "<base64 of a table file>",  // instead of manifests and compile options
//!  "ingressClass": "nginx", "implementationSpecific": "prefix",
//!  "routingHeader": "x-ingress-backend",
//!  "clusterTemplate": "{namespace}/{service}:{port}",
//!  "resourceClusterTemplate": "{namespace}/resource/{apiGroup}/{kind}/{name}",
//!  "regexLimits": {"size": 131072, "total": 33554432, "scan": 262144},
//!  "debugHeader": false, "strict": false, "gatewayPort": 80}
//! ```
//!
//! An invalid Ingress is left out and the others serve (one team's mistake never freezes every
//! other team's routing); `"strict": true` refuses the whole configuration instead.
//!
//! `table` (instead of `manifests`) is a precompiled table (`ingress-router compile`, or
//! `envoy-config --table`), base64: the filter loads it without reading or compiling manifests.
//! Its compile options were fixed when it was written: none may be given beside it.
//!
//! Every key but the filter's own is one of the core's compile options (`CompileOptions`, the same
//! camelCase names as everywhere else). Unknown keys are errors: a misspelt option silently ignored
//! would route differently than its author thinks.

use std::borrow::Cow;
use std::fmt;

use ingress_router::CompileOptions;
use ingress_router::options::ClusterNames;
use serde::de::{Error as _, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

pub const DEFAULT_ROUTING_HEADER: &str = "x-ingress-backend";
/// The response header that names the matched Ingress and rule, when `debugHeader` is on.
pub const DEBUG_HEADER: &str = "x-ingress-router-match";
/// The filter's own keys; every other key is one of the core's compile options.
const FILTER_KEYS: &str =
    "manifests, table, routingHeader, clusterTemplate, resourceClusterTemplate, debugHeader, strict, gatewayPort";

/// The plugin configuration, its manifests still the configuration's own bytes (`'a`): they are
/// read one at a time ([`PluginConfig::manifests`]), never held as one JSON value beside the
/// objects read from them (a WebAssembly heap keeps its high-water mark for good).
#[derive(Debug)]
pub struct PluginConfig<'a> {
    /// YAML or JSON text, one object, or a list of either, as written in the configuration
    /// (`null` when `table` is given).
    pub manifests: &'a RawValue,
    /// A precompiled table, base64 (a JSON string as written), instead of `manifests`.
    pub table: Option<&'a RawValue>,
    /// The core's compile options, by their own camelCase names (`ingressClass`, `normalizePath`, ...).
    pub options: CompileOptions,
    pub routing_header: String,
    /// `clusterTemplate` and `resourceClusterTemplate`, parsed by the core.
    pub cluster_names: ClusterNames,
    pub debug_header: bool,
    /// Refuse the whole configuration when any Ingress is invalid, instead of leaving it out.
    pub strict: bool,
    /// The Gateway listener port this Envoy listener serves: every request is routed as arriving
    /// on it. `None`: the `Host` header's port, else 80 or 443 by scheme.
    pub gateway_port: Option<u16>,
}

/// One entry of `manifests`: its name for messages (`manifests[2]`) and its JSON as written.
#[derive(Debug)]
pub struct Manifest<'a> {
    pub name: String,
    raw: &'a RawValue,
}

impl<'a> Manifest<'a> {
    /// The manifest's text: a JSON string unescaped, an inline object its own JSON text, taken from
    /// the configuration's bytes as written (read by the same parser as files, without a copy).
    pub fn text(&self) -> Result<Cow<'a, str>, String> {
        let raw = self.raw.get();
        match raw.as_bytes().first() {
            Some(b'{') => Ok(Cow::Borrowed(raw)),
            // Borrowed when the string has no escapes (YAML text always has its newlines escaped).
            Some(b'"') => match serde_json::from_str::<&str>(raw) {
                Ok(text) => Ok(Cow::Borrowed(text)),
                Err(_) => {
                    serde_json::from_str::<String>(raw).map(Cow::Owned).map_err(|e| format!("{}: {e}", self.name))
                }
            },
            _ => Err(format!("plugin configuration: {} must be YAML/JSON text or an object, not {raw}", self.name)),
        }
    }
}

/// The filter's keys; the rest goes to [`CompileOptions`], which refuses unknown names (serde
/// cannot combine `flatten` with `deny_unknown_fields`, hence the two steps). `manifests` is read
/// apart, as written ([`Entries`]).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Keys {
    #[serde(default = "default_routing_header")]
    routing_header: String,
    cluster_template: Option<String>,
    resource_cluster_template: Option<String>,
    #[serde(default)]
    debug_header: bool,
    #[serde(default)]
    strict: bool,
    gateway_port: Option<u16>,
    #[serde(flatten)]
    options: Map<String, Value>,
}

fn default_routing_header() -> String {
    DEFAULT_ROUTING_HEADER.into()
}

/// The configuration's top-level keys with their values as written: nothing is parsed into a JSON
/// value yet (the manifests are most of the bytes). A key given twice is refused.
struct Entries<'a>(Vec<(String, &'a RawValue)>);

impl<'de> Deserialize<'de> for Entries<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Object;
        impl<'de> Visitor<'de> for Object {
            type Value = Entries<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Entries<'de>, M::Error> {
                let mut entries: Vec<(String, &'de RawValue)> = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    if entries.iter().any(|(k, _)| *k == key) {
                        return Err(M::Error::custom(format!("duplicate key `{key}`")));
                    }
                    entries.push((key, map.next_value()?));
                }
                Ok(Entries(entries))
            }
        }
        deserializer.deserialize_map(Object)
    }
}

impl<'a> PluginConfig<'a> {
    /// Reads the configuration bytes; the error names the key and position. The manifests stay
    /// in `bytes`, unread.
    pub fn parse(bytes: &'a [u8]) -> Result<PluginConfig<'a>, String> {
        if bytes.is_empty() {
            return Err("the plugin configuration is empty: it needs at least {\"manifests\": ...}".into());
        }
        let Entries(entries) = serde_json::from_slice(bytes).map_err(|e| format!("plugin configuration: {e}"))?;
        let mut manifests = None;
        let mut table = None;
        let mut rest = Map::new();
        for (key, raw) in entries {
            if key == "manifests" {
                manifests = Some(raw);
                continue;
            }
            if key == "table" {
                table = Some(raw);
                continue;
            }
            let value = serde_json::from_str(raw.get()).map_err(|e| format!("plugin configuration: {key}: {e}"))?;
            rest.insert(key, value);
        }
        let manifests = match (manifests, table) {
            (Some(manifests), None) => manifests,
            (None, Some(_)) => RawValue::NULL,
            (Some(_), Some(_)) => return Err("plugin configuration: `manifests` and `table`: give one of them".into()),
            (None, None) => return Err("plugin configuration: missing field `manifests` (or `table`)".into()),
        };
        let keys = Keys::deserialize(Value::Object(rest)).map_err(|e| format!("plugin configuration: {e}"))?;
        let options = CompileOptions::deserialize(Value::Object(keys.options)).map_err(|e| {
            let e = e.to_string();
            let ours = if e.starts_with("unknown field") {
                format!(" (or the filter's own: {FILTER_KEYS})")
            } else {
                String::new()
            };
            format!("plugin configuration: {e}{ours}")
        })?;
        if !valid_header_name(&keys.routing_header) {
            return Err(format!(
                "plugin configuration: routingHeader {:?} is not a lower-case HTTP header name",
                keys.routing_header
            ));
        }
        let mut cluster_names = ClusterNames::default();
        if let Some(template) = &keys.cluster_template {
            cluster_names = cluster_names
                .with_service_template(template)
                .map_err(|e| format!("plugin configuration: clusterTemplate: {e}"))?;
        }
        if let Some(template) = &keys.resource_cluster_template {
            cluster_names = cluster_names
                .with_resource_template(template)
                .map_err(|e| format!("plugin configuration: resourceClusterTemplate: {e}"))?;
        }
        if table.is_some() && (options != CompileOptions::default() || keys.gateway_port.is_some()) {
            return Err("plugin configuration: `table` holds the compile options it was compiled with: give them to \
                        `ingress-router compile` (or envoy-config), not beside the table"
                .into());
        }
        Ok(PluginConfig {
            manifests,
            table,
            options,
            routing_header: keys.routing_header,
            cluster_names,
            debug_header: keys.debug_header,
            strict: keys.strict,
            gateway_port: keys.gateway_port,
        })
    }

    /// The table's bytes, when the configuration gives `table` (base64 in a JSON string).
    pub fn table_bytes(&self) -> Option<Result<Vec<u8>, String>> {
        use base64::Engine as _;
        let raw = self.table?;
        let text: &str = match serde_json::from_str(raw.get()) {
            Ok(text) => text,
            Err(_) => return Some(Err("plugin configuration: table must be a string (base64)".into())),
        };
        Some(
            base64::engine::general_purpose::STANDARD
                .decode(text)
                .map_err(|e| format!("plugin configuration: table: {e}")),
        )
    }

    /// The manifests, each with a name for messages (`manifests[2]`); every entry is checked to
    /// be text or an object before any is read.
    pub fn manifests(&self) -> Result<Vec<Manifest<'a>>, String> {
        let raw = self.manifests.get();
        let manifests: Vec<Manifest<'a>> = if raw.starts_with('[') {
            let items: Vec<&'a RawValue> =
                serde_json::from_str(raw).map_err(|e| format!("plugin configuration: manifests: {e}"))?;
            items.into_iter().enumerate().map(|(i, raw)| Manifest { name: format!("manifests[{i}]"), raw }).collect()
        } else {
            vec![Manifest { name: "manifests".into(), raw: self.manifests }]
        };
        if let Some(other) = manifests.iter().find(|m| !m.raw.get().starts_with(['{', '"'])) {
            return Err(format!(
                "plugin configuration: {} must be YAML/JSON text or an object, not {}",
                other.name,
                other.raw.get()
            ));
        }
        Ok(manifests)
    }

    /// The settings alone, once the manifests are read: the configuration's bytes can go before
    /// the table is compiled. Its `manifests` is `null`.
    pub fn without_manifests(self) -> PluginConfig<'static> {
        let PluginConfig {
            manifests: _,
            table: _,
            options,
            routing_header,
            cluster_names,
            debug_header,
            strict,
            gateway_port,
        } = self;
        PluginConfig {
            manifests: RawValue::NULL,
            table: None,
            options,
            routing_header,
            cluster_names,
            debug_header,
            strict,
            gateway_port,
        }
    }
}

/// Lower-case token characters only: Envoy keeps header names lower-case, and `cluster_header`
/// reads the same name.
fn valid_header_name(name: &str) -> bool {
    !name.is_empty()
        && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"!#$%&'*+-.^_`|~".contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ingress_router::decision::{BackendRef, ServicePort};

    #[test]
    fn defaults() {
        let c = PluginConfig::parse(br#"{"manifests": "kind: List"}"#).unwrap();
        assert_eq!(c.routing_header, "x-ingress-backend");
        assert_eq!(c.cluster_names, ClusterNames::default());
        assert!(!c.debug_header);
        assert!(!c.strict, "an invalid Ingress is left out by default");
        assert_eq!(c.gateway_port, None, "the Host header's port picks the Gateway listener by default");
        assert_eq!(c.options, CompileOptions::default());
        let manifests = c.manifests().unwrap();
        assert_eq!(manifests.len(), 1);
        assert_eq!((manifests[0].name.as_str(), manifests[0].text().unwrap()), ("manifests", "kind: List".into()));
    }

    /// The two template keys reach the core's naming, each on its own.
    #[test]
    fn cluster_templates() {
        let c =
            PluginConfig::parse(br#"{"manifests": "", "clusterTemplate": "{service}.{namespace}:{port}"}"#).unwrap();
        let cart = BackendRef::Service { namespace: "shop", name: "cart", port: Some(ServicePort::Number(80)) };
        let bucket = BackendRef::Resource { namespace: "shop", api_group: "g", kind: "Bucket", name: "b" };
        assert_eq!(c.cluster_names.name(&cart), "cart.shop:80");
        assert_eq!(c.cluster_names.name(&bucket), "shop/resource/g/Bucket/b");
        let c = PluginConfig::parse(br#"{"manifests": "", "resourceClusterTemplate": "{kind}-{name}"}"#).unwrap();
        assert_eq!(c.cluster_names.name(&cart), "shop/cart:80");
        assert_eq!(c.cluster_names.name(&bucket), "Bucket-b");
    }

    /// `gatewayPort` is the filter's own key (not a compile option), a port number.
    #[test]
    fn gateway_port() {
        let c = PluginConfig::parse(br#"{"manifests": "", "gatewayPort": 8080}"#).unwrap();
        assert_eq!(c.gateway_port, Some(8080));
        assert_eq!(c.options, CompileOptions::default());
        let bad = PluginConfig::parse(br#"{"manifests": "", "gatewayPort": 70000}"#).unwrap_err();
        assert!(bad.contains("plugin configuration"), "{bad}");
    }

    #[test]
    fn inline_objects_and_texts() {
        let c = PluginConfig::parse(br#"{"manifests": ["a: 1", {"kind": "List"}], "ingressClass": "nginx"}"#).unwrap();
        let texts: Vec<(String, String)> =
            c.manifests().unwrap().iter().map(|m| (m.name.clone(), m.text().unwrap().into_owned())).collect();
        assert_eq!(texts[0], ("manifests[0]".into(), "a: 1".into()));
        // An inline object is its own text, as written.
        assert_eq!(texts[1], ("manifests[1]".into(), r#"{"kind": "List"}"#.into()));
        assert_eq!(c.options.ingress_class.as_deref(), Some("nginx"));
    }

    /// The manifests stay the configuration's bytes until read, one at a time; the settings
    /// outlive them.
    #[test]
    fn manifests_are_read_from_the_bytes() {
        let bytes = br#"{"manifests": [{"kind": "List"}, "a: 1\nb: 2"], "strict": true}"#;
        let c = PluginConfig::parse(bytes).unwrap();
        assert_eq!(c.manifests.get(), r#"[{"kind": "List"}, "a: 1\nb: 2"]"#);
        let manifests = c.manifests().unwrap();
        assert!(matches!(manifests[0].text().unwrap(), Cow::Borrowed(r#"{"kind": "List"}"#)));
        assert_eq!(manifests[1].text().unwrap(), "a: 1\nb: 2", "a JSON string is unescaped");
        let settings = c.without_manifests();
        assert!(settings.strict);
        assert_eq!(settings.manifests.get(), "null");
        assert!(PluginConfig::parse(b"[]").unwrap_err().contains("a JSON object"));
    }

    /// `regexLimits` is one of the core's options, read as the other homes read it.
    #[test]
    fn regex_limits_are_compile_options() {
        let c = PluginConfig::parse(br#"{"manifests": "", "regexLimits": {"size": 4096, "scan": 1024}}"#).unwrap();
        let limits = c.options.regex_limits;
        assert_eq!(
            (limits.size, limits.scan, limits.total),
            (4096, 1024, ingress_router::options::RegexLimits::DEFAULT_TOTAL)
        );
        let typo = PluginConfig::parse(br#"{"manifests": "", "regexLimits": {"scans": 1}}"#).unwrap_err();
        assert!(typo.contains("scans"), "{typo}");
    }

    #[test]
    fn errors_name_what_is_wrong() {
        assert!(PluginConfig::parse(b"").unwrap_err().contains("empty"));
        assert!(PluginConfig::parse(b"{").unwrap_err().contains("plugin configuration"));
        assert!(PluginConfig::parse(br#"{}"#).unwrap_err().contains("manifests"));
        let typo = PluginConfig::parse(br#"{"manifests": "", "ingresClass": "x"}"#).unwrap_err();
        assert!(typo.contains("ingresClass") && typo.contains("routingHeader"), "{typo}");
        let value = PluginConfig::parse(br#"{"manifests": "", "implementationSpecific": "regex"}"#).unwrap_err();
        assert!(value.contains("implementationSpecific") && value.contains("regex"), "{value}");
        let template = PluginConfig::parse(br#"{"manifests": "", "clusterTemplate": "{svc}"}"#).unwrap_err();
        assert!(template.contains("clusterTemplate") && template.contains("{svc}"), "{template}");
        let template =
            PluginConfig::parse(br#"{"manifests": "", "resourceClusterTemplate": "{service}"}"#).unwrap_err();
        assert!(template.contains("resourceClusterTemplate") && template.contains("{service}"), "{template}");
        let header = PluginConfig::parse(br#"{"manifests": "", "routingHeader": "X Bad"}"#).unwrap_err();
        assert!(header.contains("routingHeader"), "{header}");
        let c = PluginConfig::parse(br#"{"manifests": 3}"#).unwrap();
        assert!(c.manifests().unwrap_err().contains("manifests must be"));
        let c = PluginConfig::parse(br#"{"manifests": ["a: 1", null]}"#).unwrap();
        assert!(c.manifests().unwrap_err().contains("manifests[1] must be"));
        let twice = PluginConfig::parse(br#"{"manifests": "", "strict": true, "strict": false}"#).unwrap_err();
        assert!(twice.contains("duplicate key `strict`"), "{twice}");
    }
}
