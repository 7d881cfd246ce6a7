//! Kubernetes' CEL quantity library (k8s.io/apiserver/pkg/cel/library,
//! quantity.go): `quantity(string)`, `isQuantity(string)` and the members
//! `sign`, `isInteger`, `asInteger`, `asApproximateFloat`, `compareTo`,
//! `isGreaterThan`, `isLessThan`, `add` and `sub`.
//!
//! A quantity is held exactly as upstream's parser keeps it: nano-units
//! (its parser rounds up to 1n). The text is parsed by libsched's own
//! parser (libsched/model/quantity.h) through a function pointer the C++
//! side hands over (`libsched_cel_set_quantity_parser`), so that both agree
//! on every input and this archive needs no symbol of libsched's (a static
//! link orders them libsched first); no crate on crates.io parses
//! Kubernetes quantities exactly (docs/dra.md).

use cel::common::types::{CelBool, CelDouble, CelInt, CelString, Type};
use cel::common::value::{StaticVal, Val};
use cel::{DeclarationError, Env, ExecutionError};
use std::any::Any;
use std::cmp::Ordering;
use std::sync::OnceLock;

static QUANTITY_TYPE: Type = Type::new_unspecified_type("kubernetes.Quantity");

const NANOS_PER_UNIT: i128 = 1_000_000_000;

/// ParseQuantityNanos behind a C signature: 1 and the signed value in
/// nano-units as two halves, or 0 for text upstream rejects or a value
/// beyond 10^29 nano-units.
pub type QuantityParser =
    unsafe extern "C" fn(text: *const u8, len: usize, high: *mut i64, low: *mut u64) -> i32;

static PARSER: OnceLock<QuantityParser> = OnceLock::new();

/// Sets the parser; the first call wins (every caller passes the same one).
pub fn set_parser(parser: QuantityParser) {
    let _ = PARSER.set(parser);
}

/// A Kubernetes quantity in nano-units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Quantity(pub i128);

impl Quantity {
    /// Parses `text` as resource.ParseQuantity does.
    pub fn parse(text: &str) -> Option<Quantity> {
        let parser = PARSER.get()?;
        let (mut high, mut low) = (0i64, 0u64);
        // SAFETY: the pointer and length describe `text`, and the outputs
        // are two valid locals.
        let ok = unsafe { parser(text.as_ptr(), text.len(), &mut high, &mut low) };
        (ok == 1).then_some(Quantity(((high as i128) << 64) | low as i128))
    }

    fn as_int64(self) -> Option<i64> {
        if self.0 % NANOS_PER_UNIT != 0 {
            return None;
        }
        i64::try_from(self.0 / NANOS_PER_UNIT).ok()
    }
}

impl Val for Quantity {
    fn get_type(&self) -> &Type {
        &QUANTITY_TYPE
    }
    fn cel_type() -> &'static Type {
        &QUANTITY_TYPE
    }
    // Quantity.Equal: the same value, whatever its text.
    fn equals(&self, other: &dyn Val) -> bool {
        other.downcast_ref::<Quantity>().is_some_and(|o| o == self)
    }
    fn clone_as_boxed<'v>(&self) -> Box<dyn Val + 'v> {
        Box::new(*self)
    }
    fn as_any(&self) -> Option<&dyn Any> {
        Some(self)
    }
}
impl StaticVal for Quantity {}

fn error(function: &str, message: &str) -> ExecutionError {
    ExecutionError::function_error(function, message)
}

fn quantity(text: &CelString<'_>) -> Result<Quantity, ExecutionError> {
    Quantity::parse(text.inner()).ok_or_else(|| error("quantity", "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"))
}

fn is_quantity(text: &CelString<'_>) -> CelBool {
    Quantity::parse(text.inner()).is_some().into()
}

fn sign(this: &Quantity) -> CelInt {
    CelInt::from(this.0.signum() as i64)
}

fn is_integer(this: &Quantity) -> CelBool {
    this.as_int64().is_some().into()
}

fn as_integer(this: &Quantity) -> Result<CelInt, ExecutionError> {
    this.as_int64()
        .map(CelInt::from)
        .ok_or_else(|| error("asInteger", "cannot convert value to integer"))
}

fn as_approximate_float(this: &Quantity) -> CelDouble {
    CelDouble::from(this.0 as f64 / NANOS_PER_UNIT as f64)
}

fn compare_to(this: &Quantity, other: &Quantity) -> CelInt {
    CelInt::from(match this.cmp(other) {
        Ordering::Less => -1,
        Ordering::Equal => 0,
        Ordering::Greater => 1,
    })
}

fn is_greater_than(this: &Quantity, other: &Quantity) -> CelBool {
    (this > other).into()
}

fn is_less_than(this: &Quantity, other: &Quantity) -> CelBool {
    (this < other).into()
}

fn sum(function: &str, a: i128, b: Option<i128>) -> Result<Quantity, ExecutionError> {
    b.and_then(|b| a.checked_add(b))
        .map(Quantity)
        .ok_or_else(|| error(function, "quantity out of range"))
}

fn add(this: &Quantity, other: &Quantity) -> Result<Quantity, ExecutionError> {
    sum("add", this.0, Some(other.0))
}

fn add_int(this: &Quantity, other: &CelInt) -> Result<Quantity, ExecutionError> {
    sum(
        "add",
        this.0,
        (*other.inner() as i128).checked_mul(NANOS_PER_UNIT),
    )
}

fn sub(this: &Quantity, other: &Quantity) -> Result<Quantity, ExecutionError> {
    sum("sub", this.0, other.0.checked_neg())
}

fn sub_int(this: &Quantity, other: &CelInt) -> Result<Quantity, ExecutionError> {
    sum(
        "sub",
        this.0,
        (*other.inner() as i128).checked_mul(-NANOS_PER_UNIT),
    )
}

/// Registers the library on `env`.
pub fn extension(env: &mut Env) -> Result<(), DeclarationError> {
    cel::add_overload!(env, fn quantity: (CelString) -> Result<Quantity>)?;
    cel::add_overload!(env, fn is_quantity: (CelString) -> CelBool)?;
    cel::add_member_overload!(env, fn sign: (Quantity) -> CelInt)?;
    cel::add_member_overload!(env, fn is_integer: (Quantity) -> CelBool)?;
    cel::add_member_overload!(env, fn as_integer: (Quantity) -> Result<CelInt>)?;
    cel::add_member_overload!(env, fn as_approximate_float: (Quantity) -> CelDouble)?;
    cel::add_member_overload!(env, fn compare_to: (Quantity, Quantity) -> CelInt)?;
    cel::add_member_overload!(env, fn is_greater_than: (Quantity, Quantity) -> CelBool)?;
    cel::add_member_overload!(env, fn is_less_than: (Quantity, Quantity) -> CelBool)?;
    cel::add_member_overload!(env, fn add: (Quantity, Quantity) -> Result<Quantity>)?;
    cel::add_member_overload!(env, fn add_int: (Quantity, CelInt) -> Result<Quantity>, name = "add")?;
    cel::add_member_overload!(env, fn sub: (Quantity, Quantity) -> Result<Quantity>)?;
    cel::add_member_overload!(env, fn sub_int: (Quantity, CelInt) -> Result<Quantity>, name = "sub")?;
    Ok(())
}
