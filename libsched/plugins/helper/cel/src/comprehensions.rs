//! cel-go's ext.TwoVarComprehensions (ext/comprehensions.go), which
//! Kubernetes' base environment has since 1.32: the two-variable `all`,
//! `exists`, `existsOne` (also spelled `exists_one`), `transformList`,
//! `transformMap` and `transformMapEntry`, over a list (index, value) or a
//! map (key, value).
//!
//! The crate's interpreter binds one iteration variable only, so each macro
//! expands as cel-go's does (same accumulator, condition, step and result)
//! with two changes: the comprehension iterates over `@entries(range)`, the
//! range's (index or key, value) pairs as two-element lists, under the
//! variable `@it`; and each expression of the caller (predicate, filter,
//! transform) is wrapped in two `cel.bind`s that name `@it[0]` and `@it[1]`
//! as the caller's variables. A map's pairs come in key order (the CEL
//! spec leaves the order unspecified; cel-go keeps a literal's order).

use crate::env::bind_expr;
use cel::common::ast::{operators, CallExpr, ComprehensionExpr, Expr, IdedExpr, ListExpr};
use cel::common::ast::{LiteralValue, MapExpr};
use cel::common::types::{self, CelInt, CelList, CelMap, CelMapKey, CelUInt};
use cel::common::value::{CowVal, Val};
use cel::parser::{Macro, MacroExprHelper, ParseError};
use cel::{DeclarationError, Env, ExecutionError};
use std::collections::HashMap;

const ENTRIES: &str = "@entries";
const MAP_INSERT: &str = "cel.@mapInsert";
const ITEM: &str = "@it";
const RESULT: &str = "@result";
/// cel-go's parser.AccumulatorName, which no iteration variable may take.
const LEGACY_RESULT: &str = "__result__";

type Args<'b, 'v> = Vec<CowVal<'b, 'v>>;
type Return<'b, 'v> = Result<CowVal<'b, 'v>, ExecutionError>;
type Expander = fn(
    &mut MacroExprHelper<'_>,
    &mut Option<IdedExpr>,
    &mut Vec<IdedExpr>,
) -> Result<Option<IdedExpr>, ParseError>;

/// Registers the macros and the functions their expansions call.
pub fn extension(env: &mut Env) -> Result<(), DeclarationError> {
    let macros: [(&str, usize, Expander); 10] = [
        ("all", 3, all),
        ("exists", 3, exists),
        ("existsOne", 3, exists_one),
        ("exists_one", 3, exists_one),
        ("transformList", 3, transform_list),
        ("transformList", 4, transform_list),
        ("transformMap", 3, transform_map),
        ("transformMap", 4, transform_map),
        ("transformMapEntry", 3, transform_map_entry),
        ("transformMapEntry", 4, transform_map_entry),
    ];
    for (name, arity, expander) in macros {
        env.add_macro(Macro::receiver(name, arity, expander))?;
    }
    env.add_overload(ENTRIES, "@entries(dyn)", vec![types::DYN_TYPE], entries)?;
    env.add_overload(
        MAP_INSERT,
        "@mapInsert_map_map",
        vec![types::MAP_TYPE, types::MAP_TYPE],
        map_insert,
    )?;
    env.add_overload(
        MAP_INSERT,
        "@mapInsert_map_key_value",
        vec![types::MAP_TYPE, types::DYN_TYPE, types::DYN_TYPE],
        map_insert,
    )
}

// ---- The macros. ----

/// The parts of a two-variable comprehension the macros differ in.
struct Parts {
    init: IdedExpr,
    condition: IdedExpr,
    step: IdedExpr,
    result: IdedExpr,
}

fn ident(h: &mut MacroExprHelper<'_>, name: &str) -> IdedExpr {
    h.next_expr(Expr::Ident(name.to_owned()))
}

fn call(h: &mut MacroExprHelper<'_>, name: &str, args: Vec<IdedExpr>) -> IdedExpr {
    h.next_expr(Expr::Call(CallExpr {
        func_name: name.to_owned(),
        target: None,
        args,
    }))
}

fn literal(h: &mut MacroExprHelper<'_>, value: LiteralValue) -> IdedExpr {
    h.next_expr(Expr::Literal(value))
}

fn int(h: &mut MacroExprHelper<'_>, i: i64) -> IdedExpr {
    literal(h, LiteralValue::Int(CelInt::from(i)))
}

fn boolean(h: &mut MacroExprHelper<'_>, b: bool) -> IdedExpr {
    literal(h, LiteralValue::Boolean(b.into()))
}

/// cel-go's extractIterVars: two distinct simple names, neither the
/// accumulator's.
fn iteration_variables(
    h: &mut MacroExprHelper<'_>,
    args: &[IdedExpr],
) -> Result<(String, String), ParseError> {
    let name = |h: &mut MacroExprHelper<'_>, e: &IdedExpr| match &e.expr {
        Expr::Ident(name) => Ok(name.clone()),
        _ => Err(h.new_error(e.id, "argument must be a simple name")),
    };
    let first = name(h, &args[0])?;
    let second = name(h, &args[1])?;
    if first == second {
        return Err(h.new_error(args[1].id, format!("duplicate variable name: {first}")));
    }
    for (name, arg) in [(&first, &args[0]), (&second, &args[1])] {
        if name == RESULT || name == LEGACY_RESULT {
            return Err(h.new_error(arg.id, "iteration variable overwrites accumulator variable"));
        }
    }
    Ok((first, second))
}

/// `e` with `first` and `second` bound to the current pair's two values.
fn with_variables(h: &mut MacroExprHelper<'_>, first: &str, second: &str, e: IdedExpr) -> IdedExpr {
    let pair_part = |h: &mut MacroExprHelper<'_>, i| {
        let item = ident(h, ITEM);
        let index = int(h, i);
        call(h, operators::INDEX, vec![item, index])
    };
    let value = pair_part(h, 1);
    let inner = bind_expr(h, second.to_owned(), value, e);
    let key = pair_part(h, 0);
    bind_expr(h, first.to_owned(), key, inner)
}

/// Builds the comprehension: `parts` gets the helper and the caller's
/// expressions after the two names, each already under the binds.
fn expand(
    h: &mut MacroExprHelper<'_>,
    target: &mut Option<IdedExpr>,
    args: &mut Vec<IdedExpr>,
    parts: impl FnOnce(&mut MacroExprHelper<'_>, Vec<IdedExpr>) -> Parts,
) -> Result<Option<IdedExpr>, ParseError> {
    let (first, second) = iteration_variables(h, args)?;
    let Some(range) = target.take() else {
        return Ok(None);
    };
    let rest: Vec<IdedExpr> = args
        .drain(2..)
        .map(|e| with_variables(h, &first, &second, e))
        .collect();
    let Parts {
        init,
        condition,
        step,
        result,
    } = parts(h, rest);
    let iter_range = call(h, ENTRIES, vec![range]);
    Ok(Some(h.next_expr(Expr::Comprehension(Box::new(
        ComprehensionExpr {
            iter_range,
            iter_var: ITEM.to_owned(),
            iter_var2: None,
            accu_var: RESULT.to_owned(),
            accu_init: init,
            loop_cond: condition,
            loop_step: step,
            result,
        },
    )))))
}

fn all(
    h: &mut MacroExprHelper<'_>,
    target: &mut Option<IdedExpr>,
    args: &mut Vec<IdedExpr>,
) -> Result<Option<IdedExpr>, ParseError> {
    expand(h, target, args, |h, mut rest| {
        let predicate = rest.pop().expect("three arguments");
        let accu = ident(h, RESULT);
        let condition = call(h, operators::NOT_STRICTLY_FALSE, vec![accu]);
        let accu = ident(h, RESULT);
        Parts {
            init: boolean(h, true),
            condition,
            step: call(h, operators::LOGICAL_AND, vec![accu, predicate]),
            result: ident(h, RESULT),
        }
    })
}

fn exists(
    h: &mut MacroExprHelper<'_>,
    target: &mut Option<IdedExpr>,
    args: &mut Vec<IdedExpr>,
) -> Result<Option<IdedExpr>, ParseError> {
    expand(h, target, args, |h, mut rest| {
        let predicate = rest.pop().expect("three arguments");
        let accu = ident(h, RESULT);
        let not = call(h, operators::LOGICAL_NOT, vec![accu]);
        let condition = call(h, operators::NOT_STRICTLY_FALSE, vec![not]);
        let accu = ident(h, RESULT);
        Parts {
            init: boolean(h, false),
            condition,
            step: call(h, operators::LOGICAL_OR, vec![accu, predicate]),
            result: ident(h, RESULT),
        }
    })
}

fn exists_one(
    h: &mut MacroExprHelper<'_>,
    target: &mut Option<IdedExpr>,
    args: &mut Vec<IdedExpr>,
) -> Result<Option<IdedExpr>, ParseError> {
    expand(h, target, args, |h, mut rest| {
        let predicate = rest.pop().expect("three arguments");
        let accu = ident(h, RESULT);
        let one = int(h, 1);
        let plus_one = call(h, operators::ADD, vec![accu, one]);
        let accu = ident(h, RESULT);
        let step = call(h, operators::CONDITIONAL, vec![predicate, plus_one, accu]);
        let accu = ident(h, RESULT);
        let one = int(h, 1);
        Parts {
            init: int(h, 0),
            condition: boolean(h, true),
            step,
            result: call(h, operators::EQUALS, vec![accu, one]),
        }
    })
}

/// The transforms' step: `insert` as is, or under the filter when there is
/// one (`filter ? insert : @result`).
fn filtered(h: &mut MacroExprHelper<'_>, filter: Option<IdedExpr>, insert: IdedExpr) -> IdedExpr {
    match filter {
        None => insert,
        Some(filter) => {
            let accu = ident(h, RESULT);
            call(h, operators::CONDITIONAL, vec![filter, insert, accu])
        }
    }
}

/// The transform and the optional filter before it.
fn transform_args(mut rest: Vec<IdedExpr>) -> (Option<IdedExpr>, IdedExpr) {
    let transform = rest.pop().expect("a transform");
    (rest.pop(), transform)
}

fn transform_list(
    h: &mut MacroExprHelper<'_>,
    target: &mut Option<IdedExpr>,
    args: &mut Vec<IdedExpr>,
) -> Result<Option<IdedExpr>, ParseError> {
    expand(h, target, args, |h, rest| {
        let (filter, transform) = transform_args(rest);
        let accu = ident(h, RESULT);
        let element = h.next_expr(Expr::List(ListExpr::new(vec![transform])));
        let insert = call(h, operators::ADD, vec![accu, element]);
        Parts {
            init: h.next_expr(Expr::List(ListExpr::new(vec![]))),
            condition: boolean(h, true),
            step: filtered(h, filter, insert),
            result: ident(h, RESULT),
        }
    })
}

fn transform_map(
    h: &mut MacroExprHelper<'_>,
    target: &mut Option<IdedExpr>,
    args: &mut Vec<IdedExpr>,
) -> Result<Option<IdedExpr>, ParseError> {
    expand(h, target, args, |h, rest| {
        let (filter, transform) = transform_args(rest);
        let accu = ident(h, RESULT);
        // The key: the pair's first value (cel-go's first variable).
        let item = ident(h, ITEM);
        let zero = int(h, 0);
        let key = call(h, operators::INDEX, vec![item, zero]);
        let insert = call(h, MAP_INSERT, vec![accu, key, transform]);
        Parts {
            init: empty_map(h),
            condition: boolean(h, true),
            step: filtered(h, filter, insert),
            result: ident(h, RESULT),
        }
    })
}

fn transform_map_entry(
    h: &mut MacroExprHelper<'_>,
    target: &mut Option<IdedExpr>,
    args: &mut Vec<IdedExpr>,
) -> Result<Option<IdedExpr>, ParseError> {
    expand(h, target, args, |h, rest| {
        let (filter, transform) = transform_args(rest);
        let accu = ident(h, RESULT);
        let insert = call(h, MAP_INSERT, vec![accu, transform]);
        Parts {
            init: empty_map(h),
            condition: boolean(h, true),
            step: filtered(h, filter, insert),
            result: ident(h, RESULT),
        }
    })
}

fn empty_map(h: &mut MacroExprHelper<'_>) -> IdedExpr {
    h.next_expr(Expr::Map(MapExpr {
        entries: Vec::new(),
    }))
}

// ---- The functions the expansions call. ----

fn pair<'v>(first: Box<dyn Val + 'v>, second: Box<dyn Val + 'v>) -> Box<dyn Val + 'v> {
    Box::new(CelList::from(vec![first, second]))
}

/// @entries(range): a list's [index, value] pairs, a map's [key, value].
fn entries<'b, 'v>(args: Args<'b, 'v>) -> Return<'b, 'v> {
    let [range] = args.as_slice() else {
        return Err(ExecutionError::invalid_argument_count(1, args.len()));
    };
    let range = range.as_ref();
    let not_iterable = || ExecutionError::UnexpectedType {
        got: range.get_type().name().to_owned(),
        want: "list or map".to_owned(),
    };
    let iterable = range.as_iterable().ok_or_else(not_iterable)?;
    let mut items = iterable.iter();
    let mut out: Vec<Box<dyn Val + 'v>> = Vec::new();
    if range.get_type().name() == types::LIST_TYPE.name() {
        let mut i = 0i64;
        while let Some(item) = items.next() {
            out.push(pair(Box::new(CelInt::from(i)), item.clone_as_boxed()));
            i += 1;
        }
    } else if range.get_type().name() == types::MAP_TYPE.name() {
        let map = range.as_indexer().ok_or_else(not_iterable)?;
        let mut keyed = Vec::new();
        while let Some(key) = items.next() {
            let value = map.get(key)?.into_owned();
            keyed.push((CelMapKey::try_from(key.clone_as_boxed())?, value));
        }
        // In key order: the crate's maps iterate in an order that differs
        // from one map to the next, and a selector must give one answer.
        keyed.sort_by(|a, b| a.0.cmp(&b.0));
        out.extend(
            keyed
                .into_iter()
                .map(|(k, v)| pair(k.inner().clone_as_boxed(), v)),
        );
    } else {
        return Err(not_iterable());
    }
    Ok(CowVal::owned(CelList::from(out)))
}

/// Whether `map` has `key` under CEL equality (an int and a uint of the
/// same value are the same key).
fn has_key(map: &HashMap<CelMapKey<'_>, Box<dyn Val + '_>>, key: &CelMapKey<'_>) -> bool {
    if map.contains_key(key) {
        return true;
    }
    match key {
        CelMapKey::Int(i) => u64::try_from(*i.inner())
            .is_ok_and(|u| map.contains_key(&CelMapKey::UInt(CelUInt::from(u)))),
        CelMapKey::UInt(u) => i64::try_from(*u.inner())
            .is_ok_and(|i| map.contains_key(&CelMapKey::Int(CelInt::from(i)))),
        _ => false,
    }
}

fn insert<'v>(
    map: &mut HashMap<CelMapKey<'v>, Box<dyn Val + 'v>>,
    key: CelMapKey<'v>,
    value: Box<dyn Val + 'v>,
) -> Result<(), ExecutionError> {
    if has_key(map, &key) {
        return Err(ExecutionError::function_error(
            MAP_INSERT,
            format!("insert failed: key {} already exists", display_key(&key)),
        ));
    }
    map.insert(key, value);
    Ok(())
}

/// A key as Go's %v prints cel-go's value: a string without quotes.
fn display_key(key: &CelMapKey<'_>) -> String {
    match key {
        CelMapKey::Bool(b) => b.inner().to_string(),
        CelMapKey::Int(i) => i.inner().to_string(),
        CelMapKey::UInt(u) => u.inner().to_string(),
        CelMapKey::String(s) => s.inner().to_string(),
    }
}

/// The entries of a map value, copied.
fn map_entries<'v>(
    map: &(dyn Val + 'v),
) -> Result<HashMap<CelMapKey<'v>, Box<dyn Val + 'v>>, ExecutionError> {
    let not_map =
        || ExecutionError::no_such_overload(MAP_INSERT, vec![map.get_type().name().to_owned()]);
    let indexer = map.as_indexer().ok_or_else(not_map)?;
    let mut keys = map.as_iterable().ok_or_else(not_map)?.iter();
    let mut out = HashMap::new();
    while let Some(key) = keys.next() {
        let value = indexer.get(key)?.into_owned();
        out.insert(CelMapKey::try_from(key.clone_as_boxed())?, value);
    }
    Ok(out)
}

/// cel.@mapInsert(map, key, value) and cel.@mapInsert(map, entries): a new
/// map with the entries added; a key already there fails, as cel-go's
/// types.InsertMapKeyValue.
fn map_insert<'b, 'v>(args: Args<'b, 'v>) -> Return<'b, 'v> {
    let mut out = match args.first() {
        Some(map) => map_entries(map.as_ref())?,
        None => return Err(ExecutionError::invalid_argument_count(2, 0)),
    };
    match args.as_slice() {
        [_, update] => {
            for (key, value) in map_entries(update.as_ref())? {
                insert(&mut out, key, value)?;
            }
        }
        [_, key, value] => {
            let key = CelMapKey::try_from(key.as_ref().clone_as_boxed())?;
            insert(&mut out, key, value.as_ref().clone_as_boxed())?;
        }
        _ => return Err(ExecutionError::invalid_argument_count(3, args.len())),
    }
    Ok(CowVal::owned(CelMap::from(out)))
}
