//! Kubernetes' CEL format library (k8s.io/apiserver/pkg/cel/library,
//! format.go): `format.named(name)` (an optional format), `format.<name>()`
//! and `f.validate(s)`, none when `s` is valid, else the list of the
//! validator's messages. The validators and messages are apimachinery's
//! (NameIsDNSLabel, NameIsDNSSubdomain, NameIsDNS1035Label, the `Prefix`
//! forms masking a trailing dash; content.IsLabelKey for qualifiedName,
//! content.IsLabelValue), url.ParseRequestURI's error for `uri` (url.rs),
//! and kube-openapi's strfmt for `uuid`, `byte` (base64 with padding),
//! `date` (2006-01-02, a day that exists) and `datetime`.

use cel::common::functions::Function;
use cel::common::types::{CelList, CelOptional, CelString, Type};
use cel::common::value::{CowVal, StaticVal, Val};
use cel::{DeclarationError, Env, ExecutionError};
use regex::Regex;
use std::any::Any;
use std::sync::LazyLock;

static FORMAT_TYPE: Type = Type::new_unspecified_type("kubernetes.NamedFormat");

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Dns1123Label,
    Dns1123Subdomain,
    Dns1035Label,
    QualifiedName,
    Dns1123LabelPrefix,
    Dns1123SubdomainPrefix,
    Dns1035LabelPrefix,
    LabelValue,
    Uri,
    Uuid,
    Byte,
    Date,
    Datetime,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Format(Kind);

impl Val for Format {
    fn get_type(&self) -> &Type {
        &FORMAT_TYPE
    }
    fn cel_type() -> &'static Type {
        &FORMAT_TYPE
    }
    fn equals(&self, other: &dyn Val) -> bool {
        other.downcast_ref::<Format>().is_some_and(|o| o == self)
    }
    fn clone_as_boxed<'v>(&self) -> Box<dyn Val + 'v> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> Option<&dyn Any> {
        Some(self)
    }
}
impl StaticVal for Format {}

const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_SUBDOMAIN_FMT: &str =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1035_LABEL_FMT: &str = "[a-z]([-a-z0-9]*[a-z0-9])?";
const LABEL_KEY_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const LABEL_KEY_MSG: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

fn anchored(pattern: &str) -> Regex {
    Regex::new(&format!("^(?:{pattern})$")).expect("a valid pattern")
}

static DNS1123_LABEL: LazyLock<Regex> = LazyLock::new(|| anchored(DNS1123_LABEL_FMT));
static DNS1123_SUBDOMAIN: LazyLock<Regex> = LazyLock::new(|| anchored(DNS1123_SUBDOMAIN_FMT));
static DNS1035_LABEL: LazyLock<Regex> = LazyLock::new(|| anchored(DNS1035_LABEL_FMT));
static LABEL_KEY: LazyLock<Regex> = LazyLock::new(|| anchored(LABEL_KEY_FMT));
static LABEL_VALUE: LazyLock<Regex> = LazyLock::new(|| anchored(LABEL_VALUE_FMT));
static UUID: LazyLock<Regex> = LazyLock::new(|| {
    anchored("(?i)[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}")
});
static BASE64: LazyLock<Regex> = LazyLock::new(|| {
    anchored("(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})")
});
static TIME: LazyLock<Regex> = LazyLock::new(|| {
    anchored("([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))")
});

/// apimachinery's RegexError: the message, examples and pattern.
fn regex_error(msg: &str, pattern: &str, examples: &[&str]) -> String {
    let examples: Vec<String> = examples.iter().map(|e| format!("'{e}', ")).collect();
    format!(
        "{msg} (e.g. {}regex used for validation is '{pattern}')",
        examples.join(" or ")
    )
}

/// MaxLenError of util/validation ("characters") or of content ("bytes").
fn max_len(length: usize, unit: &str) -> String {
    format!("must be no more than {length} {unit}")
}

/// apimachinery's maskTrailingDash, for the `Prefix` formats.
fn mask_trailing_dash(s: &str) -> String {
    if s.len() > 1 && s.ends_with('-') {
        // Go slices bytes: the byte before the dash goes too.
        format!("{}a", String::from_utf8_lossy(&s.as_bytes()[..s.len() - 2]))
    } else {
        s.to_owned()
    }
}

fn dns1123_label(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 63 {
        errs.push(max_len(63, "characters"));
    }
    if !DNS1123_LABEL.is_match(s) {
        errs.push(if DNS1123_SUBDOMAIN.is_match(s) {
            "must not contain dots".to_owned()
        } else {
            regex_error(
                "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
                DNS1123_LABEL_FMT,
                &["my-name", "123-abc"],
            )
        });
    }
    errs
}

/// IsDNS1123Subdomain: of util/validation (`unit` "characters") or of
/// content ("bytes"), which differ in MaxLenError only.
fn dns1123_subdomain(s: &str, unit: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 253 {
        errs.push(max_len(253, unit));
    }
    if !DNS1123_SUBDOMAIN.is_match(s) {
        errs.push(regex_error(
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
            DNS1123_SUBDOMAIN_FMT,
            &["example.com"],
        ));
    }
    errs
}

fn dns1035_label(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 63 {
        errs.push(max_len(63, "characters"));
    }
    if !DNS1035_LABEL.is_match(s) {
        errs.push(regex_error(
            "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
            DNS1035_LABEL_FMT,
            &["my-name", "abc-123"],
        ));
    }
    errs
}

/// content.IsLabelKey: [DNS subdomain prefix "/"] name.
fn qualified_name(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let name_examples = ["MyName", "my.name", "123-abc"];
    let parts: Vec<&str> = s.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_owned());
            } else {
                errs.extend(
                    dns1123_subdomain(prefix, "bytes")
                        .into_iter()
                        .map(|m| format!("prefix part {m}")),
                );
            }
            *name
        }
        _ => {
            return vec![format!(
                "a valid label key {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(LABEL_KEY_MSG, LABEL_KEY_FMT, &name_examples)
            )]
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".to_owned());
    } else if name.len() > 63 {
        errs.push(format!("name part {}", max_len(63, "bytes")));
    }
    if !LABEL_KEY.is_match(name) {
        errs.push(format!(
            "name part {}",
            regex_error(LABEL_KEY_MSG, LABEL_KEY_FMT, &name_examples)
        ));
    }
    errs
}

fn label_value(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 63 {
        errs.push(max_len(63, "bytes"));
    }
    if !LABEL_VALUE.is_match(s) {
        errs.push(regex_error(
            "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
            LABEL_VALUE_FMT,
            &["MyValue", "my_value", "12345"],
        ));
    }
    errs
}

/// Go's time.Parse("2006-01-02", s) succeeds: four-digit year, two-digit
/// month and day, the day within the month.
fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| {
        b[r.clone()]
            .iter()
            .all(u8::is_ascii_digit)
            .then(|| s[r].parse::<u32>().ok())
            .flatten()
    };
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let (Some(year), Some(month), Some(day)) = (digits(0..4), digits(5..7), digits(8..10)) else {
        return false;
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// strfmt.IsDateTime: lower-cased, split at each 't'; the first part a
/// date, the second hh:mm:ss[.fraction](z|±hh:mm) with hh <= 23, mm and
/// ss <= 59 (compared as text).
fn is_datetime(s: &str) -> bool {
    if s.len() < 4 {
        return false;
    }
    let lower = s.to_lowercase();
    let mut parts = lower.split('t');
    let (Some(date), Some(time)) = (parts.next(), parts.next()) else {
        return false;
    };
    if !is_date(date) {
        return false;
    }
    let Some(m) = TIME.captures(time) else {
        return false;
    };
    &m[1] <= "23" && &m[2] <= "59" && &m[3] <= "59"
}

fn validate_with(kind: Kind, s: &str) -> Vec<String> {
    let check = |ok: bool, message: &str| if ok { vec![] } else { vec![message.to_owned()] };
    match kind {
        Kind::Dns1123Label => dns1123_label(s),
        Kind::Dns1123Subdomain => dns1123_subdomain(s, "characters"),
        Kind::Dns1035Label => dns1035_label(s),
        Kind::QualifiedName => qualified_name(s),
        Kind::Dns1123LabelPrefix => dns1123_label(&mask_trailing_dash(s)),
        Kind::Dns1123SubdomainPrefix => dns1123_subdomain(&mask_trailing_dash(s), "characters"),
        Kind::Dns1035LabelPrefix => dns1035_label(&mask_trailing_dash(s)),
        Kind::LabelValue => label_value(s),
        Kind::Uri => crate::url::request_uri_error(s).into_iter().collect(),
        Kind::Uuid => check(UUID.is_match(s), "does not match the UUID format"),
        Kind::Byte => check(BASE64.is_match(s), "invalid base64"),
        Kind::Date => check(is_date(s), "invalid date"),
        Kind::Datetime => check(is_datetime(s), "invalid datetime"),
    }
}

fn validate(this: &Format, s: &CelString<'_>) -> CelOptional<'static> {
    let errors = validate_with(this.0, s.inner());
    if errors.is_empty() {
        return CelOptional::none();
    }
    let list: Vec<Box<dyn Val>> = errors
        .into_iter()
        .map(|e| Box::new(CelString::from(e)) as Box<dyn Val>)
        .collect();
    CelOptional::of(Box::new(CelList::from(list)))
}

fn named(name: &CelString<'_>) -> CelOptional<'static> {
    match NAMED.iter().find(|(n, _)| *n == name.inner()) {
        Some((_, kind)) => CelOptional::of(Box::new(Format(*kind))),
        None => CelOptional::none(),
    }
}

fn constant<'b, 'v>(args: &[CowVal<'b, 'v>], kind: Kind) -> Result<CowVal<'b, 'v>, ExecutionError> {
    if !args.is_empty() {
        return Err(ExecutionError::invalid_argument_count(0, args.len()));
    }
    Ok(CowVal::owned(Format(kind)))
}

/// The named formats: NAMED (for `format.named`) and the `format.<name>()`
/// functions, from one list.
macro_rules! formats {
    ($($name:literal => $kind:ident),* $(,)?) => {
        const NAMED: &[(&str, Kind)] = &[$(($name, Kind::$kind)),*];
        fn constants() -> Vec<(&'static str, Function)> {
            vec![$((
                concat!("format.", $name),
                (|args| constant(&args, Kind::$kind)) as Function,
            )),*]
        }
    };
}

formats! {
    "dns1123Label" => Dns1123Label,
    "dns1123Subdomain" => Dns1123Subdomain,
    "dns1035Label" => Dns1035Label,
    "qualifiedName" => QualifiedName,
    "dns1123LabelPrefix" => Dns1123LabelPrefix,
    "dns1123SubdomainPrefix" => Dns1123SubdomainPrefix,
    "dns1035LabelPrefix" => Dns1035LabelPrefix,
    "labelValue" => LabelValue,
    "uri" => Uri,
    "uuid" => Uuid,
    "byte" => Byte,
    "date" => Date,
    "datetime" => Datetime,
}

pub fn extension(env: &mut Env) -> Result<(), DeclarationError> {
    cel::add_overload!(env, fn named: (CelString) -> CelOptional, name = "format.named")?;
    cel::add_member_overload!(env, fn validate: (Format, CelString) -> CelOptional)?;
    for (name, function) in constants() {
        env.add_overload(name, name, Vec::new(), function)?;
    }
    Ok(())
}
