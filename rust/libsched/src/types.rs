//! The result documents of docs/api.md as typed structs. Fields the library
//! adds later are ignored when decoding (docs/abi.md: result JSON only grows).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// What [`Engine::apply`](crate::Engine::apply) did (docs/api.md, "Cluster
/// events").
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ApplySummary {
    /// Items applied (upserted or deleted).
    pub applied: u64,
    /// Items of kinds the engine does not read, counted by `kind`.
    #[serde(default)]
    pub ignored: BTreeMap<String, u64>,
    /// Pods without `spec.nodeName` among the items; they join the
    /// scheduling queue when a profile serves their `spec.schedulerName`.
    pub pending_pods: u64,
}

/// The outcome of a scheduling cycle, as kube-scheduler writes it in the
/// pod's `PodScheduled` condition.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum Reason {
    /// A node was chosen ([`ScheduleResult::node`]).
    Scheduled,
    /// No node fits; the message is upstream's FitError message.
    Unschedulable,
    /// A plugin failed; the message says why.
    SchedulerError,
    /// A reason this crate does not know (a newer library).
    #[serde(other)]
    Other,
}

/// One scheduling cycle's result (docs/api.md, "Schedule result"), from
/// [`Engine::schedule`](crate::Engine::schedule) or one entry of
/// [`Engine::run`](crate::Engine::run). Mirrors upstream's `ScheduleResult`
/// and `FitError` (pkg/scheduler/schedule_one.go, framework/types.go).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScheduleResult {
    /// The pod's `namespace/name`.
    pub pod: String,
    /// The chosen node; `None` when the pod was not scheduled.
    pub node: Option<String>,
    /// Whether the pod was scheduled.
    pub reason: Reason,
    /// Why the pod was not scheduled (`"0/3 nodes are available: ..."`);
    /// empty when it was.
    #[serde(default)]
    pub message: String,
    /// Nodes in the cluster.
    pub num_all_nodes: u64,
    /// Nodes visited, feasible or rejected (`ScheduleResult.EvaluatedNodes`).
    pub evaluated_nodes: u64,
    /// Nodes that passed every Filter plugin.
    pub feasible_nodes: u64,
    /// The pod was added to `node` ([`ScheduleFlags::ASSUME`], and every
    /// placed pod of [`Engine::run`](crate::Engine::run)).
    pub assumed: bool,
    /// Set when preemption found a node that fits once
    /// [`victims`](Self::victims) are deleted; the engine deletes nothing.
    #[serde(default)]
    pub nominated_node_name: Option<String>,
    /// The pods to evict for `nominated_node_name`, most important first.
    #[serde(default)]
    pub victims: Vec<Victim>,
    /// Every rejected node; only with [`ScheduleFlags::NODE_STATUSES`].
    #[serde(default)]
    pub node_statuses: Vec<NodeStatus>,
    /// Every rejected node, grouped by verdict; with
    /// [`ScheduleFlags::NODE_STATUS_GROUPS`] in place of `node_statuses`.
    #[serde(default)]
    pub node_status_groups: Vec<NodeStatusGroup>,
    /// Weighted scores of the feasible nodes; only with
    /// [`ScheduleFlags::SCORES`] and at least two feasible nodes.
    #[serde(default)]
    pub scores: Option<ScoreTable>,
    /// Every scored node's total score, grouped by total; only with
    /// [`ScheduleFlags::SCORE_TOTALS`] (empty when fewer than two nodes
    /// were feasible).
    #[serde(default)]
    pub score_totals: Vec<ScoreTotal>,
}

/// A pod preemption would evict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Victim {
    /// The pod's namespace.
    pub namespace: String,
    /// The pod's name.
    pub name: String,
    /// The pod's `metadata.uid` (empty when the object had none).
    #[serde(default)]
    pub uid: String,
}

/// Why one node was rejected.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeStatus {
    /// The node's name.
    pub node: String,
    /// The framework status code name: `Unschedulable`,
    /// `UnschedulableAndUnresolvable`, ...
    pub code: String,
    /// The first plugin that rejected the node.
    pub plugin: String,
    /// The plugin's reasons, e.g. `Insufficient cpu`.
    #[serde(default)]
    pub reasons: Vec<String>,
}

/// The nodes rejected with one verdict. Groups come in the order of their
/// first node in `node_statuses`, and each group's nodes in that order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeStatusGroup {
    /// As [`NodeStatus::code`].
    pub code: String,
    /// As [`NodeStatus::plugin`].
    pub plugin: String,
    /// As [`NodeStatus::reasons`].
    #[serde(default)]
    pub reasons: Vec<String>,
    /// The nodes rejected this way.
    pub nodes: Vec<String>,
}

/// The nodes whose weighted scores sum to one total. Groups come in the
/// order of their first scored node, and each group's nodes in that order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScoreTotal {
    /// As [`NodeScores::total_score`].
    pub total_score: i64,
    /// The nodes with this total.
    pub nodes: Vec<String>,
}

/// Weighted per-plugin scores (upstream's `fwk.NodePluginScores`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreTable {
    /// The Score plugins, in order; plugins whose PreScore returned Skip
    /// are absent.
    pub plugins: Vec<String>,
    /// One row per scored node.
    pub nodes: Vec<NodeScores>,
}

/// One node's row of a [`ScoreTable`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeScores {
    /// The node's name.
    pub node: String,
    /// The sum of `scores`.
    pub total_score: i64,
    /// Weighted scores, parallel to [`ScoreTable::plugins`].
    pub scores: Vec<i64>,
}

/// What [`Engine::run`](crate::Engine::run) did: one result per cycle, in
/// order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunResult {
    /// The cycles' results.
    pub results: Vec<ScheduleResult>,
}

/// The scheduling queue (docs/api.md, "Queue"), from
/// [`Engine::queue`](crate::Engine::queue).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct QueueState {
    /// The queue's clock, in milliseconds since the engine was created.
    pub now_millis: u64,
    /// Scheduling cycles run so far.
    pub scheduling_cycle: u64,
    /// Every queued pod.
    pub pods: Vec<QueuedPod>,
}

/// Which of the queue's parts holds a pod.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum QueueName {
    /// activeQ: ready to try.
    Active,
    /// backoffQ: failed, waiting out its backoff.
    Backoff,
    /// Waiting for a cluster event that may help, or gated.
    Unschedulable,
    /// Popped for a cycle (never seen through the C API).
    InFlight,
    /// A queue this crate does not know (a newer library).
    #[serde(other)]
    Other,
}

/// Where one pod waits, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct QueuedPod {
    /// The pod's `namespace/name`.
    pub pod: String,
    /// The queue holding it.
    pub queue: QueueName,
    /// Scheduling attempts so far.
    pub attempts: u64,
    /// The plugins that rejected it in its last cycle.
    #[serde(default)]
    pub unschedulable_plugins: Vec<String>,
    /// `SchedulingGates` while the pod has `spec.schedulingGates`.
    #[serde(default)]
    pub gating_plugin: Option<String>,
    /// When it was queued, in queue-clock milliseconds.
    pub queued_at_millis: u64,
    /// When its backoff ends; set once the pod has failed.
    #[serde(default)]
    pub backoff_expires_at_millis: Option<u64>,
    /// The node a preemption in [`run`](crate::Engine::run) nominated it
    /// to, while the nomination holds (upstream's
    /// `status.nominatedNodeName`, `backend/queue/nominator.go`).
    #[serde(default)]
    pub nominated_node_name: Option<String>,
}

/// The engine's counters (docs/api.md, "Statistics"), from
/// [`Engine::stats`](crate::Engine::stats).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Stats {
    /// The equivalence-class cache, summed over the profiles.
    pub equivalence_cache: EquivalenceCacheStats,
}

/// The equivalence-class cache's counters since the engine was created.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EquivalenceCacheStats {
    /// False when the config set `equivalenceCache: false` (all counters 0).
    pub enabled: bool,
    /// Cycles that found their class's entry.
    pub hits: u64,
    /// Cycles that created it.
    pub misses: u64,
    /// Cycles that could not use the cache.
    pub bypasses: u64,
    /// Cached cycles whose scores were computed in full.
    pub score_bypasses: u64,
    /// Node evaluations in hit cycles (the node changed or was new).
    pub repairs: u64,
    /// Node verdicts and score rows taken from the cache.
    pub reused: u64,
    /// Hit cycles answered by the failure memo (also counted in `hits`).
    #[serde(default)]
    pub parked: u64,
}

/// Which nodes [`Engine::nodes`](crate::Engine::nodes) reports (docs/api.md,
/// "Nodes"); the default selects every node. Both given: both must hold.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeQuery {
    /// Only these nodes; names that are no node are skipped.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<String>,
    /// Only the nodes whose labels it matches (`metav1.LabelSelector`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label_selector: Option<LabelSelector>,
}

/// A `metav1.LabelSelector`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LabelSelector {
    /// Labels that must be present with these values.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub match_labels: BTreeMap<String, String>,
    /// Requirements that must all hold.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub match_expressions: Vec<LabelSelectorRequirement>,
}

/// A `metav1.LabelSelectorRequirement`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LabelSelectorRequirement {
    /// The label key.
    pub key: String,
    /// `In`, `NotIn`, `Exists` or `DoesNotExist`.
    pub operator: String,
    /// The values of `In` and `NotIn`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
}

/// One node as the engine schedules against it: `framework.NodeInfo`'s
/// aggregates, from [`Engine::nodes`](crate::Engine::nodes).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeState {
    /// The node's name.
    pub name: String,
    /// Every label of the node.
    #[serde(default)]
    pub labels: BTreeMap<String, String>,
    /// `status.allocatable`.
    pub allocatable: Resource,
    /// `NodeInfo.Requested`: the requests of the pods bound or assumed on
    /// the node, each as the scheduler counts it (init containers,
    /// sidecars, overhead); `allowed_pod_number` is 0.
    pub requested: Resource,
    /// `NodeInfo.NonZeroRequested` (100m CPU, 200Mi memory for containers
    /// requesting none); only `milli_cpu` and `memory`.
    pub non_zero_requested: Resource,
    /// Pods bound or assumed on the node.
    pub pod_count: u64,
}

/// A `framework.Resource`: CPU in milli-CPU, memory and ephemeral storage
/// in bytes, the `pods` resource, and the scalar resources (extended,
/// `hugepages-*`, `attachable-volumes-*`) by name.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Resource {
    /// Milli-CPU.
    #[serde(rename = "milliCPU")]
    pub milli_cpu: i64,
    /// Bytes.
    pub memory: i64,
    /// Bytes.
    #[serde(default)]
    pub ephemeral_storage: i64,
    /// The `pods` resource.
    #[serde(default)]
    pub allowed_pod_number: i64,
    /// Scalar resources by name.
    #[serde(default)]
    pub scalar_resources: BTreeMap<String, i64>,
}
