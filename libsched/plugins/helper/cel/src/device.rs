//! The `device` variable of the DRA CEL environment, built as
//! k8s.io/dynamic-resource-allocation/cel's DeviceMatches builds it: `driver`,
//! `allowMultipleAllocations`, and `attributes` and `capacity` as maps from
//! domain to maps from id to value, a name without a domain going under the
//! driver's. Looking up a domain the device lacks gives an empty map
//! (upstream's newStringInterfaceMapWithDefault), so that
//! `device.attributes["other.example.com"].x` fails with "no such key: x".

use crate::quantity::Quantity;
use crate::semver::Semver;
use cel::common::traits::{self, Container, Indexer, Iterable, Sizer};
use cel::common::types::{self, CelBool, CelInt, CelMap, CelMapKey, CelString, Type};
use cel::common::value::{CowVal, Val};
use cel::ExecutionError;
use std::collections::HashMap;

/// One attribute's value (resource.k8s.io/v1 DeviceAttribute).
pub enum Attribute<'a> {
    Int(i64),
    Bool(bool),
    String(&'a str),
    Version(&'a str),
}

/// A map from domain to a map from id to value, defaulting to an empty map.
#[derive(Debug, Default, Clone)]
pub struct DomainMap(CelMap<'static>);

impl Val for DomainMap {
    fn get_type(&self) -> &Type {
        &types::MAP_TYPE
    }
    fn cel_type() -> &'static Type {
        &types::MAP_TYPE
    }
    fn as_container(&self) -> Option<&dyn Container> {
        Some(self)
    }
    fn as_indexer<'b, 'w>(&'b self) -> Option<&'b (dyn Indexer + 'w)>
    where
        Self: 'w,
    {
        Some(self)
    }
    fn as_iterable<'b, 'w>(&'b self) -> Option<&'b (dyn Iterable + 'w)>
    where
        Self: 'w,
    {
        Some(self)
    }
    fn as_sizer(&self) -> Option<&dyn Sizer> {
        Some(&self.0)
    }
    fn equals(&self, other: &dyn Val) -> bool {
        match other.downcast_ref::<DomainMap>() {
            Some(o) => self.0.equals(&o.0),
            None => self.0.equals(other),
        }
    }
    fn clone_as_boxed<'v>(&self) -> Box<dyn Val + 'v> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> Option<&dyn std::any::Any> {
        Some(self)
    }
}
impl cel::common::value::StaticVal for DomainMap {}

impl Container for DomainMap {
    fn contains(&self, key: &dyn Val) -> Result<bool, ExecutionError> {
        self.0.contains(key)
    }
}

impl Indexer for DomainMap {
    fn get<'b, 'w>(&'b self, key: &dyn Val) -> Result<CowVal<'b, 'w>, ExecutionError>
    where
        Self: 'w,
    {
        match self.0.get(key) {
            Err(ExecutionError::NoSuchKey(_)) => Ok(CowVal::owned(CelMap::default())),
            other => other,
        }
    }
    fn steal<'w>(self: Box<Self>, key: &dyn Val) -> Result<Box<dyn Val + 'w>, ExecutionError>
    where
        Self: 'w,
    {
        self.get(key).map(|v| v.into_owned())
    }
}

impl Iterable for DomainMap {
    fn iter<'b, 'w>(&'b self) -> Box<dyn traits::Iterator<'b, 'w> + 'b>
    where
        Self: 'w,
    {
        self.0.iter()
    }
}

/// Collects entries per domain, then freezes them into a DomainMap.
#[derive(Default)]
struct DomainMapBuilder(HashMap<String, HashMap<CelMapKey<'static>, Box<dyn Val>>>);

impl DomainMapBuilder {
    fn insert(&mut self, qualified_name: &str, driver: &str, value: Box<dyn Val>) {
        // parseQualifiedName: split at the first '/'.
        let (domain, id) = qualified_name
            .split_once('/')
            .unwrap_or((driver, qualified_name));
        self.0
            .entry(domain.to_owned())
            .or_default()
            .insert(CelMapKey::from(id.to_owned()), value);
    }

    fn build(self) -> DomainMap {
        let outer: HashMap<CelMapKey<'static>, Box<dyn Val>> = self
            .0
            .into_iter()
            .map(|(domain, inner)| {
                (
                    CelMapKey::from(domain),
                    Box::new(CelMap::from(inner)) as Box<dyn Val>,
                )
            })
            .collect();
        DomainMap(CelMap::from(outer))
    }
}

/// The `device` value, or upstream's error for an attribute it cannot hold
/// or a capacity that is not a quantity.
pub fn device_value<'a>(
    driver: &str,
    allow_multiple_allocations: bool,
    attributes: impl Iterator<Item = (&'a str, Attribute<'a>)>,
    capacity: impl Iterator<Item = (&'a str, &'a str)>,
) -> Result<CelMap<'static>, String> {
    let mut attrs = DomainMapBuilder::default();
    for (name, attribute) in attributes {
        let value: Box<dyn Val> = match attribute {
            Attribute::Int(i) => Box::new(CelInt::from(i)),
            Attribute::Bool(b) => Box::new(CelBool::from(b)),
            Attribute::String(s) => Box::new(CelString::from(s.to_owned())),
            Attribute::Version(v) => Box::new(
                Semver::parse(v)
                    .map_err(|e| format!("attribute {name}: parse semantic version: {e}"))?,
            ),
        };
        attrs.insert(name, driver, value);
    }
    let mut caps = DomainMapBuilder::default();
    for (name, text) in capacity {
        let q = Quantity::parse(text)
            .ok_or_else(|| format!("capacity {name}: invalid quantity {text:?}"))?;
        caps.insert(name, driver, Box::new(q));
    }
    let mut device: HashMap<CelMapKey<'static>, Box<dyn Val>> = HashMap::new();
    device.insert(
        "driver".into(),
        Box::new(CelString::from(driver.to_owned())),
    );
    device.insert(
        "allowMultipleAllocations".into(),
        Box::new(CelBool::from(allow_multiple_allocations)),
    );
    device.insert("attributes".into(), Box::new(attrs.build()));
    device.insert("capacity".into(), Box::new(caps.build()));
    Ok(CelMap::from(device))
}
