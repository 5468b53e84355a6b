//! The Gateway API's own calls (status, migration); routing goes through the one `Router`. In the
//! package's first module (built without the `engines` feature) there is no Gateway API: every
//! call that would need it fails with the `engine` kind, and the JavaScript layer runs it again in
//! the second module.

use ingress_router::input::Input;
use ingress_router::options::Missing;
use ingress_router::{CompileOptions, Engine};

use crate::error::Failure;

/// The failure of a call that needs `engine`, which this module lacks.
pub fn missing(engine: Engine) -> Failure {
    Failure::new("engine", format!("{}: {}", crate::engine::SOURCE, Missing(engine)))
}

/// `Err` (the `engine` kind) when `input` compiled with `options` needs an engine this module lacks.
pub fn check(input: &Input, options: &CompileOptions) -> Result<(), Failure> {
    Engine::missing(input, options).map_or(Ok(()), |engine| Err(missing(engine)))
}

#[cfg(feature = "engines")]
mod routes {
    use ingress_router::Profile;
    use ingress_router::migrate::MigrationReport;
    use ingress_router::status::{self, StatusOptions};

    use super::*;
    use crate::to_js;
    use wasm_bindgen::JsValue;

    /// The status the controllers write (`status --json`): the core's one status report.
    pub fn status(input: &Input, options: &StatusOptions) -> Result<JsValue, Failure> {
        to_js(&status::report(input, options))
    }

    /// `diff --to gateway-api`: the Ingresses of `input` against its Gateway API objects, with
    /// `tests` (the agreed answers as a tests file) and the number of `differences`.
    pub fn migrate(input: &Input, options: &CompileOptions, from: Profile) -> Result<JsValue, Failure> {
        let report = ingress_router::migrate(input, options, from);
        #[derive(serde::Serialize)]
        struct Migration<'a> {
            #[serde(flatten)]
            report: &'a MigrationReport,
            differences: usize,
            tests: String,
        }
        if let Some(why) = &report.no_gateway {
            return Err(Failure::new("options", why.clone()));
        }
        to_js(&Migration { report: &report, differences: report.differences(), tests: report.tests_file() })
    }

    /// `migrate --json`: the objects written (also as `yaml`), the report's notes, the proof with
    /// its number of `differences` and of differences no note explains (`unexplained`).
    pub fn convert(
        input: &Input,
        options: &CompileOptions,
        migrate_options: &ingress_router::migrate::MigrateOptions,
    ) -> Result<JsValue, Failure> {
        let conversion = ingress_router::migrate::convert(input, options, migrate_options);
        if let Some(why) = &conversion.proof.no_gateway {
            return Err(Failure::new("options", why.clone()));
        }
        #[derive(serde::Serialize)]
        struct Converted<'a> {
            #[serde(flatten)]
            conversion: &'a ingress_router::migrate::Conversion,
            yaml: String,
            differences: usize,
            unexplained: usize,
        }
        to_js(&Converted {
            conversion: &conversion,
            yaml: conversion.translation.yaml(),
            differences: conversion.proof.differences(),
            unexplained: conversion.unexplained().len(),
        })
    }
}

#[cfg(feature = "engines")]
pub use routes::*;
