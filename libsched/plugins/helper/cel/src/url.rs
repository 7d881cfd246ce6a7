//! Kubernetes' CEL URL library (k8s.io/apiserver/pkg/cel/library, urls.go):
//! `url`, `isURL`, `getScheme`, `getHost`, `getHostname`, `getPort`,
//! `getEscapedPath` and `getQuery`. A string is a URL when Go's
//! url.ParseRequestURI accepts it; the value is then what url.Parse makes
//! of it. Both follow Go 1.26's net/url (the Go Kubernetes v1.36 is built
//! with, godebug default go1.26: strict colons in http(s) hosts): the
//! scheme, authority, host (bracketed IPv6 with zone, port digits), percent
//! escapes per URL part, the path's raw form, and the query's parsing
//! (`&`-separated, a part with `;` dropped, `+` a space, a part with a bad
//! escape dropped, none past 10,000 parts), with Go's error messages.

use cel::common::types::{CelBool, CelList, CelMap, CelMapKey, CelString, Type};
use cel::common::value::{StaticVal, Val};
use cel::{DeclarationError, Env, ExecutionError};
use std::any::Any;
use std::collections::HashMap;

static URL_TYPE: Type = Type::new_unspecified_type("kubernetes.URL");

/// A parsed URL: net/url's URL fields that the library reads or that its
/// equality (of URL.String()) depends on. Unescaped parts are bytes, as Go's
/// strings, which need not be UTF-8.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Url {
    scheme: String,
    opaque: String,
    user: Option<String>,
    host: Vec<u8>,
    path: Vec<u8>,
    raw_path: String,
    force_query: bool,
    raw_query: String,
    fragment: Vec<u8>,
}

impl Val for Url {
    fn get_type(&self) -> &Type {
        &URL_TYPE
    }
    fn cel_type() -> &'static Type {
        &URL_TYPE
    }
    fn equals(&self, other: &dyn Val) -> bool {
        other.downcast_ref::<Url>().is_some_and(|o| o == self)
    }
    fn clone_as_boxed<'v>(&self) -> Box<dyn Val + 'v> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> Option<&dyn Any> {
        Some(self)
    }
}
impl StaticVal for Url {}

/// The parts of a URL, each with its own escaping rules (net/url's encoding).
#[derive(Clone, Copy, PartialEq)]
enum Part {
    Path,
    UserPassword,
    QueryComponent,
    Fragment,
    Host,
    Zone,
}

/// Whether `c` must be percent-escaped in `part` (RFC 3986 as net/url
/// reads it).
fn should_escape(c: u8, part: Part) -> bool {
    if c.is_ascii_alphanumeric() {
        return false;
    }
    if (part == Part::Host || part == Part::Zone) && b"!$&'()*+,;=:[]<>\"".contains(&c) {
        return false;
    }
    match c {
        b'-' | b'_' | b'.' | b'~' => return false,
        b'$' | b'&' | b'+' | b',' | b'/' | b':' | b';' | b'=' | b'?' | b'@' => match part {
            Part::Path => return c == b'?',
            Part::UserPassword => return matches!(c, b'@' | b'/' | b'?' | b':'),
            Part::QueryComponent => return true,
            Part::Fragment => return false,
            Part::Host | Part::Zone => {}
        },
        _ => {}
    }
    !(part == Part::Fragment && matches!(c, b'!' | b'(' | b')' | b'*'))
}

fn hex_value(c: u8) -> Option<u8> {
    (c as char).to_digit(16).map(|d| d as u8)
}

/// Go's strconv.Quote for the strings in net/url's messages.
fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\x0c' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\x0b' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c == '\x7f' => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Percent-decodes `s` as `part` allows (net/url's unescape): a bad
/// escape, or in a host an escape of ASCII below 0x80 other than %25 or a
/// character a host cannot hold, fails with Go's message.
fn unescape(s: &str, part: Part) -> Result<Vec<u8>, String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                let (hi, lo) = match (
                    b.get(i + 1).and_then(|&c| hex_value(c)),
                    b.get(i + 2).and_then(|&c| hex_value(c)),
                ) {
                    (Some(hi), Some(lo)) => (hi, lo),
                    _ => {
                        let end = (i + 3).min(b.len());
                        return Err(format!(
                            "invalid URL escape {}",
                            quote(&String::from_utf8_lossy(&b[i..end]))
                        ));
                    }
                };
                let escape = &s[i..i + 3];
                let v = hi << 4 | lo;
                if part == Part::Host && hi < 8 && escape != "%25" {
                    return Err(format!("invalid URL escape {}", quote(escape)));
                }
                if part == Part::Zone
                    && escape != "%25"
                    && v != b' '
                    && should_escape(v, Part::Host)
                {
                    return Err(format!("invalid URL escape {}", quote(escape)));
                }
                out.push(v);
                i += 3;
            }
            b'+' => {
                out.push(if part == Part::QueryComponent {
                    b' '
                } else {
                    b'+'
                });
                i += 1;
            }
            c => {
                if (part == Part::Host || part == Part::Zone) && c < 0x80 && should_escape(c, part)
                {
                    return Err(format!(
                        "invalid character {} in host name",
                        quote(&(c as char).to_string())
                    ));
                }
                out.push(c);
                i += 1;
            }
        }
    }
    Ok(out)
}

/// Percent-encodes `s` as `part` needs (net/url's escape; upper-case hex).
fn escape(s: &[u8], part: Part) -> String {
    let mut out = String::with_capacity(s.len());
    for &c in s {
        if c == b' ' && part == Part::QueryComponent {
            out.push('+');
        } else if should_escape(c, part) {
            out.push_str(&format!("%{c:02X}"));
        } else {
            out.push(c as char);
        }
    }
    out
}

/// ":digits" or nothing.
fn valid_optional_port(port: &str) -> bool {
    port.is_empty()
        || port
            .strip_prefix(':')
            .is_some_and(|p| p.bytes().all(|b| b.is_ascii_digit()))
}

fn parse_host(scheme: &str, host: &str) -> Result<Vec<u8>, String> {
    match host.rfind('[') {
        Some(open) if open > 0 => return Err("invalid IP-literal".to_owned()),
        Some(_) => {
            let close = host.rfind(']').ok_or("missing ']' in host")?;
            let colon_port = &host[close + 1..];
            if !valid_optional_port(colon_port) {
                return Err(format!("invalid port {} after host", quote(colon_port)));
            }
            let colon_port = unescape(colon_port, Part::Host)?;
            let hostname = &host[1..close];
            let mut unescaped = match hostname.find("%25") {
                Some(zone) => {
                    let mut h = unescape(&hostname[..zone], Part::Host)?;
                    h.extend(unescape(&hostname[zone..], Part::Zone)?);
                    h
                }
                None => unescape(hostname, Part::Host)?,
            };
            let text = String::from_utf8_lossy(&unescaped).into_owned();
            let address = text.split_once('%').map_or(text.as_str(), |(a, _)| a);
            if address.parse::<std::net::Ipv4Addr>().is_ok() {
                return Err("invalid IP-literal".to_owned());
            }
            if address.parse::<std::net::Ipv6Addr>().is_err() || text.ends_with('%') {
                return Err(format!(
                    "invalid host: ParseAddr({}): unable to parse IP",
                    quote(&text)
                ));
            }
            let mut out = b"[".to_vec();
            out.append(&mut unescaped);
            out.push(b']');
            out.extend(colon_port);
            return Ok(out);
        }
        None => {}
    }
    if let Some(first) = host.find(':') {
        let last = host.rfind(':').unwrap_or(first);
        // Go 1.26 (urlstrictcolons): http(s) hosts take the port after the
        // first colon, other schemes after the last.
        let colon = if scheme == "http" || scheme == "https" {
            first
        } else {
            last
        };
        let colon_port = &host[colon..];
        if !valid_optional_port(colon_port) {
            return Err(format!("invalid port {} after host", quote(colon_port)));
        }
    }
    unescape(host, Part::Host)
}

fn valid_userinfo(s: &str) -> bool {
    s.chars()
        .all(|c| c.is_ascii_alphanumeric() || "-._:~!$&'()*+,;=%@".contains(c))
}

/// net/url's parseAuthority: [userinfo@]host.
fn parse_authority(url: &mut Url, authority: &str) -> Result<(), String> {
    let (userinfo, host) = match authority.rfind('@') {
        Some(at) => (Some(&authority[..at]), &authority[at + 1..]),
        None => (None, authority),
    };
    url.host = parse_host(&url.scheme, host)?;
    if let Some(userinfo) = userinfo {
        if !valid_userinfo(userinfo) {
            return Err("net/url: invalid userinfo".to_owned());
        }
        let mut user = Vec::new();
        for (i, part) in userinfo.splitn(2, ':').enumerate() {
            if i > 0 {
                user.push(b':');
            }
            user.extend(unescape(part, Part::UserPassword)?);
        }
        url.user = Some(String::from_utf8_lossy(&user).into_owned());
    }
    Ok(())
}

/// Splits off a scheme ("letter *(letter / digit / + - .)" before ':').
fn split_scheme(raw: &str) -> Result<(&str, &str), String> {
    for (i, c) in raw.bytes().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' if i > 0 => {}
            b':' if i == 0 => return Err("missing protocol scheme".to_owned()),
            b':' => return Ok((&raw[..i], &raw[i + 1..])),
            _ => return Ok(("", raw)),
        }
    }
    Ok(("", raw))
}

/// net/url's parse: `via_request` for ParseRequestURI (an absolute URI or
/// an absolute path), else Parse's rules (fragment already cut off).
fn parse(raw: &str, via_request: bool) -> Result<Url, String> {
    if raw.bytes().any(|b| b < b' ' || b == 0x7f) {
        return Err("net/url: invalid control character in URL".to_owned());
    }
    if raw.is_empty() && via_request {
        return Err("empty url".to_owned());
    }
    let mut url = Url::default();
    if raw == "*" {
        url.path = b"*".to_vec();
        return Ok(url);
    }
    let (scheme, mut rest) = split_scheme(raw)?;
    url.scheme = scheme.to_ascii_lowercase();
    if rest.ends_with('?') && rest.matches('?').count() == 1 {
        url.force_query = true;
        rest = &rest[..rest.len() - 1];
    } else if let Some((before, query)) = rest.split_once('?') {
        url.raw_query = query.to_owned();
        rest = before;
    }
    if !rest.starts_with('/') {
        if !url.scheme.is_empty() {
            url.opaque = rest.to_owned();
            return Ok(url);
        }
        if via_request {
            return Err("invalid URI for request".to_owned());
        }
        if rest
            .split('/')
            .next()
            .is_some_and(|segment| segment.contains(':'))
        {
            return Err("first path segment in URL cannot contain colon".to_owned());
        }
    }
    if (!url.scheme.is_empty() || !via_request && !rest.starts_with("///"))
        && rest.starts_with("//")
    {
        let authority = &rest[2..];
        let (authority, path) = match authority.find('/') {
            Some(slash) => (&authority[..slash], &authority[slash..]),
            None => (authority, ""),
        };
        parse_authority(&mut url, authority)?;
        rest = path;
    }
    url.path = unescape(rest, Part::Path)?;
    if escape(&url.path, Part::Path) != rest {
        url.raw_path = rest.to_owned();
    }
    Ok(url)
}

/// Go's url.Error text: `parse "raw": why`.
fn parse_error(raw: &str, why: String) -> String {
    format!("parse {}: {why}", quote(raw))
}

fn parse_request_uri(raw: &str) -> Result<Url, String> {
    parse(raw, true).map_err(|e| parse_error(raw, e))
}

/// url.Parse: the fragment cut off at the first '#' and unescaped.
fn parse_url(raw: &str) -> Result<Url, String> {
    let (rest, fragment) = raw.split_once('#').unwrap_or((raw, ""));
    let mut url = parse(rest, false).map_err(|e| parse_error(rest, e))?;
    url.fragment = unescape(fragment, Part::Fragment).map_err(|e| parse_error(raw, e))?;
    Ok(url)
}

/// Splits "host:port" (net/url's splitHostPort), dropping IPv6 brackets.
fn split_host_port(host: &[u8]) -> (&[u8], &[u8]) {
    let (mut h, mut port): (&[u8], &[u8]) = (host, b"");
    if let Some(colon) = host.iter().rposition(|&b| b == b':') {
        if host[colon + 1..].iter().all(u8::is_ascii_digit) {
            h = &host[..colon];
            port = &host[colon + 1..];
        }
    }
    if h.len() >= 2 && h.starts_with(b"[") && h.ends_with(b"]") {
        h = &h[1..h.len() - 1];
    }
    (h, port)
}

fn text(bytes: &[u8]) -> CelString<'static> {
    String::from_utf8_lossy(bytes).into_owned().into()
}

fn url(s: &CelString<'_>) -> Result<Url, ExecutionError> {
    let fail = |e: String| {
        ExecutionError::function_error(
            "url",
            format!("URL parse error during conversion from string: {e}"),
        )
    };
    parse_request_uri(s.inner()).map_err(fail)?;
    parse_url(s.inner()).map_err(fail)
}

fn is_url(s: &CelString<'_>) -> CelBool {
    parse_request_uri(s.inner()).is_ok().into()
}

fn get_scheme(this: &Url) -> CelString<'static> {
    this.scheme.clone().into()
}

fn get_host(this: &Url) -> CelString<'static> {
    text(&this.host)
}

fn get_hostname(this: &Url) -> CelString<'static> {
    text(split_host_port(&this.host).0)
}

fn get_port(this: &Url) -> CelString<'static> {
    text(split_host_port(&this.host).1)
}

/// URL.EscapedPath: the raw path when it is a valid encoding of the path,
/// else the path escaped.
fn get_escaped_path(this: &Url) -> CelString<'static> {
    let raw = &this.raw_path;
    let valid = !raw.is_empty()
        && raw
            .bytes()
            .all(|c| b"!$&'()*+,;=:@[]%".contains(&c) || !should_escape(c, Part::Path))
        && unescape(raw, Part::Path).is_ok_and(|p| p == this.path);
    if valid {
        return raw.clone().into();
    }
    if this.path == b"*" {
        return "*".into();
    }
    escape(&this.path, Part::Path).into()
}

/// Go's url.ParseQuery, errors ignored as URL.Query ignores them.
fn get_query(this: &Url) -> CelMap<'static> {
    let mut values: Vec<(Vec<u8>, Vec<Vec<u8>>)> = Vec::new();
    let query = &this.raw_query;
    if query.matches('&').count() < 10_000 {
        for part in query.split('&') {
            if part.is_empty() || part.contains(';') {
                continue;
            }
            let (key, value) = part.split_once('=').unwrap_or((part, ""));
            let (Ok(key), Ok(value)) = (
                unescape(key, Part::QueryComponent),
                unescape(value, Part::QueryComponent),
            ) else {
                continue;
            };
            match values.iter_mut().find(|(k, _)| *k == key) {
                Some((_, list)) => list.push(value),
                None => values.push((key, vec![value])),
            }
        }
    }
    let map: HashMap<CelMapKey<'static>, Box<dyn Val>> = values
        .into_iter()
        .map(|(key, list)| {
            let list: Vec<Box<dyn Val>> = list
                .iter()
                .map(|v| Box::new(text(v)) as Box<dyn Val>)
                .collect();
            (
                CelMapKey::String(text(&key)),
                Box::new(CelList::from(list)) as Box<dyn Val>,
            )
        })
        .collect();
    CelMap::from(map)
}

pub fn extension(env: &mut Env) -> Result<(), DeclarationError> {
    cel::add_overload!(env, fn url: (CelString) -> Result<Url>)?;
    cel::add_overload!(env, fn is_url: (CelString) -> CelBool, name = "isURL")?;
    cel::add_member_overload!(env, fn get_scheme: (Url) -> CelString, name = "getScheme")?;
    cel::add_member_overload!(env, fn get_host: (Url) -> CelString, name = "getHost")?;
    cel::add_member_overload!(env, fn get_hostname: (Url) -> CelString, name = "getHostname")?;
    cel::add_member_overload!(env, fn get_port: (Url) -> CelString, name = "getPort")?;
    cel::add_member_overload!(env, fn get_escaped_path: (Url) -> CelString,
        name = "getEscapedPath")?;
    cel::add_member_overload!(env, fn get_query: (Url) -> CelMap, name = "getQuery")?;
    Ok(())
}

/// For the format library's `uri` format: url.ParseRequestURI's error.
pub fn request_uri_error(raw: &str) -> Option<String> {
    parse_request_uri(raw).err()
}
