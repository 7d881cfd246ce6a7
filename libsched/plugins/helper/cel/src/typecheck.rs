//! The part of upstream's compile-time type check (cel-go's checker, run by
//! compile.go's env.Compile) that needs no type of the device's attribute
//! values, which the DRA environment declares as unknown: the types of
//! literals, of `device.driver` (string) and `device.allowMultipleAllocations`
//! (bool), of the operators and conversions whose result type is fixed, and
//! of arithmetic on operands of known types. With these:
//!
//! - an arithmetic operator on two known types it has no overload for
//!   (`device.driver + 1`) fails with cel-go's `found no matching overload
//!   for '_+_' applied to '(string, int)'`, at the operator's position;
//! - an expression whose type is known and not bool fails with compile.go's
//!   `must evaluate to bool or the unknown type, not string`.
//!
//! Anything whose type depends on an attribute, a function's declared
//! result or a comprehension is unknown here and left to evaluation, so
//! this check rejects only what upstream rejects.

use cel::common::ast::{Expr, IdedExpr, LiteralValue, SourceInfo};
use cel::ParseError;
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Ty {
    Bool,
    Int,
    Uint,
    Double,
    String,
    Bytes,
    Null,
    Unknown,
}

impl Ty {
    /// cel-go's name of the type.
    fn name(self) -> &'static str {
        match self {
            Ty::Bool => "bool",
            Ty::Int => "int",
            Ty::Uint => "uint",
            Ty::Double => "double",
            Ty::String => "string",
            Ty::Bytes => "bytes",
            Ty::Null => "null_type",
            Ty::Unknown => "dyn",
        }
    }
}

/// Functions and operators that return bool whatever their operands.
const BOOLEAN: &[&str] = &[
    "_&&_",
    "_||_",
    "!_",
    "_==_",
    "_!=_",
    "_<_",
    "_<=_",
    "_>_",
    "_>=_",
    "@in",
    "@not_strictly_false",
    "has",
    "matches",
    "startsWith",
    "endsWith",
    "isSorted",
    "isQuantity",
    "isSemver",
    "isIP",
    "isCIDR",
    "isURL",
    "isInteger",
    "isGreaterThan",
    "isLessThan",
];

/// Conversions and functions of a fixed result type.
const FIXED: &[(&str, Ty)] = &[
    ("size", Ty::Int),
    ("int", Ty::Int),
    ("uint", Ty::Uint),
    ("double", Ty::Double),
    ("string", Ty::String),
    ("bytes", Ty::Bytes),
];

/// The first error found: the node and the message.
type Found = Option<(u64, String)>;

/// The result type of `op` on `a` and `b`, both known; None when cel-go
/// declares no such overload.
fn arithmetic(op: &str, a: Ty, b: Ty) -> Option<Ty> {
    if a != b {
        return None;
    }
    let ok = match a {
        Ty::Int | Ty::Uint => true,
        Ty::Double => op != "_%_",
        Ty::String | Ty::Bytes => op == "_+_",
        _ => false,
    };
    ok.then_some(a)
}

/// `e`'s type; `shadowed` when a comprehension or `cel.bind` around `e`
/// names one of its variables `device`, which then is not the device.
fn infer(e: &IdedExpr, shadowed: bool, found: &mut Found) -> Ty {
    let sub = |e: &IdedExpr, found: &mut Found| infer(e, shadowed, found);
    match &e.expr {
        Expr::Literal(l) => match l {
            LiteralValue::Boolean(_) => Ty::Bool,
            LiteralValue::Bytes(_) => Ty::Bytes,
            LiteralValue::Double(_) => Ty::Double,
            LiteralValue::Int(_) => Ty::Int,
            LiteralValue::Null => Ty::Null,
            LiteralValue::String(_) => Ty::String,
            LiteralValue::UInt(_) => Ty::Uint,
        },
        Expr::Select(s) => {
            sub(&s.operand, found);
            if s.test {
                return Ty::Bool;
            }
            match (&s.operand.expr, s.field.as_str()) {
                (Expr::Ident(device), "driver") if device == "device" && !shadowed => Ty::String,
                (Expr::Ident(device), "allowMultipleAllocations")
                    if device == "device" && !shadowed =>
                {
                    Ty::Bool
                }
                _ => Ty::Unknown,
            }
        }
        Expr::Call(c) => {
            if let Some(t) = &c.target {
                sub(t, found);
            }
            let args: Vec<Ty> = c.args.iter().map(|a| sub(a, found)).collect();
            let name = c.func_name.as_str();
            if BOOLEAN.contains(&name) {
                return Ty::Bool;
            }
            if let Some((_, t)) = FIXED.iter().find(|(n, _)| *n == name) {
                return *t;
            }
            match (name, args.as_slice()) {
                ("_+_" | "_-_" | "_*_" | "_/_" | "_%_", [a, b])
                    if *a != Ty::Unknown && *b != Ty::Unknown && c.target.is_none() =>
                {
                    arithmetic(name, *a, *b).unwrap_or_else(|| {
                        found.get_or_insert((
                            e.id,
                            format!(
                                "found no matching overload for '{name}' applied to '({}, {})'",
                                a.name(),
                                b.name()
                            ),
                        ));
                        Ty::Unknown
                    })
                }
                ("-_", [t @ (Ty::Int | Ty::Double)]) => *t,
                ("_?_:_", [_, a, b]) if a == b => *a,
                _ => Ty::Unknown,
            }
        }
        Expr::Comprehension(c) => {
            sub(&c.iter_range, found);
            sub(&c.accu_init, found);
            let inner = shadowed
                || [Some(&c.iter_var), c.iter_var2.as_ref(), Some(&c.accu_var)]
                    .into_iter()
                    .flatten()
                    .any(|v| v == "device");
            for part in [&c.loop_cond, &c.loop_step, &c.result] {
                infer(part, inner, found);
            }
            Ty::Unknown
        }
        _ => {
            crate::cost::children(e).into_iter().for_each(|child| {
                sub(child, found);
            });
            Ty::Unknown
        }
    }
}

/// cel-go's position of node `id`: line and 1-based column.
fn position(info: &SourceInfo, id: u64) -> (isize, isize) {
    let Some((start, _)) = info.offset_for(id) else {
        return (1, 1);
    };
    let start = start as usize;
    let mut line_start = 0;
    for (line, text) in info.source.split_inclusive('\n').enumerate() {
        if start < line_start + text.len() {
            return (line as isize + 1, (start - line_start) as isize + 1);
        }
        line_start += text.len();
    }
    (1, 1)
}

/// Checks a parsed selector: an error message shaped as compile.go's, or
/// nothing.
pub fn check(expr: &IdedExpr, info: SourceInfo) -> Result<(), String> {
    let mut found = None;
    let ty = infer(expr, false, &mut found);
    if let Some((id, msg)) = found {
        let error = ParseError {
            source: None,
            pos: position(&info, id),
            msg,
            expr_id: id,
            source_info: Some(Arc::new(info)),
        };
        return Err(format!("compilation failed: {error}"));
    }
    if ty != Ty::Bool && ty != Ty::Unknown {
        return Err(format!(
            "must evaluate to bool or the unknown type, not {}",
            ty.name()
        ));
    }
    Ok(())
}
