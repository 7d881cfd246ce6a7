//! The document [`Engine::explain`](crate::Engine::explain) returns
//! (`sched_engine_explain`; docs/api.md, "Explain").

use serde::{Deserialize, Serialize};

/// Where a pending pod would fit and why not elsewhere, node by node and
/// plugin by plugin.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Explanation {
    /// `namespace/name`.
    pub pod: String,
    /// True when the pod could not be evaluated (no nodes, a plugin's
    /// Error status); `message` says why.
    pub error: bool,
    /// Upstream's FitError text (`0/N nodes are available: ...`) when no
    /// node fits, else `K/N nodes are feasible.`.
    pub message: String,
    /// `message` and the nearest misses in at most 1,024 bytes: what fits
    /// a Kubernetes Event's message.
    pub summary: String,
    /// Nodes in the cluster.
    pub num_all_nodes: i64,
    /// Nodes that pass every Filter.
    pub feasible_nodes: i64,
    /// Set when a PreFilter plugin rejected the pod.
    #[serde(default)]
    pub pre_filter: Option<Verdict>,
    /// The FitError histogram: each reason with its node count, most first.
    pub reasons: Vec<ReasonCount>,
    /// Nodes one Filter plugin alone rejects, grouped, most nodes first.
    pub nearest_misses: Vec<NearMiss>,
    /// The Score plugins that ran, with their weights.
    pub score_plugins: Vec<ScoreWeight>,
    /// Every node, in the engine's node-list order.
    pub nodes: Vec<NodeExplanation>,
}

/// One plugin's (or the cycle's) outcome on a node; `code` is a framework
/// status code name (`Success`, `Unschedulable`, ...).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    /// The plugin (empty for success).
    pub plugin: String,
    /// The status code's name.
    pub code: String,
    /// The reasons, in the plugin's order.
    pub reasons: Vec<String>,
}

/// A FitError histogram entry.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReasonCount {
    /// The reason.
    pub reason: String,
    /// Nodes giving it.
    pub nodes: i64,
}

/// Nodes one plugin alone rejects for the same reasons.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NearMiss {
    /// The rejecting plugin.
    pub plugin: String,
    /// Its reasons.
    pub reasons: Vec<String>,
    /// TaintToleration: the untolerated taint, `key=value:Effect`.
    #[serde(default)]
    pub taint: Option<String>,
    /// NodeResourcesFit: the smallest lack per resource.
    #[serde(default)]
    pub shortfalls: Vec<Shortfall>,
    /// How many nodes.
    pub nodes: i64,
    /// The group's first node.
    pub example_node: String,
    /// For people: `needs 300m more cpu on 12 nodes`.
    pub text: String,
}

/// How much of a resource a node lacks.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shortfall {
    /// `cpu`, `memory`, `ephemeral-storage`, `pods` or an extended resource.
    pub resource: String,
    /// Milli-CPU for `cpu`, bytes for memory and storage, else a count.
    pub amount: i64,
    /// In Kubernetes notation (`300m`, `1Gi`).
    pub quantity: String,
}

/// A Score plugin that ran, with its weight.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreWeight {
    /// The plugin.
    pub name: String,
    /// Its weight.
    pub weight: i64,
}

/// One node: the cycle's verdict, each Filter plugin's own, and for a
/// feasible node its scores, parallel to [`Explanation::score_plugins`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeExplanation {
    /// The node's name.
    pub node: String,
    /// Passes every Filter.
    pub feasible: bool,
    /// The scheduling cycle's verdict (nominated pods counted).
    #[serde(flatten)]
    pub verdict: Verdict,
    /// Each Filter plugin that ran, alone, against the node as it is.
    pub filters: Vec<Verdict>,
    /// Per Score plugin, for a feasible node.
    pub scores: Vec<PluginScore>,
    /// The sum of the weighted scores.
    pub total_score: i64,
}

/// One Score plugin on one node.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PluginScore {
    /// Score's value.
    pub raw: i64,
    /// After NormalizeScore (equal to `raw` without one).
    pub normalized: i64,
    /// `normalized` times the plugin's weight.
    pub weighted: i64,
}
