//! The document [`Engine::score`](crate::Engine::score) returns
//! (`sched_engine_score`; docs/api.md, "Score").

use serde::{Deserialize, Serialize};

/// A pod's total scores on the nodes asked about.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScoreAnswer {
    /// PreFilter rejected the pod or a plugin failed; `message` says why
    /// and `total_scores` is empty.
    pub error: bool,
    /// Why, when `error`; else empty.
    pub message: String,
    /// Parallel to the nodes asked about: each one's sum of weighted
    /// scores.
    pub total_scores: Vec<i64>,
}
