//! The OpenAPI schemas of the standard-channel CRDs of `kubernetes-sigs/gateway-api` v1.6.1
//! (`config/crd/standard/gateway.networking.k8s.io_{gatewayclasses,gateways,httproutes,referencegrants}.yaml`),
//! transcribed: every constraint the apiserver checks on `spec` (`type`, `required`, `enum`,
//! `pattern`, `minLength`/`maxLength`, `minimum`/`maximum`, `minItems`/`maxItems`,
//! `maxProperties`, `default`, `x-kubernetes-list-type`) and the `x-kubernetes-validations`
//! rules ([`super::cel`]). The served versions `v1` and `v1beta1` have the same schema in each
//! CRD. Properties are listed in the CRDs' (alphabetical) order. `status` is left out: on create
//! the status subresource resets it. Fields that only the experimental channel has are absent.

use super::cel::{self, Rule};
use super::patterns::{self, Pattern};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Type {
    Object,
    Array,
    String,
    Integer,
    Boolean,
}

impl Type {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Type::Object => "object",
            Type::Array => "array",
            Type::String => "string",
            Type::Integer => "integer",
            Type::Boolean => "boolean",
        }
    }
}

/// `x-kubernetes-list-type`.
#[derive(Clone, Copy, Debug)]
pub(crate) enum ListType {
    Atomic,
    Set,
    /// `map`, with its one `x-kubernetes-list-map-keys` key.
    Map(&'static str),
}

/// One node of a structural schema.
pub(crate) struct Schema {
    pub(crate) ty: Type,
    pub(crate) props: &'static [(&'static str, &'static Schema)],
    pub(crate) required: &'static [&'static str],
    /// `additionalProperties` (a string map).
    pub(crate) values: Option<&'static Schema>,
    pub(crate) max_props: Option<usize>,
    pub(crate) items: Option<&'static Schema>,
    pub(crate) min_items: Option<usize>,
    pub(crate) max_items: Option<usize>,
    pub(crate) list: ListType,
    pub(crate) min_len: Option<usize>,
    pub(crate) max_len: Option<usize>,
    pub(crate) pattern: Option<&'static Pattern>,
    pub(crate) enum_str: &'static [&'static str],
    pub(crate) enum_int: &'static [i64],
    pub(crate) minimum: Option<i64>,
    pub(crate) maximum: Option<i64>,
    /// The `default`, as JSON.
    pub(crate) default: Option<&'static str>,
    pub(crate) rules: &'static [Rule],
    /// The object's `oneOf` (only `GatewaySpecAddress` has one), checked where kube-openapi's
    /// `schemaPropsValidator` runs: before the properties.
    pub(crate) one_of: Option<OneOf>,
}

/// A `oneOf` check: the object, its path, the errors to add to.
pub(crate) type OneOf = fn(
    &serde_json::Map<alloc::string::String, serde_json::Value>,
    &str,
    &mut alloc::vec::Vec<crate::validation::FieldError>,
);

const BASE: Schema = Schema {
    ty: Type::Object,
    props: &[],
    required: &[],
    values: None,
    max_props: None,
    items: None,
    min_items: None,
    max_items: None,
    list: ListType::Atomic,
    min_len: None,
    max_len: None,
    pattern: None,
    enum_str: &[],
    enum_int: &[],
    minimum: None,
    maximum: None,
    default: None,
    rules: &[],
    one_of: None,
};
const OBJECT: Schema = BASE;
const ARRAY: Schema = Schema { ty: Type::Array, ..BASE };
const STRING: Schema = Schema { ty: Type::String, ..BASE };
const INTEGER: Schema = Schema { ty: Type::Integer, ..BASE };
const BOOLEAN: Schema = Schema { ty: Type::Boolean, ..BASE };

// ------------------------------------------------------------------------------------------------
// Shared fields (`Group`, `Kind`, `ObjectName`, `Namespace`, `PortNumber`, `SectionName`,
// `Hostname`, `PreciseHostname`, `HTTPHeaderName`)

const GROUP: Schema = Schema { max_len: Some(253), pattern: Some(&patterns::GROUP), ..STRING };
static GROUP_PLAIN: Schema = GROUP;
static GROUP_EMPTY: Schema = Schema { default: Some("\"\""), ..GROUP };
static GROUP_GATEWAY: Schema = Schema { default: Some("\"gateway.networking.k8s.io\""), ..GROUP };
const KIND: Schema = Schema { min_len: Some(1), max_len: Some(63), pattern: Some(&patterns::KIND), ..STRING };
static KIND_PLAIN: Schema = KIND;
static KIND_GATEWAY: Schema = Schema { default: Some("\"Gateway\""), ..KIND };
static KIND_SERVICE: Schema = Schema { default: Some("\"Service\""), ..KIND };
static KIND_SECRET: Schema = Schema { default: Some("\"Secret\""), ..KIND };
static OBJECT_NAME: Schema = Schema { min_len: Some(1), max_len: Some(253), ..STRING };
static NAMESPACE: Schema =
    Schema { min_len: Some(1), max_len: Some(63), pattern: Some(&patterns::NAMESPACE), ..STRING };
static PORT: Schema = Schema { minimum: Some(1), maximum: Some(65535), ..INTEGER };
/// `SectionName`, listener and rule names, and `PreciseHostname` share one schema.
const PRECISE: Schema =
    Schema { min_len: Some(1), max_len: Some(253), pattern: Some(&patterns::PRECISE_HOSTNAME), ..STRING };
static SECTION_NAME: Schema = PRECISE;
static PRECISE_HOSTNAME: Schema = PRECISE;
static HOSTNAME: Schema = Schema { min_len: Some(1), max_len: Some(253), pattern: Some(&patterns::HOSTNAME), ..STRING };
static HEADER_NAME: Schema =
    Schema { min_len: Some(1), max_len: Some(256), pattern: Some(&patterns::HEADER_NAME), ..STRING };
static PLAIN_STRING: Schema = STRING;
static ANNOTATION_VALUE: Schema = Schema { min_len: Some(0), max_len: Some(4096), ..STRING };

/// `LocalObjectReference`-like `parametersRef` (GatewayClass, Gateway infrastructure): group,
/// kind, name required.
static LOCAL_PARAMETERS_REF: Schema = Schema {
    props: &[("group", &GROUP_PLAIN), ("kind", &KIND_PLAIN), ("name", &OBJECT_NAME)],
    required: &["group", "kind", "name"],
    ..OBJECT
};

/// `metav1.LabelSelector` (no constraints beyond types and `key`/`operator` required).
static LABEL_SELECTOR: Schema = Schema {
    props: &[
        (
            "matchExpressions",
            &Schema {
                items: Some(&Schema {
                    props: &[
                        ("key", &PLAIN_STRING),
                        ("operator", &PLAIN_STRING),
                        ("values", &Schema { items: Some(&PLAIN_STRING), ..ARRAY }),
                    ],
                    required: &["key", "operator"],
                    ..OBJECT
                }),
                ..ARRAY
            },
        ),
        ("matchLabels", &Schema { values: Some(&PLAIN_STRING), ..OBJECT }),
    ],
    ..OBJECT
};

// ------------------------------------------------------------------------------------------------
// GatewayClass

pub(crate) static GATEWAY_CLASS: Schema = Schema {
    props: &[(
        "spec",
        &Schema {
            props: &[
                (
                    "controllerName",
                    // Its CEL rule `self == oldSelf` ("Value is immutable") applies on update only.
                    &Schema {
                        min_len: Some(1),
                        max_len: Some(253),
                        pattern: Some(&patterns::CONTROLLER_NAME),
                        ..STRING
                    },
                ),
                ("description", &Schema { max_len: Some(64), ..STRING }),
                (
                    "parametersRef",
                    &Schema {
                        props: &[
                            ("group", &GROUP_PLAIN),
                            ("kind", &KIND_PLAIN),
                            ("name", &OBJECT_NAME),
                            ("namespace", &NAMESPACE),
                        ],
                        required: &["group", "kind", "name"],
                        ..OBJECT
                    },
                ),
            ],
            required: &["controllerName"],
            ..OBJECT
        },
    )],
    required: &["spec"],
    ..OBJECT
};

// ------------------------------------------------------------------------------------------------
// ReferenceGrant

pub(crate) static REFERENCE_GRANT: Schema = Schema {
    props: &[(
        "spec",
        &Schema {
            props: &[
                (
                    "from",
                    &Schema {
                        items: Some(&Schema {
                            props: &[("group", &GROUP_PLAIN), ("kind", &KIND_PLAIN), ("namespace", &NAMESPACE)],
                            required: &["group", "kind", "namespace"],
                            ..OBJECT
                        }),
                        min_items: Some(1),
                        max_items: Some(16),
                        ..ARRAY
                    },
                ),
                (
                    "to",
                    &Schema {
                        items: Some(&Schema {
                            props: &[("group", &GROUP_PLAIN), ("kind", &KIND_PLAIN), ("name", &OBJECT_NAME)],
                            required: &["group", "kind"],
                            ..OBJECT
                        }),
                        min_items: Some(1),
                        max_items: Some(16),
                        ..ARRAY
                    },
                ),
            ],
            required: &["from", "to"],
            ..OBJECT
        },
    )],
    required: &["spec"],
    ..OBJECT
};

// ------------------------------------------------------------------------------------------------
// Gateway

/// `SecretObjectReference` (listener certificates, the backend client certificate).
static SECRET_REF: Schema = Schema {
    props: &[("group", &GROUP_EMPTY), ("kind", &KIND_SECRET), ("name", &OBJECT_NAME), ("namespace", &NAMESPACE)],
    required: &["name"],
    ..OBJECT
};

/// `FrontendTLSValidation` (`spec.tls.frontend.default.validation` and per port).
static FRONTEND_VALIDATION: Schema = Schema {
    props: &[
        (
            "caCertificateRefs",
            &Schema {
                items: Some(&Schema {
                    props: &[
                        ("group", &GROUP_PLAIN),
                        ("kind", &KIND_PLAIN),
                        ("name", &OBJECT_NAME),
                        ("namespace", &NAMESPACE),
                    ],
                    required: &["group", "kind", "name"],
                    ..OBJECT
                }),
                min_items: Some(1),
                max_items: Some(16),
                ..ARRAY
            },
        ),
        (
            "mode",
            &Schema {
                default: Some("\"AllowValidOnly\""),
                enum_str: &["AllowValidOnly", "AllowInsecureFallback"],
                ..STRING
            },
        ),
    ],
    required: &["caCertificateRefs"],
    ..OBJECT
};

static LISTENER: Schema = Schema {
    props: &[
        (
            "allowedRoutes",
            &Schema {
                props: &[
                    (
                        "kinds",
                        &Schema {
                            items: Some(&Schema {
                                props: &[("group", &GROUP_GATEWAY), ("kind", &KIND_PLAIN)],
                                required: &["kind"],
                                ..OBJECT
                            }),
                            max_items: Some(8),
                            ..ARRAY
                        },
                    ),
                    (
                        "namespaces",
                        &Schema {
                            props: &[
                                (
                                    "from",
                                    &Schema {
                                        default: Some("\"Same\""),
                                        enum_str: &["All", "Selector", "Same"],
                                        ..STRING
                                    },
                                ),
                                ("selector", &LABEL_SELECTOR),
                            ],
                            default: Some(r#"{"from": "Same"}"#),
                            ..OBJECT
                        },
                    ),
                ],
                default: Some(r#"{"namespaces": {"from": "Same"}}"#),
                ..OBJECT
            },
        ),
        ("hostname", &HOSTNAME),
        ("name", &SECTION_NAME),
        ("port", &PORT),
        ("protocol", &Schema { min_len: Some(1), max_len: Some(255), pattern: Some(&patterns::PROTOCOL), ..STRING }),
        (
            "tls",
            &Schema {
                props: &[
                    ("certificateRefs", &Schema { items: Some(&SECRET_REF), max_items: Some(64), ..ARRAY }),
                    (
                        "mode",
                        &Schema { default: Some("\"Terminate\""), enum_str: &["Terminate", "Passthrough"], ..STRING },
                    ),
                    ("options", &Schema { values: Some(&ANNOTATION_VALUE), max_props: Some(16), ..OBJECT }),
                ],
                rules: cel::LISTENER_TLS,
                ..OBJECT
            },
        ),
    ],
    required: &["name", "port", "protocol"],
    ..OBJECT
};

pub(crate) static GATEWAY: Schema = Schema {
    props: &[(
        "spec",
        &Schema {
            props: &[
                (
                    "addresses",
                    &Schema {
                        items: Some(&Schema {
                            props: &[
                                (
                                    "type",
                                    &Schema {
                                        default: Some("\"IPAddress\""),
                                        min_len: Some(1),
                                        max_len: Some(253),
                                        pattern: Some(&patterns::ADDRESS_TYPE),
                                        ..STRING
                                    },
                                ),
                                ("value", &Schema { max_len: Some(253), ..STRING }),
                            ],
                            rules: cel::GATEWAY_ADDRESS,
                            one_of: Some(super::address_value_is_an_ip),
                            ..OBJECT
                        }),
                        max_items: Some(16),
                        rules: cel::GATEWAY_ADDRESSES,
                        ..ARRAY
                    },
                ),
                (
                    "allowedListeners",
                    &Schema {
                        props: &[(
                            "namespaces",
                            &Schema {
                                props: &[
                                    (
                                        "from",
                                        &Schema {
                                            default: Some("\"None\""),
                                            enum_str: &["All", "Selector", "Same", "None"],
                                            ..STRING
                                        },
                                    ),
                                    ("selector", &LABEL_SELECTOR),
                                ],
                                default: Some(r#"{"from": "None"}"#),
                                ..OBJECT
                            },
                        )],
                        ..OBJECT
                    },
                ),
                ("gatewayClassName", &OBJECT_NAME),
                (
                    "infrastructure",
                    &Schema {
                        props: &[
                            (
                                "annotations",
                                &Schema {
                                    values: Some(&ANNOTATION_VALUE),
                                    max_props: Some(16),
                                    rules: cel::INFRASTRUCTURE_ANNOTATIONS,
                                    ..OBJECT
                                },
                            ),
                            (
                                "labels",
                                &Schema {
                                    values: Some(&Schema {
                                        min_len: Some(0),
                                        max_len: Some(63),
                                        pattern: Some(&patterns::LABEL_VALUE),
                                        ..STRING
                                    }),
                                    max_props: Some(8),
                                    rules: cel::INFRASTRUCTURE_LABELS,
                                    ..OBJECT
                                },
                            ),
                            ("parametersRef", &LOCAL_PARAMETERS_REF),
                        ],
                        ..OBJECT
                    },
                ),
                (
                    "listeners",
                    &Schema {
                        items: Some(&LISTENER),
                        min_items: Some(1),
                        max_items: Some(64),
                        list: ListType::Map("name"),
                        rules: cel::GATEWAY_LISTENERS,
                        ..ARRAY
                    },
                ),
                (
                    "tls",
                    &Schema {
                        props: &[
                            ("backend", &Schema { props: &[("clientCertificateRef", &SECRET_REF)], ..OBJECT }),
                            (
                                "frontend",
                                &Schema {
                                    props: &[
                                        (
                                            "default",
                                            &Schema { props: &[("validation", &FRONTEND_VALIDATION)], ..OBJECT },
                                        ),
                                        (
                                            "perPort",
                                            &Schema {
                                                items: Some(&Schema {
                                                    props: &[
                                                        ("port", &PORT),
                                                        (
                                                            "tls",
                                                            &Schema {
                                                                props: &[("validation", &FRONTEND_VALIDATION)],
                                                                ..OBJECT
                                                            },
                                                        ),
                                                    ],
                                                    required: &["port", "tls"],
                                                    ..OBJECT
                                                }),
                                                max_items: Some(64),
                                                list: ListType::Map("port"),
                                                rules: cel::FRONTEND_PER_PORT,
                                                ..ARRAY
                                            },
                                        ),
                                    ],
                                    required: &["default"],
                                    ..OBJECT
                                },
                            ),
                        ],
                        ..OBJECT
                    },
                ),
            ],
            required: &["gatewayClassName", "listeners"],
            ..OBJECT
        },
    )],
    required: &["spec"],
    ..OBJECT
};

// ------------------------------------------------------------------------------------------------
// HTTPRoute

/// `ParentReference`.
static PARENT_REF: Schema = Schema {
    props: &[
        ("group", &GROUP_GATEWAY),
        ("kind", &KIND_GATEWAY),
        ("name", &OBJECT_NAME),
        ("namespace", &NAMESPACE),
        ("port", &PORT),
        ("sectionName", &SECTION_NAME),
    ],
    required: &["name"],
    ..OBJECT
};

/// `HTTPHeader` (header modifiers' `set` and `add`).
static HEADER: Schema = Schema {
    props: &[("name", &HEADER_NAME), ("value", &Schema { min_len: Some(1), max_len: Some(4096), ..STRING })],
    required: &["name", "value"],
    ..OBJECT
};

/// `HTTPHeaderFilter`.
static HEADER_MODIFIER: Schema = Schema {
    props: &[
        ("add", &Schema { items: Some(&HEADER), max_items: Some(16), list: ListType::Map("name"), ..ARRAY }),
        ("remove", &Schema { items: Some(&PLAIN_STRING), max_items: Some(16), list: ListType::Set, ..ARRAY }),
        ("set", &Schema { items: Some(&HEADER), max_items: Some(16), list: ListType::Map("name"), ..ARRAY }),
    ],
    ..OBJECT
};

/// `HTTPPathModifier` (redirect and rewrite).
static PATH_MODIFIER: Schema = Schema {
    props: &[
        ("replaceFullPath", &Schema { max_len: Some(1024), ..STRING }),
        ("replacePrefixMatch", &Schema { max_len: Some(1024), ..STRING }),
        ("type", &Schema { enum_str: &["ReplaceFullPath", "ReplacePrefixMatch"], ..STRING }),
    ],
    required: &["type"],
    rules: cel::PATH_MODIFIER,
    ..OBJECT
};

const METHODS: &[&str] = &["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"];

/// `HTTPCORSFilter`.
static CORS: Schema = Schema {
    props: &[
        ("allowCredentials", &BOOLEAN),
        (
            "allowHeaders",
            &Schema {
                items: Some(&HEADER_NAME),
                max_items: Some(64),
                list: ListType::Set,
                rules: cel::CORS_ALLOW_HEADERS,
                ..ARRAY
            },
        ),
        (
            "allowMethods",
            &Schema {
                items: Some(&Schema {
                    enum_str: &["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH", "*"],
                    ..STRING
                }),
                max_items: Some(9),
                list: ListType::Set,
                rules: cel::CORS_ALLOW_METHODS,
                ..ARRAY
            },
        ),
        (
            "allowOrigins",
            &Schema {
                items: Some(&Schema {
                    min_len: Some(1),
                    max_len: Some(253),
                    pattern: Some(&patterns::CORS_ORIGIN),
                    ..STRING
                }),
                max_items: Some(64),
                list: ListType::Set,
                rules: cel::CORS_ALLOW_ORIGINS,
                ..ARRAY
            },
        ),
        ("exposeHeaders", &Schema { items: Some(&HEADER_NAME), max_items: Some(64), list: ListType::Set, ..ARRAY }),
        ("maxAge", &Schema { default: Some("5"), minimum: Some(1), ..INTEGER }),
    ],
    ..OBJECT
};

/// `HTTPRequestMirrorFilter` (HTTPRoute's and GRPCRoute's).
static REQUEST_MIRROR: Schema = Schema {
    props: &[
        (
            "backendRef",
            &Schema {
                props: &[
                    ("group", &GROUP_EMPTY),
                    ("kind", &KIND_SERVICE),
                    ("name", &OBJECT_NAME),
                    ("namespace", &NAMESPACE),
                    ("port", &PORT),
                ],
                required: &["name"],
                rules: cel::BACKEND_REF,
                ..OBJECT
            },
        ),
        (
            "fraction",
            &Schema {
                props: &[
                    ("denominator", &Schema { default: Some("100"), minimum: Some(1), ..INTEGER }),
                    ("numerator", &Schema { minimum: Some(0), ..INTEGER }),
                ],
                required: &["numerator"],
                rules: cel::MIRROR_FRACTION,
                ..OBJECT
            },
        ),
        ("percent", &Schema { minimum: Some(0), maximum: Some(100), ..INTEGER }),
    ],
    required: &["backendRef"],
    rules: cel::REQUEST_MIRROR,
    ..OBJECT
};

/// `HTTPRouteFilter` (a rule's and a backendRef's: the same schema).
static FILTER: Schema = Schema {
    props: &[
        ("cors", &CORS),
        ("extensionRef", &LOCAL_PARAMETERS_REF),
        ("requestHeaderModifier", &HEADER_MODIFIER),
        ("requestMirror", &REQUEST_MIRROR),
        (
            "requestRedirect",
            &Schema {
                props: &[
                    ("hostname", &PRECISE_HOSTNAME),
                    ("path", &PATH_MODIFIER),
                    ("port", &PORT),
                    ("scheme", &Schema { enum_str: &["http", "https"], ..STRING }),
                    ("statusCode", &Schema { default: Some("302"), enum_int: &[301, 302, 303, 307, 308], ..INTEGER }),
                ],
                ..OBJECT
            },
        ),
        ("responseHeaderModifier", &HEADER_MODIFIER),
        (
            "type",
            &Schema {
                enum_str: &[
                    "RequestHeaderModifier",
                    "ResponseHeaderModifier",
                    "RequestMirror",
                    "RequestRedirect",
                    "URLRewrite",
                    "ExtensionRef",
                    "CORS",
                ],
                ..STRING
            },
        ),
        ("urlRewrite", &Schema { props: &[("hostname", &PRECISE_HOSTNAME), ("path", &PATH_MODIFIER)], ..OBJECT }),
    ],
    required: &["type"],
    rules: cel::FILTER,
    ..OBJECT
};

static FILTERS: Schema = Schema { items: Some(&FILTER), max_items: Some(16), rules: cel::FILTERS, ..ARRAY };

/// `HTTPHeaderMatch` and `HTTPQueryParamMatch` differ in the value's length.
static HEADER_MATCH: Schema = Schema {
    props: &[
        ("name", &HEADER_NAME),
        ("type", &MATCH_TYPE),
        ("value", &Schema { min_len: Some(1), max_len: Some(4096), ..STRING }),
    ],
    required: &["name", "value"],
    ..OBJECT
};
static QUERY_MATCH: Schema = Schema {
    props: &[
        ("name", &HEADER_NAME),
        ("type", &MATCH_TYPE),
        ("value", &Schema { min_len: Some(1), max_len: Some(1024), ..STRING }),
    ],
    required: &["name", "value"],
    ..OBJECT
};
static MATCH_TYPE: Schema = Schema { default: Some("\"Exact\""), enum_str: &["Exact", "RegularExpression"], ..STRING };

static MATCH: Schema = Schema {
    props: &[
        ("headers", &Schema { items: Some(&HEADER_MATCH), max_items: Some(16), list: ListType::Map("name"), ..ARRAY }),
        ("method", &Schema { enum_str: METHODS, ..STRING }),
        (
            "path",
            &Schema {
                props: &[
                    (
                        "type",
                        &Schema {
                            default: Some("\"PathPrefix\""),
                            enum_str: &["Exact", "PathPrefix", "RegularExpression"],
                            ..STRING
                        },
                    ),
                    ("value", &Schema { default: Some("\"/\""), max_len: Some(1024), ..STRING }),
                ],
                default: Some(r#"{"type": "PathPrefix", "value": "/"}"#),
                rules: cel::PATH_MATCH,
                ..OBJECT
            },
        ),
        (
            "queryParams",
            &Schema { items: Some(&QUERY_MATCH), max_items: Some(16), list: ListType::Map("name"), ..ARRAY },
        ),
    ],
    ..OBJECT
};

static RULE: Schema = Schema {
    props: &[
        (
            "backendRefs",
            &Schema {
                items: Some(&Schema {
                    props: &[
                        ("filters", &FILTERS),
                        ("group", &GROUP_EMPTY),
                        ("kind", &KIND_SERVICE),
                        ("name", &OBJECT_NAME),
                        ("namespace", &NAMESPACE),
                        ("port", &PORT),
                        (
                            "weight",
                            &Schema { default: Some("1"), minimum: Some(0), maximum: Some(1_000_000), ..INTEGER },
                        ),
                    ],
                    required: &["name"],
                    rules: cel::BACKEND_REF,
                    ..OBJECT
                }),
                max_items: Some(16),
                ..ARRAY
            },
        ),
        ("filters", &FILTERS),
        (
            "matches",
            &Schema {
                items: Some(&MATCH),
                max_items: Some(64),
                default: Some(r#"[{"path": {"type": "PathPrefix", "value": "/"}}]"#),
                ..ARRAY
            },
        ),
        ("name", &SECTION_NAME),
        (
            "timeouts",
            &Schema {
                props: &[
                    ("backendRequest", &Schema { pattern: Some(&patterns::DURATION), ..STRING }),
                    ("request", &Schema { pattern: Some(&patterns::DURATION), ..STRING }),
                ],
                rules: cel::TIMEOUTS,
                ..OBJECT
            },
        ),
    ],
    rules: cel::RULE,
    ..OBJECT
};

pub(crate) static HTTP_ROUTE: Schema = Schema {
    props: &[(
        "spec",
        &Schema {
            props: &[
                ("hostnames", &Schema { items: Some(&HOSTNAME), max_items: Some(16), ..ARRAY }),
                (
                    "parentRefs",
                    &Schema { items: Some(&PARENT_REF), max_items: Some(32), rules: cel::PARENT_REFS, ..ARRAY },
                ),
                (
                    "rules",
                    &Schema {
                        items: Some(&RULE),
                        min_items: Some(1),
                        max_items: Some(16),
                        default: Some(r#"[{"matches": [{"path": {"type": "PathPrefix", "value": "/"}}]}]"#),
                        rules: cel::RULES,
                        ..ARRAY
                    },
                ),
            ],
            ..OBJECT
        },
    )],
    required: &["spec"],
    ..OBJECT
};

// ------------------------------------------------------------------------------------------------
// GRPCRoute (standard channel, v1 only)

/// `GRPCRouteFilter` (a rule's and a backendRef's).
static GRPC_FILTER: Schema = Schema {
    props: &[
        ("extensionRef", &LOCAL_PARAMETERS_REF),
        ("requestHeaderModifier", &HEADER_MODIFIER),
        ("requestMirror", &REQUEST_MIRROR),
        ("responseHeaderModifier", &HEADER_MODIFIER),
        (
            "type",
            &Schema {
                enum_str: &["ResponseHeaderModifier", "RequestHeaderModifier", "RequestMirror", "ExtensionRef"],
                ..STRING
            },
        ),
    ],
    required: &["type"],
    rules: cel::GRPC_FILTER,
    ..OBJECT
};

static GRPC_FILTERS: Schema =
    Schema { items: Some(&GRPC_FILTER), max_items: Some(16), rules: cel::GRPC_FILTERS, ..ARRAY };

static GRPC_MATCH: Schema = Schema {
    props: &[
        ("headers", &Schema { items: Some(&HEADER_MATCH), max_items: Some(16), list: ListType::Map("name"), ..ARRAY }),
        (
            "method",
            &Schema {
                props: &[
                    ("method", &Schema { max_len: Some(1024), ..STRING }),
                    ("service", &Schema { max_len: Some(1024), ..STRING }),
                    ("type", &MATCH_TYPE),
                ],
                rules: cel::GRPC_METHOD_MATCH,
                ..OBJECT
            },
        ),
    ],
    ..OBJECT
};

static GRPC_RULE: Schema = Schema {
    props: &[
        (
            "backendRefs",
            &Schema {
                items: Some(&Schema {
                    props: &[
                        ("filters", &GRPC_FILTERS),
                        ("group", &GROUP_EMPTY),
                        ("kind", &KIND_SERVICE),
                        ("name", &OBJECT_NAME),
                        ("namespace", &NAMESPACE),
                        ("port", &PORT),
                        (
                            "weight",
                            &Schema { default: Some("1"), minimum: Some(0), maximum: Some(1_000_000), ..INTEGER },
                        ),
                    ],
                    required: &["name"],
                    rules: cel::BACKEND_REF,
                    ..OBJECT
                }),
                max_items: Some(16),
                ..ARRAY
            },
        ),
        ("filters", &GRPC_FILTERS),
        ("matches", &Schema { items: Some(&GRPC_MATCH), max_items: Some(64), ..ARRAY }),
        ("name", &SECTION_NAME),
    ],
    ..OBJECT
};

pub(crate) static GRPC_ROUTE: Schema = Schema {
    props: &[(
        "spec",
        &Schema {
            props: &[
                ("hostnames", &Schema { items: Some(&HOSTNAME), max_items: Some(16), ..ARRAY }),
                (
                    "parentRefs",
                    &Schema { items: Some(&PARENT_REF), max_items: Some(32), rules: cel::PARENT_REFS, ..ARRAY },
                ),
                ("rules", &Schema { items: Some(&GRPC_RULE), max_items: Some(16), rules: cel::RULES, ..ARRAY }),
            ],
            ..OBJECT
        },
    )],
    required: &["spec"],
    ..OBJECT
};
