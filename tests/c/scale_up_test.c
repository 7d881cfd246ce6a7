/* sched_engine_scale_up from plain C99: two nodes with 500m free each; of
 * five 1-CPU pods none fits them, and a 2-CPU template takes two per node
 * (three nodes); a pod selecting a label the template lacks is reported
 * with the template node's FitError; the engine's reports are unchanged;
 * a bad request names the field and writes no output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sched/sched.h"

static const char kCluster[] =
    "[{\"type\":\"ADDED\",\"object\":{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"},"
    "\"status\":{\"allocatable\":{\"cpu\":\"2\",\"memory\":\"4Gi\",\"pods\":\"110\"}}}},"
    "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Node\",\"metadata\":{\"name\":\"n2\"},"
    "\"status\":{\"allocatable\":{\"cpu\":\"2\",\"memory\":\"4Gi\",\"pods\":\"110\"}}}},"
    "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"metadata\":{\"name\":\"b1\","
    "\"namespace\":\"prod\"},\"spec\":{\"nodeName\":\"n1\",\"containers\":[{\"name\":\"c\","
    "\"resources\":{\"requests\":{\"cpu\":\"1500m\"}}}]}}},"
    "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"metadata\":{\"name\":\"b2\","
    "\"namespace\":\"prod\"},\"spec\":{\"nodeName\":\"n2\",\"containers\":[{\"name\":\"c\","
    "\"resources\":{\"requests\":{\"cpu\":\"1500m\"}}}]}}}]";

static const char kTemplate[] =
    "{\"node\":{\"kind\":\"Node\",\"metadata\":{\"name\":\"pool\"},"
    "\"status\":{\"allocatable\":{\"cpu\":\"2\",\"memory\":\"4Gi\",\"pods\":\"110\"}}},"
    "\"maxNodes\":10}";

/* Appends a pending pod asking for 1 CPU, with `extra` spliced into spec. */
static void AppendPod(char *buf, size_t size, const char *name, const char *extra) {
  size_t used = strlen(buf);
  snprintf(buf + used, size - used,
           "%s{\"kind\":\"Pod\",\"metadata\":{\"name\":\"%s\",\"namespace\":\"prod\"},"
           "\"spec\":{%s\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":"
           "{\"cpu\":\"1\"}}}]}}",
           buf[used - 1] == '[' ? "" : ",", name, extra);
}

static char *Nodes(sched_engine *engine) {
  char *out = NULL;
  CHECK(sched_engine_nodes(engine, NULL, 0, &out, NULL) == SCHED_OK);
  return out;
}

int main(void) {
  char request[8192] = "{\"pods\":[";
  char name[16];
  char *out = NULL, *before, *after;
  sched_error *err = NULL;
  sched_engine *engine = NULL;
  int i;
  CHECK(sched_engine_new("{\"seed\":3}", 10, &engine, NULL) == SCHED_OK);
  CHECK(sched_engine_apply(engine, kCluster, strlen(kCluster), NULL, NULL) == SCHED_OK);
  for (i = 0; i < 5; ++i) {
    snprintf(name, sizeof name, "web-%d", i);
    AppendPod(request, sizeof request, name, "");
  }
  AppendPod(request, sizeof request, "gpu", "\"nodeSelector\":{\"gpu\":\"yes\"},");
  strcat(request, "],\"nodeTemplates\":[");
  strcat(request, kTemplate);
  strcat(request, "]}");

  before = Nodes(engine);
  CHECK(sched_engine_scale_up(engine, request, strlen(request), &out, &err) == SCHED_OK);
  CHECK(err == NULL);
  CHECK(out != NULL && strstr(out, "\"existing\":[]") != NULL);
  CHECK(out != NULL && strstr(out, "\"template\":\"pool\",\"nodes\":3,") != NULL);
  CHECK(out != NULL && strstr(out, "{\"node\":\"pool-scaleup-0\",\"pods\":2}") != NULL);
  CHECK(out != NULL && strstr(out, "{\"node\":\"pool-scaleup-2\",\"pods\":1}") != NULL);
  CHECK(out != NULL &&
        strstr(out,
               "\"unhelped\":[{\"pod\":\"prod/gpu\",\"reasons\":[{\"template\":\"pool\","
               "\"message\":\"0/1 nodes are available: 1 node(s) didn't match Pod's node "
               "affinity/selector.\"}]}]") != NULL);
  if (out != NULL) printf("%s\n", out);
  sched_free(out);
  after = Nodes(engine);
  CHECK(strcmp(before, after) == 0);
  sched_free(after);

  out = NULL;
  CHECK(sched_engine_scale_up(engine, "{\"pods\":[]}", 11, &out, &err) == SCHED_INVALID_ARGUMENT);
  CHECK(out == NULL);
  CHECK(err != NULL && strcmp(sched_error_path(err), "nodeTemplates") == 0);
  CHECK(sched_engine_scale_up(engine, request, strlen(request), NULL, &err) ==
        SCHED_INVALID_ARGUMENT);
  after = Nodes(engine);
  CHECK(strcmp(before, after) == 0);
  sched_free(after);
  sched_free(before);
  sched_error_free(err);
  sched_engine_free(engine);
  printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed == 0 ? 0 : 1;
}
