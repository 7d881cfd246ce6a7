/* sched_engine_begin / _commit / _revert from plain C99: a reverted
 * transaction leaves every report (nodes, queue, a later cycle's result)
 * exactly as before it; a committed one keeps its changes; transactions
 * nest; commit or revert with none open is an error that changes nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/sched.h"

#include "check.h"
#include "reports.h"

static const char kNodes[] =
    "[{\"type\":\"ADDED\",\"object\":{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"},"
    "\"status\":{\"allocatable\":{\"cpu\":\"2\",\"memory\":\"4Gi\",\"pods\":\"110\"}}}},"
    "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Node\",\"metadata\":{\"name\":\"n2\"},"
    "\"status\":{\"allocatable\":{\"cpu\":\"2\",\"memory\":\"4Gi\",\"pods\":\"110\"}}}}]";
static const char kNode3[] =
    "{\"kind\":\"Node\",\"metadata\":{\"name\":\"n3\",\"labels\":{\"only\":\"here\"}},"
    "\"status\":{\"allocatable\":{\"cpu\":\"8\",\"memory\":\"16Gi\",\"pods\":\"110\"}}}";
static const char kPending[] =
    "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"q\",\"namespace\":\"prod\"},"
    "\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":"
    "{\"cpu\":\"3\"}}}]}}";

static void PodJson(char *buf, size_t size, const char *name) {
  snprintf(buf, size,
           "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"%s\",\"namespace\":\"prod\"},"
           "\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":"
           "{\"cpu\":\"500m\",\"memory\":\"1Gi\"}}}]}}",
           name);
}

static sched_engine *NewEngine(void) {
  sched_engine *engine = NULL;
  CHECK(sched_engine_new("{\"seed\":3}", 10, &engine, NULL) == SCHED_OK);
  CHECK(sched_engine_apply(engine, kNodes, strlen(kNodes), NULL, NULL) == SCHED_OK);
  return engine;
}

static char *Schedule(sched_engine *engine, const char *name, uint32_t flags) {
  char pod[512];
  char *out = NULL;
  PodJson(pod, sizeof pod, name);
  CHECK(sched_engine_schedule(engine, pod, strlen(pod), flags, &out, NULL) == SCHED_OK);
  return out;
}

/* Everything a transaction did is gone after revert, the next cycle's
 * random choice among tied nodes included. */
static void TestRevertPutsEverythingBack(void) {
  sched_engine *engine = NewEngine();
  char *before = Reports(engine), *after, *run = NULL;
  char *first = Schedule(engine, "probe", 0), *again;
  sched_engine *twin = NewEngine();
  sched_free(Schedule(twin, "probe", 0));

  CHECK(sched_engine_begin(engine, NULL) == SCHED_OK);
  CHECK(sched_engine_apply(engine, kNode3, strlen(kNode3), NULL, NULL) == SCHED_OK);
  CHECK(sched_engine_apply(engine, kPending, strlen(kPending), NULL, NULL) == SCHED_OK);
  sched_free(Schedule(engine, "a", SCHED_SCHEDULE_ASSUME));
  sched_free(Schedule(engine, "b", SCHED_SCHEDULE_ASSUME));
  CHECK(sched_engine_run(engine, 0, 0, &run, NULL) == SCHED_OK);
  CHECK(strstr(run, "\"node\":\"n3\"") != NULL);
  sched_free(run);
  CHECK(sched_engine_advance_clock(engine, 60000, NULL) == SCHED_OK);
  CHECK(sched_engine_revert(engine, NULL) == SCHED_OK);

  after = Reports(engine);
  CHECK(strcmp(before, after) == 0);
  /* The same draw as an engine that never saw the transaction. */
  again = Schedule(engine, "probe2", 0);
  {
    char *expected = Schedule(twin, "probe2", 0);
    CHECK(strcmp(again, expected) == 0);
    sched_free(expected);
  }
  free(before);
  free(after);
  sched_free(first);
  sched_free(again);
  sched_engine_free(twin);
  sched_engine_free(engine);
}

static void TestCommitKeepsAndNestingReverts(void) {
  sched_engine *engine = NewEngine();
  char *before = Reports(engine), *now;
  /* Committed: the assumed pod stays. */
  CHECK(sched_engine_begin(engine, NULL) == SCHED_OK);
  sched_free(Schedule(engine, "kept", SCHED_SCHEDULE_ASSUME));
  CHECK(sched_engine_commit(engine, NULL) == SCHED_OK);
  now = Reports(engine);
  CHECK(strstr(now, "\"podCount\":1") != NULL);
  free(now);
  free(before);
  before = Reports(engine);
  /* An inner commit hands its changes to the outer transaction, whose
   * revert takes them back. */
  CHECK(sched_engine_begin(engine, NULL) == SCHED_OK);
  CHECK(sched_engine_begin(engine, NULL) == SCHED_OK);
  sched_free(Schedule(engine, "inner", SCHED_SCHEDULE_ASSUME));
  CHECK(sched_engine_commit(engine, NULL) == SCHED_OK);
  sched_free(Schedule(engine, "outer", SCHED_SCHEDULE_ASSUME));
  CHECK(sched_engine_revert(engine, NULL) == SCHED_OK);
  now = Reports(engine);
  CHECK(strcmp(before, now) == 0);
  free(now);
  free(before);
  sched_engine_free(engine);
}

static void TestErrors(void) {
  sched_engine *engine = NewEngine();
  sched_error *err = NULL;
  CHECK(sched_engine_commit(engine, &err) == SCHED_INVALID_ARGUMENT);
  CHECK(strcmp(sched_error_message(err), "sched_engine_commit: no transaction is open") == 0);
  CHECK(sched_engine_revert(engine, &err) == SCHED_INVALID_ARGUMENT);
  CHECK(strcmp(sched_error_message(err), "sched_engine_revert: no transaction is open") == 0);
  CHECK(sched_engine_begin(NULL, &err) == SCHED_INVALID_ARGUMENT);
  sched_error_free(err);
  /* Freed with a transaction open: reverted, nothing leaks (valgrind). */
  CHECK(sched_engine_begin(engine, NULL) == SCHED_OK);
  sched_free(Schedule(engine, "open", SCHED_SCHEDULE_ASSUME));
  sched_engine_free(engine);
}

int main(void) {
  TestRevertPutsEverythingBack();
  TestCommitKeepsAndNestingReverts();
  TestErrors();
  printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed == 0 ? 0 : 1;
}
