// RFC 3339 timestamps as metav1.Time reads them (time.RFC3339: a "T",
// optional fractional seconds, "Z" or a numeric offset), to nanoseconds
// since the Unix epoch, so times with different offsets compare right.
#ifndef LIBSCHED_MODEL_TIMESTAMP_H_
#define LIBSCHED_MODEL_TIMESTAMP_H_

#include <cstdint>
#include <optional>
#include <string_view>

namespace sched {

// "2006-01-02T15:04:05.999999999+07:00" -> Unix nanoseconds; nullopt when
// malformed or out of range (a date that does not exist, more than 9
// fractional digits, a year outside 1678..2261 which int64 nanoseconds
// cannot hold).
std::optional<int64_t> ParseRfc3339(std::string_view s);

}  // namespace sched

#endif  // LIBSCHED_MODEL_TIMESTAMP_H_
