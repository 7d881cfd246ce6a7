//! `ScheduleFlags`: the `SCHED_SCHEDULE_*` bits.

use std::ops::{BitOr, BitOrAssign};

use libsched_sys as sys;

/// Options of [`Engine::schedule`](crate::Engine::schedule) and
/// [`Engine::run`](crate::Engine::run): the `SCHED_SCHEDULE_*` bits of
/// `sched.h`, combined with `|`.
///
/// ```
/// use libsched::ScheduleFlags;
/// let flags = ScheduleFlags::ASSUME | ScheduleFlags::SCORES;
/// assert!(flags.contains(ScheduleFlags::SCORES));
/// assert!(!flags.contains(ScheduleFlags::NODE_STATUSES));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ScheduleFlags(u32);

impl ScheduleFlags {
    /// Add the pod to the chosen node (upstream's `cache.AssumePod`), so the
    /// next call sees it there. Only for `schedule`.
    pub const ASSUME: ScheduleFlags = ScheduleFlags(sys::SCHED_SCHEDULE_ASSUME);
    /// Fill [`ScheduleResult::node_statuses`](crate::ScheduleResult::node_statuses).
    pub const NODE_STATUSES: ScheduleFlags = ScheduleFlags(sys::SCHED_SCHEDULE_NODE_STATUSES);
    /// Fill [`ScheduleResult::node_statuses`](crate::ScheduleResult::node_statuses)
    /// only when no node was chosen (what upstream's FitError needs);
    /// `NODE_STATUSES`, if also set, wins.
    pub const NODE_STATUSES_IF_NO_NODE: ScheduleFlags =
        ScheduleFlags(sys::SCHED_SCHEDULE_NODE_STATUSES_IF_NO_NODE);
    /// With `NODE_STATUSES` or `NODE_STATUSES_IF_NO_NODE`: fill
    /// [`ScheduleResult::node_status_groups`](crate::ScheduleResult::node_status_groups)
    /// instead of `node_statuses`, the same verdicts grouped (a few groups
    /// for a pod that thousands of nodes reject).
    pub const NODE_STATUS_GROUPS: ScheduleFlags =
        ScheduleFlags(sys::SCHED_SCHEDULE_NODE_STATUS_GROUPS);
    /// Fill [`ScheduleResult::scores`](crate::ScheduleResult::scores).
    pub const SCORES: ScheduleFlags = ScheduleFlags(sys::SCHED_SCHEDULE_SCORES);
    /// Fill [`ScheduleResult::score_totals`](crate::ScheduleResult::score_totals):
    /// every scored node's total, grouped by total, without the per-plugin
    /// rows of `SCORES` (what an answer to upstream's Score per node needs).
    pub const SCORE_TOTALS: ScheduleFlags = ScheduleFlags(sys::SCHED_SCHEDULE_SCORE_TOTALS);

    /// No flags.
    pub const fn empty() -> ScheduleFlags {
        ScheduleFlags(0)
    }

    /// The raw bits, as `sched.h` defines them.
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// Flags from raw bits; bits the library does not know are kept (and
    /// then rejected by the call with `InvalidArgument`).
    pub const fn from_bits_retain(bits: u32) -> ScheduleFlags {
        ScheduleFlags(bits)
    }

    /// Whether every bit of `other` is set.
    pub const fn contains(self, other: ScheduleFlags) -> bool {
        self.0 & other.0 == other.0
    }
}

impl BitOr for ScheduleFlags {
    type Output = ScheduleFlags;
    fn bitor(self, rhs: ScheduleFlags) -> ScheduleFlags {
        ScheduleFlags(self.0 | rhs.0)
    }
}

impl BitOrAssign for ScheduleFlags {
    fn bitor_assign(&mut self, rhs: ScheduleFlags) {
        self.0 |= rhs.0;
    }
}
