//! Loads the example cluster of the repository (examples/cluster: nodes and
//! bound pods), queues a few pending pods, runs the scheduling queue and
//! prints where each pod went, then shows the error a bad pod gets.
//!
//! `cargo run --example cluster [-- DIR]` (DIR defaults to ../examples/cluster).

use std::error::Error;
use std::path::PathBuf;

use libsched::{Engine, ScheduleFlags};
use serde_json::json;

fn main() -> Result<(), Box<dyn Error>> {
    let dir = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/cluster")
        });
    let engine = Engine::new("{}")?;
    for file in ["nodes.json", "bound-pods.json"] {
        let summary = engine.apply(std::fs::read(dir.join(file))?)?;
        println!("{file}: {} applied", summary.applied);
    }
    // Pending pods join the queue through apply; run drains it.
    let pending: Vec<_> = (0..5)
        .map(|i| {
            json!({"type": "ADDED", "object": {"apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": format!("web-{i}"), "namespace": "default"},
                "spec": {"containers": [{"name": "web", "image": "nginx",
                    "resources": {"requests": {"cpu": "500m", "memory": "256Mi"}}}]}}})
        })
        .collect();
    engine.apply_object(&pending)?;
    let run = engine.run(0, ScheduleFlags::empty())?;
    for r in &run.results {
        println!(
            "{} -> {}",
            r.pod,
            r.node.as_deref().unwrap_or("(unscheduled)")
        );
    }
    let stats = engine.stats()?;
    println!(
        "equivalence cache: {} hits, {} misses",
        stats.equivalence_cache.hits, stats.equivalence_cache.misses
    );

    let bad = json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "bad", "namespace": "default"},
        "spec": {"containers": [{"name": "c", "image": "nginx",
            "resources": {"requests": {"cpu": "lots"}}}]}});
    match engine.schedule_object(&bad, ScheduleFlags::empty()) {
        Err(e) => println!("bad pod: {e} (path {})", e.path()),
        Ok(r) => return Err(format!("bad pod scheduled: {r:?}").into()),
    }
    Ok(())
}
