/* testutil.h: what every test file includes: cmocka and small helpers.
 *
 * Each tests/test_*.c is its own cmocka binary (one per module), so modules
 * can be added without touching a central list; tests/run.sh sums them up. */
#ifndef KONTOR_TESTUTIL_H
#define KONTOR_TESTUTIL_H
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "kontor/kontor.h"
#endif
