/* sched_engine_drain and sched_engine_preempt from plain C99, against the
 * slow path on a twin engine: draining n1 places its pods where deleting
 * n1 and scheduling them one by one (with SCHED_SCHEDULE_ASSUME) does,
 * leaves its DaemonSet pod, and changes no report; the preemption what-if
 * is the document a real sched_engine_schedule returns, and changes
 * nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "reports.h"
#include "sched/sched.h"

static const char kCluster[] =
    "{\"kind\":\"List\",\"items\":["
    "{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"},"
    "\"status\":{\"allocatable\":{\"cpu\":\"2\",\"memory\":\"4Gi\",\"pods\":\"110\"}}},"
    "{\"kind\":\"Node\",\"metadata\":{\"name\":\"n2\"},"
    "\"status\":{\"allocatable\":{\"cpu\":\"1\",\"memory\":\"4Gi\",\"pods\":\"110\"}}},"
    "{\"kind\":\"Node\",\"metadata\":{\"name\":\"n3\"},"
    "\"status\":{\"allocatable\":{\"cpu\":\"1\",\"memory\":\"4Gi\",\"pods\":\"110\"}}},"
    "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"ds\",\"namespace\":\"prod\","
    "\"ownerReferences\":[{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\",\"name\":\"d\","
    "\"uid\":\"d1\",\"controller\":true}]},\"spec\":{\"nodeName\":\"n1\","
    "\"containers\":[{\"name\":\"c\"}]}}]}";

/* Pod prod/<name> asking for <cpu> at <priority>, bound to <node> unless "". */
static void PodJson(char *buf, size_t size, const char *name, const char *cpu, int priority,
                    const char *node) {
  char bind[64] = "";
  if (node[0] != '\0') snprintf(bind, sizeof bind, "\"nodeName\":\"%s\",", node);
  snprintf(buf, size,
           "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"%s\",\"namespace\":\"prod\"},"
           "\"spec\":{%s\"priority\":%d,\"containers\":[{\"name\":\"c\",\"resources\":"
           "{\"requests\":{\"cpu\":\"%s\"}}}]}}",
           name, bind, priority, cpu);
}

static void Apply(sched_engine *engine, const char *json) {
  CHECK(sched_engine_apply(engine, json, strlen(json), NULL, NULL) == SCHED_OK);
}

/* The cluster with pods a and b (600m each) on n1. */
static sched_engine *NewEngine(void) {
  sched_engine *engine = NULL;
  char pod[512];
  CHECK(sched_engine_new("{\"seed\":4}", 10, &engine, NULL) == SCHED_OK);
  Apply(engine, kCluster);
  PodJson(pod, sizeof pod, "a", "600m", 0, "n1");
  Apply(engine, pod);
  PodJson(pod, sizeof pod, "b", "600m", 0, "n1");
  Apply(engine, pod);
  return engine;
}

/* The value of "node" in a schedule result, copied into buf. */
static void NodeOf(const char *result, char *buf, size_t size) {
  const char *p = strstr(result, "\"node\":\"");
  size_t n;
  buf[0] = '\0';
  if (p == NULL) return;
  p += strlen("\"node\":\"");
  n = (size_t)(strchr(p, '"') - p);
  if (n < size) {
    memcpy(buf, p, n);
    buf[n] = '\0';
  }
}

static void TestDrain(void) {
  sched_engine *engine = NewEngine(), *slow = NewEngine();
  const char request[] = "{\"nodes\":[\"n1\"]}";
  const char two[] = "{\"nodes\":[\"n1\",\"n2\"]}";
  const char unknown[] = "{\"nodes\":[\"n9\"]}";
  const char *names[] = {"a", "b"};
  char *before = Reports(engine), *after, *out = NULL, *result = NULL;
  char pod[512], node[64], want[256], events[1024];
  sched_error *err = NULL;
  int i;
  CHECK(sched_engine_drain(engine, request, strlen(request), &out, &err) == SCHED_OK);
  CHECK(err == NULL);
  after = Reports(engine);
  CHECK(strcmp(before, after) == 0);
  CHECK(strstr(out, "\"removable\":true") == out + 1);
  CHECK(strstr(out, "{\"pod\":\"prod/ds\",\"from\":\"n1\",\"reason\":\"DaemonSet\"}") != NULL);
  /* The slow path: n1 and its pods deleted, a then b scheduled. */
  snprintf(events, sizeof events,
           "[{\"type\":\"DELETED\",\"object\":{\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\","
           "\"namespace\":\"prod\"},\"spec\":{\"nodeName\":\"n1\"}}},"
           "{\"type\":\"DELETED\",\"object\":{\"kind\":\"Pod\",\"metadata\":{\"name\":\"b\","
           "\"namespace\":\"prod\"},\"spec\":{\"nodeName\":\"n1\"}}},"
           "{\"type\":\"DELETED\",\"object\":{\"kind\":\"Pod\",\"metadata\":{\"name\":\"ds\","
           "\"namespace\":\"prod\"},\"spec\":{\"nodeName\":\"n1\"}}},"
           "{\"type\":\"DELETED\",\"object\":{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"}}}]");
  Apply(slow, events);
  for (i = 0; i < 2; ++i) {
    PodJson(pod, sizeof pod, names[i], "600m", 0, "");
    CHECK(sched_engine_schedule(slow, pod, strlen(pod), SCHED_SCHEDULE_ASSUME, &result, NULL) ==
          SCHED_OK);
    NodeOf(result, node, sizeof node);
    CHECK(node[0] != '\0');
    snprintf(want, sizeof want, "{\"pod\":\"prod/%s\",\"from\":\"n1\",\"node\":\"%s\"}", names[i],
             node);
    CHECK(strstr(out, want) != NULL);
    sched_free(result);
  }
  /* n2 too: one of a and b has nowhere to go. */
  sched_free(out);
  CHECK(sched_engine_drain(engine, two, strlen(two), &out, &err) == SCHED_OK);
  CHECK(strstr(out, "\"removable\":false") == out + 1);
  CHECK(strstr(out, "\"node\":null,\"message\":\"0/1 nodes are available") != NULL);
  sched_free(out);
  out = NULL;
  CHECK(sched_engine_drain(engine, unknown, strlen(unknown), &out, &err) == SCHED_INVALID_ARGUMENT);
  CHECK(strcmp(sched_error_path(err), "nodes[0]") == 0);
  CHECK(out == NULL);
  sched_error_free(err);
  free(before);
  free(after);
  sched_engine_free(engine);
  sched_engine_free(slow);
}

static void TestPreempt(void) {
  sched_engine *engine = NewEngine(), *real = NewEngine();
  char pod[512], request[600];
  char *before = Reports(engine), *after, *out = NULL, *result = NULL;
  sched_error *err = NULL;
  PodJson(pod, sizeof pod, "high", "2", 10, "");
  snprintf(request, sizeof request, "{\"pod\":%s}", pod);
  CHECK(sched_engine_preempt(engine, request, strlen(request), &out, &err) == SCHED_OK);
  after = Reports(engine);
  CHECK(strcmp(before, after) == 0);
  CHECK(sched_engine_schedule(real, pod, strlen(pod), 0, &result, NULL) == SCHED_OK);
  CHECK(strcmp(out, result) == 0);
  CHECK(strstr(out, "\"nominatedNodeName\":\"n1\"") != NULL);
  CHECK(strstr(out, "\"name\":\"a\"") != NULL && strstr(out, "\"name\":\"b\"") != NULL);
  sched_free(out);
  out = NULL;
  CHECK(sched_engine_preempt(engine, "{}", 2, &out, &err) == SCHED_INVALID_ARGUMENT);
  CHECK(strcmp(sched_error_path(err), "pod") == 0);
  sched_error_free(err);
  sched_free(result);
  free(before);
  free(after);
  sched_engine_free(engine);
  sched_engine_free(real);
}

int main(void) {
  TestDrain();
  TestPreempt();
  printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed == 0 ? 0 : 1;
}
