/* Loads a cluster (the nodes and bound pods of examples/cluster), schedules
 * a few pending pods, prints where each went, then shows the error a bad pod
 * gets. Build against an installed libsched:
 *   cc schedule.c $(pkg-config --cflags --libs libsched) -o schedule
 *   ./schedule /usr/share/libsched/examples/cluster
 * (docs/c.md). */
#include <sched/sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads DIR/NAME into a malloc'ed buffer; NULL on failure. */
static char *ReadFile(const char *dir, const char *name, size_t *len) {
  char path[4096];
  FILE *f;
  char *buf = NULL;
  long size;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  f = fopen(path, "rb");
  if (f == NULL) {
    perror(path);
    return NULL;
  }
  if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
      (buf = malloc((size_t)size + 1)) != NULL) {
    *len = fread(buf, 1, (size_t)size, f);
  }
  fclose(f);
  return buf;
}

/* Prints the error of a failed call; returns 1. */
static int Fail(const char *what, sched_status status, const sched_error *err) {
  fprintf(stderr, "%s: %s: %s (path \"%s\")\n", what, sched_status_name(status),
          sched_error_message(err), sched_error_path(err));
  return 1;
}

static int Apply(sched_engine *engine, const char *dir, const char *name) {
  size_t len = 0;
  char *json = ReadFile(dir, name, &len);
  char *summary = NULL;
  sched_error *err = NULL;
  sched_status st;
  if (json == NULL) return 1;
  st = sched_engine_apply(engine, json, len, &summary, &err);
  free(json);
  if (st != SCHED_OK) {
    Fail(name, st, err);
    sched_error_free(err);
    return 1;
  }
  printf("%s: %s\n", name, summary);
  sched_free(summary);
  return 0;
}

int main(int argc, char **argv) {
  static const char *const kPods[] = {
      "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"web-1\","
      "\"namespace\":\"default\"},\"spec\":{\"containers\":[{\"name\":\"web\",\"image\":"
      "\"nginx\",\"resources\":{\"requests\":{\"cpu\":\"500m\",\"memory\":\"256Mi\"}}}]}}",
      "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"huge\","
      "\"namespace\":\"default\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":"
      "\"nginx\",\"resources\":{\"requests\":{\"cpu\":\"1000\"}}}]}}",
      /* Bad input: a CPU quantity that does not parse. */
      "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"bad\","
      "\"namespace\":\"default\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":"
      "\"nginx\",\"resources\":{\"requests\":{\"cpu\":\"lots\"}}}]}}",
  };
  const char *dir = argc > 1 ? argv[1] : "examples/cluster";
  sched_engine *engine = NULL;
  sched_error *err = NULL;
  sched_status st;
  size_t i;
  int bad = 0;

  printf("libsched %s (kube-scheduler %s)\n", sched_version(), sched_upstream_version());
  st = sched_engine_new("{}", 2, &engine, &err);
  if (st != SCHED_OK) return Fail("sched_engine_new", st, err);
  if (Apply(engine, dir, "nodes.json") || Apply(engine, dir, "bound-pods.json")) {
    sched_engine_free(engine);
    return 1;
  }
  for (i = 0; i < sizeof kPods / sizeof kPods[0]; ++i) {
    char *result = NULL;
    /* err is reused: every call frees what the previous one left (sched.h). */
    st = sched_engine_schedule(engine, kPods[i], strlen(kPods[i]), SCHED_SCHEDULE_ASSUME, &result,
                               &err);
    if (st == SCHED_OK) {
      printf("%s\n", result);
      sched_free(result);
    } else {
      bad += Fail("schedule", st, err);
    }
  }
  sched_error_free(err);
  sched_engine_free(engine);
  /* Exactly the bad pod fails. */
  return bad == 1 ? 0 : 1;
}
