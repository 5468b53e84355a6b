//! How to compile: [`CompileOptions`] and the named values its fields take.
//!
//! The options deserialise from the same camelCase names everywhere they are written (a tests
//! file's `options:`, the npm package's options object, the Envoy filter's configuration), and
//! every named value parses with [`FromStr`](core::str::FromStr) through the same names:
//!
//! ```
//! use ingress_router::CompileOptions;
//! use ingress_router::options::ImplementationSpecific;
//! let options: CompileOptions =
//!     serde_json::from_str(r#"{"ingressClass": "nginx", "implementationSpecific": "string-prefix"}"#).unwrap();
//! assert_eq!(options, CompileOptions::default()
//!     .with_ingress_class("nginx")
//!     .with_implementation_specific(ImplementationSpecific::StringPrefix));
//! let error = "regex".parse::<ImplementationSpecific>().unwrap_err();
//! assert_eq!(error.to_string(), r#"unknown implementationSpecific "regex": expected prefix, exact or string-prefix"#);
//! assert!(serde_json::from_str::<CompileOptions>(r#"{"ingressClas": "nginx"}"#).is_err());
//! ```

pub use crate::cluster::{ClusterNames, TemplateError};
pub use crate::engines::Missing;
pub use crate::request::RequestSpecError;
use alloc::string::{String, ToString};
use core::fmt;

use serde::{Deserialize, Serialize};

use crate::model::IngressBackend;

/// A value that names none of an option's values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownValue {
    option: &'static str,
    value: String,
    expected: &'static str,
}

impl fmt::Display for UnknownValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown {} {:?}: expected {}", self.option, self.value, self.expected)
    }
}

impl core::error::Error for UnknownValue {}

/// An option's enum with one stable name per value: `as_str`, `Display`, `FromStr`, and serde
/// through those names.
macro_rules! named_values {
    ($(#[$meta:meta])* $name:ident, $option:literal, $expected:literal { $($(#[$vmeta:meta])* $variant:ident = $text:literal,)+ }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum $name {
            $($(#[$vmeta])* $variant,)+
        }

        impl $name {
            /// The name it is written with.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl core::str::FromStr for $name {
            type Err = UnknownValue;
            fn from_str(s: &str) -> Result<Self, UnknownValue> {
                match s {
                    $($text => Ok($name::$variant),)+
                    _ => Err(UnknownValue { option: $option, value: s.to_string(), expected: $expected }),
                }
            }
        }

        impl Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = alloc::borrow::Cow::<'de, str>::deserialize(d)?;
                s.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}

named_values! {
    /// How `ImplementationSpecific` paths match.
    ImplementationSpecific, "implementationSpecific", "prefix, exact or string-prefix" {
        /// Like `Prefix` (element-wise).
        #[default]
        Prefix = "prefix",
        /// Like `Exact`.
        Exact = "exact",
        /// A plain string prefix: `/foo` matches `/foobar` (ingress-nginx, Contour).
        StringPrefix = "string-prefix",
    }
}

/// Whose routing the table reproduces: the specification, or a controller's behaviour beyond it.
///
/// `"ingress-nginx"` needs the crate's `nginx` feature; without it, parsing that name is an error
/// that says so.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Profile {
    /// The Kubernetes specification: longest match, element-wise prefixes.
    #[default]
    Spec,
    /// As the retired ingress-nginx controller routed: nginx `server` and `location` blocks, regex
    /// paths, rewrites, redirects and canaries. `implementationSpecific` and the proxy
    /// normalisation options do not apply (the controller makes ImplementationSpecific `Prefix`,
    /// and nginx normalises the URI its own way); `ingressClass` and `defaultBackend` do.
    #[cfg(feature = "nginx")]
    IngressNginx,
}

impl Profile {
    /// The name it is written with.
    pub fn as_str(self) -> &'static str {
        match self {
            Profile::Spec => "spec",
            #[cfg(feature = "nginx")]
            Profile::IngressNginx => "ingress-nginx",
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The profiles this build has, for error messages.
#[cfg(feature = "nginx")]
const PROFILES: &str = "spec or ingress-nginx";
#[cfg(not(feature = "nginx"))]
const PROFILES: &str = "spec";

impl core::str::FromStr for Profile {
    type Err = UnknownValue;
    fn from_str(s: &str) -> Result<Self, UnknownValue> {
        match s {
            "spec" => Ok(Profile::Spec),
            #[cfg(feature = "nginx")]
            "ingress-nginx" => Ok(Profile::IngressNginx),
            #[cfg(not(feature = "nginx"))]
            "ingress-nginx" => Err(UnknownValue {
                option: "profile",
                value: s.to_string(),
                expected: "spec: this build of ingress-router lacks the `nginx` feature that the ingress-nginx profile needs",
            }),
            _ => Err(UnknownValue { option: "profile", value: s.to_string(), expected: PROFILES }),
        }
    }
}

impl Serialize for Profile {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Profile {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = alloc::borrow::Cow::<'de, str>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

named_values! {
    /// What the proxy does with `%2F` and `%5C` in a path (Envoy's `path_with_escaped_slashes_action`).
    EscapedSlashes, "escapedSlashes", "KEEP_UNCHANGED, UNESCAPE_AND_FORWARD, REJECT_REQUEST or UNESCAPE_AND_REDIRECT" {
        /// Routed as they are.
        #[default]
        KeepUnchanged = "KEEP_UNCHANGED",
        /// `%2F`/`%5C` become `/`/`\` before routing.
        UnescapeAndForward = "UNESCAPE_AND_FORWARD",
        /// A request with `%2F`/`%5C` is refused (400).
        RejectRequest = "REJECT_REQUEST",
        /// Redirected to the unescaped path; routed here as if already redirected.
        UnescapeAndRedirect = "UNESCAPE_AND_REDIRECT",
    }
}

/// How to compile, and how the compiled table treats request paths.
///
/// Build it with [`Default`] and the `with_` setters, or deserialise it (camelCase names,
/// unknown fields are errors). All off by default: every Ingress takes part, and the raw path is
/// routed, as the specification says.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
#[non_exhaustive]
pub struct CompileOptions {
    /// The IngressClass served; `None`: every Ingress takes part.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ingress_class: Option<String>,
    /// How `ImplementationSpecific` paths match.
    #[serde(skip_serializing_if = "is_default")]
    pub implementation_specific: ImplementationSpecific,
    #[serde(skip_serializing_if = "is_default")]
    pub profile: Profile,
    /// Proxy normalisation, as Envoy's `normalize_path` (Chromium's path canonicalisation): `\`
    /// becomes `/`, escapes of unreserved characters are decoded, characters a path may not hold
    /// are escaped, and `.` and `..` segments are removed before routing; a NUL is refused.
    #[serde(skip_serializing_if = "is_false")]
    pub normalize_path: bool,
    /// Proxy normalisation: collapse runs of `/` into one before routing.
    #[serde(skip_serializing_if = "is_false")]
    pub merge_slashes: bool,
    /// What the proxy does with escaped slashes before routing.
    #[serde(skip_serializing_if = "is_default")]
    pub escaped_slashes: EscapedSlashes,
    /// The controller's own default backend, used when no Ingress declares a `defaultBackend`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_backend: Option<IngressBackend>,
    /// Route through the input's Gateway API objects, at this Gateway (`namespace/name`, or a
    /// name when only one Gateway has it), instead of through its Ingresses: a tests file's
    /// `options.gateway`. The Ingress router ignores it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gateway: Option<String>,
    /// Gateway API: where `RegularExpression` matches rank ([`RegexOrder`]:
    /// `EnvoyGateway`, the default, or `Istio`). The Ingress router ignores it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub regex_order: Option<RegexOrder>,
    /// Gateway API: whether a backendRef to a Service (or port) missing from the input is invalid
    /// (default: when the input holds any Service). The Ingress router ignores it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check_services: Option<bool>,
    /// The work regexes may do (Gateway API matches, the ingress-nginx profile's regexes): the
    /// largest compiled pattern, and the bytes a request's matches may read. A pattern over the
    /// size limit is refused by name; a request over the scan limit gets "no match" from the
    /// regexes it could not afford, and its decision says so.
    #[serde(skip_serializing_if = "is_default")]
    pub regex_limits: RegexLimits,
}

/// The work regexes may do: per pattern (compile) and per request (match).
///
/// Deserialised from the options every home reads (`regexLimits: {size, total, scan}`, bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RegexLimits {
    /// The largest compiled automaton one pattern may have, in bytes.
    pub size: usize,
    /// The bytes the automata of all the patterns of one configuration may have together;
    /// patterns past it (in input order) are refused.
    pub total: usize,
    /// The bytes all of a request's regex matches may read together.
    pub scan: usize,
}

impl RegexLimits {
    /// 128 KiB per pattern: the patterns of the Gateway API conformance suite, ingress-nginx's
    /// documentation and tests, and common ones (ids, versions, file types, languages; the
    /// corpus in `src/regex.rs`) need 0.3 to 13 KiB; a case-insensitive list of 25 crawler names
    /// anywhere in a header, among the largest ordinary patterns, 107 KiB.
    pub const DEFAULT_SIZE: usize = 128 * 1024;
    /// 32 MiB for a whole configuration: 250 patterns at the largest size, thousands of ordinary
    /// ones.
    pub const DEFAULT_TOTAL: usize = 32 * 1024 * 1024;
    /// 256 KiB per request: four full scans of Envoy's largest request line and headers (60 KiB),
    /// thousands of ordinary ones (a DFA stops as soon as the subject cannot match); at a few ns a
    /// byte, about a millisecond (`benches/regex.rs`).
    pub const DEFAULT_SCAN: usize = 256 * 1024;
}

impl Default for RegexLimits {
    fn default() -> Self {
        RegexLimits { size: Self::DEFAULT_SIZE, total: Self::DEFAULT_TOTAL, scan: Self::DEFAULT_SCAN }
    }
}

/// Gateway API: where `RegularExpression` matches rank, as two implementations order them (a
/// compile option, so it is read even by a build without the `gateway` feature).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum RegexOrder {
    /// Envoy Gateway v1.9.0 (`internal/gatewayapi/sort.go`, `XdsIRRoutes.Less`): path match type
    /// `Exact` > `RegularExpression` > `PathPrefix`, then the path's characters (a regex counts its
    /// pattern's); at equal header (query) counts, more `Exact` header (query) matches first.
    #[default]
    EnvoyGateway,
    /// Istio 1.30.3 (`pilot/pkg/config/kube/gateway/conversion.go`, `sortHTTPRoutes` and
    /// `getURIRank`): `Exact` > `PathPrefix` > `RegularExpression`, then the characters; a regex
    /// header or query match counts like an exact one.
    Istio,
}

fn is_false(on: &bool) -> bool {
    !on
}

fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

impl CompileOptions {
    /// Serve only this IngressClass.
    pub fn with_ingress_class(mut self, class: impl Into<String>) -> Self {
        self.ingress_class = Some(class.into());
        self
    }

    pub fn with_implementation_specific(mut self, mode: ImplementationSpecific) -> Self {
        self.implementation_specific = mode;
        self
    }

    /// These options with [`gateway`](Self::gateway) set: route through that Gateway.
    pub fn with_gateway(mut self, gateway: Option<String>) -> Self {
        self.gateway = gateway;
        self
    }

    pub fn with_profile(mut self, profile: Profile) -> Self {
        self.profile = profile;
        self
    }

    pub fn with_normalize_path(mut self, on: bool) -> Self {
        self.normalize_path = on;
        self
    }

    pub fn with_merge_slashes(mut self, on: bool) -> Self {
        self.merge_slashes = on;
        self
    }

    pub fn with_escaped_slashes(mut self, action: EscapedSlashes) -> Self {
        self.escaped_slashes = action;
        self
    }

    pub fn with_default_backend(mut self, backend: IngressBackend) -> Self {
        self.default_backend = Some(backend);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::Profile;
    use alloc::string::ToString;

    /// A build without the `nginx` feature says why it cannot route as ingress-nginx.
    #[cfg(not(feature = "nginx"))]
    #[test]
    fn profile_without_nginx() {
        let error = "ingress-nginx".parse::<Profile>().unwrap_err().to_string();
        assert!(error.contains("lacks the `nginx` feature"), "{error}");
        assert_eq!(crate::Engine::in_message(&error), Some(crate::Engine::IngressNginx));
        assert!(serde_json::from_str::<super::CompileOptions>(r#"{"profile": "ingress-nginx"}"#).is_err());
    }

    #[cfg(feature = "nginx")]
    #[test]
    fn profile_with_nginx() {
        assert_eq!("ingress-nginx".parse::<Profile>(), Ok(Profile::IngressNginx));
        assert_eq!(Profile::IngressNginx.to_string(), "ingress-nginx");
    }

    #[test]
    fn profile_unknown() {
        assert!(
            "nginx"
                .parse::<Profile>()
                .unwrap_err()
                .to_string()
                .starts_with(r#"unknown profile "nginx": expected spec"#)
        );
    }
}
