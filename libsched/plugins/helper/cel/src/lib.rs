//! libsched's CEL evaluator for DRA device selectors: the `cel` crate in
//! the DRA environment of k8s.io/dynamic-resource-allocation/cel (compile.go),
//! behind the C ABI that libsched/plugins/helper/device_selector_cel.cc
//! calls. Errors are handed to a callback, so no string crosses the ABI as
//! an allocation; a panic is caught and reported, never unwound into C++.
//! Names start with `libsched_cel_`, which libsched.so's version script does
//! not export.

mod comprehensions;
mod cost;
mod device;
mod env;
mod format;
mod ip;
mod lists;
mod quantity;
mod regex;
mod semver;
mod typecheck;
mod url;

use cel::common::ast::IdedExpr;
use cel::{Context, ExecutionError, Value};
use device::Attribute;
use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// resourceapi.CELSelectorExpressionMaxLength: longer selectors fail API
/// validation upstream, so none reaches the allocator.
const MAX_LENGTH: usize = 10 * 1024;

/// The identifiers an expression may read: the `device` variable, the type
/// names, and the namespaces of functions (`optional.of`, `format.named`...).
const DECLARED: &[&str] = &[
    "device",
    "bool",
    "bytes",
    "double",
    "int",
    "list",
    "map",
    "null_type",
    "string",
    "type",
    "uint",
    "optional",
    "strings",
    "sets",
    "lists",
    "ip",
    "format",
];

/// A compiled selector: the parsed expression, instrumented by cost.rs.
pub struct Selector {
    expr: IdedExpr,
}

fn compile(source: &str) -> Result<Selector, String> {
    if source.len() > MAX_LENGTH {
        return Err(format!(
            "expression is {} bytes long, more than the limit of {MAX_LENGTH} (CELSelectorExpressionMaxLength)",
            source.len()
        ));
    }
    let env = env::env();
    let (mut expr, info) = env
        .parser()
        .parse_with_source_info(source)
        .map_err(|e| format!("compilation failed: {e}"))?;
    if let Some(name) = cost::free_variables(&expr)
        .into_iter()
        .find(|v| !DECLARED.contains(&v.as_str()))
    {
        return Err(format!(
            "compilation failed: ERROR: <input>: undeclared reference to '{name}'"
        ));
    }
    typecheck::check(&expr, info)?;
    cost::instrument(&mut expr);
    Ok(Selector { expr })
}

fn runtime_error(error: ExecutionError) -> String {
    if cost::exceeded() {
        return cost::COST_EXCEEDED.to_owned();
    }
    match error {
        ExecutionError::NoSuchKey(key) => format!("no such key: {key}"),
        ExecutionError::UndeclaredReference(name) => format!("undeclared reference to '{name}'"),
        other => other.to_string(),
    }
}

fn matches<'a>(
    selector: &Selector,
    driver: &str,
    allow_multiple_allocations: bool,
    attributes: impl Iterator<Item = (&'a str, Attribute<'a>)>,
    capacity: impl Iterator<Item = (&'a str, &'a str)>,
) -> Result<bool, String> {
    let device = device::device_value(driver, allow_multiple_allocations, attributes, capacity)?;
    let mut context = Context::with_env(env::env());
    context.add_variable_as_val("device", Box::new(device));
    cost::reset();
    match Value::resolve(&selector.expr, &context).map_err(runtime_error)? {
        Value::Bool(b) => Ok(b),
        other => Err(format!(
            "CEL result of type {} could not be converted to bool",
            other.type_of()
        )),
    }
}

// ---- The C ABI (device_selector_cel.cc declares the same). ----

/// Receives an error message (UTF-8, not NUL-terminated) for the caller.
pub type ErrorSink = extern "C" fn(context: *mut c_void, message: *const u8, length: usize);

#[repr(C)]
pub struct CelAttribute {
    pub name: *const u8,
    pub name_length: usize,
    /// 0 int, 1 bool, 2 string, 3 version (DeviceAttributeValue::Kind).
    pub kind: i32,
    pub int_value: i64,
    pub bool_value: i32,
    pub text: *const u8,
    pub text_length: usize,
}

#[repr(C)]
pub struct CelCapacity {
    pub name: *const u8,
    pub name_length: usize,
    pub value: *const u8,
    pub value_length: usize,
}

#[repr(C)]
pub struct CelDevice {
    pub driver: *const u8,
    pub driver_length: usize,
    pub allow_multiple_allocations: i32,
    pub attributes: *const CelAttribute,
    pub attributes_length: usize,
    pub capacity: *const CelCapacity,
    pub capacity_length: usize,
}

/// # Safety
/// `data` points to `length` bytes (or `length` is 0) that stay valid for 'a.
unsafe fn text<'a>(data: *const u8, length: usize) -> Result<&'a str, String> {
    if length == 0 {
        return Ok("");
    }
    std::str::from_utf8(std::slice::from_raw_parts(data, length))
        .map_err(|_| "text is not UTF-8".to_owned())
}

/// # Safety
/// `data` points to `length` elements (or `length` is 0).
unsafe fn slice<'a, T>(data: *const T, length: usize) -> &'a [T] {
    if length == 0 {
        &[]
    } else {
        std::slice::from_raw_parts(data, length)
    }
}

fn report(sink: ErrorSink, context: *mut c_void, message: &str) {
    sink(context, message.as_ptr(), message.len());
}

fn guarded<T>(f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f))
        .unwrap_or_else(|_| Err("internal error in the CEL evaluator (a panic, caught)".to_owned()))
}

/// Compiles `expression`: a selector to free with libsched_cel_free, or
/// NULL after reporting the error to `sink`.
///
/// # Safety
/// `expression` points to `length` bytes; `sink` is callable with `context`.
#[no_mangle]
pub unsafe extern "C" fn libsched_cel_compile(
    expression: *const u8,
    length: usize,
    sink: ErrorSink,
    context: *mut c_void,
) -> *mut Selector {
    match guarded(|| compile(text(expression, length)?)) {
        Ok(selector) => Box::into_raw(Box::new(selector)),
        Err(message) => {
            report(sink, context, &message);
            std::ptr::null_mut()
        }
    }
}

/// Evaluates `selector` for `device`: 1 (match), 0 (no match), or -1 after
/// reporting the error to `sink`. Safe to call from several threads at once.
///
/// # Safety
/// `selector` comes from libsched_cel_compile and is not freed; `device`
/// and every array and text it points to are valid for the call.
#[no_mangle]
pub unsafe extern "C" fn libsched_cel_matches(
    selector: *const Selector,
    device: *const CelDevice,
    sink: ErrorSink,
    context: *mut c_void,
) -> i32 {
    let result = guarded(|| {
        let d = &*device;
        let mut attributes = Vec::with_capacity(d.attributes_length);
        for a in slice(d.attributes, d.attributes_length) {
            let value = match a.kind {
                0 => Attribute::Int(a.int_value),
                1 => Attribute::Bool(a.bool_value != 0),
                2 => Attribute::String(text(a.text, a.text_length)?),
                3 => Attribute::Version(text(a.text, a.text_length)?),
                _ => return Err("unsupported attribute value".to_owned()),
            };
            attributes.push((text(a.name, a.name_length)?, value));
        }
        let mut capacity = Vec::with_capacity(d.capacity_length);
        for c in slice(d.capacity, d.capacity_length) {
            capacity.push((text(c.name, c.name_length)?, text(c.value, c.value_length)?));
        }
        matches(
            &*selector,
            text(d.driver, d.driver_length)?,
            d.allow_multiple_allocations != 0,
            attributes.into_iter(),
            capacity.into_iter(),
        )
    });
    match result {
        Ok(true) => 1,
        Ok(false) => 0,
        Err(message) => {
            report(sink, context, &message);
            -1
        }
    }
}

/// Hands over libsched's quantity parser (see quantity.rs); call before
/// the first compile. Later calls are no-ops.
#[no_mangle]
pub extern "C" fn libsched_cel_set_quantity_parser(parser: quantity::QuantityParser) {
    quantity::set_parser(parser);
}

/// Frees a selector from libsched_cel_compile; NULL is a no-op.
///
/// # Safety
/// `selector` is NULL or from libsched_cel_compile, freed once.
#[no_mangle]
pub unsafe extern "C" fn libsched_cel_free(selector: *mut Selector) {
    if !selector.is_null() {
        drop(Box::from_raw(selector));
    }
}
