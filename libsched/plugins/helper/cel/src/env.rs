//! The DRA CEL environment: the `cel` crate's standard library and macros,
//! its strings extension (upstream enables ext.Strings), `cel.bind`
//! (ext.Bindings, which compile.go adds), ext.TwoVarComprehensions
//! (comprehensions.rs), Kubernetes' quantity and semver libraries, and the
//! cost charging of cost.rs. What upstream's environment has beyond this is
//! listed in docs/dra.md.

use crate::{comprehensions, cost, format, ip, lists, quantity, regex, semver, url};
use cel::common::ast::{ComprehensionExpr, Expr, IdedExpr, ListExpr, LiteralValue};
use cel::common::types::CelBool;
use cel::parser::{Macro, MacroExprHelper, ParseError};
use cel::{extensions, Env};
use std::sync::{Arc, OnceLock};

/// The environment, built once and shared by every compiled selector.
pub fn env() -> Arc<Env> {
    static ENV: OnceLock<Arc<Env>> = OnceLock::new();
    ENV.get_or_init(|| Arc::new(build())).clone()
}

fn build() -> Env {
    let mut env = Env::stdlib();
    // Each registration below declares names the others do not, so none
    // fails; a failure would be a bug found by every test.
    env.add_extension(extensions::strings)
        .expect("strings extension");
    env.add_extension(extensions::lists)
        .expect("lists extension");
    env.add_extension(lists::extension)
        .expect("lists and sets libraries");
    env.add_extension(regex::extension).expect("regex library");
    env.add_extension(ip::extension)
        .expect("IP and CIDR libraries");
    env.add_extension(quantity::extension)
        .expect("quantity library");
    env.add_extension(semver::extension)
        .expect("semver library");
    env.add_extension(url::extension).expect("URL library");
    env.add_extension(format::extension)
        .expect("format library");
    env.add_extension(comprehensions::extension)
        .expect("two-variable comprehensions");
    env.add_extension(cost::extension).expect("cost charging");
    env.add_macro(Macro::receiver("bind", 3, bind))
        .expect("cel.bind");
    env
}

/// `cel.bind(name, init, body)`, expanded as cel-go's ext.Bindings does: a
/// comprehension over an empty list whose accumulator is `name`.
fn bind(
    helper: &mut MacroExprHelper<'_>,
    target: &mut Option<IdedExpr>,
    args: &mut Vec<IdedExpr>,
) -> Result<Option<IdedExpr>, ParseError> {
    if !matches!(target.as_ref().map(|t| &t.expr), Some(Expr::Ident(name)) if name == "cel") {
        return Ok(None);
    }
    let name = match &args[0].expr {
        Expr::Ident(name) => name.clone(),
        _ => {
            return Err(helper.new_error(
                args[0].id,
                "cel.bind() variable names must be simple identifiers",
            ))
        }
    };
    let body = args.pop().expect("three arguments");
    let init = args.pop().expect("three arguments");
    Ok(Some(bind_expr(helper, name, init, body)))
}

/// `body` with `name` bound to `init`: a comprehension over an empty list
/// whose accumulator is `name` (ext.Bindings' expansion).
pub fn bind_expr(
    helper: &mut MacroExprHelper<'_>,
    name: String,
    init: IdedExpr,
    body: IdedExpr,
) -> IdedExpr {
    let empty = helper.next_expr(Expr::List(ListExpr::new(vec![])));
    let no_loop = helper.next_expr(Expr::Literal(LiteralValue::Boolean(CelBool::from(false))));
    let step = helper.next_expr(Expr::Ident(name.clone()));
    helper.next_expr(Expr::Comprehension(Box::new(ComprehensionExpr {
        iter_range: empty,
        iter_var: "#unused".to_owned(),
        iter_var2: None,
        accu_var: name,
        accu_init: init,
        loop_cond: no_loop,
        loop_step: step,
        result: body,
    })))
}
