//! Kubernetes' CEL semver library, version 1 (k8s.io/apiserver/pkg/cel/library,
//! semverlib.go): `semver(string)`, `semver(string, bool)`, `isSemver(string)`,
//! `isSemver(string, bool)` and the members `major`, `minor`, `patch`,
//! `compareTo`, `isGreaterThan` and `isLessThan`. Versions are parsed and
//! ordered by the `semver` crate (SemVer 2.0.0, as blang/semver upstream);
//! build metadata takes no part in the order, as upstream.

use cel::common::types::{CelBool, CelInt, CelString, Type};
use cel::common::value::{StaticVal, Val};
use cel::{DeclarationError, Env, ExecutionError};
use std::any::Any;
use std::cmp::Ordering;

static SEMVER_TYPE: Type = Type::new_unspecified_type("kubernetes.Semver");

/// A semantic version (a DRA version attribute, or `semver(...)`).
#[derive(Clone, Debug)]
pub struct Semver(pub semver::Version);

impl Semver {
    /// Parses `text` strictly, as semver.Parse does upstream.
    pub fn parse(text: &str) -> Result<Semver, String> {
        semver::Version::parse(text)
            .map(Semver)
            .map_err(|e| e.to_string())
    }

    /// normalizeAndParse: an optional leading "v", leading zeros dropped,
    /// a missing minor or patch taken as 0.
    fn parse_normalized(text: &str) -> Result<Semver, String> {
        let text = text.strip_prefix('v').unwrap_or(text);
        let mut parts: Vec<String> = text
            .splitn(3, '.')
            .map(|p| {
                if p.len() <= 1 {
                    return p.to_owned();
                }
                let trimmed = p.trim_start_matches('0');
                if trimmed.chars().next().is_some_and(|c| c.is_ascii_digit()) {
                    trimmed.to_owned()
                } else {
                    format!("0{trimmed}")
                }
            })
            .collect();
        if parts.len() < 3 {
            if parts.last().is_some_and(|p| p.contains(['+', '-'])) {
                return Err("short version cannot contain PreRelease/Build meta data".to_owned());
            }
            parts.resize(3, "0".to_owned());
        }
        Semver::parse(&parts.join("."))
    }

    fn order(&self, other: &Semver) -> Ordering {
        self.0.cmp_precedence(&other.0)
    }
}

impl Val for Semver {
    fn get_type(&self) -> &Type {
        &SEMVER_TYPE
    }
    fn cel_type() -> &'static Type {
        &SEMVER_TYPE
    }
    fn equals(&self, other: &dyn Val) -> bool {
        other
            .downcast_ref::<Semver>()
            .is_some_and(|o| self.order(o) == Ordering::Equal)
    }
    fn clone_as_boxed<'v>(&self) -> Box<dyn Val + 'v> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> Option<&dyn Any> {
        Some(self)
    }
}
impl StaticVal for Semver {}

fn parse(text: &str, normalize: bool) -> Result<Semver, String> {
    if normalize {
        Semver::parse_normalized(text)
    } else {
        Semver::parse(text)
    }
}

fn semver(text: &CelString<'_>) -> Result<Semver, ExecutionError> {
    semver_normalize(text, &CelBool::from(false))
}

fn semver_normalize(text: &CelString<'_>, normalize: &CelBool) -> Result<Semver, ExecutionError> {
    parse(text.inner(), *normalize.inner()).map_err(|e| ExecutionError::function_error("semver", e))
}

fn is_semver(text: &CelString<'_>) -> CelBool {
    is_semver_normalize(text, &CelBool::from(false))
}

fn is_semver_normalize(text: &CelString<'_>, normalize: &CelBool) -> CelBool {
    parse(text.inner(), *normalize.inner()).is_ok().into()
}

fn number(n: u64) -> Result<CelInt, ExecutionError> {
    i64::try_from(n)
        .map(CelInt::from)
        .map_err(|_| ExecutionError::function_error("semver", "version number out of range"))
}

fn major(this: &Semver) -> Result<CelInt, ExecutionError> {
    number(this.0.major)
}

fn minor(this: &Semver) -> Result<CelInt, ExecutionError> {
    number(this.0.minor)
}

fn patch(this: &Semver) -> Result<CelInt, ExecutionError> {
    number(this.0.patch)
}

fn compare_to(this: &Semver, other: &Semver) -> CelInt {
    CelInt::from(this.order(other) as i64)
}

fn is_greater_than(this: &Semver, other: &Semver) -> CelBool {
    (this.order(other) == Ordering::Greater).into()
}

fn is_less_than(this: &Semver, other: &Semver) -> CelBool {
    (this.order(other) == Ordering::Less).into()
}

/// Registers the library on `env`.
pub fn extension(env: &mut Env) -> Result<(), DeclarationError> {
    cel::add_overload!(env, fn semver: (CelString) -> Result<Semver>)?;
    cel::add_overload!(env, fn semver_normalize: (CelString, CelBool) -> Result<Semver>, name = "semver")?;
    cel::add_overload!(env, fn is_semver: (CelString) -> CelBool)?;
    cel::add_overload!(env, fn is_semver_normalize: (CelString, CelBool) -> CelBool, name = "isSemver")?;
    cel::add_member_overload!(env, fn major: (Semver) -> Result<CelInt>)?;
    cel::add_member_overload!(env, fn minor: (Semver) -> Result<CelInt>)?;
    cel::add_member_overload!(env, fn patch: (Semver) -> Result<CelInt>)?;
    cel::add_member_overload!(env, fn compare_to: (Semver, Semver) -> CelInt)?;
    cel::add_member_overload!(env, fn is_greater_than: (Semver, Semver) -> CelBool)?;
    cel::add_member_overload!(env, fn is_less_than: (Semver, Semver) -> CelBool)?;
    Ok(())
}
