/* Tests of the public header in plain C99 (after leveldb's db/c_test.c):
 * every entry point of include/sched/sched.h is called from C, so the header
 * stays C-clean and the ABI behaves as documented. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/sched.h"

#include "check.h"

#define CHECK_STREQ(a, b)                                                     \
  do {                                                                        \
    const char *a_ = (a);                                                     \
    const char *b_ = (b);                                                     \
    if (a_ != NULL && b_ != NULL && strcmp(a_, b_) == 0) {                    \
      ++g_passed;                                                             \
    } else {                                                                  \
      ++g_failed;                                                             \
      fprintf(stderr, "%s:%d: CHECK_STREQ failed:\n  got:  %s\n  want: %s\n", \
              __FILE__, __LINE__, a_ ? a_ : "(null)", b_ ? b_ : "(null)");    \
    }                                                                         \
  } while (0)

#define CHECK_CONTAINS(haystack, needle)                                   \
  do {                                                                     \
    const char *h_ = (haystack);                                           \
    if (h_ != NULL && strstr(h_, (needle)) != NULL) {                      \
      ++g_passed;                                                          \
    } else {                                                               \
      ++g_failed;                                                          \
      fprintf(stderr, "%s:%d: %s does not contain %s\n", __FILE__, __LINE__, \
              h_ ? h_ : "(null)", (needle));                               \
    }                                                                      \
  } while (0)

static const char kNode1[] =
    "{\"kind\":\"Node\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"n1\","
    "\"labels\":{\"kubernetes.io/hostname\":\"n1\"}},\"status\":{\"allocatable\":"
    "{\"cpu\":\"2\",\"memory\":\"4Gi\",\"pods\":\"110\"}}}";
static const char kNode2[] =
    "{\"kind\":\"Node\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"n2\"},"
    "\"status\":{\"allocatable\":{\"cpu\":\"1\",\"memory\":\"2Gi\",\"pods\":\"110\"}}}";

/* A pending pod asking for `cpu`. */
static void PodJson(char *buf, size_t size, const char *name, const char *cpu) {
  snprintf(buf, size,
           "{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"%s\","
           "\"namespace\":\"prod\"},\"spec\":{\"containers\":[{\"name\":\"c\","
           "\"image\":\"nginx\",\"resources\":{\"requests\":{\"cpu\":\"%s\","
           "\"memory\":\"1Gi\"}}}]}}",
           name, cpu);
}

static sched_status NewEngineFrom(const char *config, sched_engine **out,
                                  sched_error **err) {
  return sched_engine_new(config, strlen(config), out, err);
}

static sched_engine *NewEngine(void) {
  sched_engine *engine = NULL;
  sched_error *err = NULL;
  CHECK(sched_engine_new("{}", 2, &engine, &err) == SCHED_OK);
  CHECK(engine != NULL);
  CHECK(err == NULL);
  return engine;
}

/* Applies `json` and returns the summary (caller frees), or NULL on error. */
static char *Apply(sched_engine *engine, const char *json) {
  char *summary = NULL;
  sched_error *err = NULL;
  sched_status st = sched_engine_apply(engine, json, strlen(json), &summary, &err);
  if (st != SCHED_OK) {
    fprintf(stderr, "apply failed: %s\n", sched_error_message(err));
    sched_error_free(err);
  }
  CHECK(st == SCHED_OK);
  return summary;
}

/* Schedules a pod and returns the result JSON (caller frees). */
static char *Schedule(sched_engine *engine, const char *pod, uint32_t flags) {
  char *result = NULL;
  sched_error *err = NULL;
  sched_status st = sched_engine_schedule(engine, pod, strlen(pod), flags, &result, &err);
  if (st != SCHED_OK) {
    fprintf(stderr, "schedule failed: %s\n", sched_error_message(err));
    sched_error_free(err);
  }
  CHECK(st == SCHED_OK);
  return result;
}

/* Two nodes: n1 (2 cpu), n2 (1 cpu), added as one array of events. */
static sched_engine *TwoNodeEngine(void) {
  char events[2048];
  char *summary;
  sched_engine *engine = NewEngine();
  snprintf(events, sizeof events,
           "[{\"type\":\"ADDED\",\"object\":%s},{\"type\":\"ADDED\",\"object\":%s}]",
           kNode1, kNode2);
  summary = Apply(engine, events);
  CHECK_STREQ(summary, "{\"applied\":2,\"ignored\":{},\"pendingPods\":0}");
  sched_free(summary);
  return engine;
}

/* SCHED_VERSION_NUMBER has sched_version_number()'s type: unsigned, so
 * 0 * N - 1 wraps to a positive value (the array size is -1 otherwise). */
typedef char VersionNumberIsUnsigned[(0 * SCHED_VERSION_NUMBER - 1) > 0 ? 1 : -1];

static void TestVersions(void) {
  CHECK_STREQ(sched_version(), SCHED_VERSION_STRING);
  CHECK(sched_version_number() == SCHED_VERSION_NUMBER);
  CHECK_STREQ(sched_upstream_version(), SCHED_UPSTREAM_VERSION);
}

static void TestStatusNames(void) {
  CHECK_STREQ(sched_status_name(SCHED_OK), "OK");
  CHECK_STREQ(sched_status_name(SCHED_INVALID_ARGUMENT), "INVALID_ARGUMENT");
  CHECK_STREQ(sched_status_name(SCHED_OUT_OF_MEMORY), "OUT_OF_MEMORY");
  CHECK_STREQ(sched_status_name(SCHED_INTERNAL), "INTERNAL");
  CHECK_STREQ(sched_status_name((sched_status)99), "UNKNOWN");
}

static void TestNullsAreAccepted(void) {
  sched_free(NULL);
  sched_error_free(NULL);
  sched_engine_free(NULL);
  CHECK(sched_error_code(NULL) == SCHED_OK);
  CHECK_STREQ(sched_error_message(NULL), "");
  CHECK_STREQ(sched_error_path(NULL), "");
}

static void TestEngineNew(void) {
  static const char kFull[] =
      "{\"apiVersion\":\"kubescheduler.config.k8s.io/v1\","
      "\"kind\":\"KubeSchedulerConfiguration\",\"percentageOfNodesToScore\":50,"
      "\"parallelism\":4,\"seed\":42,\"profiles\":[{\"schedulerName\":\"a\"},"
      "{\"schedulerName\":\"b\"}]}";
  sched_engine *engine = NULL;
  sched_error *err = NULL;

  CHECK(sched_engine_new(kFull, strlen(kFull), &engine, &err) == SCHED_OK);
  CHECK(engine != NULL && err == NULL);
  sched_engine_free(engine);

  engine = NULL;
  CHECK(NewEngineFrom("{\"percentageOfNodesToScore\":101}", &engine, &err) ==
        SCHED_INVALID_ARGUMENT);
  CHECK(engine == NULL);
  CHECK(sched_error_code(err) == SCHED_INVALID_ARGUMENT);
  CHECK_STREQ(sched_error_path(err), "percentageOfNodesToScore");
  CHECK_STREQ(sched_error_message(err),
              "percentageOfNodesToScore: must be between 0 and 100, got 101");
  sched_error_free(err);

  err = NULL;
  CHECK(NewEngineFrom("{\"profiles\":[{\"schedulerName\":\"x\",\"plugins\":{\"filter\":"
                      "{\"enabled\":[{\"name\":\"NoSuchPlugin\"}]}}}]}",
                      &engine, &err) == SCHED_INVALID_ARGUMENT);
  CHECK(engine == NULL);
  CHECK_STREQ(sched_error_path(err), "profiles[0].plugins.filter.enabled[0].name");
  sched_error_free(err);

  err = NULL;
  CHECK(NewEngineFrom("{\"unknown\":1}", &engine, &err) == SCHED_INVALID_ARGUMENT);
  CHECK_STREQ(sched_error_path(err), "unknown");
  sched_error_free(err);

  err = NULL;
  CHECK(NewEngineFrom("{\"seed\": }", &engine, &err) == SCHED_INVALID_ARGUMENT);
  CHECK_STREQ(sched_error_message(err), "invalid JSON at byte offset 9");
  sched_error_free(err);

  /* NULL err is allowed; NULL out is an argument error. */
  CHECK(sched_engine_new("[", 1, &engine, NULL) == SCHED_INVALID_ARGUMENT);
  CHECK(sched_engine_new("{}", 2, NULL, NULL) == SCHED_INVALID_ARGUMENT);
  CHECK(engine == NULL);
}

/* Convention 2: *err is freed on entry, so one variable is reused without
 * leaks (valgrind checks this run) and is NULL after a call that succeeds. */
static void TestErrorOutParameterIsReused(void) {
  sched_engine *engine = NULL;
  sched_error *err = NULL;
  char *out = NULL;
  CHECK(NewEngineFrom("{\"seed\":\"x\"}", &engine, &err) == SCHED_INVALID_ARGUMENT);
  CHECK(err != NULL);
  /* A second failure replaces the first error. */
  CHECK(NewEngineFrom("{\"unknown\":1}", &engine, &err) == SCHED_INVALID_ARGUMENT);
  CHECK_STREQ(sched_error_path(err), "unknown");
  /* A success clears it. */
  CHECK(NewEngineFrom("{}", &engine, &err) == SCHED_OK);
  CHECK(err == NULL);
  CHECK(sched_engine_apply(engine, "[", 1, NULL, &err) == SCHED_INVALID_ARGUMENT);
  CHECK(err != NULL);
  CHECK(sched_engine_stats(engine, &out, &err) == SCHED_OK);
  CHECK(err == NULL);
  sched_free(out);
  /* Argument errors (checked before any work) follow the same rule. */
  CHECK(sched_engine_queue(NULL, &out, &err) == SCHED_INVALID_ARGUMENT);
  CHECK(sched_engine_queue(NULL, &out, &err) == SCHED_INVALID_ARGUMENT);
  CHECK(sched_engine_advance_clock(engine, 1, &err) == SCHED_OK);
  CHECK(err == NULL);
  sched_engine_free(engine);
}

static void TestApplyShapes(void) {
  char doc[4096];
  char *summary;
  sched_engine *engine = NewEngine();

  /* One watch event; the summary is optional. */
  snprintf(doc, sizeof doc, "{\"type\":\"ADDED\",\"object\":%s}", kNode1);
  CHECK(sched_engine_apply(engine, doc, strlen(doc), NULL, NULL) == SCHED_OK);

  /* A List: a node, a bound pod, a pending pod and an ignored kind. */
  snprintf(doc, sizeof doc,
           "{\"kind\":\"List\",\"apiVersion\":\"v1\",\"items\":[%s,"
           "{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"b\"},"
           "\"spec\":{\"nodeName\":\"n1\",\"containers\":[{\"name\":\"c\"}]}},"
           "{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"p\"},"
           "\"spec\":{\"containers\":[{\"name\":\"c\"}]}},"
           "{\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"x\"}}]}",
           kNode2);
  summary = Apply(engine, doc);
  CHECK_STREQ(summary, "{\"applied\":2,\"ignored\":{\"ConfigMap\":1},\"pendingPods\":1}");
  sched_free(summary);

  /* An array of events: n2 is deleted, so only n1 remains. */
  snprintf(doc, sizeof doc,
           "[{\"type\":\"MODIFIED\",\"object\":%s},{\"type\":\"DELETED\",\"object\":%s}]",
           kNode1, kNode2);
  summary = Apply(engine, doc);
  CHECK_STREQ(summary, "{\"applied\":2,\"ignored\":{},\"pendingPods\":0}");
  sched_free(summary);

  PodJson(doc, sizeof doc, "web", "100m");
  summary = Schedule(engine, doc, 0);
  CHECK_CONTAINS(summary, "\"numAllNodes\":1");
  CHECK_CONTAINS(summary, "\"node\":\"n1\"");
  sched_free(summary);
  sched_engine_free(engine);
}

static void TestApplyIsAllOrNothing(void) {
  char doc[4096];
  char pod[1024];
  char *before;
  char *after;
  char *summary = NULL;
  sched_error *err = NULL;
  sched_engine *engine = TwoNodeEngine();

  PodJson(pod, sizeof pod, "big", "3");
  before = Schedule(engine, pod, 0);

  /* A valid node, then a pod with a bad quantity: nothing is applied. */
  snprintf(doc, sizeof doc,
           "[{\"type\":\"ADDED\",\"object\":{\"kind\":\"Node\",\"metadata\":{\"name\":\"n3\"},"
           "\"status\":{\"allocatable\":{\"cpu\":\"64\"}}}},"
           "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"metadata\":{\"name\":\"x\"},"
           "\"spec\":{\"nodeName\":\"n1\",\"containers\":[{\"name\":\"c\",\"resources\":"
           "{\"requests\":{\"cpu\":\"1x\"}}}]}}}]");
  CHECK(sched_engine_apply(engine, doc, strlen(doc), &summary, &err) ==
        SCHED_INVALID_ARGUMENT);
  CHECK(summary == NULL);
  CHECK(sched_error_code(err) == SCHED_INVALID_ARGUMENT);
  CHECK_STREQ(sched_error_path(err), "[1].object.spec.containers[0].resources.requests.cpu");
  CHECK_CONTAINS(sched_error_message(err), "invalid quantity \"1x\"");
  sched_error_free(err);

  after = Schedule(engine, pod, 0);
  CHECK_STREQ(after, before);
  CHECK_STREQ(after,
              "{\"pod\":\"prod/big\",\"node\":null,\"reason\":\"Unschedulable\","
              "\"message\":\"0/2 nodes are available: 2 Insufficient cpu. no new claims "
              "to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not "
              "helpful for scheduling.\","
              "\"numAllNodes\":2,\"evaluatedNodes\":2,\"feasibleNodes\":0,"
              "\"assumed\":false}");
  sched_free(before);
  sched_free(after);

  /* A syntax error reports its byte offset; NULL err is allowed. */
  err = NULL;
  static const char kBadSyntax[] = "[{\"type\" \"ADDED\"}]";
  CHECK(sched_engine_apply(engine, kBadSyntax, strlen(kBadSyntax), NULL, &err) ==
        SCHED_INVALID_ARGUMENT);
  CHECK_STREQ(sched_error_message(err), "invalid JSON at byte offset 9");
  CHECK_STREQ(sched_error_path(err), "");
  sched_error_free(err);
  CHECK(sched_engine_apply(engine, "{}", 2, NULL, NULL) == SCHED_INVALID_ARGUMENT);
  CHECK(sched_engine_apply(NULL, "{}", 2, NULL, NULL) == SCHED_INVALID_ARGUMENT);
  CHECK(sched_engine_apply(engine, NULL, 5, NULL, NULL) == SCHED_INVALID_ARGUMENT);
  sched_engine_free(engine);
}

static void TestSchedule(void) {
  char pod[1024];
  char *result;
  char *out = NULL;
  sched_error *err = NULL;
  sched_engine *engine = TwoNodeEngine();

  /* 1500m fits n1 only. ..._IF_NO_NODE lists no status for a placed pod
   * (n2 rejected it); ..._NODE_STATUSES, also set, wins. */
  PodJson(pod, sizeof pod, "probe", "1500m");
  result = Schedule(engine, pod, SCHED_SCHEDULE_NODE_STATUSES_IF_NO_NODE);
  CHECK_CONTAINS(result, "\"node\":\"n1\"");
  CHECK(strstr(result, "nodeStatuses") == NULL);
  sched_free(result);
  result = Schedule(engine, pod,
                    SCHED_SCHEDULE_NODE_STATUSES_IF_NO_NODE | SCHED_SCHEDULE_NODE_STATUSES);
  CHECK_CONTAINS(result, "\"nodeStatuses\":[{\"node\":\"n2\"");
  sched_free(result);

  /* Assume it on n1. */
  PodJson(pod, sizeof pod, "web-1", "1500m");
  result = Schedule(engine, pod, SCHED_SCHEDULE_ASSUME);
  CHECK_STREQ(result,
              "{\"pod\":\"prod/web-1\",\"node\":\"n1\",\"reason\":\"Scheduled\","
              "\"numAllNodes\":2,\"evaluatedNodes\":2,\"feasibleNodes\":1,"
              "\"assumed\":true}");
  sched_free(result);

  /* The assumed pod now takes n1's room: the same request fits nowhere. */
  PodJson(pod, sizeof pod, "web-2", "1500m");
  result = Schedule(engine, pod, SCHED_SCHEDULE_NODE_STATUSES);
  CHECK_CONTAINS(result, "\"node\":null,\"reason\":\"Unschedulable\","
                         "\"message\":\"0/2 nodes are available: 2 Insufficient cpu. "
                         "no new claims to deallocate, preemption: 0/2 nodes are available: "
                         "1 No preemption victims found for incoming pod, 1 Preemption is "
                         "not helpful for scheduling.\"");
  CHECK_CONTAINS(result, "\"nodeStatuses\":[{\"node\":");
  CHECK_CONTAINS(result, "\"code\":\"Unschedulable\",\"plugin\":\"NodeResourcesFit\","
                         "\"reasons\":[\"Insufficient cpu\"]");
  sched_free(result);
  /* Placed nowhere: ..._IF_NO_NODE lists both nodes. */
  result = Schedule(engine, pod, SCHED_SCHEDULE_NODE_STATUSES_IF_NO_NODE);
  CHECK_CONTAINS(result, "\"nodeStatuses\":[{\"node\":\"n");
  CHECK_CONTAINS(result, "},{\"node\":\"n");
  sched_free(result);

  /* Scores of the feasible nodes. */
  PodJson(pod, sizeof pod, "small", "100m");
  result = Schedule(engine, pod, SCHED_SCHEDULE_SCORES);
  CHECK_CONTAINS(result, "\"reason\":\"Scheduled\"");
  CHECK_CONTAINS(result, "\"scores\":{\"plugins\":[\"");
  CHECK_CONTAINS(result, "\"totalScore\":");
  sched_free(result);

  /* Unknown flag bits, an unknown profile and NULL arguments. */
  CHECK(sched_engine_schedule(engine, pod, strlen(pod), 0x80u, &out, &err) ==
        SCHED_INVALID_ARGUMENT);
  CHECK(out == NULL);
  CHECK_STREQ(sched_error_message(err), "unknown flag bits 0x80 in sched_engine_schedule flags");
  CHECK_STREQ(sched_error_path(err), "");
  sched_error_free(err);

  err = NULL;
  {
    static const char kOther[] =
        "{\"metadata\":{\"name\":\"o\"},\"spec\":{\"schedulerName\":\"other\"}}";
    CHECK(sched_engine_schedule(engine, kOther, strlen(kOther), 0, &out, &err) ==
          SCHED_INVALID_ARGUMENT);
    CHECK_STREQ(sched_error_path(err), "spec.schedulerName");
    sched_error_free(err);
  }
  CHECK(sched_engine_schedule(engine, pod, strlen(pod), 0, NULL, NULL) ==
        SCHED_INVALID_ARGUMENT);
  CHECK(sched_engine_schedule(NULL, pod, strlen(pod), 0, &out, NULL) ==
        SCHED_INVALID_ARGUMENT);
  CHECK(sched_engine_schedule(engine, "{\"metadata\":{}}", 15, 0, &out, NULL) ==
        SCHED_INVALID_ARGUMENT);
  CHECK(out == NULL);
  sched_engine_free(engine);
}

/* SCHED_SCHEDULE_NODE_STATUS_GROUPS: the same verdicts as "nodeStatuses",
 * grouped by code, plugin and reasons, in the order of their first node. */
static void TestNodeStatusGroups(void) {
  static const char kTainted[] =
      "{\"kind\":\"Node\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"n3\"},"
      "\"spec\":{\"taints\":[{\"key\":\"dedicated\",\"value\":\"gpu\","
      "\"effect\":\"NoSchedule\"}]},\"status\":{\"allocatable\":{\"cpu\":\"1\","
      "\"memory\":\"2Gi\",\"pods\":\"110\"}}}";
  static const char kInsufficient[] =
      "\"code\":\"UnschedulableAndUnresolvable\",\"plugin\":\"NodeResourcesFit\","
      "\"reasons\":[\"Insufficient cpu\"]";
  static const char kTaint[] =
      "\"code\":\"UnschedulableAndUnresolvable\",\"plugin\":\"TaintToleration\","
      "\"reasons\":[\"node(s) had untolerated taint(s)\"]";
  char pod[1024], events[2048], want[1024];
  char *result, *out = NULL;
  sched_engine *engine = NewEngine();
  /* Walked in this order: n1, n3, n2. */
  snprintf(events, sizeof events,
           "[{\"type\":\"ADDED\",\"object\":%s},{\"type\":\"ADDED\",\"object\":%s},"
           "{\"type\":\"ADDED\",\"object\":%s}]",
           kNode1, kTainted, kNode2);
  sched_free(Apply(engine, events));

  /* 3 cpu fits nowhere: n1 and n2 lack cpu, n3's taint comes first. */
  PodJson(pod, sizeof pod, "wide", "3");
  result = Schedule(engine, pod, SCHED_SCHEDULE_NODE_STATUSES);
  snprintf(want, sizeof want,
           "\"nodeStatuses\":[{\"node\":\"n1\",%s},{\"node\":\"n3\",%s},{\"node\":\"n2\",%s}]",
           kInsufficient, kTaint, kInsufficient);
  CHECK_CONTAINS(result, want);
  sched_free(result);
  snprintf(want, sizeof want,
           "\"nodeStatusGroups\":[{%s,\"nodes\":[\"n1\",\"n2\"]},{%s,\"nodes\":[\"n3\"]}]}",
           kInsufficient, kTaint);
  result = Schedule(engine, pod, SCHED_SCHEDULE_NODE_STATUSES | SCHED_SCHEDULE_NODE_STATUS_GROUPS);
  CHECK_CONTAINS(result, want);
  CHECK(strstr(result, "\"nodeStatuses\"") == NULL);
  sched_free(result);
  result = Schedule(engine, pod,
                    SCHED_SCHEDULE_NODE_STATUSES_IF_NO_NODE | SCHED_SCHEDULE_NODE_STATUS_GROUPS);
  CHECK_CONTAINS(result, want);
  sched_free(result);

  /* Alone, or for a placed pod with ..._IF_NO_NODE, it adds nothing. */
  PodJson(pod, sizeof pod, "narrow", "100m");
  result = Schedule(engine, pod, SCHED_SCHEDULE_NODE_STATUS_GROUPS);
  CHECK(strstr(result, "nodeStatus") == NULL);
  sched_free(result);
  result = Schedule(engine, pod,
                    SCHED_SCHEDULE_NODE_STATUSES_IF_NO_NODE | SCHED_SCHEDULE_NODE_STATUS_GROUPS);
  CHECK_CONTAINS(result, "\"reason\":\"Scheduled\"");
  CHECK(strstr(result, "nodeStatus") == NULL);
  sched_free(result);

  /* sched_engine_run takes the bit too: the pending pod fits nowhere. */
  PodJson(pod, sizeof pod, "queued", "3");
  snprintf(events, sizeof events, "{\"type\":\"ADDED\",\"object\":%s}", pod);
  sched_free(Apply(engine, events));
  CHECK(sched_engine_run(engine, 1, SCHED_SCHEDULE_NODE_STATUSES | SCHED_SCHEDULE_NODE_STATUS_GROUPS,
                         &out, NULL) == SCHED_OK);
  CHECK_CONTAINS(out, want);
  sched_free(out);
  sched_engine_free(engine);
}

/* The "totalScore" of `node` in the "scores" section of `json`. */
static long TotalScoreOf(const char *json, const char *node) {
  char key[128];
  const char *at;
  long total = -1;
  snprintf(key, sizeof key, "{\"node\":\"%s\",\"totalScore\":", node);
  at = strstr(json, key);
  CHECK(at != NULL);
  CHECK(sscanf(at + strlen(key), "%ld", &total) == 1);
  return total;
}

/* SCHED_SCHEDULE_SCORE_TOTALS: the totals of "scores", grouped by total in
 * the order of their first node. n1 and n3 are alike, n2 is smaller. */
static void TestScoreTotals(void) {
  static const char kNode3[] =
      "{\"kind\":\"Node\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"n3\"},"
      "\"status\":{\"allocatable\":{\"cpu\":\"2\",\"memory\":\"4Gi\",\"pods\":\"110\"}}}";
  char pod[1024], events[2048], want[256];
  char *result, *out = NULL;
  long alike, small;
  sched_engine *engine = NewEngine();
  snprintf(events, sizeof events,
           "[{\"type\":\"ADDED\",\"object\":%s},{\"type\":\"ADDED\",\"object\":%s},"
           "{\"type\":\"ADDED\",\"object\":%s}]",
           kNode1, kNode2, kNode3);
  sched_free(Apply(engine, events));

  PodJson(pod, sizeof pod, "p", "100m");
  result = Schedule(engine, pod, SCHED_SCHEDULE_SCORES | SCHED_SCHEDULE_SCORE_TOTALS);
  alike = TotalScoreOf(result, "n1");
  small = TotalScoreOf(result, "n2");
  CHECK(TotalScoreOf(result, "n3") == alike);
  CHECK(alike != small);
  snprintf(want, sizeof want,
           "\"scoreTotals\":[{\"totalScore\":%ld,\"nodes\":[\"n1\",\"n3\"]},"
           "{\"totalScore\":%ld,\"nodes\":[\"n2\"]}]}",
           alike, small);
  CHECK_CONTAINS(result, want);
  sched_free(result);
  /* Alone: the same groups, no per-plugin "scores". */
  result = Schedule(engine, pod, SCHED_SCHEDULE_SCORE_TOTALS);
  CHECK_CONTAINS(result, want);
  CHECK(strstr(result, "\"scores\"") == NULL);
  sched_free(result);
  /* sched_engine_run takes the bit too. */
  PodJson(pod, sizeof pod, "queued", "100m");
  snprintf(events, sizeof events, "{\"type\":\"ADDED\",\"object\":%s}", pod);
  sched_free(Apply(engine, events));
  CHECK(sched_engine_run(engine, 1, SCHED_SCHEDULE_SCORE_TOTALS, &out, NULL) == SCHED_OK);
  CHECK_CONTAINS(out, want);
  sched_free(out);

  /* One feasible node (the queued pod took 100m of n1 or n3): nothing is
   * scored, the groups are empty. */
  PodJson(pod, sizeof pod, "wide", "1950m");
  result = Schedule(engine, pod, SCHED_SCHEDULE_SCORE_TOTALS);
  CHECK_CONTAINS(result, "\"scoreTotals\":[]");
  sched_free(result);
  sched_engine_free(engine);
}

/* 101 nodes; a cycle that evaluates 100 of them leaves the rotating start
 * index at 100; after one node is deleted the next cycle must still walk
 * the 100 that remain (it once read past the node list, issue 13). */
static void TestScheduleAfterNodeRemoval(void) {
  char node[512];
  char event[640];
  char pod[1024];
  char *out;
  int i;
  sched_engine *engine = NewEngine(); /* the default config: cache on */
  for (i = 0; i <= 100; ++i) {
    snprintf(node, sizeof node,
             "{\"kind\":\"Node\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"n%d\"},"
             "\"status\":{\"allocatable\":{\"cpu\":\"8\",\"memory\":\"16Gi\","
             "\"pods\":\"110\"}}}",
             i);
    snprintf(event, sizeof event, "{\"type\":\"%s\",\"object\":%s}", "ADDED", node);
    sched_free(Apply(engine, event));
  }
  PodJson(pod, sizeof pod, "first", "100m");
  out = Schedule(engine, pod, 0);
  CHECK_CONTAINS(out, "\"numAllNodes\":101,\"evaluatedNodes\":100,");
  sched_free(out);
  /* node still holds n100, the last one. */
  snprintf(event, sizeof event, "{\"type\":\"DELETED\",\"object\":%s}", node);
  sched_free(Apply(engine, event));
  PodJson(pod, sizeof pod, "second", "100m");
  out = Schedule(engine, pod, 0);
  CHECK_CONTAINS(out, "\"reason\":\"Scheduled\",\"numAllNodes\":100,\"evaluatedNodes\":100,");
  sched_free(out);
  sched_engine_free(engine);
}

/* The queue: pending pods from apply, run until idle, a node event that
 * moves the unschedulable pod, the clock, and the queue document. */
static void TestQueue(void) {
  sched_engine *engine = TwoNodeEngine();
  char pod[1024], events[4096];
  char *out = NULL;
  sched_error *err = NULL;

  PodJson(pod, sizeof pod, "a", "1500m");
  snprintf(events, sizeof events, "[{\"type\":\"ADDED\",\"object\":%s},", pod);
  PodJson(pod, sizeof pod, "big", "3");
  snprintf(events + strlen(events), sizeof events - strlen(events),
           "{\"type\":\"ADDED\",\"object\":%s}]", pod);
  out = Apply(engine, events);
  CHECK_STREQ(out, "{\"applied\":0,\"ignored\":{},\"pendingPods\":2}");
  sched_free(out);

  CHECK(sched_engine_run(engine, 0, 0, &out, &err) == SCHED_OK);
  CHECK_CONTAINS(out, "{\"results\":[{\"pod\":\"prod/a\",\"node\":\"n1\"");
  CHECK_CONTAINS(out, "{\"pod\":\"prod/big\",\"node\":null,\"reason\":\"Unschedulable\"");
  sched_free(out);

  CHECK(sched_engine_queue(engine, &out, &err) == SCHED_OK);
  CHECK_STREQ(out, "{\"nowMillis\":0,\"schedulingCycle\":2,\"pods\":[{\"pod\":\"prod/big\","
                   "\"queue\":\"Unschedulable\",\"attempts\":1,\"unschedulablePlugins\":"
                   "[\"NodeResourcesFit\"],\"queuedAtMillis\":0,\"backoffExpiresAtMillis\":1000}]}");
  sched_free(out);

  /* A node big enough: NodeResourcesFit's hint moves the pod to backoff. */
  out = Apply(engine,
              "{\"kind\":\"Node\",\"metadata\":{\"name\":\"n3\"},\"status\":{\"allocatable\":"
              "{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\"}}}");
  sched_free(out);
  CHECK(sched_engine_queue(engine, &out, &err) == SCHED_OK);
  CHECK_CONTAINS(out, "\"queue\":\"Backoff\"");
  sched_free(out);
  /* Run without a bound leaves a pod that is backing off alone. */
  CHECK(sched_engine_run(engine, 0, 0, &out, &err) == SCHED_OK);
  CHECK_STREQ(out, "{\"results\":[]}");
  sched_free(out);
  /* Expiries are whole seconds: at 1000 ms the pod is still backing off. */
  CHECK(sched_engine_advance_clock(engine, 1000, &err) == SCHED_OK);
  CHECK(sched_engine_queue(engine, &out, &err) == SCHED_OK);
  CHECK_CONTAINS(out, "\"queue\":\"Backoff\"");
  sched_free(out);
  CHECK(sched_engine_advance_clock(engine, 1000, &err) == SCHED_OK);
  CHECK(sched_engine_queue(engine, &out, &err) == SCHED_OK);
  CHECK_CONTAINS(out, "{\"nowMillis\":2000,");
  CHECK_CONTAINS(out, "\"queue\":\"Active\"");
  sched_free(out);
  CHECK(sched_engine_run(engine, 1, 0, &out, &err) == SCHED_OK);
  CHECK_CONTAINS(out, "{\"results\":[{\"pod\":\"prod/big\",\"node\":\"n3\"");
  sched_free(out);
  CHECK(sched_engine_run(engine, 0, 0, &out, &err) == SCHED_OK);
  CHECK_STREQ(out, "{\"results\":[]}");
  sched_free(out);

  /* A pod rejected only by NodeAffinity's node-name restriction (a
   * PreFilterResult): NodeAffinity is recorded as the restricting plugin, as
   * upstream's Diagnosis does, so the pod waits in unschedulablePods for
   * NodeAffinity's events; an unbounded run still ends. */
  out = Apply(engine,
              "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"pinned\"},\"spec\":{\"affinity\":"
              "{\"nodeAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":"
              "{\"nodeSelectorTerms\":[{\"matchFields\":[{\"key\":\"metadata.name\","
              "\"operator\":\"In\",\"values\":[\"n9\"]}]}]}}}}}");
  sched_free(out);
  CHECK(sched_engine_run(engine, 0, 0, &out, &err) == SCHED_OK);
  CHECK_CONTAINS(out, "{\"results\":[{\"pod\":\"default/pinned\",\"node\":null");
  sched_free(out);
  CHECK(sched_engine_queue(engine, &out, &err) == SCHED_OK);
  CHECK_CONTAINS(out, "\"pod\":\"default/pinned\",\"queue\":\"Unschedulable\"");
  CHECK_CONTAINS(out, "\"unschedulablePlugins\":[\"NodeAffinity\"]");
  sched_free(out);
  CHECK(sched_engine_run(engine, 0, 0, &out, &err) == SCHED_OK);
  CHECK_STREQ(out, "{\"results\":[]}");
  sched_free(out);

  /* Bad calls. */
  out = NULL;
  CHECK(sched_engine_run(engine, 0, SCHED_SCHEDULE_ASSUME, &out, &err) == SCHED_INVALID_ARGUMENT);
  CHECK_STREQ(sched_error_message(err), "unknown flag bits 0x1 in sched_engine_run flags");
  sched_error_free(err);
  err = NULL;
  CHECK(out == NULL);
  CHECK(sched_engine_run(engine, 0, 0, NULL, NULL) == SCHED_INVALID_ARGUMENT);
  CHECK(sched_engine_run(NULL, 0, 0, &out, NULL) == SCHED_INVALID_ARGUMENT);
  CHECK(sched_engine_queue(engine, NULL, NULL) == SCHED_INVALID_ARGUMENT);
  CHECK(sched_engine_queue(NULL, &out, NULL) == SCHED_INVALID_ARGUMENT);
  CHECK(sched_engine_advance_clock(NULL, 1, NULL) == SCHED_INVALID_ARGUMENT);
  CHECK(sched_engine_advance_clock(engine, UINT64_MAX, NULL) == SCHED_INVALID_ARGUMENT);
  sched_engine_free(engine);
}

/* sched_engine_stats: the equivalence cache's counters; two pods of one
 * template are one miss and one hit, and "equivalenceCache": false turns
 * the cache off. */
static void TestStats(void) {
  static const char *const kConfigs[] = {"{}", "{\"equivalenceCache\":false}"};
  static const char *const kWant[] = {
      "{\"equivalenceCache\":{\"enabled\":true,\"hits\":1,\"misses\":1,",
      "{\"equivalenceCache\":{\"enabled\":false,\"hits\":0,\"misses\":0,"};
  char pod[512];
  char *out = NULL;
  sched_error *err = NULL;
  int i, k;
  for (i = 0; i < 2; ++i) {
    sched_engine *engine = NULL;
    CHECK(NewEngineFrom(kConfigs[i], &engine, NULL) == SCHED_OK);
    CHECK(sched_engine_apply(engine, kNode1, strlen(kNode1), NULL, NULL) == SCHED_OK);
    CHECK(sched_engine_apply(engine, kNode2, strlen(kNode2), NULL, NULL) == SCHED_OK);
    for (k = 0; k < 2; ++k) {
      PodJson(pod, sizeof pod, k == 0 ? "a" : "b", "100m");
      CHECK(sched_engine_schedule(engine, pod, strlen(pod), SCHED_SCHEDULE_ASSUME, &out, NULL) ==
            SCHED_OK);
      sched_free(out);
      out = NULL;
    }
    CHECK(sched_engine_stats(engine, &out, &err) == SCHED_OK);
    CHECK(err == NULL);
    CHECK(out != NULL && strncmp(out, kWant[i], strlen(kWant[i])) == 0);
    if (out != NULL && strncmp(out, kWant[i], strlen(kWant[i])) != 0) {
      fprintf(stderr, "stats: %s\n", out);
    }
    CHECK_CONTAINS(out, "},\"interner\":{\"strings\":");
    sched_free(out);
    out = NULL;
    CHECK(sched_engine_stats(engine, NULL, &err) == SCHED_INVALID_ARGUMENT);
    sched_error_free(err);
    err = NULL;
    sched_engine_free(engine);
  }
  CHECK(sched_engine_stats(NULL, &out, NULL) == SCHED_INVALID_ARGUMENT);
  CHECK(out == NULL);
  /* A pod that fits nowhere, twice with nothing changed between: the
   * second cycle is answered by the failure memo ("parked"). */
  for (i = 0; i < 2; ++i) {
    static const char *const kParked[] = {"\"parked\":1}", "\"parked\":0}"};
    sched_engine *engine = NULL;
    CHECK(NewEngineFrom(kConfigs[i], &engine, NULL) == SCHED_OK);
    CHECK(sched_engine_apply(engine, kNode1, strlen(kNode1), NULL, NULL) == SCHED_OK);
    for (k = 0; k < 2; ++k) {
      PodJson(pod, sizeof pod, k == 0 ? "a" : "b", "1000");
      CHECK(sched_engine_schedule(engine, pod, strlen(pod), 0, &out, NULL) == SCHED_OK);
      CHECK(out != NULL && strstr(out, "\"node\":null") != NULL);
      sched_free(out);
      out = NULL;
    }
    CHECK(sched_engine_stats(engine, &out, NULL) == SCHED_OK);
    CHECK(out != NULL && strstr(out, kParked[i]) != NULL);
    if (out != NULL && strstr(out, kParked[i]) == NULL) fprintf(stderr, "stats: %s\n", out);
    sched_free(out);
    out = NULL;
    sched_engine_free(engine);
  }
  /* A wrong type is a config error naming the field. */
  {
    sched_engine *engine = NULL;
    CHECK(NewEngineFrom("{\"equivalenceCache\":1}", &engine, &err) == SCHED_INVALID_ARGUMENT);
    CHECK(engine == NULL);
    CHECK_STREQ(sched_error_path(err), "equivalenceCache");
    sched_error_free(err);
  }
}

/* sched_engine_nodes: a pod assumed by sched_engine_schedule counts in its
 * node's requested resources; a query selects nodes by label; a bad query
 * is SCHED_INVALID_ARGUMENT with the field's path and *nodes_json untouched. */
static void TestNodes(void) {
  static const char kSelectN1[] =
      "{\"labelSelector\":{\"matchLabels\":{\"kubernetes.io/hostname\":\"n1\"}}}";
  static const char kBad[] = "{\"labelSelector\":{\"matchExpressions\":[{\"key\":\"k\","
                             "\"operator\":\"Bogus\"}]}}";
  char pod[512];
  char *out = NULL;
  sched_error *err = NULL;
  sched_engine *engine = NewEngine();
  free(Apply(engine, kNode1));
  free(Apply(engine, kNode2));
  CHECK(sched_engine_nodes(engine, NULL, 0, &out, &err) == SCHED_OK);
  CHECK(err == NULL);
  CHECK_CONTAINS(out, "{\"nodes\":[{\"name\":\"n1\",\"labels\":{\"kubernetes.io/hostname\":"
                      "\"n1\"},\"allocatable\":{\"milliCPU\":2000,");
  CHECK_CONTAINS(out, "\"requested\":{\"milliCPU\":0,");
  sched_free(out);
  out = NULL;
  /* n1 has the room: 1500m of its 2 CPUs, assumed. */
  PodJson(pod, sizeof pod, "a", "1500m");
  CHECK(sched_engine_schedule(engine, pod, strlen(pod), SCHED_SCHEDULE_ASSUME, &out, NULL) ==
        SCHED_OK);
  CHECK_CONTAINS(out, "\"node\":\"n1\"");
  sched_free(out);
  out = NULL;
  CHECK(sched_engine_nodes(engine, kSelectN1, strlen(kSelectN1), &out, &err) == SCHED_OK);
  CHECK_CONTAINS(out, "\"requested\":{\"milliCPU\":1500,\"memory\":1073741824,");
  CHECK_CONTAINS(out, "\"podCount\":1}]}");
  CHECK(out != NULL && strstr(out, "\"n2\"") == NULL);
  sched_free(out);
  out = NULL;
  CHECK(sched_engine_nodes(engine, kBad, strlen(kBad), &out, &err) == SCHED_INVALID_ARGUMENT);
  CHECK(out == NULL);
  CHECK_STREQ(sched_error_path(err), "labelSelector.matchExpressions[0]");
  CHECK(sched_engine_nodes(engine, "{}", 2, NULL, &err) == SCHED_INVALID_ARGUMENT);
  CHECK(sched_engine_nodes(NULL, "{}", 2, &out, &err) == SCHED_INVALID_ARGUMENT);
  sched_error_free(err);
  sched_engine_free(engine);
}

/* sched_engine_explain: every node with its verdict, the nearest miss with
 * its shortfall, the summary; the engine unchanged (the same pod still
 * assumes where it would have); a bad pod is SCHED_INVALID_ARGUMENT. */
static void TestExplain(void) {
  char pod[512];
  char *out = NULL;
  sched_error *err = NULL;
  sched_engine *engine = NewEngine();
  free(Apply(engine, kNode1));
  free(Apply(engine, kNode2));
  PodJson(pod, sizeof pod, "a", "1500m");
  CHECK(sched_engine_explain(engine, pod, strlen(pod), &out, &err) == SCHED_OK);
  CHECK(err == NULL);
  CHECK_CONTAINS(out, "\"message\":\"1/2 nodes are feasible.\"");
  CHECK_CONTAINS(out, "\"text\":\"needs 500m more cpu on 1 node\"");
  CHECK_CONTAINS(out, "\"node\":\"n1\",\"feasible\":true");
  CHECK_CONTAINS(out, "\"node\":\"n2\",\"feasible\":false,\"plugin\":\"NodeResourcesFit\"");
  sched_free(out);
  out = NULL;
  CHECK(sched_engine_explain(engine, "{\"kind\":\"Node\"}", 15, &out, &err) ==
        SCHED_INVALID_ARGUMENT);
  CHECK(out == NULL);
  CHECK_STREQ(sched_error_path(err), "kind");
  CHECK(sched_engine_explain(engine, pod, strlen(pod), NULL, &err) == SCHED_INVALID_ARGUMENT);
  CHECK(sched_engine_explain(NULL, pod, strlen(pod), &out, &err) == SCHED_INVALID_ARGUMENT);
  CHECK(sched_engine_schedule(engine, pod, strlen(pod), SCHED_SCHEDULE_ASSUME, &out, NULL) ==
        SCHED_OK);
  CHECK_CONTAINS(out, "\"node\":\"n1\"");
  sched_free(out);
  sched_error_free(err);
  sched_engine_free(engine);
}

/* sched_engine_capacity: n1 (2 CPUs) holds two 900m replicas, n2 one
 * (1 CPU); the engine unchanged afterwards; a bound template is refused. */
static void TestCapacity(void) {
  char pod[512];
  char request[640];
  char *out = NULL;
  sched_error *err = NULL;
  sched_engine *engine = NewEngine();
  free(Apply(engine, kNode1));
  free(Apply(engine, kNode2));
  PodJson(pod, sizeof pod, "web", "900m");
  snprintf(request, sizeof request, "{\"maxReplicas\":10,\"pod\":%s}", pod);
  CHECK(sched_engine_capacity(engine, request, strlen(request), &out, &err) == SCHED_OK);
  CHECK(err == NULL);
  CHECK_CONTAINS(out, "\"replicas\":3,\"capped\":false");
  CHECK_CONTAINS(out, "\"nodes\":[{\"node\":\"n1\",\"replicas\":2},{\"node\":\"n2\",\"replicas\":1}]");
  sched_free(out);
  out = NULL;
  CHECK(sched_engine_capacity(engine, request, strlen(request), &out, &err) == SCHED_OK);
  CHECK_CONTAINS(out, "\"replicas\":3,");
  sched_free(out);
  out = NULL;
  CHECK(sched_engine_capacity(engine, "{\"maxReplicas\":0}", 17, &out, &err) ==
        SCHED_INVALID_ARGUMENT);
  CHECK(out == NULL);
  CHECK(sched_engine_capacity(engine, request, strlen(request), NULL, &err) ==
        SCHED_INVALID_ARGUMENT);
  sched_error_free(err);
  sched_engine_free(engine);
}

int main(void) {
  TestVersions();
  TestStatusNames();
  TestNullsAreAccepted();
  TestEngineNew();
  TestErrorOutParameterIsReused();
  TestApplyShapes();
  TestApplyIsAllOrNothing();
  TestSchedule();
  TestNodeStatusGroups();
  TestScoreTotals();
  TestScheduleAfterNodeRemoval();
  TestQueue();
  TestStats();
  TestNodes();
  TestExplain();
  TestCapacity();
  printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed == 0 ? 0 : 1;
}
