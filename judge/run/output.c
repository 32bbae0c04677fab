/*
 * A run's stdout and stderr, counted by the launcher: the output limit is for these two streams only.
 *
 * RLIMIT_FSIZE holds for every file a process writes, so with it as the output limit a scratch file larger than
 * the limit was OLE too. Instead, when the judge gives the run a regular file as stdout or stderr, the launcher
 * hands the run a pipe and copies what arrives into the file (splice: the bytes never pass through user space),
 * stopping at the limit: the file never holds more than the limit, and a byte past it ends the run as OLE,
 * whatever the program does with SIGXFSZ or SIGPIPE. A stream that is already a pipe (an interactive run's
 * stdout, counted by the relay) or a device (/dev/null) is passed through as it is.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "launcher.h"

#define PIPE_BYTES (256 * 1024)
#define CHUNK (1 << 20)

static void stream_close(struct stream *s) {
    if (s->read_end >= 0) close(s->read_end);
    s->read_end = -1;
}

int capture_start(struct capture *c, int *fds, long long limit) {
    memset(c, 0, sizeof *c);
    for (int i = 0; i < 2; i++) {
        struct stream *s = &c->streams[i];
        s->read_end = s->write_end = -1;
        s->slot = &fds[i + 1];
        struct stat st;
        if (limit <= 0 || fstat(*s->slot, &st) < 0 || !S_ISREG(st.st_mode)) continue;
        int p[2];
        if (pipe2(p, O_CLOEXEC) < 0) return -1;
        fcntl(p[0], F_SETFL, O_NONBLOCK);
        fcntl(p[0], F_SETPIPE_SZ, PIPE_BYTES);
        s->file = *s->slot;
        s->read_end = p[0];
        s->write_end = p[1];
        *s->slot = p[1];  /* what the child dup2s onto fd 1 or 2 */
    }
    c->limit = limit;
    return 0;
}

void capture_forked(struct capture *c) {
    for (int i = 0; i < 2; i++) {
        struct stream *s = &c->streams[i];
        if (s->write_end < 0) continue;
        close(s->write_end);
        s->write_end = -1;
        *s->slot = s->file;  /* the request's own descriptor again: free_request closes it */
    }
}

int capture_poll(const struct capture *c, struct pollfd *p) {
    int n = 0;
    for (int i = 0; i < 2; i++)
        if (c->streams[i].read_end >= 0) p[n++] = (struct pollfd){c->streams[i].read_end, POLLIN, 0};
    return n;
}

/* Moves what one stream holds now into its file; past the limit, bytes are read and dropped and the stream is
 * marked over. Returns 0 when the pipe is empty for now, 1 at end of file. */
static int stream_drain(struct capture *c, int index) {
    struct stream *s = &c->streams[index];
    static char sink[65536];
    for (;;) {
        long long room = c->limit - s->written;
        ssize_t n;
        if (room > 0 && !s->no_splice) {
            n = splice(s->read_end, NULL, s->file, NULL, (size_t)(room < CHUNK ? room : CHUNK), SPLICE_F_NONBLOCK);
            if (n < 0 && errno == EINVAL) { s->no_splice = 1; continue; }
        } else {
            n = read(s->read_end, sink, room > 0 && room < (long long)sizeof sink ? (size_t)room : sizeof sink);
            if (n > 0 && room > 0) {
                for (ssize_t done = 0, w; done < n; done += w)
                    if ((w = write(s->file, sink + done, (size_t)(n - done))) <= 0) { n = done; break; }
            } else if (n > 0) {
                c->over = index + 1;
                s->written += n;
                continue;
            }
        }
        if (n > 0) { s->written += n; continue; }
        if (n == 0) return 1;
        if (errno == EINTR) continue;
        return errno == EAGAIN ? 0 : 1;
    }
}

int capture_drain(struct capture *c) {
    for (int i = 0; i < 2; i++)
        if (c->streams[i].read_end >= 0 && stream_drain(c, i)) stream_close(&c->streams[i]);
    return c->over;
}

void capture_finish(struct capture *c) {
    /* Every writer is dead now (the run's group was emptied), so each pipe ends at once; the time bound only
     * guards against a descriptor the launcher does not know about. */
    for (int round = 0; round < 100; round++) {
        struct pollfd p[2];
        int n = capture_poll(c, p);
        if (n == 0) break;
        poll(p, (nfds_t)n, 10);
        capture_drain(c);
    }
    for (int i = 0; i < 2; i++) stream_close(&c->streams[i]);
}
