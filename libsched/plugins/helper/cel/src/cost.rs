//! A runtime bound on an expression's work, standing in for upstream's cost
//! limit (resourceapi.CELSelectorExpressionMaxCost, 1,000,000): the `cel`
//! crate tracks no cost, so the parsed expression is rewritten to charge a
//! per-evaluation budget where work can grow beyond the expression's size:
//!
//! - each comprehension (`all`, `exists`, `map`, `filter`, `exists_one`,
//!   `cel.bind`) charges, before it iterates, its range's size times the
//!   size of its loop body, in AST nodes (upstream charges about one unit
//!   per node evaluated);
//! - each `+` and `lists.range` charges the size of its result (string
//!   bytes, list elements), so that repeated concatenation cannot build huge
//!   values;
//! - each other call charges, before it runs, the sizes of its receiver and
//!   of its arguments that are not literals (upstream charges functions on
//!   strings and lists by their size), and `distinct`, quadratic, the
//!   square of its receiver's;
//! - `replace` charges the size of its result before building it (one call
//!   can multiply a string's length by its replacement's).
//!
//! Over budget, evaluation stops with upstream's "operation cancelled:
//! actual cost limit exceeded".

use cel::common::ast::{CallExpr, EntryExpr, Expr, IdedExpr, LiteralValue};
use cel::common::types::{self, CelBytes, CelInt, CelString};
use cel::common::value::CowVal;
use cel::{DeclarationError, Env, ExecutionError};
use std::cell::Cell;

/// resourceapi.CELSelectorExpressionMaxCost.
pub const MAX_COST: u64 = 1_000_000;

pub const COST_EXCEEDED: &str = "operation cancelled: actual cost limit exceeded";

// Names CEL source cannot spell ('@' is not an identifier character).
const CHARGE_RANGE: &str = "@charge_range";
const CHARGE_SIZE: &str = "@charge_size";
const CHARGE_SQUARE: &str = "@charge_square";
const REPLACE: &str = "@replace";

/// The namespaces of the environment's functions.
const NAMESPACES: &[&str] = &[
    "cel", "format", "ip", "lists", "optional", "sets", "strings",
];

/// Calls charged by their result's size, after they return.
const CHARGED_RESULT: &[&str] = &["_+_", "lists.range"];

/// Calls not charged by their operands: the logical operators, which must
/// keep short-circuiting, and the rewrite's own.
const UNCHARGED: &[&str] = &["_&&_", "_||_", "_?_:_", "@not_strictly_false", "!_"];

thread_local! {
    static SPENT: Cell<u64> = const { Cell::new(0) };
}

/// Starts a new evaluation on this thread with the whole budget.
pub fn reset() {
    SPENT.with(|s| s.set(0));
}

/// Whether the last error came from the budget, not from the expression.
pub fn exceeded() -> bool {
    SPENT.with(|s| s.get()) > MAX_COST
}

pub fn charge(units: u64) -> Result<(), ExecutionError> {
    SPENT.with(|s| {
        let spent = s.get().saturating_add(units);
        s.set(spent);
        if spent > MAX_COST {
            Err(ExecutionError::function_error("cost", COST_EXCEEDED))
        } else {
            Ok(())
        }
    })
}

fn size_of(value: &CowVal<'_, '_>) -> u64 {
    if let Some(s) = value.downcast_ref::<CelString>() {
        return s.inner().len() as u64;
    }
    if let Some(b) = value.downcast_ref::<CelBytes>() {
        return b.inner().len() as u64;
    }
    value
        .as_sizer()
        .map_or(1, |s| (*s.size().inner()).max(0) as u64)
}

// @charge_range(weight, range): charges size(range) * weight, returns range.
fn charge_range<'b, 'v>(mut args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError> {
    let range = args
        .pop()
        .ok_or_else(ExecutionError::missing_argument_or_target)?;
    let weight = args
        .pop()
        .and_then(|w| w.downcast_ref::<CelInt>().map(|w| *w.inner()))
        .unwrap_or(1)
        .max(1) as u64;
    charge(size_of(&range).max(1).saturating_mul(weight))?;
    Ok(range)
}

// @charge_size(value): charges the value's size, returns it.
fn charge_size<'b, 'v>(mut args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError> {
    let value = args
        .pop()
        .ok_or_else(ExecutionError::missing_argument_or_target)?;
    charge(size_of(&value))?;
    Ok(value)
}

// @charge_square(value): charges the square of the value's size, returns it.
fn charge_square<'b, 'v>(mut args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError> {
    let value = args
        .pop()
        .ok_or_else(ExecutionError::missing_argument_or_target)?;
    let size = size_of(&value);
    charge(size.saturating_mul(size))?;
    Ok(value)
}

// s.@replace(old, new[, n]): the strings extension's replace (Go's
// strings.Replace: all matches when n < 0, an empty `old` matching at each
// code point boundary), charging the result's length first.
fn replace(
    this: &CelString<'_>,
    old: &CelString<'_>,
    new: &CelString<'_>,
) -> Result<CelString<'static>, ExecutionError> {
    replace_n(this, old, new, &CelInt::from(-1))
}

fn replace_n(
    this: &CelString<'_>,
    old: &CelString<'_>,
    new: &CelString<'_>,
    n: &CelInt,
) -> Result<CelString<'static>, ExecutionError> {
    let (s, old, new) = (this.inner(), old.inner(), new.inner());
    let limit = usize::try_from(*n.inner()).unwrap_or(usize::MAX);
    let count = s.matches(old).take(limit).count() as u64;
    let length = (s.len() as u64 - count * old.len() as u64)
        .saturating_add(count.saturating_mul(new.len() as u64));
    charge(length)?;
    Ok(if limit == usize::MAX {
        s.replace(old, new)
    } else {
        s.replacen(old, new, limit)
    }
    .into())
}

/// Registers the charging functions the rewrite calls.
pub fn extension(env: &mut Env) -> Result<(), DeclarationError> {
    env.add_overload(
        CHARGE_RANGE,
        "@charge_range(int,dyn)",
        vec![types::INT_TYPE, types::DYN_TYPE],
        charge_range,
    )?;
    env.add_overload(
        CHARGE_SIZE,
        "@charge_size(dyn)",
        vec![types::DYN_TYPE],
        charge_size,
    )?;
    env.add_overload(
        CHARGE_SQUARE,
        "@charge_square(dyn)",
        vec![types::DYN_TYPE],
        charge_square,
    )?;
    cel::add_member_overload!(env, fn replace: (CelString, CelString, CelString) -> Result<CelString>,
        name = REPLACE)?;
    cel::add_member_overload!(env, fn replace_n: (CelString, CelString, CelString, CelInt) -> Result<CelString>,
        name = REPLACE)
}

/// The number of nodes in `e`.
fn nodes(e: &IdedExpr) -> u64 {
    let mut n = 1;
    for child in children(e) {
        n += nodes(child);
    }
    n
}

pub fn children(e: &IdedExpr) -> Vec<&IdedExpr> {
    match &e.expr {
        Expr::Call(c) => c
            .target
            .iter()
            .map(|t| t.as_ref())
            .chain(c.args.iter())
            .collect(),
        Expr::Comprehension(c) => {
            vec![
                &c.iter_range,
                &c.accu_init,
                &c.loop_cond,
                &c.loop_step,
                &c.result,
            ]
        }
        Expr::List(l) => l.elements.iter().collect(),
        Expr::Map(m) => m
            .entries
            .iter()
            .flat_map(|e| entry_children(&e.expr))
            .collect(),
        Expr::Struct(s) => s
            .entries
            .iter()
            .flat_map(|e| entry_children(&e.expr))
            .collect(),
        Expr::Select(s) => vec![s.operand.as_ref()],
        Expr::Ident(_) | Expr::Literal(_) | Expr::Unspecified => vec![],
    }
}

fn entry_children(e: &EntryExpr) -> Vec<&IdedExpr> {
    match e {
        EntryExpr::StructField(f) => vec![&f.value],
        EntryExpr::MapEntry(m) => vec![&m.key, &m.value],
    }
}

/// The identifiers `e` reads that no comprehension around them binds: the
/// variables it needs from the environment (upstream's type check rejects
/// any but `device`).
pub fn free_variables(e: &IdedExpr) -> Vec<String> {
    fn walk(e: &IdedExpr, bound: &mut Vec<String>, out: &mut Vec<String>) {
        match &e.expr {
            Expr::Ident(name) if !bound.contains(name) => out.push(name.clone()),
            Expr::Comprehension(c) => {
                walk(&c.iter_range, bound, out);
                walk(&c.accu_init, bound, out);
                let depth = bound.len();
                bound.push(c.iter_var.clone());
                bound.extend(c.iter_var2.iter().cloned());
                bound.push(c.accu_var.clone());
                for inner in [&c.loop_cond, &c.loop_step, &c.result] {
                    walk(inner, bound, out);
                }
                bound.truncate(depth);
            }
            _ => children(e)
                .into_iter()
                .for_each(|child| walk(child, bound, out)),
        }
    }
    let mut out = Vec::new();
    walk(e, &mut Vec::new(), &mut out);
    out
}

fn call(id: u64, name: &str, args: Vec<IdedExpr>) -> IdedExpr {
    IdedExpr {
        id,
        expr: Expr::Call(CallExpr {
            func_name: name.to_owned(),
            target: None,
            args,
        }),
    }
}

/// Rewrites `e` in place to charge the budget (see the module comment).
pub fn instrument(e: &mut IdedExpr) {
    match &mut e.expr {
        Expr::Call(c) => {
            if let Some(t) = c.target.as_mut() {
                instrument(t);
            }
            c.args.iter_mut().for_each(instrument);
            if c.func_name == "replace" && c.target.is_some() {
                c.func_name = REPLACE.to_owned();
            }
            if !CHARGED_RESULT.contains(&c.func_name.as_str())
                && !UNCHARGED.contains(&c.func_name.as_str())
            {
                let square = c.func_name == "distinct";
                if let Some(t) = c.target.as_mut().filter(|t| !is_namespace(t)) {
                    charge_operand(t, if square { CHARGE_SQUARE } else { CHARGE_SIZE });
                }
                c.args
                    .iter_mut()
                    .for_each(|a| charge_operand(a, CHARGE_SIZE));
            }
        }
        Expr::Comprehension(c) => {
            for child in [
                &mut c.iter_range,
                &mut c.accu_init,
                &mut c.loop_cond,
                &mut c.loop_step,
                &mut c.result,
            ] {
                instrument(child);
            }
            let weight = nodes(&c.loop_cond) + nodes(&c.loop_step);
            let range = std::mem::take(&mut c.iter_range);
            let id = range.id;
            let weight = IdedExpr {
                id,
                expr: Expr::Literal(LiteralValue::Int(CelInt::from(weight as i64))),
            };
            c.iter_range = call(id, CHARGE_RANGE, vec![weight, range]);
        }
        Expr::List(l) => l.elements.iter_mut().for_each(instrument),
        Expr::Map(m) => m
            .entries
            .iter_mut()
            .for_each(|e| instrument_entry(&mut e.expr)),
        Expr::Struct(s) => s
            .entries
            .iter_mut()
            .for_each(|e| instrument_entry(&mut e.expr)),
        Expr::Select(s) => instrument(&mut s.operand),
        Expr::Ident(_) | Expr::Literal(_) | Expr::Unspecified => {}
    }
    if matches!(&e.expr, Expr::Call(c) if CHARGED_RESULT.contains(&c.func_name.as_str())) {
        let id = e.id;
        let sum = std::mem::take(e);
        *e = call(id, CHARGE_SIZE, vec![sum]);
    }
}

/// Whether a call's receiver names a namespace of functions (`sets.contains`
/// parses as a call of `contains` on `sets`), not a value.
fn is_namespace(target: &IdedExpr) -> bool {
    matches!(&target.expr, Expr::Ident(name) if NAMESPACES.contains(&name.as_str()))
}

/// Wraps a call's operand in `charging(operand)`, unless it is a literal
/// (whose size the expression's length bounds).
fn charge_operand(operand: &mut IdedExpr, charging: &str) {
    if matches!(operand.expr, Expr::Literal(_)) {
        return;
    }
    let id = operand.id;
    let inner = std::mem::take(operand);
    *operand = call(id, charging, vec![inner]);
}

fn instrument_entry(e: &mut EntryExpr) {
    match e {
        EntryExpr::StructField(f) => instrument(&mut f.value),
        EntryExpr::MapEntry(m) => {
            instrument(&mut m.key);
            instrument(&mut m.value);
        }
    }
}
