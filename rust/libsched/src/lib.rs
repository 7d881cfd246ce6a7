//! Safe Rust binding of libsched, a Kubernetes pod scheduling engine that
//! makes kube-scheduler's decisions (its default profile, or the profiles
//! of a `KubeSchedulerConfiguration`) behind a C ABI.
//!
//! An [`Engine`] holds a cluster (nodes, bound pods, ... applied as the API
//! server serializes them) and schedules pods on it. Inputs are JSON bytes
//! (`&str`, `&[u8]`) or any serde-serializable object (e.g. `k8s-openapi`
//! types); results are typed structs mirroring the documents of
//! docs/api.md.
//!
//! ```
//! use libsched::{Engine, ScheduleFlags};
//!
//! let engine = Engine::new("{}")?;  // the default profile
//! engine.apply(r#"{"kind":"Node","apiVersion":"v1","metadata":{"name":"n1"},
//!     "status":{"allocatable":{"cpu":"4","memory":"8Gi","pods":"110"}}}"#)?;
//! let pod = r#"{"kind":"Pod","apiVersion":"v1","metadata":{"name":"web","namespace":"prod"},
//!     "spec":{"containers":[{"name":"c","image":"nginx",
//!     "resources":{"requests":{"cpu":"1","memory":"1Gi"}}}]}}"#;
//! let result = engine.schedule(pod, ScheduleFlags::ASSUME)?;
//! println!("{} -> {:?}", result.pod, result.node);
//!
//! // Bad input is an error naming the field.
//! let err = engine.schedule(pod.replace("\"1\"", "\"lots\""), ScheduleFlags::empty()).unwrap_err();
//! assert_eq!(err.path(), "spec.containers[0].resources.requests.cpu");
//! # Ok::<(), libsched::Error>(())
//! ```
//!
//! Linking: the `libsched-sys` crate finds the C library with pkg-config
//! (`libsched.pc`), dynamically by default; the `static` feature links
//! `libsched.a`. See docs/rust.md in the repository.
#![warn(missing_docs)]

mod capacity;
mod drain;
mod engine;
mod error;
mod explain;
mod flags;
mod scale_up;
mod score;
mod types;

pub use capacity::{Capacity, NodeReplicas};
pub use drain::{Drain, DrainLeft, DrainNode, DrainPod};
pub use engine::Engine;
pub use error::{Code, Error, Result};
pub use explain::{
    Explanation, NearMiss, NodeExplanation, PluginScore, ReasonCount, ScoreWeight, Shortfall,
    Verdict,
};
pub use flags::ScheduleFlags;
pub use scale_up::{
    NewNode, PodPlacement, ScaleUp, ScaleUpPending, TemplateEstimate, TemplateReason, UnhelpedPod,
};
pub use score::ScoreAnswer;
pub use types::{
    ApplySummary, EquivalenceCacheStats, LabelSelector, LabelSelectorRequirement, NodeQuery,
    NodeScores, NodeState, NodeStatus, NodeStatusGroup, QueueName, QueueState, QueuedPod, Reason,
    Resource, RunResult, ScheduleResult, ScoreTable, ScoreTotal, Stats, Victim,
};

use std::ffi::CStr;

use libsched_sys as sys;

/// The version of `sched.h` this crate was built against, `"MAJOR.MINOR.PATCH"`.
pub const HEADER_VERSION: &str = env!("CARGO_PKG_VERSION");

fn static_str(p: *const std::os::raw::c_char) -> &'static str {
    // SAFETY: the version functions return NUL-terminated static storage.
    unsafe { CStr::from_ptr(p) }.to_str().unwrap_or("")
}

/// The loaded library's version, `"MAJOR.MINOR.PATCH"` (`sched_version`).
///
/// ```
/// assert_eq!(libsched::version(), libsched::HEADER_VERSION);
/// ```
pub fn version() -> &'static str {
    // SAFETY: no arguments; static result.
    static_str(unsafe { sys::sched_version() })
}

/// The loaded library's version as `MAJOR*10000 + MINOR*100 + PATCH`
/// (`sched_version_number`).
///
/// ```
/// assert!(libsched::version_number() >= 100);
/// ```
pub fn version_number() -> u32 {
    // SAFETY: no arguments.
    unsafe { sys::sched_version_number() }
}

/// The kube-scheduler release whose decisions the engine mirrors, e.g.
/// `"v1.36.3"` (`sched_upstream_version`).
///
/// ```
/// assert!(libsched::upstream_version().starts_with("v1."));
/// ```
pub fn upstream_version() -> &'static str {
    // SAFETY: no arguments; static result.
    static_str(unsafe { sys::sched_upstream_version() })
}
