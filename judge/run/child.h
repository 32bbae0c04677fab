/* What every child of the launcher shares, whichever part forks it (a run's child in launcher.c, a holder and the
 * maker of a view in fresh.c) and whichever part it runs (confine.c, seccomp.c, fresh.c): its fresh signal state,
 * and how a step before exec that fails reports why. Its own file, below every part that forks or confines, so that
 * the launcher's parts call downwards only: launcher.c uses them all, fresh.c uses confine.c, and these use this. */
#ifndef CHILD_H
#define CHILD_H

#define CHILD_ERROR_MAX 256 /* the size of every buffer child_fail writes into */

/* Where child_fail writes its reason: a page shared with the launcher, set by whoever forks the child (the run's
 * report in launcher.c, the holder's own in fresh.c), since a clone3 child runs on its own copy of memory. */
extern char *fail_buffer;

/* Writes "WHAT: the errno's text" to fail_buffer and ends the child with status 127, before any exec. */
void child_fail(const char *what) __attribute__((noreturn));

/* Puts back the few signals the launcher handles or ignores itself: a child then starts from a fresh signal state
 * with three calls instead of one per signal, since the launcher's start left every other one at its default. */
void own_signals_default(void);

#endif
