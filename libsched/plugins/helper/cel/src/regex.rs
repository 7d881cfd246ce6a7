//! Kubernetes' CEL regex library (k8s.io/apiserver/pkg/cel/library,
//! regex.go): `find` and `findAll` on strings, with RE2 syntax as Go's
//! regexp (the `regex` crate implements the same syntax and leftmost-first
//! matching). Each call charges the budget of cost.rs with the string's
//! length before matching.

use crate::cost;
use cel::common::types::{CelInt, CelList, CelString};
use cel::common::value::Val;
use cel::{DeclarationError, Env, ExecutionError};
use regex::Regex;
use std::cell::RefCell;

/// How many compiled patterns each thread keeps: upstream compiles a
/// literal pattern once per program (cel.OptimizeRegex); a selector has few.
const CACHED: usize = 8;

thread_local! {
    static CACHE: RefCell<Vec<(String, Regex)>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with `pattern` compiled, from this thread's cache when there
/// (a clone would start with an empty match cache, as slow as compiling).
fn with_regex<T>(
    pattern: &str,
    function: &str,
    f: impl FnOnce(&Regex) -> T,
) -> Result<T, ExecutionError> {
    CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        let i = match cache.iter().position(|(p, _)| p == pattern) {
            Some(i) => i,
            None => {
                let re = Regex::new(pattern).map_err(|e| {
                    ExecutionError::function_error(function, format!("Illegal regex: {e}"))
                })?;
                if cache.len() == CACHED {
                    cache.remove(0);
                }
                cache.push((pattern.to_owned(), re));
                cache.len() - 1
            }
        };
        Ok(f(&cache[i].1))
    })
}

fn find(
    this: &CelString<'_>,
    pattern: &CelString<'_>,
) -> Result<CelString<'static>, ExecutionError> {
    cost::charge(this.inner().len() as u64)?;
    let found = with_regex(pattern.inner(), "find", |re| {
        re.find(this.inner())
            .map_or_else(String::new, |m| m.as_str().to_owned())
    })?;
    Ok(found.into())
}

fn find_all(
    this: &CelString<'_>,
    pattern: &CelString<'_>,
) -> Result<CelList<'static>, ExecutionError> {
    find_all_n(this, pattern, &CelInt::from(-1))
}

/// At most `n` matches, all of them when `n` is negative (Go's
/// FindAllString); an empty match next to the previous match is skipped, as
/// in Go.
fn find_all_n(
    this: &CelString<'_>,
    pattern: &CelString<'_>,
    n: &CelInt,
) -> Result<CelList<'static>, ExecutionError> {
    cost::charge(this.inner().len() as u64)?;
    let limit = usize::try_from(*n.inner()).unwrap_or(usize::MAX);
    let matches: Vec<String> = with_regex(pattern.inner(), "findAll", |re| {
        re.find_iter(this.inner())
            .take(limit)
            .map(|m| m.as_str().to_owned())
            .collect()
    })?;
    Ok(matches
        .into_iter()
        .map(|m| Box::new(CelString::from(m)) as Box<dyn Val>)
        .collect::<Vec<_>>()
        .into())
}

/// Registers the library on `env`.
pub fn extension(env: &mut Env) -> Result<(), DeclarationError> {
    cel::add_member_overload!(env, fn find: (CelString, CelString) -> Result<CelString>)?;
    cel::add_member_overload!(env, fn find_all: (CelString, CelString) -> Result<CelList>)?;
    cel::add_member_overload!(env, fn find_all_n: (CelString, CelString, CelInt) -> Result<CelList>,
        name = "findAll")?;
    Ok(())
}
