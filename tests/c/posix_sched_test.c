/* <sched/sched.h> shares the sched_/SCHED_ prefixes of POSIX <sched.h>
 * (docs/abi.md, "Names"): both headers in one C file must compile, and the
 * names of each must work. */
#define _POSIX_C_SOURCE 200809L
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "sched/sched.h"

int main(void) {
  int failed = 0;
  if (sched_yield() != 0) failed |= 1;
  if (sched_get_priority_max(SCHED_FIFO) < sched_get_priority_min(SCHED_FIFO)) failed |= 2;
  if (strcmp(sched_version(), SCHED_VERSION_STRING) != 0) failed |= 4;
  if (sched_status_name(SCHED_OK)[0] != 'O') failed |= 8;
  printf("posix_sched: %s\n", failed == 0 ? "ok" : "FAILED");
  return failed;
}
