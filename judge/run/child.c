/* What every child of the launcher shares (child.h says why it lives apart): its fresh signal state, and how a
 * step between fork and exec that fails reports why through the page its parent reads. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "child.h"

char *fail_buffer;

/* The launcher's start leaves every signal at its default (launcher.c's main), whatever it inherited, and then
 * handles or ignores only these. */
static const int OWN_SIGNALS[] = {SIGPIPE, SIGTERM, SIGHUP};

void own_signals_default(void) {
    for (size_t i = 0; i < sizeof OWN_SIGNALS / sizeof OWN_SIGNALS[0]; i++) signal(OWN_SIGNALS[i], SIG_DFL);
}

void child_fail(const char *what) {
    snprintf(fail_buffer, CHILD_ERROR_MAX, "%s: %s", what, strerror(errno));
    _exit(127);
}
