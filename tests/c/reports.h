/* What the C tests compare engines by: the nodes and queue documents. */
#ifndef TESTS_C_REPORTS_H_
#define TESTS_C_REPORTS_H_

#include <stdlib.h>
#include <string.h>

#include "sched/sched.h"

#include "check.h"

/* The nodes and queue documents, concatenated (caller frees). */
static char *Reports(sched_engine *engine) {
  char *nodes = NULL, *queue = NULL, *out;
  CHECK(sched_engine_nodes(engine, NULL, 0, &nodes, NULL) == SCHED_OK);
  CHECK(sched_engine_queue(engine, &queue, NULL) == SCHED_OK);
  out = malloc(strlen(nodes) + strlen(queue) + 1);
  strcpy(out, nodes);
  strcat(out, queue);
  sched_free(nodes);
  sched_free(queue);
  return out;
}

#endif /* TESTS_C_REPORTS_H_ */
