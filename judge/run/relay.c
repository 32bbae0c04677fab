/*
 * The relay between an interactive submission and its interactor (launcher --relay).
 *
 * launcher --relay KEEP SUB_OUT PEER_IN PEER_OUT SUB_IN CONTROL TRANSCRIPT MAX_OUT, all but KEEP and MAX_OUT descriptors:
 *   SUB_OUT   the submission's stdout (read)   PEER_IN  the interactor's stdin (write)
 *   PEER_OUT  the interactor's stdout (read)   SUB_IN   the submission's stdin (write)
 *   CONTROL   (read) the judge writes 's' when the submission's run has ended, 'd' when it was stopped at a
 *             limit (what it wrote that was not passed on yet is dropped: its verdict is that limit's, and an
 *             interactor left to answer it could run past its own limits), 'x' when the interactor ended with
 *             a rejection while the submission still runs (the case is decided: the submission's output is
 *             closed unread, so a submission still writing meets a pipe with no reader and ends, as under
 *             problemtools' runner); end-of-file means the judge is gone, and the relay stops at once
 *   TRANSCRIPT (write) the first KEEP bytes that passed, as records "<s|p> <length>\n<bytes>",
 *             and "t 0\n" once when more passed than was kept, "o 0\n" when the submission wrote more
 *             than MAX_OUT bytes (0: no limit): its output is then closed, as a full file would stop it,
 *             and "g 0\n" when the interactor stopped reading before the submission's end-of-file was passed
 *             to it: it decided without knowing how the submission ended.
 *
 * Why C: a relay in the judge's Python cost about 100 us per exchange, which turns a
 * problem with 10^5 queries into a wall-clock timeout; this one costs a few.
 *
 * Rules (the reasons are in relayed_pair.py): the interactor's end-of-file is passed on as soon as it is
 * read, after the bytes before it; the submission's only once its run has ended; bytes for a side that
 * is gone are read and dropped; a side whose bytes the other is not taking is not read until they are taken.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "launcher.h"

#define RELAY_BUF 65536

struct link {
    int source, target;
    char owner;          /* 's' or 'p': who writes into this link (the transcript's record letter) */
    int held;            /* its end-of-file waits for the writer's run to end (the submission's link) */
    int dropping;        /* the writer was stopped at a limit: what it wrote and nobody read yet is dropped */
    int source_eof;
    char buf[RELAY_BUF];
    size_t len, off;
};

static long keep_left;
static long long out_left;  /* bytes the submission may still write; < 0: no limit */
static int transcript_fd = -1;
static int truncated_noted;

static void record(char who, const char *data, size_t n) {
    if (keep_left <= 0) {
        if (!truncated_noted) {
            truncated_noted = 1;
            if (write(transcript_fd, "t 0\n", 4) < 0) {}
        }
        return;
    }
    size_t take = n < (size_t)keep_left ? n : (size_t)keep_left;
    char head[32];
    int h = snprintf(head, sizeof head, "%c %zu\n", who, take);
    if (write(transcript_fd, head, (size_t)h) < 0 || write(transcript_fd, data, take) < 0) keep_left = 0;
    keep_left -= (long)take;
    if (take < n) record(who, data + take, n - take);
}

static void close_target(struct link *l) {
    if (l->target >= 0) close(l->target);
    l->target = -1;
    l->len = l->off = 0;
}

/* The reader of this link is gone. For the interactor that is the fact the verdict turns on: had it waited
 * for the submission's end-of-file, the relay would have closed this end itself, so it decided first. Who
 * exited first by the clock is no substitute: the two exits are reported by two launchers, and under load
 * a crash caused by the interactor's exit was reported before that exit. */
static void reader_gone(struct link *l) {
    if (l->owner == 's' && l->target >= 0) {
        if (write(transcript_fd, "g 0\n", 4) < 0) {}
    }
    close_target(l);
}

/* Whether a process other than this relay still has the pipe behind ``fd`` in its descriptor table. An exiting
 * process drops its table before the kernel releases the files in it, one at a time and with a chance to be
 * scheduled out between two: an interactor that exited can have its output's end-of-file passed on, and the
 * submission crash on it and be reported, while its input still counts a reader. Its table is already gone then,
 * which is what this looks for. A scan of /proc: done only at the end of a run whose interactor's output has
 * ended and whose input is still open, so a few milliseconds at most, and rarely. */
static int held_elsewhere(int fd) {
    struct stat st;
    DIR *proc = fstat(fd, &st) == 0 ? opendir("/proc") : NULL;
    if (!proc) return 1;  /* cannot tell: as if held, the answer that never lets an interactor's word stand wrongly */
    char want[48];
    snprintf(want, sizeof want, "pipe:[%lu]", (unsigned long)st.st_ino);
    int self = (int)getpid(), held = 0;
    for (struct dirent *p; !held && (p = readdir(proc));) {
        if (!isdigit((unsigned char)p->d_name[0]) || atoi(p->d_name) == self) continue;
        char folder[300];
        snprintf(folder, sizeof folder, "/proc/%s/fd", p->d_name);
        DIR *fds = opendir(folder);
        if (!fds) continue;
        for (struct dirent *f; !held && (f = readdir(fds));) {
            char link[600], target[48];
            snprintf(link, sizeof link, "%s/%s", folder, f->d_name);
            ssize_t n = f->d_name[0] == '.' ? -1 : readlink(link, target, sizeof target - 1);
            if (n > 0) target[n] = '\0', held = !strcmp(target, want);
        }
        closedir(fds);
    }
    closedir(proc);
    return held;
}

static void flush_link(struct link *l) {
    while (l->target >= 0 && l->off < l->len) {
        ssize_t w = write(l->target, l->buf + l->off, l->len - l->off);
        if (w > 0) { l->off += (size_t)w; continue; }
        if (w < 0 && errno == EINTR) continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
        reader_gone(l);   /* from now on this side's bytes are dropped */
        return;
    }
    if (l->off >= l->len) l->len = l->off = 0;
}

static void read_link(struct link *l) {
    ssize_t n = read(l->source, l->buf, RELAY_BUF);
    if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) return;
    if (n <= 0) {
        close(l->source);
        l->source = -1;
        l->source_eof = 1;
        return;
    }
    if (l->dropping) return;
    if (l->owner == 's' && out_left >= 0) {
        out_left -= n;
        if (out_left < 0) {
            if (write(transcript_fd, "o 0\n", 4) < 0) {}
            close(l->source);
            l->source = -1;
            l->source_eof = 1;
            l->len = l->off = 0;
            return;
        }
    }
    record(l->owner, l->buf, (size_t)n);
    if (l->target < 0) return;
    l->len = (size_t)n;
    l->off = 0;
    flush_link(l);
}

int relay_main(int argc, char **argv) {
    signal(SIGPIPE, SIG_IGN);
    if (argc != 10) {
        fprintf(stderr, "usage: launcher --relay KEEP SUB_OUT PEER_IN PEER_OUT SUB_IN CONTROL TRANSCRIPT MAX_OUT\n");
        return 2;
    }
    out_left = atoll(argv[9]) > 0 ? atoll(argv[9]) : -1;
    keep_left = atol(argv[2]);
    static struct link links[2];
    links[0].source = atoi(argv[3]); links[0].target = atoi(argv[4]); links[0].owner = 's'; links[0].held = 1;
    links[1].source = atoi(argv[5]); links[1].target = atoi(argv[6]); links[1].owner = 'p';
    for (int i = 0; i < 2; i++) {
        fcntl(links[i].source, F_SETFL, fcntl(links[i].source, F_GETFL) | O_NONBLOCK);
        fcntl(links[i].target, F_SETFL, fcntl(links[i].target, F_GETFL) | O_NONBLOCK);
    }
    int control = atoi(argv[7]);
    transcript_fd = atoi(argv[8]);
    for (;;) {
        for (int i = 0; i < 2; i++) {
            struct link *l = &links[i];
            if (l->source_eof && l->len == 0 && !l->held && l->target >= 0) {
                /* Looked at again at the last moment: an interactor that exited since the poll, or is still
                 * exiting (its output ended, its input held by no process), left before this end-of-file could
                 * reach it. One that only closed its output (pseudo-interaction) still holds its input. */
                struct pollfd last = {l->target, 0, 0};
                int gone = l->owner == 's' && poll(&last, 1, 0) > 0 && (last.revents & (POLLERR | POLLHUP));
                if (gone || (l->owner == 's' && links[1].source_eof && !held_elsewhere(l->target))) reader_gone(l);
                else close_target(l);
            }
        }
        if (links[0].source < 0 && links[1].source < 0 && links[0].target < 0 && links[1].target < 0) break;
        struct pollfd p[5];
        int kinds[5], which[5], n = 0;
        p[n] = (struct pollfd){control, POLLIN, 0}; kinds[n] = 0; which[n++] = -1;
        for (int i = 0; i < 2; i++) {
            struct link *l = &links[i];
            if (l->source >= 0 && l->len == 0) { p[n] = (struct pollfd){l->source, POLLIN, 0}; kinds[n] = 1; which[n++] = i; }
            /* with nothing to write, the interactor's input is still watched: POLLERR says it stopped reading */
            if (l->target >= 0 && (l->len > 0 || l->owner == 's'))
                { p[n] = (struct pollfd){l->target, l->len > 0 ? POLLOUT : 0, 0}; kinds[n] = 2; which[n++] = i; }
        }
        if (poll(p, (nfds_t)n, -1) < 0) {
            if (errno == EINTR) continue;
            return 1;
        }
        for (int k = 0; k < n; k++) {
            if (!p[k].revents) continue;
            if (kinds[k] == 0) {
                char c[8];
                ssize_t got = read(control, c, sizeof c);
                if (got <= 0) return 0;   /* the judge is gone */
                for (ssize_t j = 0; j < got; j++) {
                    if (c[j] == 's' || c[j] == 'd') links[0].held = 0;
                    if (c[j] == 'd') links[0].dropping = 1, links[0].len = links[0].off = 0;
                    if (c[j] == 'x' && links[0].source >= 0) {
                        close(links[0].source);
                        links[0].source = -1;
                        links[0].source_eof = 1;
                        links[0].len = links[0].off = 0;
                    }
                }
            } else if (kinds[k] == 1) {
                read_link(&links[which[k]]);
            } else if (p[k].revents & (POLLERR | POLLHUP)) {
                reader_gone(&links[which[k]]);
            } else {
                flush_link(&links[which[k]]);
            }
        }
    }
    return 0;
}
