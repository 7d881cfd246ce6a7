//! Kubernetes' CEL lists library (k8s.io/apiserver/pkg/cel/library,
//! lists.go): `isSorted`, `sum`, `min`, `max`, `indexOf` and `lastIndexOf` on
//! lists; and cel-go's ext.Sets (`sets.contains`, `sets.equivalent`,
//! `sets.intersects`). Each charges the budget of cost.rs with the elements
//! it visits before visiting them.

use crate::cost;
use cel::common::types::{CelBool, CelInt, DYN_TYPE, LIST_TYPE};
use cel::common::value::{CowVal, Val};
use cel::{DeclarationError, Env, ExecutionError};
use std::cmp::Ordering;

type Args<'b, 'v> = Vec<CowVal<'b, 'v>>;
type Return<'b, 'v> = Result<CowVal<'b, 'v>, ExecutionError>;

/// The elements of `list`, after charging their number times `weight`.
fn elements<'b, 'v>(
    list: &'b (dyn Val + 'v),
    function: &str,
    weight: u64,
) -> Result<Vec<&'b (dyn Val + 'v)>, ExecutionError> {
    let iterable = list.as_iterable().ok_or_else(|| {
        ExecutionError::no_such_member_overload(function, vec![list.get_type().name().to_owned()])
    })?;
    let mut items = iterable.iter();
    let mut out = Vec::new();
    while let Some(item) = items.next() {
        out.push(item);
    }
    cost::charge((out.len() as u64).max(1).saturating_mul(weight))?;
    Ok(out)
}

fn one<'b, 'v>(args: &'b Args<'_, 'v>) -> Result<&'b (dyn Val + 'v), ExecutionError> {
    match args.as_slice() {
        [a] => Ok(a.as_ref()),
        _ => Err(ExecutionError::invalid_argument_count(1, args.len())),
    }
}

fn two<'b, 'v>(args: &'b Args<'_, 'v>) -> Result<[&'b (dyn Val + 'v); 2], ExecutionError> {
    match args.as_slice() {
        [a, b] => Ok([a.as_ref(), b.as_ref()]),
        _ => Err(ExecutionError::invalid_argument_count(2, args.len())),
    }
}

fn compare(a: &dyn Val, b: &dyn Val, function: &str) -> Result<Ordering, ExecutionError> {
    a.as_comparer()
        .ok_or_else(|| {
            ExecutionError::no_such_overload(function, vec![a.get_type().name().to_owned()])
        })?
        .compare(b)
}

fn owned<'b, 'v>(v: &(dyn Val + 'v)) -> CowVal<'b, 'v> {
    CowVal::Owned(v.clone_as_boxed())
}

fn is_sorted<'b, 'v>(args: Args<'b, 'v>) -> Return<'b, 'v> {
    let items = elements(one(&args)?, "isSorted", 1)?;
    for pair in items.windows(2) {
        if compare(pair[0], pair[1], "isSorted")? == Ordering::Greater {
            return Ok(CowVal::owned(CelBool::from(false)));
        }
    }
    Ok(CowVal::owned(CelBool::from(true)))
}

/// The sum of the elements; 0 for an empty list (upstream starts from the
/// zero of the list's declared element type, which only a type checker knows).
fn sum<'b, 'v>(args: Args<'b, 'v>) -> Return<'b, 'v> {
    let items = elements(one(&args)?, "sum", 1)?;
    let Some((first, rest)) = items.split_first() else {
        return Ok(CowVal::owned(CelInt::from(0)));
    };
    let mut acc: Box<dyn Val + 'v> = first.clone_as_boxed();
    for item in rest {
        let adder = acc.as_adder().ok_or_else(|| {
            ExecutionError::no_such_overload("sum", vec![acc.get_type().name().to_owned()])
        })?;
        acc = adder.add(*item)?.into_owned();
    }
    Ok(CowVal::Owned(acc))
}

/// min and max: the first element no other is preferred to.
fn extreme<'b, 'v>(args: Args<'b, 'v>, function: &str, prefer: Ordering) -> Return<'b, 'v> {
    let items = elements(one(&args)?, function, 1)?;
    let mut result = *items.first().ok_or_else(|| {
        ExecutionError::function_error(function, format!("{function} called on empty list"))
    })?;
    for item in &items[1..] {
        if compare(result, *item, function)? == prefer {
            result = *item;
        }
    }
    Ok(owned(result))
}

fn min<'b, 'v>(args: Args<'b, 'v>) -> Return<'b, 'v> {
    extreme(args, "min", Ordering::Greater)
}

fn max<'b, 'v>(args: Args<'b, 'v>) -> Return<'b, 'v> {
    extreme(args, "max", Ordering::Less)
}

fn index_of<'b, 'v>(args: Args<'b, 'v>) -> Return<'b, 'v> {
    let [list, item] = two(&args)?;
    let items = elements(list, "indexOf", 1)?;
    let i = items.iter().position(|e| e.equals(item));
    Ok(CowVal::owned(CelInt::from(i.map_or(-1, |i| i as i64))))
}

fn last_index_of<'b, 'v>(args: Args<'b, 'v>) -> Return<'b, 'v> {
    let [list, item] = two(&args)?;
    let items = elements(list, "lastIndexOf", 1)?;
    let i = items.iter().rposition(|e| e.equals(item));
    Ok(CowVal::owned(CelInt::from(i.map_or(-1, |i| i as i64))))
}

/// Whether every element of `sub` is in `set`, charging |set| * |sub|.
fn contains_all(set: &dyn Val, sub: &dyn Val, function: &str) -> Result<bool, ExecutionError> {
    let set = elements(set, function, 1)?;
    let sub = elements(sub, function, set.len().max(1) as u64)?;
    Ok(sub.iter().all(|e| set.iter().any(|s| s.equals(*e))))
}

fn sets_contains<'b, 'v>(args: Args<'b, 'v>) -> Return<'b, 'v> {
    let [a, b] = two(&args)?;
    Ok(CowVal::owned(CelBool::from(contains_all(
        a,
        b,
        "sets.contains",
    )?)))
}

fn sets_equivalent<'b, 'v>(args: Args<'b, 'v>) -> Return<'b, 'v> {
    let [a, b] = two(&args)?;
    let f = "sets.equivalent";
    Ok(CowVal::owned(CelBool::from(
        contains_all(a, b, f)? && contains_all(b, a, f)?,
    )))
}

fn sets_intersects<'b, 'v>(args: Args<'b, 'v>) -> Return<'b, 'v> {
    let [a, b] = two(&args)?;
    let a = elements(a, "sets.intersects", 1)?;
    let b = elements(b, "sets.intersects", a.len().max(1) as u64)?;
    Ok(CowVal::owned(CelBool::from(
        b.iter().any(|e| a.iter().any(|s| s.equals(*e))),
    )))
}

/// Registers both libraries on `env`.
pub fn extension(env: &mut Env) -> Result<(), DeclarationError> {
    env.add_member_overload("isSorted", "list_is_sorted", LIST_TYPE, vec![], is_sorted)?;
    env.add_member_overload("sum", "list_sum", LIST_TYPE, vec![], sum)?;
    env.add_member_overload("min", "list_min", LIST_TYPE, vec![], min)?;
    env.add_member_overload("max", "list_max", LIST_TYPE, vec![], max)?;
    env.add_member_overload(
        "indexOf",
        "list_index_of",
        LIST_TYPE,
        vec![DYN_TYPE],
        index_of,
    )?;
    env.add_member_overload(
        "lastIndexOf",
        "list_last_index_of",
        LIST_TYPE,
        vec![DYN_TYPE],
        last_index_of,
    )?;
    let two_lists = || vec![LIST_TYPE, LIST_TYPE];
    env.add_overload(
        "sets.contains",
        "list_sets_contains_list",
        two_lists(),
        sets_contains,
    )?;
    env.add_overload(
        "sets.equivalent",
        "list_sets_equivalent_list",
        two_lists(),
        sets_equivalent,
    )?;
    env.add_overload(
        "sets.intersects",
        "list_sets_intersects_list",
        two_lists(),
        sets_intersects,
    )
}
