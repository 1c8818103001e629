/*
 * unit.h: the tiny framework of the C unit tests.
 *
 * Each test binary runs its cases and prints one line per check that failed
 * and one "ok <case>" or "not ok <case>" line per case; tests/run.sh counts
 * those lines for the suite's closing "N passed, N failed".
 */
#ifndef EDDY_UNIT_H
#define EDDY_UNIT_H

#include <stdio.h>
#include <string.h>

static int unit__case_failed;
static int unit__failed_cases;

#define UNIT_CHECK(cond)                                                                 \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            printf("  check failed at %s:%d: %s\n", __FILE__, __LINE__, #cond);          \
            unit__case_failed = 1;                                                       \
        }                                                                                \
    } while (0)

#define UNIT_CHECK_STR(got, want)                                                        \
    do {                                                                                 \
        const char *unit__g = (got), *unit__w = (want);                                  \
        if (unit__g == NULL || strcmp(unit__g, unit__w) != 0) {                          \
            printf("  check failed at %s:%d: got \"%s\", want \"%s\"\n", __FILE__,       \
                   __LINE__, unit__g ? unit__g : "(null)", unit__w);                     \
            unit__case_failed = 1;                                                       \
        }                                                                                \
    } while (0)

#define UNIT_RUN(fn)                                                                     \
    do {                                                                                 \
        unit__case_failed = 0;                                                           \
        fn();                                                                            \
        printf("%s %s\n", unit__case_failed ? "not ok" : "ok", #fn);                     \
        unit__failed_cases += unit__case_failed;                                         \
    } while (0)

#define UNIT_EXIT() return unit__failed_cases ? 1 : 0

#endif
