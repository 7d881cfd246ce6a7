//! Tests of the safe binding against the library: table-driven error cases,
//! the queue and clock, and one engine hammered from several threads.

use std::sync::Arc;
use std::thread;
use std::time::Duration;

use libsched::{
    Code, Engine, LabelSelector, LabelSelectorRequirement, NodeQuery, QueueName, Reason,
    ScheduleFlags,
};
use serde_json::json;

fn node(name: &str, cpu: &str) -> serde_json::Value {
    json!({"kind": "Node", "apiVersion": "v1", "metadata": {"name": name},
           "status": {"allocatable": {"cpu": cpu, "memory": "8Gi", "pods": "110"}}})
}

fn pod(name: &str, cpu: &str) -> serde_json::Value {
    json!({"kind": "Pod", "apiVersion": "v1", "metadata": {"name": name, "namespace": "t"},
           "spec": {"containers": [{"name": "c", "image": "i",
               "resources": {"requests": {"cpu": cpu}}}]}})
}

fn two_nodes() -> Engine {
    let engine = Engine::new("{}").unwrap();
    engine
        .apply_object(&json!([{"type": "ADDED", "object": node("n1", "2")},
                                {"type": "ADDED", "object": node("n2", "1")}]))
        .unwrap();
    engine
}

#[test]
fn errors_carry_code_message_and_path() {
    struct Case {
        config: &'static str,
        path: &'static str,
        message: &'static str,
    }
    let cases = [
        Case {
            config: r#"{"percentageOfNodesToScore":101}"#,
            path: "percentageOfNodesToScore",
            message: "must be between 0 and 100",
        },
        Case {
            config: r#"{"unknown":1}"#,
            path: "unknown",
            message: "unknown",
        },
        Case {
            config: r#"{"seed": }"#,
            path: "",
            message: "invalid JSON",
        },
    ];
    for c in cases {
        let err = Engine::new(c.config).unwrap_err();
        assert_eq!(err.code(), Code::InvalidArgument, "{}", c.config);
        assert_eq!(err.path(), c.path, "{}", c.config);
        assert!(
            err.message().contains(c.message),
            "{}: {}",
            c.config,
            err.message()
        );
        assert!(err.to_string().starts_with("libsched: INVALID_ARGUMENT: "));
        let _: &dyn std::error::Error = &err;
    }
}

#[test]
fn failed_apply_changes_nothing() {
    let engine = two_nodes();
    let err = engine
        .apply_object(&json!([{"type": "ADDED", "object": node("n3", "4")},
                                          {"type": "ADDED", "object": pod("p", "x")}]))
        .unwrap_err();
    assert_eq!(
        err.path(),
        "[1].object.spec.containers[0].resources.requests.cpu"
    );
    let r = engine
        .schedule_object(&pod("big", "3"), ScheduleFlags::NODE_STATUSES)
        .unwrap();
    assert_eq!(r.num_all_nodes, 2);
    assert_eq!(r.reason, Reason::Unschedulable);
    assert_eq!(r.node_statuses.len(), 2);
    assert_eq!(r.node_statuses[0].plugin, "NodeResourcesFit");
}

#[test]
fn node_status_groups_hold_the_same_verdicts() {
    let engine = two_nodes();
    let r = engine
        .schedule_object(
            &pod("big", "3"),
            ScheduleFlags::NODE_STATUSES | ScheduleFlags::NODE_STATUS_GROUPS,
        )
        .unwrap();
    assert!(r.node_statuses.is_empty());
    assert_eq!(
        r.node_status_groups,
        vec![libsched::NodeStatusGroup {
            code: "UnschedulableAndUnresolvable".into(),
            plugin: "NodeResourcesFit".into(),
            reasons: vec!["Insufficient cpu".into()],
            nodes: vec!["n1".into(), "n2".into()],
        }]
    );
}

#[test]
fn schedule_assume_and_scores() {
    let engine = two_nodes();
    let r = engine
        .schedule_object(&pod("a", "1500m"), ScheduleFlags::ASSUME)
        .unwrap();
    assert_eq!(r.node.as_deref(), Some("n1"));
    assert!(r.assumed);
    let r = engine
        .schedule_object(&pod("b", "100m"), ScheduleFlags::SCORES)
        .unwrap();
    let scores = r.scores.expect("two feasible nodes are scored");
    assert_eq!(scores.nodes.len(), 2);
    assert_eq!(scores.nodes[0].scores.len(), scores.plugins.len());
}

#[test]
fn score_totals_group_the_totals_of_scores() {
    let engine = two_nodes();
    let scored = engine
        .schedule_object(&pod("b", "100m"), ScheduleFlags::SCORES)
        .unwrap()
        .scores
        .expect("two feasible nodes are scored");
    let r = engine
        .schedule_object(&pod("b", "100m"), ScheduleFlags::SCORE_TOTALS)
        .unwrap();
    assert!(r.scores.is_none());
    // n1 and n2 differ in size, so each total is a group of its own.
    let want: Vec<libsched::ScoreTotal> = scored
        .nodes
        .iter()
        .map(|n| libsched::ScoreTotal {
            total_score: n.total_score,
            nodes: vec![n.node.clone()],
        })
        .collect();
    assert_eq!(r.score_totals, want);
}

#[test]
fn score_answers_for_the_nodes_asked_about() {
    let engine = two_nodes();
    let r = engine
        .schedule_object(&pod("b", "100m"), ScheduleFlags::SCORE_TOTALS)
        .unwrap();
    let total = |node: &str| {
        r.score_totals
            .iter()
            .find(|g| g.nodes.iter().any(|n| n == node))
            .unwrap()
            .total_score
    };
    // Over both nodes, as the cycle scored them; parallel to the order asked.
    let s = engine.score(&pod("b", "100m"), &["n2", "n1"]).unwrap();
    assert!(!s.error, "{}", s.message);
    assert_eq!(s.total_scores, vec![total("n2"), total("n1")]);
    let err = engine.score(&pod("b", "100m"), &["n1", "nx"]).unwrap_err();
    assert_eq!(
        (err.code(), err.path()),
        (Code::InvalidArgument, "nodes[1]")
    );
}

#[test]
fn queue_clock_and_run() {
    let engine = two_nodes();
    engine
        .apply_object(&json!({"type": "ADDED", "object": pod("big", "4")}))
        .unwrap();
    let run = engine.run(0, ScheduleFlags::empty()).unwrap();
    assert_eq!(run.results.len(), 1);
    assert_eq!(run.results[0].node, None);
    let q = engine.queue().unwrap();
    assert_eq!(q.pods.len(), 1);
    assert_eq!(q.pods[0].pod, "t/big");
    assert_eq!(q.pods[0].queue, QueueName::Unschedulable);
    assert_eq!(q.pods[0].unschedulable_plugins, ["NodeResourcesFit"]);
    // A node with room moves it; the next run places it.
    engine.apply_object(&node("n3", "8")).unwrap();
    engine.advance_clock(Duration::from_secs(10)).unwrap();
    assert_eq!(engine.queue().unwrap().now_millis, 10_000);
    let run = engine.run(0, ScheduleFlags::empty()).unwrap();
    assert_eq!(run.results[0].node.as_deref(), Some("n3"));
    assert!(engine.run(0, ScheduleFlags::ASSUME).is_err());
    assert!(engine
        .advance_clock(Duration::from_millis(9_000_000_000_000))
        .is_err());
    assert_eq!(engine.queue().unwrap().now_millis, 10_000);
}

#[test]
fn queue_shows_a_preemptors_nomination() {
    let engine = two_nodes();
    let mut low = pod("low", "2");
    low["spec"]["nodeName"] = json!("n1");
    let mut high = pod("high", "2");
    high["spec"]["priority"] = json!(10);
    engine.apply_object(&low).unwrap();
    engine
        .apply_object(&json!({"type": "ADDED", "object": high}))
        .unwrap();
    let run = engine.run(0, ScheduleFlags::empty()).unwrap();
    assert_eq!(run.results[0].nominated_node_name.as_deref(), Some("n1"));
    let q = engine.queue().unwrap();
    assert_eq!(q.pods.len(), 1);
    assert_eq!(q.pods[0].nominated_node_name.as_deref(), Some("n1"));
}

#[test]
fn stats_count_cache_hits() {
    let engine = two_nodes();
    for name in ["a", "b"] {
        engine
            .schedule_object(&pod(name, "100m"), ScheduleFlags::ASSUME)
            .unwrap();
    }
    let s = engine.stats().unwrap().equivalence_cache;
    assert!(s.enabled);
    assert_eq!((s.hits, s.misses), (1, 1));
}

#[test]
fn nodes_report_node_info_requests() {
    let engine = two_nodes();
    // Only n1 has room for 1500m: the assumed pod counts there.
    let r = engine
        .schedule_object(&pod("a", "1500m"), ScheduleFlags::ASSUME)
        .unwrap();
    assert_eq!(r.node.as_deref(), Some("n1"));
    let nodes = engine.nodes(&NodeQuery::default()).unwrap();
    let got: Vec<_> = nodes
        .iter()
        .map(|n| (n.name.as_str(), n.requested.milli_cpu, n.pod_count))
        .collect();
    assert_eq!(got, [("n1", 1500, 1), ("n2", 0, 0)]);
    assert_eq!(nodes[0].allocatable.memory, 8 << 30);
    let only = NodeQuery {
        names: vec!["n2".into(), "gone".into()],
        ..NodeQuery::default()
    };
    assert_eq!(engine.nodes(&only).unwrap().len(), 1);
    let bad = NodeQuery {
        label_selector: Some(LabelSelector {
            match_expressions: vec![LabelSelectorRequirement {
                key: "k".into(),
                operator: "Bogus".into(),
                values: vec![],
            }],
            ..LabelSelector::default()
        }),
        ..NodeQuery::default()
    };
    let err = engine.nodes(&bad).unwrap_err();
    assert_eq!(err.code(), Code::InvalidArgument);
    assert_eq!(err.path(), "labelSelector.matchExpressions[0]");
}

#[test]
fn explain_reports_nearest_misses_and_changes_nothing() {
    let engine = two_nodes();
    let x = engine.explain(encode_pod("p", "1200m")).unwrap();
    assert!(!x.error);
    assert_eq!((x.num_all_nodes, x.feasible_nodes), (2, 1));
    assert_eq!(x.nearest_misses.len(), 1);
    assert_eq!(x.nearest_misses[0].text, "needs 200m more cpu on 1 node");
    assert_eq!(x.nearest_misses[0].shortfalls[0].amount, 200);
    let feasible: Vec<_> = x.nodes.iter().filter(|n| n.feasible).collect();
    assert_eq!(feasible.len(), 1);
    assert_eq!(feasible[0].node, "n1");
    assert_eq!(feasible[0].scores.len(), x.score_plugins.len());
    assert_eq!(x.nodes[1].verdict.plugin, "NodeResourcesFit");
    // Nothing assumed: the pod still fits n1 with all its room.
    let r = engine
        .schedule_object(&pod("q", "2"), ScheduleFlags::empty())
        .unwrap();
    assert_eq!(r.node.as_deref(), Some("n1"));
    let err = engine.explain(r#"{"kind":"Node"}"#).unwrap_err();
    assert_eq!((err.code(), err.path()), (Code::InvalidArgument, "kind"));
}

#[test]
fn capacity_matches_scheduling_replicas_one_by_one() {
    let engine = two_nodes();
    let c = engine.capacity(&pod("web", "600m"), None).unwrap();
    // n1 (2 CPUs) holds three, n2 (1 CPU) one.
    assert_eq!((c.replicas, c.capped), (4, false));
    let slow = two_nodes();
    for (i, want) in c.placements.iter().enumerate() {
        let r = slow
            .schedule_object(
                &pod(&format!("web-capacity-{i}"), "600m"),
                ScheduleFlags::ASSUME,
            )
            .unwrap();
        assert_eq!(r.node.as_deref(), Some(want.as_str()));
    }
    let capped = engine.capacity(&pod("web", "600m"), Some(2)).unwrap();
    assert_eq!((capped.replicas, capped.capped), (2, true));
    let err = engine.capacity(&pod("web", "600m"), Some(0)).unwrap_err();
    assert_eq!(
        (err.code(), err.path()),
        (Code::InvalidArgument, "maxReplicas")
    );
}

#[test]
fn scale_up_matches_scheduling_on_that_many_template_nodes() {
    let engine = two_nodes();
    // n1 and n2 hold 1600m and 600m pods: 400m free each.
    for (p, n) in [("big", "n1"), ("small", "n2")] {
        let mut bound = pod(p, if n == "n1" { "1600m" } else { "600m" });
        bound["spec"]["nodeName"] = json!(n);
        engine
            .apply_object(&json!({"type": "ADDED", "object": bound}))
            .unwrap();
    }
    let pods: Vec<_> = (0..5).map(|i| pod(&format!("w{i}"), "1")).collect();
    let s = engine
        .scale_up(&pods, &[(node("pool", "2"), None)])
        .unwrap();
    assert_eq!(s.templates[0].nodes, 3);
    assert_eq!(s.templates[0].placements.len(), 5);
    // The slow path: three pool nodes fit all five one by one, two do not.
    for (extra, all_fit) in [(3, true), (2, false)] {
        let twin = two_nodes();
        for (p, n) in [("big", "n1"), ("small", "n2")] {
            let mut bound = pod(p, if n == "n1" { "1600m" } else { "600m" });
            bound["spec"]["nodeName"] = json!(n);
            twin.apply_object(&json!({"type": "ADDED", "object": bound}))
                .unwrap();
        }
        for i in 0..extra {
            twin.apply_object(&node(&format!("pool-scaleup-{i}"), "2"))
                .unwrap();
        }
        let fit = pods
            .iter()
            .filter(|p| {
                twin.schedule_object(p, ScheduleFlags::ASSUME)
                    .unwrap()
                    .node
                    .is_some()
            })
            .count();
        assert_eq!(fit == pods.len(), all_fit, "{extra} nodes: {fit} fit");
    }
    let err = engine
        .scale_up(&pods, &[(node("pool", "2"), Some(0))])
        .unwrap_err();
    assert_eq!(
        (err.code(), err.path()),
        (Code::InvalidArgument, "nodeTemplates[0].maxNodes")
    );
}

fn encode_pod(name: &str, cpu: &str) -> String {
    pod(name, cpu).to_string()
}

/// sched.h convention 6: one engine, called from many threads at once.
#[test]
fn one_engine_from_many_threads() {
    let engine = Arc::new(Engine::new("{}").unwrap());
    for i in 0..8 {
        engine.apply_object(&node(&format!("n{i}"), "64")).unwrap();
    }
    let threads: Vec<_> = (0..8)
        .map(|t| {
            let engine = Arc::clone(&engine);
            thread::spawn(move || {
                for i in 0..25 {
                    let p = pod(&format!("p-{t}-{i}"), "100m");
                    match i % 5 {
                        0 => drop(
                            engine
                                .apply_object(&json!({"type": "ADDED", "object": p}))
                                .unwrap(),
                        ),
                        1 => drop(engine.run(2, ScheduleFlags::empty()).unwrap()),
                        2 => drop(engine.queue().unwrap()),
                        3 => drop(engine.stats().unwrap()),
                        _ => {
                            let r = engine.schedule_object(&p, ScheduleFlags::ASSUME).unwrap();
                            assert!(r.node.is_some());
                            assert!(engine
                                .schedule_object(&pod("bad", "x"), ScheduleFlags::empty())
                                .is_err());
                        }
                    }
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    // Every pod placed by schedule is assumed: 8 threads x 15 pods of 100m.
    let r = engine
        .schedule_object(&pod("last", "100m"), ScheduleFlags::NODE_STATUSES)
        .unwrap();
    assert!(r.node.is_some());
}

#[test]
fn engine_is_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Engine>();
}

#[test]
fn drain_matches_deleting_the_node_and_scheduling_its_pods() {
    let engine = two_nodes();
    let bound = |name: &str| {
        let mut p = pod(name, "400m");
        p["spec"]["nodeName"] = json!("n2");
        p
    };
    engine
        .apply_object(&json!([{"type": "ADDED", "object": bound("a")},
                              {"type": "ADDED", "object": bound("b")}]))
        .unwrap();
    let d = engine.drain(&["n2"]).unwrap();
    assert!(d.removable);
    let slow = two_nodes();
    for (i, name) in ["a", "b"].iter().enumerate() {
        assert_eq!(d.pods[i].pod, format!("t/{name}"));
        let r = slow
            .schedule_object(&pod(name, "400m"), ScheduleFlags::ASSUME)
            .unwrap();
        assert_eq!(r.node, d.pods[i].node);
    }
    let err = engine.drain(&["n2", "n2"]).unwrap_err();
    assert_eq!(
        (err.code(), err.path()),
        (Code::InvalidArgument, "nodes[1]")
    );
}

#[test]
fn preempt_answers_as_schedule_and_changes_nothing() {
    let engine = two_nodes();
    let mut high = pod("high", "2");
    high["spec"]["priority"] = json!(10);
    let mut low = pod("low", "2");
    low["spec"]["nodeName"] = json!("n1");
    engine.apply_object(&low).unwrap();
    let w = engine.preempt(&high).unwrap();
    assert_eq!(w.nominated_node_name.as_deref(), Some("n1"));
    assert_eq!(w.victims.len(), 1);
    assert_eq!(engine.preempt(&high).unwrap(), w);
    let r = engine
        .schedule_object(&high, ScheduleFlags::empty())
        .unwrap();
    assert_eq!(r, w);
}

#[test]
fn fork_is_independent_and_usable_from_other_threads() {
    let parent = Arc::new(two_nodes());
    let child = Arc::new(parent.fork().unwrap());
    let handles: Vec<_> = [Arc::clone(&parent), Arc::clone(&child)]
        .into_iter()
        .enumerate()
        .map(|(i, engine)| {
            thread::spawn(move || {
                for j in 0..3 {
                    let p = pod(&format!("t{i}-{j}"), "100m");
                    engine.schedule_object(&p, ScheduleFlags::ASSUME).unwrap();
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    let count = |e: &Engine| -> u64 {
        e.nodes(&NodeQuery::default())
            .unwrap()
            .iter()
            .map(|n| n.pod_count)
            .sum()
    };
    assert_eq!(count(&parent), 3);
    assert_eq!(count(&child), 3);
    drop(parent);
    assert_eq!(count(&child), 3);
}
