//! The document [`Engine::scale_up`](crate::Engine::scale_up) returns
//! (`sched_engine_scale_up`; docs/api.md, "Scale-up").

use serde::{Deserialize, Serialize};

/// How many new nodes of each template make pending pods fit, and where.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScaleUp {
    /// Pods that fit existing nodes, in order.
    pub existing: Vec<PodPlacement>,
    /// One estimate per template, in request order.
    pub templates: Vec<TemplateEstimate>,
    /// Pods on no existing node that no template's fresh node fits.
    pub unhelped: Vec<UnhelpedPod>,
}

/// Where a pod (`namespace/name`) went.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PodPlacement {
    /// The pod.
    pub pod: String,
    /// Its node.
    pub node: String,
}

/// cluster-autoscaler's binpacking estimate for one template.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TemplateEstimate {
    /// The template node's name.
    pub template: String,
    /// The estimate: new nodes with pods.
    pub nodes: i64,
    /// The nodes added (`<template>-scaleup-<i>`), in creation order.
    pub new_nodes: Vec<NewNode>,
    /// Pods placed on new nodes, in estimate order.
    pub placements: Vec<PodPlacement>,
    /// Pods this template leaves pending.
    pub pending: Vec<ScaleUpPending>,
}

/// One node the estimate added.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewNode {
    /// Its name.
    pub node: String,
    /// Pods placed on it.
    pub pods: i64,
}

/// A pod a template does not place.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScaleUpPending {
    /// The pod.
    pub pod: String,
    /// `NoFit` (no fresh node of the template fits it), `NewNode` (a fresh
    /// node in the estimate did not) or `MaxNodes` (beyond `maxNodes`).
    pub reason: String,
    /// The template node's FitError (empty for `MaxNodes`).
    pub message: String,
}

/// A pod no template helps.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnhelpedPod {
    /// The pod.
    pub pod: String,
    /// Each template's FitError.
    pub reasons: Vec<TemplateReason>,
}

/// One template's FitError for a pod.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TemplateReason {
    /// The template.
    pub template: String,
    /// The FitError on a fresh node of it.
    pub message: String,
}
