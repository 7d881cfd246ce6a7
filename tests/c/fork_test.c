/* sched_engine_fork from plain C99: the child starts with the parent's
 * reports and makes the parent's next decision; changes to either never
 * show in the other; either may be freed first; parent and child used from
 * two threads at once end as two engines used one after the other. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/sched.h"

#include "check.h"
#include "reports.h"

static const char kNodes[] =
    "[{\"type\":\"ADDED\",\"object\":{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"},"
    "\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\"}}}},"
    "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Node\",\"metadata\":{\"name\":\"n2\"},"
    "\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\"}}}}]";
static const char kNode3[] =
    "{\"kind\":\"Node\",\"metadata\":{\"name\":\"n3\",\"labels\":{\"only\":\"child\"}},"
    "\"status\":{\"allocatable\":{\"cpu\":\"8\",\"memory\":\"16Gi\",\"pods\":\"110\"}}}";
/* Fits nowhere: stays queued, with its attempts and rejecting plugin. */
static const char kPending[] =
    "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"big\",\"namespace\":\"prod\"},"
    "\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":"
    "{\"cpu\":\"6\"}}}]}}";

static char *Pod(const char *name) {
  char *buf = malloc(512);
  snprintf(buf, 512,
           "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"%s\",\"namespace\":\"prod\"},"
           "\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":"
           "{\"cpu\":\"500m\",\"memory\":\"1Gi\"}}}]}}",
           name);
  return buf;
}

static sched_engine *NewEngine(void) {
  sched_engine *engine = NULL;
  char *run = NULL;
  CHECK(sched_engine_new("{\"seed\":5}", 10, &engine, NULL) == SCHED_OK);
  CHECK(sched_engine_apply(engine, kNodes, strlen(kNodes), NULL, NULL) == SCHED_OK);
  CHECK(sched_engine_apply(engine, kPending, strlen(kPending), NULL, NULL) == SCHED_OK);
  CHECK(sched_engine_run(engine, 0, 0, &run, NULL) == SCHED_OK);
  sched_free(run);
  return engine;
}

static char *Schedule(sched_engine *engine, const char *name, uint32_t flags) {
  char *pod = Pod(name);
  char *out = NULL;
  CHECK(sched_engine_schedule(engine, pod, strlen(pod), flags, &out, NULL) == SCHED_OK);
  free(pod);
  return out;
}

static void TestChildIsEqualAndIndependent(void) {
  sched_engine *parent = NewEngine(), *child = NULL;
  char *before = Reports(parent), *now, *a, *b;
  CHECK(sched_engine_fork(parent, &child, NULL) == SCHED_OK);
  now = Reports(child);
  CHECK(strcmp(before, now) == 0);
  free(now);
  /* The same random draw among the tied nodes. */
  a = Schedule(parent, "probe", 0);
  b = Schedule(child, "probe", 0);
  CHECK(strcmp(a, b) == 0);
  sched_free(a);
  sched_free(b);
  /* The child's changes stay in the child. */
  CHECK(sched_engine_apply(child, kNode3, strlen(kNode3), NULL, NULL) == SCHED_OK);
  sched_free(Schedule(child, "x", SCHED_SCHEDULE_ASSUME));
  now = Reports(parent);
  CHECK(strcmp(before, now) == 0);
  free(now);
  now = Reports(child);
  CHECK(strstr(now, "\"only\":\"child\"") != NULL);
  free(now);
  /* The parent's stay in the parent; freed first, the child lives on. */
  sched_free(Schedule(parent, "y", SCHED_SCHEDULE_ASSUME));
  sched_engine_free(parent);
  now = Reports(child);
  CHECK(strstr(now, "\"podCount\":2") == NULL);
  CHECK(strstr(now, "\"podCount\":1") != NULL);
  free(now);
  free(before);
  sched_engine_free(child);
}

/* A thread's share: it counts its own failures (CHECK's counters are not
 * for threads), which the main thread checks after joining. */
struct Worker {
  sched_engine *engine;
  const char *prefix;
  char *last;
  int failed;
};

static void *Work(void *arg) {
  struct Worker *w = arg;
  char name[64];
  int i;
  for (i = 0; i < 20; ++i) {
    snprintf(name, sizeof name, "%s%d", w->prefix, i);
    free(w->last);
    w->last = NULL;
    {
      char *pod = Pod(name), *r = NULL;
      if (sched_engine_schedule(w->engine, pod, strlen(pod), SCHED_SCHEDULE_ASSUME, &r, NULL) !=
          SCHED_OK) {
        ++w->failed;
      } else {
        w->last = malloc(strlen(r) + 1);
        strcpy(w->last, r);
        sched_free(r);
      }
      free(pod);
    }
  }
  return NULL;
}

static void TestConcurrentParentAndChild(void) {
  sched_engine *parent = NewEngine(), *child = NULL;
  sched_engine *twin_parent = NewEngine(), *twin_child = NewEngine();
  struct Worker wp = {NULL, "p", NULL, 0}, wc = {NULL, "c", NULL, 0};
  struct Worker tp = {NULL, "p", NULL, 0}, tc = {NULL, "c", NULL, 0};
  pthread_t t1, t2;
  char *x, *y;
  CHECK(sched_engine_fork(parent, &child, NULL) == SCHED_OK);
  wp.engine = parent;
  wc.engine = child;
  tp.engine = twin_parent;
  tc.engine = twin_child;
  CHECK(pthread_create(&t1, NULL, Work, &wp) == 0);
  CHECK(pthread_create(&t2, NULL, Work, &wc) == 0);
  pthread_join(t1, NULL);
  pthread_join(t2, NULL);
  Work(&tp);
  Work(&tc);
  CHECK(wp.failed == 0 && wc.failed == 0 && tp.failed == 0 && tc.failed == 0);
  CHECK(wp.last != NULL && tp.last != NULL && strcmp(wp.last, tp.last) == 0);
  CHECK(wc.last != NULL && tc.last != NULL && strcmp(wc.last, tc.last) == 0);
  x = Reports(child);
  y = Reports(twin_child);
  CHECK(strcmp(x, y) == 0);
  free(x);
  free(y);
  free(wp.last);
  free(wc.last);
  free(tp.last);
  free(tc.last);
  sched_engine_free(child);
  sched_engine_free(parent);
  sched_engine_free(twin_parent);
  sched_engine_free(twin_child);
}

static void TestErrors(void) {
  sched_engine *engine = NewEngine(), *child = NULL;
  sched_error *err = NULL;
  CHECK(sched_engine_fork(NULL, &child, &err) == SCHED_INVALID_ARGUMENT);
  CHECK(strcmp(sched_error_message(err), "engine is NULL") == 0);
  sched_error_free(err);
  err = NULL;
  CHECK(sched_engine_fork(engine, NULL, &err) == SCHED_INVALID_ARGUMENT);
  CHECK(strcmp(sched_error_message(err), "child is NULL") == 0);
  CHECK(child == NULL);
  sched_error_free(err);
  /* A fork inside a transaction keeps the state as it is then; the
   * parent's revert does not reach it. */
  CHECK(sched_engine_begin(engine, NULL) == SCHED_OK);
  CHECK(sched_engine_apply(engine, kNode3, strlen(kNode3), NULL, NULL) == SCHED_OK);
  CHECK(sched_engine_fork(engine, &child, NULL) == SCHED_OK);
  CHECK(sched_engine_revert(engine, NULL) == SCHED_OK);
  CHECK(sched_engine_revert(child, NULL) == SCHED_INVALID_ARGUMENT);
  {
    char *r = Reports(child);
    CHECK(strstr(r, "\"only\":\"child\"") != NULL);
    free(r);
    r = Reports(engine);
    CHECK(strstr(r, "\"only\":\"child\"") == NULL);
    free(r);
  }
  sched_engine_free(engine);
  sched_engine_free(child);
}

int main(void) {
  TestChildIsEqualAndIndependent();
  TestConcurrentParentAndChild();
  TestErrors();
  printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed == 0 ? 0 : 1;
}
