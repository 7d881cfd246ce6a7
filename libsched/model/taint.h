// Taints and tolerations, mirroring v1.Taint / v1.Toleration and
// Toleration.ToleratesTaint (staging/src/k8s.io/api/core/v1/toleration.go).
#ifndef LIBSCHED_MODEL_TAINT_H_
#define LIBSCHED_MODEL_TAINT_H_

#include <cstdint>

#include "libsched/model/interner.h"

namespace sched {

// kNone is a toleration's empty effect, which matches every effect.
enum class TaintEffect : uint8_t { kNone, kNoSchedule, kPreferNoSchedule, kNoExecute };

struct Taint {
  Atom key = kNoAtom;
  Atom value = kNoAtom;  // the empty string's id when unset
  TaintEffect effect = TaintEffect::kNoSchedule;
  bool operator==(const Taint& o) const = default;
};

enum class TolerationOp : uint8_t { kEqual, kExists };

struct Toleration {
  Atom key = kNoAtom;  // kNoAtom: empty key, which matches every taint key
  TolerationOp op = TolerationOp::kEqual;
  Atom value = kNoAtom;  // the empty string's id when unset
  TaintEffect effect = TaintEffect::kNone;
  bool operator==(const Toleration& o) const = default;

  bool Tolerates(const Taint& t) const {
    if (effect != TaintEffect::kNone && effect != t.effect) return false;
    if (key != kNoAtom && key != t.key) return false;
    return op == TolerationOp::kExists || value == t.value;
  }
};

}  // namespace sched

#endif  // LIBSCHED_MODEL_TAINT_H_
