/* The interner under churn, through the C API: strings brought by objects
 * (unique names, label keys and values, images, namespaces) are freed once
 * nothing holds them, so sched_engine_stats' "interner" returns to its
 * base after the objects are deleted (issue 13, item 2). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/sched.h"

#include "check.h"

enum { kNodes = 6, kPods = 40, kBuf = 4096 };

typedef struct {
  long strings;
  long bytes;
} InternerSize;

static InternerSize Size(sched_engine *engine) {
  InternerSize s = {-1, -1};
  char *out = NULL;
  const char *p;
  CHECK(sched_engine_stats(engine, &out, NULL) == SCHED_OK);
  p = out == NULL ? NULL : strstr(out, "\"interner\":{\"strings\":");
  CHECK(p != NULL);
  if (p != NULL) {
    p += strlen("\"interner\":{\"strings\":");
    s.strings = strtol(p, NULL, 10);
    p = strstr(p, "\"bytes\":");
    CHECK(p != NULL);
    if (p != NULL) s.bytes = strtol(p + strlen("\"bytes\":"), NULL, 10);
  }
  sched_free(out);
  return s;
}

static void Apply(sched_engine *engine, const char *doc) {
  sched_error *err = NULL;
  CHECK(sched_engine_apply(engine, doc, strlen(doc), NULL, &err) == SCHED_OK);
  if (err != NULL) fprintf(stderr, "apply: %s\n", sched_error_message(err));
  sched_error_free(err);
}

/* A node whose name, labels and image are its own. */
static void NodeJson(char *buf, int round, int i) {
  snprintf(buf, kBuf,
           "{\"kind\":\"Node\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"node-%d-%d\","
           "\"labels\":{\"kubernetes.io/hostname\":\"node-%d-%d\","
           "\"topology.kubernetes.io/zone\":\"zone-%d-%d\",\"only-%d-%d\":\"v-%d-%d\"}},"
           "\"status\":{\"allocatable\":{\"cpu\":\"8\",\"memory\":\"16Gi\",\"pods\":\"110\"},"
           "\"images\":[{\"names\":[\"registry/img-%d-%d:1\"],\"sizeBytes\":100000000}]}}",
           round, i, round, i, round, i % 2, round, i, round, i, round, i);
}

/* A pod with a unique name label (a StatefulSet's), a Job-like
 * controller-uid, its own namespace and image, a spread constraint and an
 * anti-affinity term on its own labels; `node` binds it, when not null. */
static void PodJson(char *buf, int round, int j, const char *node) {
  char bind[128] = "";
  if (node != NULL) snprintf(bind, sizeof bind, "\"nodeName\":\"%s\",", node);
  snprintf(buf, kBuf,
           "{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"web-%d-%d\","
           "\"namespace\":\"ns-%d\",\"uid\":\"uid-%d-%d\",\"labels\":{\"app\":\"web-%d\","
           "\"statefulset.kubernetes.io/pod-name\":\"web-%d-%d\","
           "\"controller-uid\":\"cu-%d-%d\"}},\"spec\":{%s\"containers\":[{\"name\":\"c\","
           "\"image\":\"registry/app-%d-%d:1\",\"resources\":{\"requests\":{\"cpu\":\"10m\","
           "\"memory\":\"10Mi\"}}}],\"topologySpreadConstraints\":[{\"maxSkew\":1,"
           "\"topologyKey\":\"topology.kubernetes.io/zone\",\"whenUnsatisfiable\":"
           "\"ScheduleAnyway\",\"labelSelector\":{\"matchLabels\":{\"app\":\"web-%d\"}}}],"
           "\"affinity\":{\"podAntiAffinity\":{\"preferredDuringSchedulingIgnoredDuringExecution\":"
           "[{\"weight\":1,\"podAffinityTerm\":{\"topologyKey\":\"kubernetes.io/hostname\","
           "\"labelSelector\":{\"matchLabels\":{\"controller-uid\":\"cu-%d-%d\"}}}}]}}}}",
           round, j, round, round, j, round, round, j, round, j, bind, round, j, round, round, j);
}

static void Event(char *buf, const char *type, const char *object) {
  snprintf(buf, 2 * kBuf, "{\"type\":\"%s\",\"object\":%s}", type, object);
}

/* Nodes come, pods are scheduled with ASSUME (then confirmed bound), queued
 * and run, or fail to fit; then everything is deleted. */
static void Round(sched_engine *engine, int round) {
  static char obj[kBuf], doc[2 * kBuf];
  char node[64];
  char *out = NULL;
  int i, j;
  for (i = 0; i < kNodes; ++i) {
    NodeJson(obj, round, i);
    Apply(engine, obj);
  }
  for (j = 0; j < kPods; ++j) {
    const char *p;
    PodJson(obj, round, j, NULL);
    if (j % 4 == 3) { /* pending, scheduled by sched_engine_run below */
      Apply(engine, obj);
      continue;
    }
    CHECK(sched_engine_schedule(engine, obj, strlen(obj), SCHED_SCHEDULE_ASSUME, &out, NULL) ==
          SCHED_OK);
    p = out == NULL ? NULL : strstr(out, "\"node\":\"");
    CHECK(p != NULL);
    if (p != NULL && j % 2 == 0) { /* the informer confirms half of them */
      sscanf(p + strlen("\"node\":\""), "%63[^\"]", node);
      PodJson(obj, round, j, node);
      Apply(engine, obj);
    }
    sched_free(out);
    out = NULL;
  }
  CHECK(sched_engine_run(engine, 0, 0, &out, NULL) == SCHED_OK);
  sched_free(out);
  out = NULL;
  /* A pod that fits nowhere, not assumed: its strings go with the call. */
  PodJson(obj, round, kPods, NULL);
  memcpy(strstr(obj, "\"10m\""), "\"99\" ", 5);
  CHECK(sched_engine_schedule(engine, obj, strlen(obj), SCHED_SCHEDULE_ASSUME, &out, NULL) ==
        SCHED_OK);
  CHECK(out != NULL && strstr(out, "\"node\":null") != NULL);
  sched_free(out);
  for (j = 0; j < kPods; ++j) {
    PodJson(obj, round, j, NULL);
    Event(doc, "DELETED", obj);
    Apply(engine, doc);
  }
  for (i = 0; i < kNodes; ++i) {
    NodeJson(obj, round, i);
    Event(doc, "DELETED", obj);
    Apply(engine, doc);
  }
}

static long Counter(sched_engine *engine, const char *name) {
  char *out = NULL;
  const char *p;
  long v = -1;
  CHECK(sched_engine_stats(engine, &out, NULL) == SCHED_OK);
  p = out == NULL ? NULL : strstr(out, name);
  if (p != NULL) v = strtol(p + strlen(name), NULL, 10);
  sched_free(out);
  return v;
}

/* Freed ids become reusable in batches; the equivalence cache, whose keys
 * hold ids, starts over then: the same class misses again. */
static void TestReuseEmptiesTheCache(void) {
  static char obj[kBuf], doc[2 * kBuf];
  static const long kMisses[] = {1, 1, 2};
  sched_engine *engine = NULL;
  char *out = NULL;
  int k, j;
  CHECK(sched_engine_new("{}", 2, &engine, NULL) == SCHED_OK);
  NodeJson(obj, 0, 0);
  Apply(engine, obj);
  for (k = 0; k < 3; ++k) {
    /* Enough unique strings come and go for a batch of ids to be reused. */
    for (j = 0; k == 2 && j < 1600; ++j) {
      PodJson(obj, 1, j, "node-0-0");
      Apply(engine, obj);
      Event(doc, "DELETED", obj);
      Apply(engine, doc);
    }
    /* One class: the same requests and no node selector. */
    snprintf(obj, kBuf,
             "{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"p%d\"},"
             "\"spec\":{\"containers\":[{\"name\":\"c\"}]}}",
             k);
    CHECK(sched_engine_schedule(engine, obj, strlen(obj), 0, &out, NULL) == SCHED_OK);
    sched_free(out);
    out = NULL;
    CHECK(Counter(engine, "\"misses\":") == kMisses[k]);
  }
  sched_engine_free(engine);
}

int main(void) {
  static const char *const kConfigs[] = {"{}", "{\"equivalenceCache\":false}"};
  int c, round;
  for (c = 0; c < 2; ++c) {
    sched_engine *engine = NULL;
    InternerSize base, now;
    CHECK(sched_engine_new(kConfigs[c], strlen(kConfigs[c]), &engine, NULL) == SCHED_OK);
    base = Size(engine);
    CHECK(base.strings >= 0 && base.bytes >= 0);
    for (round = 0; round < 3; ++round) {
      Round(engine, round);
      now = Size(engine);
      CHECK(now.strings == base.strings && now.bytes == base.bytes);
      if (now.strings != base.strings || now.bytes != base.bytes) {
        fprintf(stderr, "config %s round %d: %ld strings, %ld bytes; base %ld, %ld\n", kConfigs[c],
                round, now.strings, now.bytes, base.strings, base.bytes);
      }
    }
    sched_engine_free(engine);
  }
  TestReuseEmptiesTheCache();
  printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed == 0 ? 0 : 1;
}
