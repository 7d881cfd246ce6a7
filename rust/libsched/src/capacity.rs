//! The document [`Engine::capacity`](crate::Engine::capacity) returns
//! (`sched_engine_capacity`; docs/api.md, "Capacity").

use serde::{Deserialize, Serialize};

/// How many more replicas of a pod template fit, and where.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Capacity {
    /// `namespace/name` of the template.
    pub pod: String,
    /// Replicas that fit.
    pub replicas: i64,
    /// `max_replicas` fit (the cluster may hold more).
    pub capped: bool,
    /// The FitError of the first replica that fit nowhere (empty when capped).
    pub message: String,
    /// Replicas per node, sorted by node name.
    pub nodes: Vec<NodeReplicas>,
    /// Each replica's node, in scheduling order.
    pub placements: Vec<String>,
}

/// How many replicas went to one node.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeReplicas {
    /// The node.
    pub node: String,
    /// Replicas placed there.
    pub replicas: i64,
}
