/* What the C tests compare to see that a call changed nothing: the nodes
 * and queue documents, concatenated. Include after check.h. */
#ifndef TESTS_C_REPORTS_H_
#define TESTS_C_REPORTS_H_

#include <stdlib.h>
#include <string.h>

#include "sched/sched.h"

/* The caller frees the result with free(). */
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
