//! Kubernetes' CEL IP and CIDR libraries (k8s.io/apiserver/pkg/cel/library,
//! ip.go and cidr.go): `ip`, `isIP`, `ip.isCanonical`, `family`,
//! `isUnspecified`, `isLoopback`, `isLinkLocalMulticast`,
//! `isLinkLocalUnicast`, `isGlobalUnicast`, `cidr`, `isCIDR`, `containsIP`,
//! `containsCIDR`, `ip()`, `masked`, `prefixLength` and `string(...)`.
//! Addresses are parsed by Rust's std (which, as Go's netip, refuses
//! leading zeros in IPv4 fields), prefixes held by the `ipnet` crate.
//! Zones and IPv4-mapped IPv6 addresses are refused, as upstream.

use cel::common::types::{CelBool, CelInt, CelString, Type};
use cel::common::value::{StaticVal, Val};
use cel::{DeclarationError, Env, ExecutionError};
use ipnet::IpNet;
use std::any::Any;
use std::net::IpAddr;

static IP_TYPE: Type = Type::new_unspecified_type("net.IP");
static CIDR_TYPE: Type = Type::new_unspecified_type("net.CIDR");

#[derive(Clone, Debug, PartialEq)]
pub struct Ip(IpAddr);

#[derive(Clone, Debug, PartialEq)]
pub struct Cidr(IpNet);

macro_rules! static_val {
    ($t:ty, $ty:ident) => {
        impl Val for $t {
            fn get_type(&self) -> &Type {
                &$ty
            }
            fn cel_type() -> &'static Type {
                &$ty
            }
            fn equals(&self, other: &dyn Val) -> bool {
                other.downcast_ref::<$t>().is_some_and(|o| o == self)
            }
            fn clone_as_boxed<'v>(&self) -> Box<dyn Val + 'v> {
                Box::new(self.clone())
            }
            fn as_any(&self) -> Option<&dyn Any> {
                Some(self)
            }
        }
        impl StaticVal for $t {}
    };
}
static_val!(Ip, IP_TYPE);
static_val!(Cidr, CIDR_TYPE);

/// parseIPAddr: an address without a zone, not IPv4-mapped IPv6.
fn parse_addr(raw: &str) -> Result<IpAddr, String> {
    if let Some((addr, _)) = raw.split_once('%') {
        if addr.parse::<std::net::Ipv6Addr>().is_ok() {
            return Err(format!("IP address {raw:?} with zone value is not allowed"));
        }
    }
    let addr: IpAddr = raw.parse().map_err(|_| {
        format!(
            "IP Address {raw:?} parse error during conversion from string: ParseAddr({raw:?}): unable to parse IP"
        )
    })?;
    if is_4in6(&addr) {
        return Err(format!("IPv4-mapped IPv6 address {raw:?} is not allowed"));
    }
    Ok(addr)
}

fn is_4in6(addr: &IpAddr) -> bool {
    matches!(addr, IpAddr::V6(v6) if v6.to_ipv4_mapped().is_some())
}

/// parseCIDR: netip.ParsePrefix's rules (decimal bits without leading
/// zeros, within the family's length, no zone).
fn parse_cidr(raw: &str) -> Result<IpNet, String> {
    let fail = |why: &str| {
        format!(
            "network address parse error during conversion from string: netip.ParsePrefix({raw:?}): {why}"
        )
    };
    let (addr, bits) = raw.rsplit_once('/').ok_or_else(|| fail("no '/'"))?;
    if addr.contains('%') {
        return Err(fail("IPv6 zones cannot be present in a prefix"));
    }
    let addr: IpAddr = addr
        .parse()
        .map_err(|_| fail(&format!("ParseAddr({addr:?}): unable to parse IP")))?;
    let digits_ok = !bits.is_empty()
        && bits.bytes().all(|b| b.is_ascii_digit())
        && !(bits.len() > 1 && bits.starts_with('0'));
    let bits: u8 = if digits_ok { bits.parse().ok() } else { None }
        .ok_or_else(|| fail(&format!("bad bits after slash: {bits:?}")))?;
    let net = IpNet::new(addr, bits).map_err(|_| fail("prefix length out of range"))?;
    if is_4in6(&addr) {
        return Err(format!("IPv4-mapped IPv6 address {raw:?} is not allowed"));
    }
    Ok(net)
}

fn failed(function: &str, message: String) -> ExecutionError {
    ExecutionError::function_error(function, message)
}

fn ip(s: &CelString<'_>) -> Result<Ip, ExecutionError> {
    parse_addr(s.inner()).map(Ip).map_err(|e| failed("ip", e))
}

fn is_ip(s: &CelString<'_>) -> CelBool {
    parse_addr(s.inner()).is_ok().into()
}

fn is_canonical(s: &CelString<'_>) -> Result<CelBool, ExecutionError> {
    let addr = parse_addr(s.inner()).map_err(|e| failed("ip.isCanonical", e))?;
    Ok((addr.to_string() == s.inner()).into())
}

fn ip_to_string(this: &Ip) -> CelString<'static> {
    this.0.to_string().into()
}

fn family(this: &Ip) -> CelInt {
    CelInt::from(if this.0.is_ipv4() { 4 } else { 6 })
}

fn is_unspecified(this: &Ip) -> CelBool {
    this.0.is_unspecified().into()
}

fn is_loopback(this: &Ip) -> CelBool {
    this.0.is_loopback().into()
}

fn is_multicast(addr: &IpAddr) -> bool {
    addr.is_multicast()
}

/// 224.0.0.0/24 and ff02::/16 (with any flags), as Go's netip.
fn is_link_local_multicast(this: &Ip) -> CelBool {
    match this.0 {
        IpAddr::V4(a) => a.octets()[..3] == [224, 0, 0],
        IpAddr::V6(a) => a.octets()[0] == 0xff && a.octets()[1] & 0x0f == 0x02,
    }
    .into()
}

/// 169.254.0.0/16 and fe80::/10.
fn link_local_unicast(addr: &IpAddr) -> bool {
    match addr {
        IpAddr::V4(a) => a.is_link_local(),
        IpAddr::V6(a) => a.segments()[0] & 0xffc0 == 0xfe80,
    }
}

fn is_link_local_unicast(this: &Ip) -> CelBool {
    link_local_unicast(&this.0).into()
}

/// Go's netip.Addr.IsGlobalUnicast.
fn is_global_unicast(this: &Ip) -> CelBool {
    let a = &this.0;
    let broadcast = matches!(a, IpAddr::V4(v4) if v4.is_broadcast());
    (!a.is_unspecified()
        && !broadcast
        && !a.is_loopback()
        && !is_multicast(a)
        && !link_local_unicast(a))
    .into()
}

fn cidr(s: &CelString<'_>) -> Result<Cidr, ExecutionError> {
    parse_cidr(s.inner()).map(Cidr).map_err(|e| {
        failed(
            "cidr",
            format!("network address parse error during conversion from string: {e}"),
        )
    })
}

fn is_cidr(s: &CelString<'_>) -> CelBool {
    parse_cidr(s.inner()).is_ok().into()
}

fn cidr_to_string(this: &Cidr) -> CelString<'static> {
    format!("{}/{}", this.0.addr(), this.0.prefix_len()).into()
}

fn contains_ip(this: &Cidr, other: &Ip) -> CelBool {
    this.0.contains(&other.0).into()
}

fn contains_ip_string(this: &Cidr, other: &CelString<'_>) -> Result<CelBool, ExecutionError> {
    Ok(contains_ip(this, &ip(other)?))
}

/// Overlaps and no longer a prefix: `other` lies within this network.
fn contains_cidr(this: &Cidr, other: &Cidr) -> CelBool {
    this.0.contains(&other.0).into()
}

fn contains_cidr_string(this: &Cidr, other: &CelString<'_>) -> Result<CelBool, ExecutionError> {
    Ok(contains_cidr(this, &cidr(other)?))
}

fn cidr_ip(this: &Cidr) -> Ip {
    Ip(this.0.addr())
}

fn prefix_length(this: &Cidr) -> CelInt {
    CelInt::from(i64::from(this.0.prefix_len()))
}

fn masked(this: &Cidr) -> Cidr {
    Cidr(this.0.trunc())
}

/// Registers both libraries on `env`.
pub fn extension(env: &mut Env) -> Result<(), DeclarationError> {
    cel::add_overload!(env, fn ip: (CelString) -> Result<Ip>)?;
    cel::add_overload!(env, fn is_ip: (CelString) -> CelBool, name = "isIP")?;
    cel::add_overload!(env, fn is_canonical: (CelString) -> Result<CelBool>, name = "ip.isCanonical")?;
    cel::add_overload!(env, fn ip_to_string: (Ip) -> CelString, name = "string")?;
    cel::add_member_overload!(env, fn family: (Ip) -> CelInt)?;
    cel::add_member_overload!(env, fn is_unspecified: (Ip) -> CelBool)?;
    cel::add_member_overload!(env, fn is_loopback: (Ip) -> CelBool)?;
    cel::add_member_overload!(env, fn is_link_local_multicast: (Ip) -> CelBool)?;
    cel::add_member_overload!(env, fn is_link_local_unicast: (Ip) -> CelBool)?;
    cel::add_member_overload!(env, fn is_global_unicast: (Ip) -> CelBool)?;
    cel::add_overload!(env, fn cidr: (CelString) -> Result<Cidr>)?;
    cel::add_overload!(env, fn is_cidr: (CelString) -> CelBool, name = "isCIDR")?;
    cel::add_overload!(env, fn cidr_to_string: (Cidr) -> CelString, name = "string")?;
    cel::add_member_overload!(env, fn contains_ip: (Cidr, Ip) -> CelBool, name = "containsIP")?;
    cel::add_member_overload!(env, fn contains_ip_string: (Cidr, CelString) -> Result<CelBool>,
        name = "containsIP")?;
    cel::add_member_overload!(env, fn contains_cidr: (Cidr, Cidr) -> CelBool, name = "containsCIDR")?;
    cel::add_member_overload!(env, fn contains_cidr_string: (Cidr, CelString) -> Result<CelBool>,
        name = "containsCIDR")?;
    cel::add_member_overload!(env, fn cidr_ip: (Cidr) -> Ip, name = "ip")?;
    cel::add_member_overload!(env, fn prefix_length: (Cidr) -> CelInt)?;
    cel::add_member_overload!(env, fn masked: (Cidr) -> Cidr)?;
    Ok(())
}
