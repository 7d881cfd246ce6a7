/* The C tests' one assertion macro: counts instead of aborting, so a run
 * reports every failed check and ends with "N passed, M failed". */
#ifndef TESTS_C_CHECK_H_
#define TESTS_C_CHECK_H_

#include <stdio.h>

static int g_passed = 0;
static int g_failed = 0;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (cond) {                                                                \
      ++g_passed;                                                              \
    } else {                                                                   \
      ++g_failed;                                                              \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                          \
  } while (0)

#endif /* TESTS_C_CHECK_H_ */
