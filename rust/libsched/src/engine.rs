//! `Engine`: the owner of one `sched_engine` handle.

use std::ffi::CStr;
use std::os::raw::c_char;
use std::ptr::{self, NonNull};
use std::time::Duration;

use libsched_sys as sys;
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::capacity::Capacity;
use crate::drain::Drain;
use crate::error::{Error, Result};
use crate::explain::Explanation;
use crate::scale_up::ScaleUp;
use crate::score::ScoreAnswer;
use crate::types::{
    ApplySummary, NodeQuery, NodeState, QueueState, RunResult, ScheduleResult, Stats,
};
use crate::ScheduleFlags;

/// A scheduling engine: the cluster state, the profiles of its config and
/// the scheduling queue (`sched_engine` in `sched.h`). Dropping it frees
/// everything it holds.
///
/// Every method takes `&self`: the library serializes calls on one engine
/// internally (sched.h convention 6), so an `Engine` is [`Send`] and
/// [`Sync`] and may be shared across threads, e.g. in an
/// [`Arc`](std::sync::Arc). A call that fails with
/// [`Code::InvalidArgument`](crate::Code::InvalidArgument) leaves the engine
/// exactly as it was.
///
/// ```
/// use libsched::{Engine, ScheduleFlags};
///
/// let engine = Engine::new("{}")?;
/// engine.apply(r#"{"kind":"Node","apiVersion":"v1","metadata":{"name":"n1"},
///     "status":{"allocatable":{"cpu":"2","memory":"4Gi","pods":"110"}}}"#)?;
/// let result = engine.schedule(
///     r#"{"kind":"Pod","apiVersion":"v1","metadata":{"name":"web","namespace":"default"},
///         "spec":{"containers":[{"name":"c","image":"nginx",
///         "resources":{"requests":{"cpu":"500m"}}}]}}"#,
///     ScheduleFlags::ASSUME,
/// )?;
/// assert_eq!(result.node.as_deref(), Some("n1"));
/// # Ok::<(), libsched::Error>(())
/// ```
#[derive(Debug)]
pub struct Engine {
    raw: NonNull<sys::sched_engine>,
}

// SAFETY: sched.h convention 6: functions on one engine may be called from
// any thread, concurrently (calls are serialized internally), and the
// handle is not tied to the thread that created it. sched_engine_free must
// not race with other calls, which `Drop` taking `&mut self` guarantees.
unsafe impl Send for Engine {}
// SAFETY: as above; every method takes &self and the library locks.
unsafe impl Sync for Engine {}

/// Takes a string the library returned (and frees it).
///
/// # Safety
/// `p` is a NUL-terminated string from the library, not yet freed.
unsafe fn take_string(p: *mut c_char) -> Vec<u8> {
    let bytes = CStr::from_ptr(p).to_bytes().to_vec();
    sys::sched_free(p.cast());
    bytes
}

fn decode<T: DeserializeOwned>(json: &[u8]) -> Result<T> {
    serde_json::from_slice(json)
        .map_err(|e| Error::internal(format!("decoding the library's result: {e}")))
}

fn encode<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>> {
    serde_json::to_vec(value).map_err(|e| Error::internal(format!("encoding the input: {e}")))
}

/// Turns a status and its error out-parameter into a `Result`.
///
/// # Safety
/// `err` is what the call stored (NULL on success).
unsafe fn check(status: sys::sched_status, err: *mut sys::sched_error) -> Result<()> {
    if status == sys::SCHED_OK {
        Ok(())
    } else {
        Err(Error::from_raw(status, err))
    }
}

impl Engine {
    /// Creates an engine from a configuration document (docs/api.md,
    /// "Config"): a `KubeSchedulerConfiguration` or a legacy `Policy`;
    /// `"{}"` is the default-scheduler profile with upstream defaults
    /// (`sched_engine_new`).
    ///
    /// # Errors
    /// [`Code::InvalidArgument`](crate::Code::InvalidArgument) naming the
    /// field, for a config upstream's validation would reject.
    ///
    /// ```
    /// let engine = libsched::Engine::new(r#"{"profiles":[{"schedulerName":"batch"}]}"#)?;
    /// # drop(engine);
    /// # Ok::<(), libsched::Error>(())
    /// ```
    pub fn new(config: impl AsRef<[u8]>) -> Result<Engine> {
        let config = config.as_ref();
        let mut raw = ptr::null_mut();
        let mut err = ptr::null_mut();
        // SAFETY: config is valid for len bytes; raw and err are out-params.
        unsafe {
            check(
                sys::sched_engine_new(config.as_ptr().cast(), config.len(), &mut raw, &mut err),
                err,
            )?;
        }
        NonNull::new(raw)
            .map(|raw| Engine { raw })
            .ok_or_else(|| Error::internal("sched_engine_new returned no engine".to_string()))
    }

    /// Applies cluster changes (`sched_engine_apply`): one watch event
    /// `{"type":"ADDED"|"MODIFIED"|"DELETED","object":{...}}`, an array of
    /// events, a `List`, or a single object, as the API server serializes
    /// them. All or nothing: if any item is invalid, nothing is applied.
    /// Pending pods join the scheduling queue ([`run`](Self::run)).
    ///
    /// # Errors
    /// [`Code::InvalidArgument`](crate::Code::InvalidArgument) with the path
    /// of the first invalid field, e.g. `items[3].spec.containers[0].resources.requests.cpu`.
    ///
    /// ```
    /// let engine = libsched::Engine::new("{}")?;
    /// let summary = engine.apply(r#"{"kind":"List","apiVersion":"v1","items":[
    ///     {"kind":"Node","apiVersion":"v1","metadata":{"name":"n1"}},
    ///     {"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"c"}}]}"#)?;
    /// assert_eq!(summary.applied, 1);
    /// assert_eq!(summary.ignored["ConfigMap"], 1);
    /// # Ok::<(), libsched::Error>(())
    /// ```
    pub fn apply(&self, json: impl AsRef<[u8]>) -> Result<ApplySummary> {
        let json = json.as_ref();
        // SAFETY: json is valid for len bytes.
        self.call(|e, out, err| unsafe {
            sys::sched_engine_apply(e, json.as_ptr().cast(), json.len(), out, err)
        })
    }

    /// [`apply`](Self::apply) for any value serde serializes to one of the
    /// accepted documents: a `k8s-openapi` `Node`, `Pod` or `List` as
    /// kube-rs users hold them, or a [`serde_json::Value`].
    ///
    /// ```
    /// let engine = libsched::Engine::new("{}")?;
    /// let node = serde_json::json!({"kind": "Node", "apiVersion": "v1",
    ///     "metadata": {"name": "n1"}});
    /// assert_eq!(engine.apply_object(&node)?.applied, 1);
    /// # Ok::<(), libsched::Error>(())
    /// ```
    pub fn apply_object<T: Serialize + ?Sized>(&self, object: &T) -> Result<ApplySummary> {
        self.apply(encode(object)?)
    }

    /// Runs one scheduling cycle for a pending `v1/Pod` and returns the
    /// outcome (`sched_engine_schedule`; upstream's `schedulingCycle`). A
    /// pod that fits nowhere is not an error: the result has `node: None`
    /// and upstream's FitError message. The scheduling queue is not used.
    ///
    /// # Errors
    /// [`Code::InvalidArgument`](crate::Code::InvalidArgument) for an invalid
    /// pod, or a `spec.schedulerName` no profile has.
    ///
    /// ```
    /// use libsched::{Engine, Reason, ScheduleFlags};
    ///
    /// let engine = Engine::new("{}")?;
    /// let pod = r#"{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","namespace":"d"},
    ///               "spec":{"containers":[{"name":"c","image":"i"}]}}"#;
    /// let result = engine.schedule(pod, ScheduleFlags::empty())?;
    /// assert_eq!(result.reason, Reason::Unschedulable);
    /// assert_eq!(result.message, "no nodes available to schedule pods");
    /// # Ok::<(), libsched::Error>(())
    /// ```
    pub fn schedule(&self, pod: impl AsRef<[u8]>, flags: ScheduleFlags) -> Result<ScheduleResult> {
        let pod = pod.as_ref();
        // SAFETY: pod is valid for len bytes.
        self.call(|e, out, err| unsafe {
            sys::sched_engine_schedule(e, pod.as_ptr().cast(), pod.len(), flags.bits(), out, err)
        })
    }

    /// [`schedule`](Self::schedule) for any value serde serializes to a
    /// `v1/Pod` (a `k8s-openapi` `Pod`, a [`serde_json::Value`]).
    ///
    /// ```
    /// let engine = libsched::Engine::new("{}")?;
    /// let pod = serde_json::json!({"kind": "Pod", "apiVersion": "v1",
    ///     "metadata": {"name": "p", "namespace": "d"},
    ///     "spec": {"containers": [{"name": "c", "image": "i"}]}});
    /// let result = engine.schedule_object(&pod, libsched::ScheduleFlags::empty())?;
    /// assert_eq!(result.pod, "d/p");
    /// # Ok::<(), libsched::Error>(())
    /// ```
    pub fn schedule_object<T: Serialize + ?Sized>(
        &self,
        pod: &T,
        flags: ScheduleFlags,
    ) -> Result<ScheduleResult> {
        self.schedule(encode(pod)?, flags)
    }

    /// Explains where a pending `v1/Pod` (JSON) would fit and why not
    /// elsewhere, against every node (`sched_engine_explain`): each node's
    /// verdict and each Filter plugin's, the raw, normalized and weighted
    /// scores, the reasons with node counts, the nearest misses and a
    /// summary of at most 1,024 bytes. Changes nothing in the engine.
    ///
    /// ```
    /// let engine = libsched::Engine::new("{}")?;
    /// engine.apply(r#"{"kind":"Node","apiVersion":"v1","metadata":{"name":"n1"},
    ///     "status":{"allocatable":{"cpu":"1","pods":"10"}}}"#)?;
    /// let pod = r#"{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","namespace":"d"},
    ///     "spec":{"containers":[{"name":"c","image":"i",
    ///     "resources":{"requests":{"cpu":"1300m"}}}]}}"#;
    /// let x = engine.explain(pod)?;
    /// assert_eq!(x.nearest_misses[0].text, "needs 300m more cpu on 1 node");
    /// # Ok::<(), libsched::Error>(())
    /// ```
    pub fn explain(&self, pod: impl AsRef<[u8]>) -> Result<Explanation> {
        let pod = pod.as_ref();
        // SAFETY: pod is valid for len bytes.
        self.call(|e, out, err| unsafe {
            sys::sched_engine_explain(e, pod.as_ptr().cast(), pod.len(), out, err)
        })
    }

    /// How many more replicas of the pending `v1/Pod` template `pod` fit,
    /// and where (`sched_engine_capacity`): copies scheduled one after
    /// another, each assumed before the next, until one fits nowhere or
    /// `max_replicas` fit (`None`: the library's bound, 100000), then all
    /// undone. A replica that could fit only by preemption ends the count.
    ///
    /// ```
    /// let engine = libsched::Engine::new("{}")?;
    /// engine.apply(r#"{"kind":"Node","apiVersion":"v1","metadata":{"name":"n1"},
    ///     "status":{"allocatable":{"cpu":"2","pods":"10"}}}"#)?;
    /// let pod = serde_json::json!({"kind": "Pod", "apiVersion": "v1",
    ///     "metadata": {"name": "web", "namespace": "d"},
    ///     "spec": {"containers": [{"name": "c", "image": "i",
    ///         "resources": {"requests": {"cpu": "600m"}}}]}});
    /// let c = engine.capacity(&pod, None)?;
    /// assert_eq!((c.replicas, c.placements.len()), (3, 3));
    /// # Ok::<(), libsched::Error>(())
    /// ```
    pub fn capacity<T: Serialize + ?Sized>(
        &self,
        pod: &T,
        max_replicas: Option<u32>,
    ) -> Result<Capacity> {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Request<'a, T: ?Sized> {
            pod: &'a T,
            #[serde(skip_serializing_if = "Option::is_none")]
            max_replicas: Option<u32>,
        }
        let request = encode(&Request { pod, max_replicas })?;
        // SAFETY: request is valid for len bytes.
        self.call(|e, out, err| unsafe {
            sys::sched_engine_capacity(e, request.as_ptr().cast(), request.len(), out, err)
        })
    }

    /// Can `nodes` be removed (`sched_engine_drain`)? Their pods are
    /// evicted and scheduled again on the other nodes in queue order, each
    /// assumed before the next, then all undone. DaemonSet pods are evicted
    /// without moving, mirror pods left; PodDisruptionBudgets block
    /// evictions as cluster-autoscaler's scale-down does.
    ///
    /// # Errors
    /// [`Code::InvalidArgument`](crate::Code::InvalidArgument) for no
    /// nodes, or an empty, repeated or unknown name (path `nodes[i]`).
    ///
    /// ```
    /// let engine = libsched::Engine::new("{}")?;
    /// engine.apply(r#"{"kind":"List","items":[
    ///   {"kind":"Node","apiVersion":"v1","metadata":{"name":"n1"},
    ///     "status":{"allocatable":{"cpu":"2","pods":"10"}}},
    ///   {"kind":"Node","apiVersion":"v1","metadata":{"name":"n2"},
    ///     "status":{"allocatable":{"cpu":"2","pods":"10"}}},
    ///   {"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","namespace":"d"},
    ///     "spec":{"nodeName":"n1","containers":[{"name":"c","image":"i"}]}}]}"#)?;
    /// let d = engine.drain(&["n1"])?;
    /// assert!(d.removable);
    /// assert_eq!(d.pods[0].node.as_deref(), Some("n2"));
    /// # Ok::<(), libsched::Error>(())
    /// ```
    pub fn drain<S: AsRef<str>>(&self, nodes: &[S]) -> Result<Drain> {
        let names: Vec<&str> = nodes.iter().map(AsRef::as_ref).collect();
        let request = encode(&serde_json::json!({ "nodes": names }))?;
        // SAFETY: request is valid for len bytes.
        self.call(|e, out, err| unsafe {
            sys::sched_engine_drain(e, request.as_ptr().cast(), request.len(), out, err)
        })
    }

    /// The preemption what-if (`sched_engine_preempt`): the result
    /// [`schedule`](Self::schedule) would return for the pending `v1/Pod`
    /// `pod` without flags (`node` when it fits as is, else
    /// `nominated_node_name` and the `victims` preemption would evict),
    /// with nothing changed.
    ///
    /// ```
    /// let engine = libsched::Engine::new("{}")?;
    /// engine.apply(r#"{"kind":"List","items":[
    ///   {"kind":"Node","apiVersion":"v1","metadata":{"name":"n1"},
    ///     "status":{"allocatable":{"cpu":"1","pods":"10"}}},
    ///   {"kind":"Pod","apiVersion":"v1","metadata":{"name":"low","namespace":"d"},
    ///     "spec":{"nodeName":"n1","containers":[{"name":"c","image":"i",
    ///     "resources":{"requests":{"cpu":"1"}}}]}}]}"#)?;
    /// let pod = serde_json::json!({"kind": "Pod", "apiVersion": "v1",
    ///     "metadata": {"name": "high", "namespace": "d"},
    ///     "spec": {"priority": 10, "containers": [{"name": "c", "image": "i",
    ///         "resources": {"requests": {"cpu": "1"}}}]}});
    /// let r = engine.preempt(&pod)?;
    /// assert_eq!(r.nominated_node_name.as_deref(), Some("n1"));
    /// assert_eq!(r.victims[0].name, "low");
    /// # Ok::<(), libsched::Error>(())
    /// ```
    pub fn preempt<T: Serialize + ?Sized>(&self, pod: &T) -> Result<ScheduleResult> {
        #[derive(Serialize)]
        struct Request<'a, T: ?Sized> {
            pod: &'a T,
        }
        let request = encode(&Request { pod })?;
        // SAFETY: request is valid for len bytes.
        self.call(|e, out, err| unsafe {
            sys::sched_engine_preempt(e, request.as_ptr().cast(), request.len(), out, err)
        })
    }

    /// Scores the pending `v1/Pod` `pod` on `nodes` alone
    /// (`sched_engine_score`; docs/api.md, "Score"): PreFilter, then
    /// PreScore, Score, NormalizeScore and the weights over exactly those
    /// nodes, no Filter, as upstream's prioritizeNodes over the feasible
    /// nodes a cycle found (plugins that normalize per cycle normalize
    /// over them). `total_scores` is parallel to `nodes`. Changes no
    /// state, queue or random source (the equivalence cache as
    /// [`schedule`](Self::schedule) does: never a different result).
    ///
    /// # Errors
    /// [`Code::InvalidArgument`](crate::Code::InvalidArgument) for a bad
    /// pod, no nodes, or an empty, repeated or unknown name (path
    /// `nodes[i]`). A pod PreFilter rejects is an answer with `error`.
    ///
    /// ```
    /// let engine = libsched::Engine::new("{}")?;
    /// engine.apply(r#"{"kind":"List","items":[
    ///   {"kind":"Node","apiVersion":"v1","metadata":{"name":"n1"},
    ///     "status":{"allocatable":{"cpu":"2","pods":"10"}}},
    ///   {"kind":"Node","apiVersion":"v1","metadata":{"name":"n2"},
    ///     "status":{"allocatable":{"cpu":"2","pods":"10"}}}]}"#)?;
    /// let pod = serde_json::json!({"kind": "Pod", "apiVersion": "v1",
    ///     "metadata": {"name": "p", "namespace": "d"},
    ///     "spec": {"containers": [{"name": "c", "image": "i"}]}});
    /// let s = engine.score(&pod, &["n2", "n1"])?;
    /// assert!(!s.error);
    /// assert_eq!(s.total_scores.len(), 2);
    /// # Ok::<(), libsched::Error>(())
    /// ```
    pub fn score<T: Serialize + ?Sized, S: AsRef<str>>(
        &self,
        pod: &T,
        nodes: &[S],
    ) -> Result<ScoreAnswer> {
        #[derive(Serialize)]
        struct Request<'a, T: ?Sized> {
            pod: &'a T,
            nodes: Vec<&'a str>,
        }
        let nodes = nodes.iter().map(AsRef::as_ref).collect();
        let request = encode(&Request { pod, nodes })?;
        // SAFETY: request is valid for len bytes.
        self.call(|e, out, err| unsafe {
            sys::sched_engine_score(e, request.as_ptr().cast(), request.len(), out, err)
        })
    }

    /// How many new nodes of each template make the pending `pods` fit,
    /// and where (`sched_engine_scale_up`): cluster-autoscaler's binpacking
    /// estimate, every fit decided by the engine's Filter plugins against
    /// the cluster plus the new nodes. `templates` are `(v1/Node, max_nodes)`
    /// (`None`: the library's default, 1000). Pods that fit existing nodes
    /// go there first. All undone afterwards.
    ///
    /// ```
    /// let engine = libsched::Engine::new("{}")?;
    /// let pod = |n: &str| serde_json::json!({"kind": "Pod", "apiVersion": "v1",
    ///     "metadata": {"name": n, "namespace": "d"},
    ///     "spec": {"containers": [{"name": "c", "image": "i",
    ///         "resources": {"requests": {"cpu": "600m"}}}]}});
    /// let node = serde_json::json!({"kind": "Node", "apiVersion": "v1",
    ///     "metadata": {"name": "pool"},
    ///     "status": {"allocatable": {"cpu": "2", "pods": "10"}}});
    /// let s = engine.scale_up(&[pod("a"), pod("b"), pod("c"), pod("d")], &[(node, None)])?;
    /// assert_eq!(s.templates[0].nodes, 2);
    /// # Ok::<(), libsched::Error>(())
    /// ```
    pub fn scale_up<P: Serialize, N: Serialize>(
        &self,
        pods: &[P],
        templates: &[(N, Option<u32>)],
    ) -> Result<ScaleUp> {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Template<'a, N> {
            node: &'a N,
            #[serde(skip_serializing_if = "Option::is_none")]
            max_nodes: Option<u32>,
        }
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Request<'a, P, N> {
            pods: &'a [P],
            node_templates: Vec<Template<'a, N>>,
        }
        let node_templates = templates
            .iter()
            .map(|(node, max_nodes)| Template {
                node,
                max_nodes: *max_nodes,
            })
            .collect();
        let request = encode(&Request {
            pods,
            node_templates,
        })?;
        // SAFETY: request is valid for len bytes.
        self.call(|e, out, err| unsafe {
            sys::sched_engine_scale_up(e, request.as_ptr().cast(), request.len(), out, err)
        })
    }

    /// Runs scheduling cycles from the scheduling queue at the current
    /// queue time, as kube-scheduler's `scheduleOne` loop
    /// (`sched_engine_run`): up to `max_cycles` pods, or with 0 until
    /// activeQ is empty. A pod that fits is assumed on its node; one that
    /// does not waits in the queue for a cluster event that may help it.
    /// `flags` may hold [`ScheduleFlags::NODE_STATUSES`] and
    /// [`ScheduleFlags::SCORES`].
    ///
    /// # Errors
    /// [`Code::InvalidArgument`](crate::Code::InvalidArgument) for
    /// [`ScheduleFlags::ASSUME`] or unknown bits.
    ///
    /// ```
    /// let engine = libsched::Engine::new("{}")?;
    /// engine.apply(r#"[{"type":"ADDED","object":{"kind":"Node","apiVersion":"v1",
    ///     "metadata":{"name":"n1"},"status":{"allocatable":{"cpu":"1","pods":"10"}}}},
    ///   {"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1",
    ///     "metadata":{"name":"p","namespace":"d"},
    ///     "spec":{"containers":[{"name":"c","image":"i"}]}}}]"#)?;
    /// let run = engine.run(0, libsched::ScheduleFlags::empty())?;
    /// assert_eq!(run.results[0].node.as_deref(), Some("n1"));
    /// # Ok::<(), libsched::Error>(())
    /// ```
    pub fn run(&self, max_cycles: u32, flags: ScheduleFlags) -> Result<RunResult> {
        // SAFETY: out and err are out-params.
        self.call(|e, out, err| unsafe {
            sys::sched_engine_run(e, max_cycles, flags.bits(), out, err)
        })
    }

    /// Moves the queue's clock forward (milliseconds; finer parts of
    /// `by` are dropped), then moves the pods whose backoff ended or that
    /// waited 5 minutes unschedulable (`sched_engine_advance_clock`).
    /// Nothing happens in the background: the clock moves only here.
    ///
    /// # Errors
    /// [`Code::InvalidArgument`](crate::Code::InvalidArgument), clock
    /// unchanged, when the clock would pass 9e12 ms.
    ///
    /// ```
    /// use std::time::Duration;
    /// let engine = libsched::Engine::new("{}")?;
    /// engine.advance_clock(Duration::from_secs(2))?;
    /// assert_eq!(engine.queue()?.now_millis, 2000);
    /// # Ok::<(), libsched::Error>(())
    /// ```
    pub fn advance_clock(&self, by: Duration) -> Result<()> {
        let millis = u64::try_from(by.as_millis()).unwrap_or(u64::MAX);
        let mut err = ptr::null_mut();
        // SAFETY: the handle is live.
        unsafe {
            check(
                sys::sched_engine_advance_clock(self.raw.as_ptr(), millis, &mut err),
                err,
            )
        }
    }

    /// Where every queued pod is and why (`sched_engine_queue`).
    ///
    /// ```
    /// let engine = libsched::Engine::new("{}")?;
    /// let queue = engine.queue()?;
    /// assert!(queue.pods.is_empty());
    /// # Ok::<(), libsched::Error>(())
    /// ```
    pub fn queue(&self) -> Result<QueueState> {
        self.read(sys::sched_engine_queue)
    }

    /// The engine's counters (`sched_engine_stats`). Changes nothing.
    ///
    /// ```
    /// let engine = libsched::Engine::new("{}")?;
    /// assert!(engine.stats()?.equivalence_cache.enabled);
    /// # Ok::<(), libsched::Error>(())
    /// ```
    pub fn stats(&self) -> Result<Stats> {
        self.read(sys::sched_engine_stats)
    }

    /// The nodes `query` selects, sorted by name, with their allocatable
    /// and requested resources (`sched_engine_nodes`): what utilization
    /// needs, without recomputing pod requests. Changes nothing.
    ///
    /// # Errors
    /// [`Code::InvalidArgument`](crate::Code::InvalidArgument) with the
    /// field's path for a bad query (an empty name, a selector the API
    /// server would refuse: `labelSelector.matchExpressions[0]`).
    ///
    /// ```
    /// let engine = libsched::Engine::new("{}")?;
    /// engine.apply(r#"{"kind":"Node","apiVersion":"v1","metadata":{"name":"n1"},
    ///     "status":{"allocatable":{"cpu":"2","pods":"10"}}}"#)?;
    /// let nodes = engine.nodes(&libsched::NodeQuery::default())?;
    /// assert_eq!((nodes[0].allocatable.milli_cpu, nodes[0].pod_count), (2000, 0));
    /// # Ok::<(), libsched::Error>(())
    /// ```
    pub fn nodes(&self, query: &NodeQuery) -> Result<Vec<NodeState>> {
        #[derive(serde::Deserialize)]
        struct Doc {
            nodes: Vec<NodeState>,
        }
        let query = encode(query)?;
        // SAFETY: query is valid for len bytes.
        let doc: Doc = self.call(|e, out, err| unsafe {
            sys::sched_engine_nodes(e, query.as_ptr().cast(), query.len(), out, err)
        })?;
        Ok(doc.nodes)
    }

    /// Opens a transaction (`sched_engine_begin`): every later call on the
    /// engine, from any thread, is part of it until [`commit`](Self::commit)
    /// keeps or [`revert`](Self::revert) takes back its changes (state,
    /// assumed pods, the queue and its clock, the random source).
    /// Transactions nest. The shape of cluster-autoscaler's
    /// `ClusterSnapshot` Fork/Revert/Commit, without a copy.
    ///
    /// ```
    /// let engine = libsched::Engine::new("{}")?;
    /// engine.apply(r#"{"kind":"Node","apiVersion":"v1","metadata":{"name":"n1"},
    ///     "status":{"allocatable":{"cpu":"2","pods":"10"}}}"#)?;
    /// engine.begin()?;
    /// engine.apply(r#"{"kind":"Node","apiVersion":"v1","metadata":{"name":"n2"},
    ///     "status":{"allocatable":{"cpu":"2","pods":"10"}}}"#)?;
    /// engine.revert()?;
    /// assert_eq!(engine.nodes(&libsched::NodeQuery::default())?.len(), 1);
    /// # Ok::<(), libsched::Error>(())
    /// ```
    pub fn begin(&self) -> Result<()> {
        self.transact(sys::sched_engine_begin)
    }

    /// Keeps the changes of the innermost open transaction
    /// (`sched_engine_commit`); nested, they join the enclosing one.
    ///
    /// # Errors
    /// [`Code::InvalidArgument`](crate::Code::InvalidArgument) when no
    /// transaction is open.
    pub fn commit(&self) -> Result<()> {
        self.transact(sys::sched_engine_commit)
    }

    /// Puts back everything the innermost open transaction changed
    /// (`sched_engine_revert`).
    ///
    /// # Errors
    /// [`Code::InvalidArgument`](crate::Code::InvalidArgument) when no
    /// transaction is open.
    pub fn revert(&self) -> Result<()> {
        self.transact(sys::sched_engine_revert)
    }

    /// A new engine equal to this one (`sched_engine_fork`): the same
    /// objects, assumed pods, queue, nominations, clock, config and random
    /// source, so both decide alike from here; a change to either never
    /// shows in the other. The child starts with no transaction open. An
    /// engine and its forks share one lock inside the library: each may be
    /// used and dropped from any thread at once, and their calls
    /// serialize. Costs O(1) whatever the numbers of nodes, pods and pending
    /// pods (the state and the queue are shared copy-on-write, each side
    /// copying a piece when it first changes it; docs/api.md, "Fork").
    ///
    /// ```
    /// let engine = libsched::Engine::new("{}")?;
    /// engine.apply(r#"{"kind":"Node","apiVersion":"v1","metadata":{"name":"n1"},
    ///     "status":{"allocatable":{"cpu":"2","pods":"10"}}}"#)?;
    /// let child = engine.fork()?;
    /// child.apply(r#"{"kind":"Node","apiVersion":"v1","metadata":{"name":"n2"},
    ///     "status":{"allocatable":{"cpu":"2","pods":"10"}}}"#)?;
    /// assert_eq!(engine.nodes(&libsched::NodeQuery::default())?.len(), 1);
    /// assert_eq!(child.nodes(&libsched::NodeQuery::default())?.len(), 2);
    /// # Ok::<(), libsched::Error>(())
    /// ```
    pub fn fork(&self) -> Result<Engine> {
        let mut raw = ptr::null_mut();
        let mut err = ptr::null_mut();
        // SAFETY: the handle is live; raw and err are out-params.
        unsafe {
            check(
                sys::sched_engine_fork(self.raw.as_ptr(), &mut raw, &mut err),
                err,
            )?
        };
        NonNull::new(raw)
            .map(|raw| Engine { raw })
            .ok_or_else(|| Error::internal("sched_engine_fork returned no engine".to_string()))
    }

    /// Calls an entry point of shape `(engine, sched_error **err)`.
    fn transact(
        &self,
        f: unsafe extern "C" fn(
            *mut sys::sched_engine,
            *mut *mut sys::sched_error,
        ) -> sys::sched_status,
    ) -> Result<()> {
        let mut err = ptr::null_mut();
        // SAFETY: the handle is live; err is an out-param.
        unsafe { check(f(self.raw.as_ptr(), &mut err), err) }
    }

    /// Calls an entry point of shape `(engine, char **out, sched_error **err)`.
    fn read<T: DeserializeOwned>(
        &self,
        f: unsafe extern "C" fn(
            *mut sys::sched_engine,
            *mut *mut c_char,
            *mut *mut sys::sched_error,
        ) -> sys::sched_status,
    ) -> Result<T> {
        // SAFETY: out and err are out-params.
        self.call(|e, out, err| unsafe { f(e, out, err) })
    }

    /// Runs `f`, one call of an entry point that writes a JSON document, with
    /// the live handle and the two out-params, then decodes the document.
    /// `f` makes the C call (the handle is live for it).
    fn call<T: DeserializeOwned>(
        &self,
        f: impl FnOnce(
            *mut sys::sched_engine,
            *mut *mut c_char,
            *mut *mut sys::sched_error,
        ) -> sys::sched_status,
    ) -> Result<T> {
        let mut out = ptr::null_mut();
        let mut err = ptr::null_mut();
        let st = f(self.raw.as_ptr(), &mut out, &mut err);
        // SAFETY: out and err are as the call left them: an error object on
        // failure, the library's string on success (sched.h conventions 2, 5).
        let json = unsafe {
            check(st, err)?;
            take_string(out)
        };
        decode(&json)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // SAFETY: the handle is live and, with &mut self, no call races.
        unsafe { sys::sched_engine_free(self.raw.as_ptr()) }
    }
}
