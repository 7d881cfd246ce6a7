// metadata.creationTimestamp: checked as the API server checks it, so a
// typo is an input error rather than a silently ignored field.
#ifndef TOOLS_SCHEDSIM_TIMESTAMP_H_
#define TOOLS_SCHEDSIM_TIMESTAMP_H_

#include "json.h"
#include "loc.h"

namespace schedsim {

// Throws InputError unless `v` (at `loc`) is absent or an RFC 3339 time as
// the API server writes it ("2006-01-02T15:04:05Z", optional fractional
// seconds, a numeric offset in place of Z).
void CheckTimestamp(const cJSON* v, const Loc& loc);

}  // namespace schedsim

#endif  // TOOLS_SCHEDSIM_TIMESTAMP_H_
