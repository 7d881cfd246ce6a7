/*
 * libsched: a Kubernetes pod scheduling engine behind a C ABI.
 *
 * Conventions (read these first):
 *
 *  1. Handles. `sched_engine` and `sched_error` are opaque. Create an engine
 *     with sched_engine_new(), release it with sched_engine_free().
 *  2. Errors. Every fallible call returns a `sched_status` (SCHED_OK == 0;
 *     values are never renumbered). Detail comes back through an optional
 *     `sched_error **err` out-parameter (pass NULL to ignore it): a code, a
 *     message and the JSON path of the offending field. There is no
 *     per-thread "last error". On entry *err must be NULL or an error this
 *     library returned; every call frees it and sets *err to NULL, and on
 *     failure stores the new error there. So after any call *err is
 *     non-NULL only if that call failed, and one variable may be reused
 *     across calls without leaking. (Unlike leveldb's c.h, which leaves
 *     *errptr unchanged on success.) On SCHED_OUT_OF_MEMORY, *err is NULL
 *     if even the error object could not be allocated.
 *  3. Atomicity. A call that fails changes nothing: the engine is exactly
 *     as it was before the call, whatever the status, an allocation failure
 *     at any point included (parsing, decoding, computing a result, or
 *     applying the call's changes: those made so far are undone), and the
 *     next calls answer as if it had never been made. After
 *     SCHED_OUT_OF_MEMORY the engine stays usable (docs/security.md, "What
 *     a failed call guarantees").
 *  4. JSON in. Inputs are `(const char *json, size_t len)`: no terminating
 *     NUL is needed and the library keeps no pointer into them after the
 *     call returns. JSON is UTF-8, as the Kubernetes API server writes it.
 *  5. Ownership. Strings the library returns (`char **` outputs) are owned
 *     by the caller and released with sched_free(). Every free function
 *     accepts NULL. Outputs are written only on SCHED_OK.
 *  6. Threads. Functions on one engine may be called from any thread,
 *     concurrently: calls on the same engine are serialized internally.
 *     Distinct engines share only one process-wide lock held while cJSON
 *     parses input (cJSON records parse errors in a global). sched_error
 *     objects are immutable and may be read from any thread.
 *  7. Units. CPU is in milli-CPU, memory and storage in bytes, as the
 *     Kubernetes scheduler counts them (docs/api.md).
 *  8. Semantics follow kube-scheduler SCHED_UPSTREAM_VERSION; docs/api.md
 *     names the upstream file behind each behaviour and lists deliberate
 *     differences.
 */
#ifndef SCHED_SCHED_H_
#define SCHED_SCHED_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(SCHED_BUILDING_LIBRARY) && defined(__GNUC__)
#define SCHED_API __attribute__((visibility("default")))
#else
#define SCHED_API
#endif

/* Version of this header; sched_version() reports the library's. */
#define SCHED_VERSION_MAJOR 0
#define SCHED_VERSION_MINOR 1
#define SCHED_VERSION_PATCH 0
/* unsigned, as sched_version_number() returns it. */
#define SCHED_VERSION_NUMBER \
  (SCHED_VERSION_MAJOR * 10000u + SCHED_VERSION_MINOR * 100u + SCHED_VERSION_PATCH)
#define SCHED_VERSION_STRING "0.1.0"
/* The kube-scheduler release whose decisions the engine mirrors. */
#define SCHED_UPSTREAM_VERSION "v1.36.3"

typedef enum sched_status {
  SCHED_OK = 0,
  /* The input is malformed, has a wrong type, or names something invalid. */
  SCHED_INVALID_ARGUMENT = 1,
  /* Memory could not be allocated. */
  SCHED_OUT_OF_MEMORY = 2,
  /* A broken internal invariant; please report it. */
  SCHED_INTERNAL = 3
} sched_status;

typedef struct sched_engine sched_engine;
typedef struct sched_error sched_error;

/* ---- Versions ---------------------------------------------------------- */

/* The library's version, "MAJOR.MINOR.PATCH". Static storage; thread-safe. */
SCHED_API const char *sched_version(void);
/* The library's SCHED_VERSION_NUMBER. Thread-safe. */
SCHED_API unsigned sched_version_number(void);
/* The mirrored kube-scheduler release, e.g. "v1.36.3". Thread-safe. */
SCHED_API const char *sched_upstream_version(void);

/* ---- Errors ------------------------------------------------------------ */

/* The status the failing call returned. err may be NULL (returns SCHED_OK). */
SCHED_API sched_status sched_error_code(const sched_error *err);
/* Human-readable message, never NULL; valid until sched_error_free(). */
SCHED_API const char *sched_error_message(const sched_error *err);
/* JSON path of the offending input field, e.g.
 * "object.spec.containers[0].resources.requests.cpu"; "" when the error is
 * not about one field. Never NULL; valid until sched_error_free(). */
SCHED_API const char *sched_error_path(const sched_error *err);
SCHED_API void sched_error_free(sched_error *err);
/* "OK", "INVALID_ARGUMENT", ...: static storage. */
SCHED_API const char *sched_status_name(sched_status status);

/* Releases a string returned by the library. Accepts NULL. */
SCHED_API void sched_free(void *p);

/* ---- Engine ------------------------------------------------------------ */

/* Creates an engine from a configuration document (docs/api.md, "Config").
 * "{}" is the default-scheduler profile with upstream defaults.
 * On SCHED_OK, *out is a new engine; on failure *out is untouched. */
SCHED_API sched_status sched_engine_new(const char *config, size_t len,
                                        sched_engine **out, sched_error **err);

/* Frees the engine and everything it holds. Accepts NULL. Must not race with
 * other calls on the same engine. */
SCHED_API void sched_engine_free(sched_engine *engine);

/* Applies cluster changes: one watch event
 * {"type":"ADDED"|"MODIFIED"|"DELETED","object":{...}}, a JSON array of
 * events, a List ({"kind":"List","items":[...]}, items are upserted), or a
 * single object (upserted). Objects are core/v1 Nodes, Pods and
 * Namespaces, policy/v1 PodDisruptionBudgets (read by preemption), and
 * core/v1 Services and ReplicationControllers and apps/v1 ReplicaSets and
 * StatefulSets (their selectors pick the peers of the default topology
 * spread constraints) as the API server serializes them; other kinds are
 * accepted and counted as ignored. Pods with spec.nodeName are bound to that
 * node; pods without it (and whose spec.schedulerName names a profile) join
 * the scheduling queue, which sched_engine_run drains; sched_engine_schedule
 * ignores the queue. Node and bound-pod changes are the cluster events that
 * move queued pods.
 * All-or-nothing: if any item is invalid, nothing is applied. A document
 * that is valid JSON but could not be parsed for lack of memory is
 * SCHED_OUT_OF_MEMORY, not a syntax error. The events array or the List's
 * items are parsed one item at a time, and their count is checked before
 * any is parsed (docs/api.md, "Limits").
 * summary_json (may be NULL) receives
 *   {"applied":N,"ignored":{"<Kind>":N,...},"pendingPods":N}.
 * Mirrors the scheduler cache's informer handlers
 * (pkg/scheduler/eventhandlers.go, backend/cache/cache.go). */
SCHED_API sched_status sched_engine_apply(sched_engine *engine, const char *json,
                                          size_t len, char **summary_json,
                                          sched_error **err);

/* Flags for sched_engine_schedule(). Unknown bits are rejected. */
/* Assume the pod on the chosen node, so the next call sees it there. */
#define SCHED_SCHEDULE_ASSUME 0x1u
/* Include "nodeStatuses": every rejected node with its plugin and reasons. */
#define SCHED_SCHEDULE_NODE_STATUSES 0x2u
/* Include "scores": per-plugin weighted scores of every feasible node. */
#define SCHED_SCHEDULE_SCORES 0x4u
/* Include "nodeStatuses" only when no node was chosen: what a caller needs
 * for upstream's FitError, without listing every rejected node of a pod that
 * was placed (a kube-scheduler fork in whole-algorithm mode filters only the
 * chosen node). SCHED_SCHEDULE_NODE_STATUSES, if also set, wins. */
#define SCHED_SCHEDULE_NODE_STATUSES_IF_NO_NODE 0x8u
/* With SCHED_SCHEDULE_NODE_STATUSES or ..._IF_NO_NODE: write the rejected
 * nodes grouped by verdict, "nodeStatusGroups":[{"code","plugin",
 * "reasons":[...],"nodes":["name",...]},...], instead of "nodeStatuses"
 * (then absent): one group per distinct code, plugin and reasons, in the
 * order their first node has in "nodeStatuses", each group's nodes in that
 * order too. The same verdicts in a fraction of the bytes: a pod that fits
 * nowhere on 5,000 nodes has a few groups, not 5,000 objects, which is
 * what a caller building upstream's NodeToStatus (FitError,
 * pkg/scheduler/framework/types.go) spends its time decoding. */
#define SCHED_SCHEDULE_NODE_STATUS_GROUPS 0x10u
/* Include "scoreTotals":[{"totalScore":N,"nodes":["name",...]},...]: every
 * scored node's total score (the sum of its weighted scores, as in
 * "scores"), grouped by total: one group per distinct total, in the order
 * its first node was scored, each group's nodes in that order. Empty when
 * fewer than two nodes were feasible (upstream scores nothing then). What a
 * caller answering upstream's Score per node needs (a kube-scheduler fork
 * in plugin mode) without "scores"' per-plugin rows, which the engine then
 * need not keep: equal totals are common (on SchedulingBasic most feasible
 * nodes tie), so a few groups replace one object per feasible node. Mirrors
 * the totals of prioritizeNodes (pkg/scheduler/schedule_one.go). */
#define SCHED_SCHEDULE_SCORE_TOTALS 0x20u

/* Runs one scheduling cycle for a pending core/v1 Pod (JSON object) and
 * writes the outcome to *result_json (docs/api.md, "Schedule result"):
 *   {"pod":"ns/name","node":"name"|null,"reason":"Scheduled"|
 *    "Unschedulable"|"SchedulerError","message":"0/3 nodes are available:
 *    ...","numAllNodes":N,"evaluatedNodes":N,"feasibleNodes":N,
 *    "assumed":bool, ...}
 * A pod that fits nowhere is not an error: the call returns SCHED_OK with
 * "node": null and upstream's FitError message. With SCHED_SCHEDULE_ASSUME
 * and a chosen node, the pod is added to that node before the call returns
 * (cache.AssumePod); a later event for the same namespace/name replaces it.
 * When no node fits, preemption (DefaultPreemption) may add
 * "nominatedNodeName" and "victims" [{"namespace","name","uid"}]: the pod
 * may fit there once the caller deletes the victims. The engine deletes
 * nothing and never assumes such a pod, even with SCHED_SCHEDULE_ASSUME.
 * spec.schedulerName (default "default-scheduler") picks the profile; a name
 * that no profile of the engine has is SCHED_INVALID_ARGUMENT with the path
 * "spec.schedulerName".
 * Mirrors pkg/scheduler/schedule_one.go (schedulingCycle, schedulePod). */
SCHED_API sched_status sched_engine_schedule(sched_engine *engine, const char *pod,
                                             size_t len, uint32_t flags,
                                             char **result_json, sched_error **err);

/* Explains where a pending core/v1 Pod (JSON object, as for
 * sched_engine_schedule) would fit and why not elsewhere, against every
 * node, and writes to *explain_json (docs/api.md, "Explain"):
 *   {"pod":"ns/name","error":B,"message":"0/3 nodes are available: ...",
 *    "summary":"...","numAllNodes":N,"feasibleNodes":N,
 *    "preFilter"?:{"plugin","code","reasons"},
 *    "reasons":[{"reason":"Insufficient cpu","nodes":N},...],
 *    "nearestMisses":[{"plugin","reasons":[...],"taint"?:"k=v:NoSchedule",
 *      "shortfalls"?:[{"resource":"cpu","amount":300,"quantity":"300m"}],
 *      "nodes":N,"exampleNode":"n1","text":"needs 300m more cpu on 12 nodes"}],
 *    "scorePlugins":[{"name","weight"}],
 *    "nodes":[{"node","feasible":B,"plugin","code","reasons":[...],
 *      "filters":[{"plugin","code","reasons"}],
 *      "scores":[{"raw":N,"normalized":N,"weighted":N}],"totalScore":N}]}
 * Per node: the scheduling cycle's verdict (nominated pods counted, first
 * failing plugin as upstream's RunFilterPlugins) and each Filter plugin's
 * own verdict; per feasible node, per Score plugin ("scorePlugins" order)
 * Score's value, after NormalizeScore, and times the weight. "reasons" is
 * the FitError histogram (node counts, most first); "nearestMisses" groups
 * the nodes one plugin alone rejects, with the smallest shortfall per
 * resource (units as sched_engine_nodes: milli-CPU, bytes, counts);
 * "summary" is "message" and the nearest misses in at most 1,024 bytes
 * (an Event's message). Unlike a cycle it walks every node
 * (percentageOfNodesToScore ignored) and runs no PostFilter. "error" true
 * (with "message") when no node exists or a plugin failed. A bad pod or an
 * unknown schedulerName is SCHED_INVALID_ARGUMENT, as for
 * sched_engine_schedule. Free *explain_json with sched_free. Changes
 * nothing (state, queue, random source, cache, interned strings); costs
 * nothing on the scheduling path. Thread-safe as every call (convention 6).
 * Mirrors framework.Diagnosis and FitError (pkg/scheduler/framework/types.go),
 * RunFilterPlugins and RunScorePlugins (framework/runtime/framework.go). */
SCHED_API sched_status sched_engine_explain(sched_engine *engine, const char *pod, size_t len,
                                            char **explain_json, sched_error **err);

/* Scores a pending core/v1 Pod on the named nodes only, as upstream's
 * prioritizeNodes scores the feasible nodes a cycle found
 * (pkg/scheduler/schedule_one.go), and writes their total scores to
 * *scores_json (docs/api.md, "Score"):
 *   {"error":B,"message":"...","totalScores":[N,...]}
 * request: {"pod":<core/v1 Pod>,"nodes":["n1",...]}. PreFilter runs (its
 * node restriction ignored), then PreScore, Score, NormalizeScore and the
 * weights over exactly "nodes", no Filter: the caller filtered them (a
 * kube-scheduler framework running the engine as a plugin scores the
 * nodes it sampled, numFeasibleNodesToFind of them, and plugins that
 * normalize per cycle must normalize over those). "totalScores" is
 * parallel to "nodes": each the sum of the node's weighted scores, as
 * "scoreTotals" of sched_engine_schedule; one node is scored too. "error"
 * true (with "message", "totalScores" empty) when PreFilter rejected the
 * pod or a plugin failed. A bad pod or an unknown schedulerName is
 * SCHED_INVALID_ARGUMENT as for sched_engine_schedule; so are "nodes"
 * missing or empty, and an empty, duplicate or unknown name (path
 * "nodes[i]"). Free *scores_json with sched_free. Changes no state, queue,
 * random source or start index; like sched_engine_schedule it may leave
 * raw scores of the pod's class in the equivalence cache (reused from the
 * cycle that filtered the pod; never a different result). Thread-safe as
 * every call (convention 6). */
SCHED_API sched_status sched_engine_score(sched_engine *engine, const char *request,
                                          size_t len, char **scores_json, sched_error **err);

/* How many more replicas of a pod template fit, and where: copies of the
 * pod named "<name>-capacity-<i>" (i from 0) are scheduled one after
 * another with full cycles (as sched_engine_schedule), each assumed on its
 * node before the next, as kube-scheduler places a ReplicaSet's pending
 * pods, until one fits nowhere or maxReplicas fit; then everything is
 * undone. request:
 *   {"pod":<core/v1 Pod, spec.nodeName empty>,"maxReplicas":N}
 * maxReplicas 1..100000, default 100000. *capacity_json receives
 * (docs/api.md, "Capacity"):
 *   {"pod":"ns/name","replicas":N,"capped":B,"message":"0/3 nodes are
 *    available: ...","nodes":[{"node":"n1","replicas":N},...],
 *    "placements":["n1","n2",...]}
 * "placements" in scheduling order, "nodes" by name; "capped" when
 * maxReplicas fit; "message" is the first replica's that fit nowhere
 * (empty when capped). A replica that could fit only by preemption ends
 * the count (nothing is evicted). A bad pod is SCHED_INVALID_ARGUMENT
 * with its path under "pod"; an unknown field, a missing pod, a
 * maxReplicas out of range or a pod with spec.nodeName too. Free
 * *capacity_json with sched_free. Changes nothing (state, queue, random
 * source, interned strings) except that the equivalence cache drops its
 * entries (never a decision, only the next cycle's reuse). Thread-safe as
 * every call (convention 6). */
SCHED_API sched_status sched_engine_capacity(sched_engine *engine, const char *request,
                                             size_t len, char **capacity_json,
                                             sched_error **err);

/* Can these nodes be removed? request:
 *   {"nodes":["n1","n2",...]}
 * (1 or more distinct names of nodes the engine has). The pods on them are
 * evicted and scheduled again on the remaining nodes (the listed nodes and
 * their pods gone) with full cycles (as sched_engine_schedule, nominated
 * pods counted), each assumed on its node before the next, in queue
 * order: priority, highest first, then the order of "nodes", then
 * namespace/name; then everything is undone. Which pods move follows
 * cluster-autoscaler's scale-down rules in part (docs/api.md, "Drain"):
 * mirror pods (annotation kubernetes.io/config.mirror) are left alone and
 * DaemonSet pods evicted without moving (both in "left"); a moving pod
 * that a PodDisruptionBudget with no disruption left covers blocks its
 * node ("blockingPDB"; budgets are used up node by node in the order
 * given, by removable nodes). A node is removable when no pod of it is
 * blocked and every moving pod found a node. *drain_json receives:
 *   {"removable":B,"nodes":[{"node":"n1","removable":B,"moved":N,
 *    "pending":N,"blocked":N,"left":N},...],
 *    "pods":[{"pod":"ns/name","from":"n1","node":"n3"|null,
 *      "message"?:"0/3 nodes are available: ...","blockingPDB"?:"ns/pdb"}],
 *    "left":[{"pod":"ns/name","from":"n1","reason":"MirrorPod"|
 *      "DaemonSet"}]}
 * "pods" in scheduling order; "message" (a pod that fits nowhere) is its
 * FitError. Preemption is not acted on. An unknown field, a missing or
 * empty "nodes", an empty, repeated or unknown node name is
 * SCHED_INVALID_ARGUMENT with its path ("nodes[1]"). Free *drain_json with
 * sched_free. Changes nothing (state, queue, random sources, interned
 * strings) except that the equivalence cache drops its entries. Thread-safe
 * as every call (convention 6). */
SCHED_API sched_status sched_engine_drain(sched_engine *engine, const char *request, size_t len,
                                          char **drain_json, sched_error **err);

/* Which pods would be evicted if this pod arrived? request:
 *   {"pod":<core/v1 Pod>}
 * One scheduling cycle for the pod, exactly as sched_engine_schedule
 * without flags (the same path: Filter, Score, and when nothing fits the
 * PostFilter, DefaultPreemption), and then everything put back.
 * *result_json receives sched_engine_schedule's result: "node" when the
 * pod fits without evicting anyone; otherwise "nominatedNodeName" and
 * "victims" [{"namespace","name","uid"}] when preemption would make room
 * (delete the victims and the pod fits there), or neither when it cannot
 * ("message" says why). "assumed" is false. A bad pod is
 * SCHED_INVALID_ARGUMENT with its path under "pod"; an unknown field or a
 * missing pod too. Free *result_json with sched_free. Changes nothing
 * (state, queue, random source, interned strings) except that the
 * equivalence cache drops its entries. Thread-safe as every call
 * (convention 6). Mirrors pkg/scheduler/framework/preemption (Evaluator.
 * Preempt, DefaultPreemption) minus the API calls. */
SCHED_API sched_status sched_engine_preempt(sched_engine *engine, const char *request,
                                            size_t len, char **result_json, sched_error **err);
/* How many new nodes of each node template make pending pods fit, and
 * where they go: cluster-autoscaler's binpacking estimate
 * (estimator/binpacking_estimator.go), every fit decided by the engine's
 * Filter plugins (affinity and spread too) against the cluster plus the
 * new nodes. request:
 *   {"pods":[<core/v1 Pod, spec.nodeName empty>,...],
 *    "nodeTemplates":[{"node":<core/v1 Node>,"maxNodes":N},...]}
 * "pods" (0..100000, keys ns/name distinct and not pods of the engine) in
 * queue order; "nodeTemplates" (0..100, node names distinct) as a node
 * group's template node (its allocatable is what pods get: DaemonSet pods
 * are not modelled); "maxNodes" 1..10000 new nodes, default 1000 (CA's
 * --max-nodes-per-scaleup). The rule (docs/api.md, "Scale-up"): the pods
 * first go to existing nodes with full cycles (once a pod of an
 * equivalence group fits nowhere, its group's later pods skip this, as
 * CA's FilterOutSchedulable); then per template, independently: groups
 * whose first pod fits no fresh template node are left out with that
 * node's FitError; the others, largest (cpu + memory share of the
 * template) first, fill the new nodes First Fit, a new node added when a
 * pod fits neither the earlier new nodes nor the last one. New nodes are
 * named "<template>-scaleup-<i>" (i from 0; kubernetes.io/hostname set to
 * that name). *scale_up_json receives:
 *   {"existing":[{"pod":"ns/a","node":"n1"}],
 *    "templates":[{"template":"t","nodes":N,
 *      "newNodes":[{"node":"t-scaleup-0","pods":N}],
 *      "placements":[{"pod":"ns/b","node":"t-scaleup-0"}],
 *      "pending":[{"pod":"ns/c","reason":"NoFit|NewNode|MaxNodes",
 *                  "message":"0/1 nodes are available: ..."}]}],
 *    "unhelped":[{"pod":"ns/c","reasons":[{"template":"t","message":"..."}]}]}
 * "nodes" is the estimate (new nodes with pods); "pending" the template's
 * pods it does not place (NoFit: not on a fresh node of it; NewNode: not
 * on a fresh node during the estimate, as zonal spread can; MaxNodes:
 * beyond maxNodes, no message); "unhelped" the pods on no existing node
 * that no template fits, with each template's FitError. A bad pod or node
 * is SCHED_INVALID_ARGUMENT with its path; so are an unknown field, a
 * missing "pods" or "nodeTemplates", a pod with spec.nodeName or named as
 * an engine's or an earlier pod, a template named as an earlier one,
 * maxNodes out of range, or a new node name that is an engine's node. At
 * most 256 MiB of request. Free *scale_up_json with sched_free. Changes
 * nothing (state, queue, random sources, start indexes, interned strings)
 * except that the equivalence caches drop their entries. Thread-safe as
 * every call (convention 6). */
SCHED_API sched_status sched_engine_scale_up(sched_engine *engine, const char *request,
                                             size_t len, char **scale_up_json,
                                             sched_error **err);

/* ---- Scheduling queue -------------------------------------------------- */
/* Pending pods enter the queue through sched_engine_apply. The queue's clock
 * starts at 0 when the engine is created and moves only with
 * sched_engine_advance_clock; nothing happens in the background.
 * Mirrors pkg/scheduler/backend/queue (PriorityQueue, queueing hints,
 * backoff 1 s doubling to 10 s, unschedulable pods retried after 5 min). */

/* Runs scheduling cycles at the current time, as kube-scheduler's
 * scheduleOne loop: flushes the pods whose backoff ended (and those
 * unschedulable for more than 5 minutes), then pops and schedules up to
 * max_cycles pods. With max_cycles > 0 a pod still backing off is taken when
 * no other is ready, as upstream; 0 means "until activeQ is empty", so pods
 * backing off wait for the clock and the call always ends. A pod that fits is assumed on
 * its node; one that does not goes back to the queue to wait for a cluster
 * event that can help it. *result_json receives
 *   {"results":[<schedule result>,...]}
 * with one sched_engine_schedule result per cycle, in order (flags:
 * SCHED_SCHEDULE_NODE_STATUSES, SCHED_SCHEDULE_NODE_STATUSES_IF_NO_NODE,
 * SCHED_SCHEDULE_NODE_STATUS_GROUPS, SCHED_SCHEDULE_SCORES and
 * SCHED_SCHEDULE_SCORE_TOTALS; other bits are rejected). A failure undoes every cycle of the call (convention 3). */
SCHED_API sched_status sched_engine_run(sched_engine *engine, uint32_t max_cycles,
                                        uint32_t flags, char **result_json,
                                        sched_error **err);

/* Moves the queue's clock forward by `millis` milliseconds, then flushes as
 * sched_engine_run does. SCHED_INVALID_ARGUMENT (clock unchanged) when the
 * clock would pass 9e12 ms. */
SCHED_API sched_status sched_engine_advance_clock(sched_engine *engine, uint64_t millis,
                                                  sched_error **err);

/* Writes where every queued pod is and why (docs/api.md, "Queue"):
 *   {"nowMillis":N,"schedulingCycle":N,"pods":[{"pod":"ns/name",
 *    "queue":"Active"|"Backoff"|"Unschedulable","attempts":N,
 *    "unschedulablePlugins":[...],"gatingPlugin"?:"SchedulingGates",
 *    "queuedAtMillis":N,"backoffExpiresAtMillis"?:N,
 *    "nominatedNodeName"?:"node"},...]}
 * nominatedNodeName: the node a preemption nominated the pod to, while the
 * nomination holds (pkg/scheduler/backend/queue/nominator.go). */
SCHED_API sched_status sched_engine_queue(sched_engine *engine, char **queue_json,
                                          sched_error **err);

/* Writes the engine's statistics (docs/api.md, "Statistics"): the
 * equivalence-class cache's counters since the engine was created, summed
 * over the profiles, and the string interner's size (label keys and
 * values, names, images, ...): the strings the engine's objects and config
 * hold and their bytes, and the strings released (held by nothing, kept
 * until a batch of them is freed):
 *   {"equivalenceCache":{"enabled":B,"hits":N,"misses":N,"bypasses":N,
 *    "scoreBypasses":N,"repairs":N,"reused":N,"parked":N},
 *    "interner":{"strings":N,"bytes":N,"released":N}}
 * Free *stats_json with sched_free. Changes nothing. */
SCHED_API sched_status sched_engine_stats(sched_engine *engine, char **stats_json,
                                          sched_error **err);

/* ---- Nodes ------------------------------------------------------------ */

/* Writes the per-node state the engine schedules against (docs/api.md,
 * "Nodes"): for each node that has a Node object, its labels, allocatable
 * and the sums of the requests of the pods bound or assumed on it, exactly
 * framework.NodeInfo's Requested and NonZeroRequested
 * (pkg/scheduler/framework/types.go: init containers, sidecars and
 * overhead counted as the cycle counts them), and its pod count:
 *   {"nodes":[{"name":"n1","labels":{"k":"v",...},
 *    "allocatable":<resource>,"requested":<resource>,
 *    "nonZeroRequested":{"milliCPU":N,"memory":N},"podCount":N},...]}
 * where <resource> is {"milliCPU":N,"memory":N,"ephemeralStorage":N,
 * "allowedPodNumber":N,"scalarResources":{"<name>":N,...}} (bytes for
 * memory and storage; allowedPodNumber is 0 in "requested", as upstream's).
 * Nodes are sorted by name; labels and scalar resources by name.
 * query (NULL with len 0, or "{}", for every node) selects nodes:
 *   {"names":["n1",...],"labelSelector":<metav1.LabelSelector>}
 * both optional; names that are no node are skipped. An unknown field, an
 * empty name or a selector the API server would refuse is
 * SCHED_INVALID_ARGUMENT with its path (e.g. "labelSelector.matchExpressions[0]").
 * Free *nodes_json with sched_free. Changes nothing (the engine and its
 * interned strings); thread-safe as every call (convention 6). */
SCHED_API sched_status sched_engine_nodes(sched_engine *engine, const char *query, size_t len,
                                          char **nodes_json, sched_error **err);

/* ---- Transactions ------------------------------------------------------ */
/* Try changes and take them back without copying the engine (the shape of
 * cluster-autoscaler's ClusterSnapshot Fork/Revert/Commit; docs/api.md,
 * "Transactions"). sched_engine_begin opens a transaction: every call after
 * it (apply, schedule with ASSUME, run, advance_clock), from any thread, is
 * part of it. sched_engine_revert puts back everything since the matching
 * begin: objects, assumed pods, the queue and its clock, nominations, the
 * random source and start index of each profile, and the strings interned
 * since (the equivalence cache is emptied, which changes no result).
 * sched_engine_commit keeps the changes. Transactions nest: commit of an
 * inner one hands its changes to the enclosing one, which may still revert
 * them; revert undoes only the innermost. Commit or revert with none open
 * is SCHED_INVALID_ARGUMENT and changes nothing. Memory: an open transaction
 * keeps an undo record per change (a saved copy of each node's aggregates
 * the first time a call changes it) until it ends, so commit or revert
 * each one. Cost: begin and commit O(1); revert O(changes since begin).
 * sched_engine_free reverts open transactions. Thread-safe as every call
 * (convention 6), but the transaction is the engine's, not the thread's.
 * Not in upstream's scheduler, which never undoes its cache. */
SCHED_API sched_status sched_engine_begin(sched_engine *engine, sched_error **err);
SCHED_API sched_status sched_engine_commit(sched_engine *engine, sched_error **err);
SCHED_API sched_status sched_engine_revert(sched_engine *engine, sched_error **err);

/* ---- Fork -------------------------------------------------------------- */
/* sched_engine_fork: *child becomes a new engine equal to `engine` (the
 * shape of cluster-autoscaler's ClusterSnapshot.Fork; docs/api.md, "Fork"):
 * the same objects, assumed pods, queue (every pending pod with its
 * attempts, backoff and rejecting plugins), nominations, clock, config and
 * the random source and start index of each profile, so both make the same
 * decisions from here. A change to either never shows in the other. The
 * child starts with no transaction open (those of `engine` stay its own)
 * and an empty equivalence cache, which changes no result. Free it with
 * sched_engine_free, before or after `engine`. Cost: O(1) up front, in
 * time and memory, whatever the numbers of nodes, pods and pending pods:
 * the state and the queue are shared copy-on-write, and each side copies
 * a piece when it first changes it while the other still shares it: a
 * node's aggregates, a shard of the pod map (docs/api.md, "Fork"); one of
 * the queue's containers (activeQ, backoffQ, unschedulable pods,
 * nominations: its pointers, O(pods in it)); a pending pod's record (O(1)).
 * Inside a transaction of `engine`, O(nodes + pods + pending pods), all
 * copied at once. No interned string is copied. Errors: SCHED_INVALID_ARGUMENT for a NULL
 * engine or child; SCHED_OUT_OF_MEMORY (then *child is untouched and
 * `engine` unchanged). Thread-safety: an engine and its forks (and theirs)
 * share one lock: each may be called, and freed, from any thread at once,
 * and their calls serialize with each other (convention 6).
 * Not in upstream's scheduler. */
SCHED_API sched_status sched_engine_fork(sched_engine *engine, sched_engine **child,
                                         sched_error **err);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SCHED_SCHED_H_ */
