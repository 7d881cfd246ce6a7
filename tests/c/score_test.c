/* sched_engine_score from plain C99: the nodes named are scored alone, so
 * a plugin that normalizes per cycle (TaintToleration, weight 3)
 * normalizes over them; over every node the totals are those of
 * sched_engine_schedule's "scoreTotals"; bad requests name their field;
 * a pod PreFilter rejects is an "error" answer; the equivalence cache
 * changes no answer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sched/sched.h"

/* n0, n1 and n2 alike but for 0, 1 and 2 PreferNoSchedule taints. */
static const char kCluster[] =
    "{\"kind\":\"List\",\"items\":["
    "{\"kind\":\"Node\",\"metadata\":{\"name\":\"n0\"},"
    "\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\"}}},"
    "{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"},"
    "\"spec\":{\"taints\":[{\"key\":\"a\",\"effect\":\"PreferNoSchedule\"}]},"
    "\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\"}}},"
    "{\"kind\":\"Node\",\"metadata\":{\"name\":\"n2\"},"
    "\"spec\":{\"taints\":[{\"key\":\"a\",\"effect\":\"PreferNoSchedule\"},"
    "{\"key\":\"b\",\"effect\":\"PreferNoSchedule\"}]},"
    "\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\"}}}]}";

static const char kPod[] =
    "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"prod\"},"
    "\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}]}}";

/* Scores kPod on `nodes` (a JSON array); returns the answer (sched_free it)
 * or NULL with *status and *path set (path copied into a static buffer). */
static char *Score(sched_engine *engine, const char *pod, const char *nodes,
                   sched_status *status, const char **path) {
  static char path_buf[64];
  char request[2048];
  char *answer = NULL;
  sched_error *err = NULL;
  snprintf(request, sizeof request, "{\"pod\":%s,\"nodes\":%s}", pod, nodes);
  *status = sched_engine_score(engine, request, strlen(request), &answer, &err);
  path_buf[0] = '\0';
  if (err != NULL) {
    snprintf(path_buf, sizeof path_buf, "%s", sched_error_path(err));
    sched_error_free(err);
  }
  *path = path_buf;
  return answer;
}

/* Reads the n numbers of "totalScores" into out; returns how many it read. */
static int Totals(const char *answer, long long *out, int n) {
  const char *p = strstr(answer, "\"totalScores\":[");
  int read = 0;
  if (p == NULL) return -1;
  p += strlen("\"totalScores\":[");
  while (read < n && *p != ']') {
    char *end;
    out[read++] = strtoll(p, &end, 10);
    p = *end == ',' ? end + 1 : end;
  }
  return read;
}

/* The total of node `name` in a schedule result's "scoreTotals", or -1. */
static long long ScheduleTotal(const char *result, const char *name) {
  char key[32];
  const char *group = strstr(result, "\"scoreTotals\":[");
  snprintf(key, sizeof key, "\"%s\"", name);
  while (group != NULL && (group = strstr(group, "{\"totalScore\":")) != NULL) {
    const long long total = strtoll(group + strlen("{\"totalScore\":"), NULL, 10);
    const char *end = strchr(group, '}');
    const char *at = strstr(group, key);
    if (at != NULL && end != NULL && at < end) return total;
    group = end;
  }
  return -1;
}

static void TestScoresTheNodesNamed(sched_engine *engine) {
  sched_status status;
  const char *path;
  long long two[2], three[3];
  char *answer = Score(engine, kPod, "[\"n0\",\"n1\"]", &status, &path);
  CHECK(status == SCHED_OK);
  CHECK(answer != NULL && strstr(answer, "\"error\":false") != NULL);
  CHECK(answer != NULL && Totals(answer, two, 2) == 2);
  /* Over n0 and n1, n1's one taint is the most: TaintToleration 0 x 3. */
  CHECK(two[0] - two[1] == 300);
  sched_free(answer);

  answer = Score(engine, kPod, "[\"n2\",\"n1\",\"n0\"]", &status, &path);
  CHECK(status == SCHED_OK && answer != NULL && Totals(answer, three, 3) == 3);
  /* Over all three (parallel to the order asked): n1 scores 50 x 3. */
  CHECK(three[2] - three[1] == 150 && three[1] - three[0] == 150);
  {
    char *result = NULL;
    CHECK(sched_engine_schedule(engine, kPod, strlen(kPod), SCHED_SCHEDULE_SCORE_TOTALS, &result,
                                NULL) == SCHED_OK);
    CHECK(result != NULL && ScheduleTotal(result, "n0") == three[2]);
    CHECK(result != NULL && ScheduleTotal(result, "n1") == three[1]);
    CHECK(result != NULL && ScheduleTotal(result, "n2") == three[0]);
    sched_free(result);
  }
  sched_free(answer);

  answer = Score(engine, kPod, "[\"n1\"]", &status, &path);
  CHECK(status == SCHED_OK && answer != NULL && Totals(answer, two, 1) == 1);
  sched_free(answer);
}

static void TestBadRequests(sched_engine *engine) {
  static const struct {
    const char *nodes;
    const char *path;
  } kCases[] = {
      {"[]", "nodes"},
      {"[\"n0\",\"nx\"]", "nodes[1]"},
      {"[\"n0\",\"n0\"]", "nodes[1]"},
      {"[\"n0\",\"\"]", "nodes[1]"},
  };
  size_t i;
  for (i = 0; i < sizeof kCases / sizeof kCases[0]; ++i) {
    sched_status status;
    const char *path;
    char *answer = Score(engine, kPod, kCases[i].nodes, &status, &path);
    CHECK(status == SCHED_INVALID_ARGUMENT && answer == NULL);
    if (strcmp(path, kCases[i].path) != 0) {
      fprintf(stderr, "nodes %s: path %s, want %s\n", kCases[i].nodes, path, kCases[i].path);
      CHECK(0);
    }
    sched_free(answer);
  }
}

static void TestPreFilterRejects(sched_engine *engine) {
  static const char kClaimPod[] =
      "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"q\",\"namespace\":\"prod\"},"
      "\"spec\":{\"volumes\":[{\"name\":\"v\",\"persistentVolumeClaim\":{\"claimName\":\"gone\"}}],"
      "\"containers\":[{\"name\":\"c\"}]}}";
  sched_status status;
  const char *path;
  char *answer = Score(engine, kClaimPod, "[\"n0\",\"n1\"]", &status, &path);
  CHECK(status == SCHED_OK && answer != NULL);
  CHECK(answer != NULL && strstr(answer, "\"error\":true") != NULL);
  CHECK(answer != NULL && strstr(answer, "\"totalScores\":[]") != NULL);
  CHECK(answer != NULL && strstr(answer, "not found") != NULL);
  sched_free(answer);
}

/* The equivalence cache changes no answer: after a cycle cached the
 * class's raw scores and a pod then landed on n0, the cached engine's
 * totals are an uncached engine's. */
static void TestCacheChangesNothing(void) {
  static const char kBound[] =
      "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"b\",\"namespace\":\"prod\"},"
      "\"spec\":{\"nodeName\":\"n0\",\"containers\":[{\"name\":\"c\",\"resources\":"
      "{\"requests\":{\"cpu\":\"3\",\"memory\":\"6Gi\"}}}]}}";
  static const char *const kConfigs[2] = {
      "{\"percentageOfNodesToScore\":100}",
      "{\"percentageOfNodesToScore\":100,\"equivalenceCache\":false}"};
  long long totals[2][3];
  int i;
  for (i = 0; i < 2; ++i) {
    sched_engine *engine = NULL;
    sched_status status;
    const char *path;
    char *result = NULL;
    char *answer;
    CHECK(sched_engine_new(kConfigs[i], strlen(kConfigs[i]), &engine, NULL) == SCHED_OK);
    CHECK(sched_engine_apply(engine, kCluster, strlen(kCluster), NULL, NULL) == SCHED_OK);
    CHECK(sched_engine_schedule(engine, kPod, strlen(kPod), 0, &result, NULL) == SCHED_OK);
    sched_free(result);
    CHECK(sched_engine_apply(engine, kBound, strlen(kBound), NULL, NULL) == SCHED_OK);
    answer = Score(engine, kPod, "[\"n0\",\"n1\",\"n2\"]", &status, &path);
    CHECK(status == SCHED_OK && answer != NULL && Totals(answer, totals[i], 3) == 3);
    sched_free(answer);
    sched_engine_free(engine);
  }
  CHECK(memcmp(totals[0], totals[1], sizeof totals[0]) == 0);
  /* n0 is fuller now: its total fell below n1's + 150 (TaintToleration). */
  CHECK(totals[1][0] - totals[1][1] < 150);
}

int main(void) {
  sched_engine *engine = NULL;
  CHECK(sched_engine_new("{\"percentageOfNodesToScore\":100}", 32, &engine, NULL) == SCHED_OK);
  CHECK(sched_engine_apply(engine, kCluster, strlen(kCluster), NULL, NULL) == SCHED_OK);
  TestScoresTheNodesNamed(engine);
  TestBadRequests(engine);
  TestPreFilterRejects(engine);
  sched_engine_free(engine);
  TestCacheChangesNothing();
  printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed == 0 ? 0 : 1;
}
