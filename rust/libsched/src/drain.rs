//! The document [`Engine::drain`](crate::Engine::drain) returns
//! (`sched_engine_drain`; docs/api.md, "Drain").

use serde::{Deserialize, Serialize};

/// Can these nodes be removed, and where would their pods go?
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Drain {
    /// Every node asked about is removable.
    pub removable: bool,
    /// The nodes asked about, in the order given.
    pub nodes: Vec<DrainNode>,
    /// The pods that move, in scheduling (queue) order.
    pub pods: Vec<DrainPod>,
    /// The pods that do not move: DaemonSet and mirror pods.
    pub left: Vec<DrainLeft>,
}

/// The verdict on one node.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrainNode {
    /// The node.
    pub node: String,
    /// No eviction blocked and every moving pod found a node.
    pub removable: bool,
    /// Pods scheduled again.
    pub moved: i64,
    /// Of those, the ones that fit nowhere.
    pub pending: i64,
    /// Pods whose eviction a PodDisruptionBudget blocks.
    pub blocked: i64,
    /// DaemonSet and mirror pods.
    pub left: i64,
}

/// Where one pod of a drained node goes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DrainPod {
    /// `namespace/name`.
    pub pod: String,
    /// The drained node it was on.
    pub from: String,
    /// Its new node; `None` when it fits nowhere.
    pub node: Option<String>,
    /// Its FitError when it fits nowhere.
    #[serde(default)]
    pub message: String,
    /// `namespace/name` of the PodDisruptionBudget that blocks its eviction.
    #[serde(default, rename = "blockingPDB")]
    pub blocking_pdb: Option<String>,
}

/// A pod that is not scheduled again.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrainLeft {
    /// `namespace/name`.
    pub pod: String,
    /// Its node.
    pub from: String,
    /// `DaemonSet` or `MirrorPod`.
    pub reason: String,
}
