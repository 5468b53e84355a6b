//! The precompiled table: a spec-profile [`Table`] written to bytes once (`ingress-router compile`)
//! and loaded by a home that only routes (the npm package's route-only module, a docs page), which
//! then needs neither the YAML reader, validation, lint nor the compiler.
//!
//! Layout (all integers little-endian):
//!
//! | bytes | what |
//! |---|---|
//! | 8 | the magic `IRTABLE\n` |
//! | 4 | the format version ([`FORMAT`]) |
//! | 1 + n | the writing crate's version, its length then its text (for messages only) |
//! | 4 | the payload's length |
//! | 4 | the payload's CRC-32 (IEEE) |
//! | … | the payload: [`Wire`] in postcard |
//!
//! The payload holds what the table's data is, never what follows from it: the Ingresses taking
//! part (age order), those left out and why (their field errors are not kept), every path with
//! its backend and its host table, the default backends, and the options routing reads. Loading
//! checks every index, then orders and indexes the table as compiling does ([`Table::index`]),
//! with a fresh seed: the hashes of a loaded table are as unpredictable as a compiled one's, and
//! nothing in the file can make a lookup scan.

use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Serialize};

use super::{DefaultBackend, ExcludedIngress, Exclusion, HostTable, IngressInfo, Route, Standing, Table};
use crate::class::Participation;
use crate::host::{RuleHost, Tier};
use crate::model::{IngressBackend, IngressServiceBackend, ServiceBackendPort, TypedLocalObjectReference};
use crate::options::{CompileOptions, EscapedSlashes, ImplementationSpecific};
use crate::path::{MatchKind, PathType};

/// The first bytes of every table file.
pub const MAGIC: &[u8; 8] = b"IRTABLE\n";
/// The format this build writes and reads. A change to [`Wire`] is a new format.
pub const FORMAT: u32 = 1;

/// Why bytes are not a table this build can load.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TableFileError {
    /// The bytes do not start with the table magic: not a table file.
    NotATable,
    /// A table of another format version (`writer`: the version of ingress-router that wrote it).
    Version { found: u32, writer: String },
    /// Fewer bytes than the header says.
    Truncated,
    /// The payload's checksum does not match: the file was damaged.
    Checksum,
    /// The payload does not decode, or an index in it points nowhere.
    Malformed(String),
    /// Only the spec profile's Ingress table can be written (not the ingress-nginx profile's or
    /// the Gateway API's).
    Unsupported(&'static str),
}

impl fmt::Display for TableFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableFileError::NotATable => f.write_str("not an ingress-router table (no IRTABLE header)"),
            TableFileError::Version { found, writer } => write!(
                f,
                "table format {found} (written by ingress-router {writer}); this build of ingress-router {} reads \
                 format {FORMAT}: compile the table again with this version",
                env!("CARGO_PKG_VERSION")
            ),
            TableFileError::Truncated => f.write_str("table file truncated: fewer bytes than its header says"),
            TableFileError::Checksum => f.write_str("table file damaged: its checksum does not match"),
            TableFileError::Malformed(why) => write!(f, "table file malformed: {why}"),
            TableFileError::Unsupported(what) => {
                write!(f, "cannot precompile {what}: only the spec profile's Ingress table")
            }
        }
    }
}

impl core::error::Error for TableFileError {}

/// The payload, mirroring [`Table`]'s data in a shape of its own: the table's JSON form omits
/// empty fields, which a format without field names cannot do.
#[derive(Serialize, Deserialize)]
struct Wire {
    options: WireOptions,
    ingresses: Vec<WireIngress>,
    excluded: Vec<WireExcluded>,
    /// Every path, by route number.
    routes: Vec<WireRoute>,
    hosts: Vec<WireHost>,
    defaults: Vec<WireDefault>,
}

/// The options the spec table reads when it routes and explains.
#[derive(Serialize, Deserialize)]
struct WireOptions {
    ingress_class: Option<String>,
    implementation_specific: ImplementationSpecific,
    normalize_path: bool,
    merge_slashes: bool,
    escaped_slashes: EscapedSlashes,
    default_backend: Option<WireBackend>,
}

#[derive(Serialize, Deserialize)]
struct WireIngress {
    namespace: String,
    name: String,
    creation_timestamp: Option<String>,
    /// [`participation_code`].
    participation: u8,
    class: Option<String>,
}

#[derive(Serialize, Deserialize)]
struct WireExcluded {
    namespace: String,
    name: String,
    reason: String,
    invalid: bool,
}

#[derive(Serialize, Deserialize)]
struct WireRoute {
    path: String,
    rule_index: u32,
    path_index: u32,
    /// [`PathType::rank`].
    path_type: u8,
    backend: WireBackend,
    ingress: u32,
}

#[derive(Serialize, Deserialize)]
struct WireHost {
    /// As written (`""`: the host-less rules); the tier follows from it.
    host: String,
    routes: Vec<u32>,
    /// Oldest first.
    ingresses: Vec<u32>,
}

#[derive(Serialize, Deserialize)]
struct WireDefault {
    ingress: Option<u32>,
    backend: WireBackend,
}

#[derive(Serialize, Deserialize)]
struct WireBackend {
    service: Option<(String, Option<String>, Option<i64>)>,
    resource: Option<(Option<String>, String, String)>,
}

impl From<&IngressBackend> for WireBackend {
    fn from(b: &IngressBackend) -> Self {
        WireBackend {
            service: b.service.as_ref().map(|s| {
                let port = s.port.as_ref();
                (s.name.clone(), port.and_then(|p| p.name.clone()), port.and_then(|p| p.number))
            }),
            resource: b.resource.as_ref().map(|r| (r.api_group.clone(), r.kind.clone(), r.name.clone())),
        }
    }
}

impl From<WireBackend> for IngressBackend {
    fn from(b: WireBackend) -> Self {
        IngressBackend {
            service: b.service.map(|(name, port_name, number)| IngressServiceBackend {
                name,
                port: (port_name.is_some() || number.is_some())
                    .then_some(ServiceBackendPort { name: port_name, number }),
            }),
            resource: b.resource.map(|(api_group, kind, name)| TypedLocalObjectReference { api_group, kind, name }),
        }
    }
}

fn participation_code(p: &Participation) -> (u8, Option<String>) {
    match p {
        Participation::AllClasses => (0, None),
        Participation::ClassName => (1, None),
        Participation::LegacyAnnotation => (2, None),
        Participation::DefaultClass => (3, None),
        Participation::OtherClass { class } => (4, Some(class.clone())),
        Participation::UnknownClass { class } => (5, Some(class.clone())),
        Participation::NoClass => (6, None),
    }
}

fn participation(code: u8, class: Option<String>) -> Result<Participation, TableFileError> {
    Ok(match (code, class) {
        (0, None) => Participation::AllClasses,
        (1, None) => Participation::ClassName,
        (2, None) => Participation::LegacyAnnotation,
        (3, None) => Participation::DefaultClass,
        (4, Some(class)) => Participation::OtherClass { class },
        (5, Some(class)) => Participation::UnknownClass { class },
        (6, None) => Participation::NoClass,
        (code, _) => return Err(malformed(alloc::format!("participation {code}"))),
    })
}

fn path_type(code: u8) -> Option<PathType> {
    [PathType::Exact, PathType::Prefix, PathType::ImplementationSpecific].into_iter().find(|t| t.rank() == code)
}

fn malformed(why: impl ToString) -> TableFileError {
    TableFileError::Malformed(why.to_string())
}

impl Table {
    /// The table as a table file (the module's layout).
    pub(crate) fn to_file(&self) -> Vec<u8> {
        let o = &self.options;
        // The configured default is written in the options and re-added on load, not twice.
        let defaults = self.defaults.iter().filter(|d| d.ingress.is_some());
        let wire = Wire {
            options: WireOptions {
                ingress_class: o.ingress_class.clone(),
                implementation_specific: o.implementation_specific,
                normalize_path: o.normalize_path,
                merge_slashes: o.merge_slashes,
                escaped_slashes: o.escaped_slashes,
                default_backend: o.default_backend.as_ref().map(WireBackend::from),
            },
            ingresses: self
                .ingresses
                .iter()
                .map(|i| {
                    let (participation, class) = participation_code(&i.participation);
                    WireIngress {
                        namespace: i.namespace.clone(),
                        name: i.name.clone(),
                        creation_timestamp: i.creation_timestamp.clone(),
                        participation,
                        class,
                    }
                })
                .collect(),
            excluded: self
                .excluded
                .iter()
                .map(|e| WireExcluded {
                    namespace: e.namespace.clone(),
                    name: e.name.clone(),
                    reason: e.reason.clone(),
                    invalid: e.cause == Exclusion::Invalid,
                })
                .collect(),
            routes: self
                .routes
                .iter()
                .map(|r| WireRoute {
                    path: r.path.clone(),
                    rule_index: r.rule_index,
                    path_index: r.path_index,
                    path_type: r.path_type.rank(),
                    backend: (&r.backend).into(),
                    ingress: r.ingress as u32,
                })
                .collect(),
            hosts: self
                .hosts
                .iter()
                .map(|h| WireHost {
                    host: h.host.clone(),
                    routes: h.routes.iter().map(|&r| r as u32).collect(),
                    ingresses: h.ingresses.iter().map(|&i| i as u32).collect(),
                })
                .collect(),
            defaults: defaults
                .map(|d| WireDefault { ingress: d.ingress.map(|i| i as u32), backend: (&d.backend).into() })
                .collect(),
        };
        let payload = postcard::to_allocvec(&wire).expect("postcard writes every Wire to memory");
        let writer = env!("CARGO_PKG_VERSION").as_bytes();
        let mut out = Vec::with_capacity(payload.len() + 64);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT.to_le_bytes());
        out.push(writer.len() as u8);
        out.extend_from_slice(writer);
        out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        out.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }

    /// Loads a table file, its hashes keyed by `seed`.
    pub(crate) fn from_file(bytes: &[u8], seed: u64) -> Result<Table, TableFileError> {
        let payload = payload(bytes)?;
        let wire: Wire = postcard::from_bytes(payload).map_err(|e| malformed(alloc::format!("payload: {e}")))?;
        let WireOptions {
            ingress_class,
            implementation_specific,
            normalize_path,
            merge_slashes,
            escaped_slashes,
            default_backend,
        } = wire.options;
        let options = CompileOptions {
            ingress_class,
            implementation_specific,
            normalize_path,
            merge_slashes,
            escaped_slashes,
            default_backend: default_backend.map(IngressBackend::from),
            ..CompileOptions::default()
        };
        let mut table = Table::seeded(options, seed);
        let ingresses = wire.ingresses.len();
        let in_range = |what: &str, i: u32, len: usize| {
            if (i as usize) < len { Ok(i as usize) } else { Err(malformed(alloc::format!("{what} {i} of {len}"))) }
        };
        for i in wire.ingresses {
            table.ingresses.push(IngressInfo {
                namespace: i.namespace,
                name: i.name,
                creation_timestamp: i.creation_timestamp,
                participation: participation(i.participation, i.class)?,
            });
        }
        table.excluded = wire
            .excluded
            .into_iter()
            .map(|e| ExcludedIngress {
                namespace: e.namespace,
                name: e.name,
                reason: e.reason,
                cause: if e.invalid { Exclusion::Invalid } else { Exclusion::NotServed },
                errors: Vec::new(),
            })
            .collect();
        // Each route belongs to exactly one host table, which gives it its host.
        let mut host_of: Vec<Option<usize>> = vec![None; wire.routes.len()];
        for (h, host) in wire.hosts.iter().enumerate() {
            for &r in &host.routes {
                let r = in_range("route", r, host_of.len())?;
                if host_of[r].replace(h).is_some() {
                    return Err(malformed(alloc::format!("route {r} is in two host tables")));
                }
            }
        }
        let mode = table.options.implementation_specific;
        table.routes.reserve_exact(wire.routes.len());
        for (r, route) in wire.routes.into_iter().enumerate() {
            let host = host_of[r].ok_or_else(|| malformed(alloc::format!("route {r} is in no host table")))?;
            let path_type = path_type(route.path_type)
                .ok_or_else(|| malformed(alloc::format!("route {r}: pathType {}", route.path_type)))?;
            table.routes.push(Route {
                host: wire.hosts[host].host.clone(),
                path: route.path,
                rule_index: route.rule_index,
                path_index: route.path_index,
                path_type,
                match_kind: MatchKind::of(path_type, mode),
                backend: route.backend.into(),
                ingress: in_range("ingress", route.ingress, ingresses)?,
                standing: Standing::Active,
            });
        }
        let mut any_host = false;
        for host in wire.hosts {
            let tier = match RuleHost::parse(&host.host) {
                RuleHost::Any if any_host => return Err(malformed("two host-less tables")),
                RuleHost::Any => {
                    any_host = true;
                    Tier::Any
                }
                RuleHost::Exact(_) => Tier::Exact,
                RuleHost::Wildcard(_) => Tier::Wildcard,
            };
            let mut table_of_host = HostTable::new(host.host, tier);
            table_of_host.routes = host.routes.into_iter().map(|r| r as usize).collect();
            let mut last = None;
            for i in host.ingresses {
                let i = in_range("ingress", i, ingresses)?;
                if last.is_some_and(|last| last >= i) {
                    return Err(malformed(alloc::format!("host {:?}: Ingresses not oldest first", table_of_host.host)));
                }
                last = Some(i);
                table_of_host.ingresses.push(i);
            }
            table.hosts.push(table_of_host);
        }
        // A host named twice would leave one of its tables out of the host index.
        table.hosts.sort_by(|a, b| a.tier.cmp(&b.tier).then_with(|| a.host.cmp(&b.host)));
        if let Some(w) = table.hosts.windows(2).find(|w| w[0].tier == w[1].tier && w[0].host == w[1].host) {
            return Err(malformed(alloc::format!("host {:?} has two tables", w[0].host)));
        }
        for d in wire.defaults {
            let ingress = d.ingress.map(|i| in_range("ingress", i, ingresses)).transpose()?;
            let Some(ingress) = ingress else { return Err(malformed("a default backend of no Ingress")) };
            table.defaults.push(DefaultBackend { ingress: Some(ingress), backend: d.backend.into() });
        }
        if table.defaults.windows(2).any(|w| w[0].ingress > w[1].ingress) {
            return Err(malformed("default backends not oldest first"));
        }
        if let Some(backend) =
            table.options.default_backend.as_ref().filter(|b| b.service.is_some() || b.resource.is_some())
        {
            table.defaults.push(DefaultBackend { ingress: None, backend: backend.clone() });
        }
        table.index();
        Ok(table)
    }
}

/// The payload of a table file, its header checked.
fn payload(bytes: &[u8]) -> Result<&[u8], TableFileError> {
    let rest = bytes.strip_prefix(MAGIC.as_slice()).ok_or(TableFileError::NotATable)?;
    let (format, rest) = take_u32(rest)?;
    let (&writer_len, rest) = rest.split_first().ok_or(TableFileError::Truncated)?;
    let (writer, rest) = rest.split_at_checked(writer_len.into()).ok_or(TableFileError::Truncated)?;
    if format != FORMAT {
        let writer = String::from_utf8_lossy(writer).into_owned();
        return Err(TableFileError::Version { found: format, writer });
    }
    let (len, rest) = take_u32(rest)?;
    let (crc, rest) = take_u32(rest)?;
    let payload = rest.get(..len as usize).ok_or(TableFileError::Truncated)?;
    if rest.len() > payload.len() {
        return Err(malformed(alloc::format!("{} bytes after the payload", rest.len() - payload.len())));
    }
    if crc32fast::hash(payload) != crc {
        return Err(TableFileError::Checksum);
    }
    Ok(payload)
}

fn take_u32(bytes: &[u8]) -> Result<(u32, &[u8]), TableFileError> {
    let (head, rest) = bytes.split_first_chunk::<4>().ok_or(TableFileError::Truncated)?;
    Ok((u32::from_le_bytes(*head), rest))
}
