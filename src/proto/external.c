/* external.c: an external engine as a kontor_agent (the controller end).
 *
 * The agent starts the program with two pipes (fork, then /bin/sh -c "exec
 * CMD", so a command line with arguments works and the shell does not stay
 * between us and the engine), and speaks the protocol to it one command at a
 * time, each with an id that the reply must echo. Every read has a deadline
 * (poll), so an engine that hangs costs at most the timeout; an engine that
 * dies shows up as end of file and is reaped at once, so no zombie stays.
 * Whatever goes wrong becomes a reason string and KONTOR_FORFEIT from decide:
 * the driver scores the game lost and goes on. The engine learns the game
 * only from the seat's view at the deal and the public log afterwards
 * (docs/protocol.md, "What the engine is told"), never from the state.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proto/proto_int.h"

/* How long a stopping engine gets to exit after quit before it is killed. */
#define QUIT_GRACE_MS 300
/* A reply longer than this is a broken engine, not a long answer. */
#define REPLY_MAX (1 << 16)

typedef struct ext {
    char cmdline[512];
    char label[72];     /* the command line, shortened, for messages */
    int timeout_ms;
    pid_t pid;          /* -1 when not running */
    int to_fd, from_fd;
    char rbuf[REPLY_MAX];
    size_t rn;
    unsigned next_id;
    int in_game;        /* the deal has been sent */
    int failed;         /* the engine failed in this game: forfeit */
    int version;        /* the protocol version it speaks: 1 (no declarations, R1) or 2 */
    kontor_view last;   /* the last view seen (the state before the next decision) */
    int tops[PROTO_NPILES];
    char reason[256];   /* why it failed: drivers clear a->error before decide */
    char reply[REPLY_MAX];
} ext;

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static void set_reason(kontor_agent *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_reason(kontor_agent *a, const char *fmt, ...) {
    ext *x = a->impl;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->reason, sizeof x->reason, fmt, ap);
    va_end(ap);
    snprintf(a->error, sizeof a->error, "%s", x->reason);
    x->failed = 1;
}

static void close_fds(ext *x) {
    if (x->to_fd >= 0) close(x->to_fd);
    if (x->from_fd >= 0) close(x->from_fd);
    x->to_fd = x->from_fd = -1;
}

/* Describe how the child ended (it has been reaped). */
static void describe_status(int status, char *buf, size_t cap) {
    if (WIFEXITED(status)) snprintf(buf, cap, "exited with status %d", WEXITSTATUS(status));
    else if (WIFSIGNALED(status)) snprintf(buf, cap, "was killed by signal %d", WTERMSIG(status));
    else snprintf(buf, cap, "stopped");
}

/* Kill and reap the engine now. */
static void ext_kill(ext *x) {
    close_fds(x);
    if (x->pid > 0) {
        kill(x->pid, SIGKILL);
        while (waitpid(x->pid, NULL, 0) < 0 && errno == EINTR) {
        }
    }
    x->pid = -1;
    x->rn = 0;
    x->in_game = 0;
}

/* The engine stopped talking: reap it if it has exited, and say how. */
static void ext_lost(kontor_agent *a, const char *what) {
    ext *x = a->impl;
    char how[64] = "closed its output";
    int status;
    if (x->pid > 0) {
        /* it closed its output: give it a moment to exit, then make sure */
        double end = now_ms() + 100;
        pid_t r;
        while ((r = waitpid(x->pid, &status, WNOHANG)) == 0 && now_ms() < end) {
            struct timespec ts = {0, 2000000};
            nanosleep(&ts, NULL);
        }
        if (r == x->pid) {
            describe_status(status, how, sizeof how);
            x->pid = -1;
        }
    }
    ext_kill(x);
    set_reason(a, "engine '%s' %s during '%s'", x->label, how, what);
}

static int ext_spawn(ext *x, char *msg, size_t cap) {
    int in[2], out[2];
    if (pipe(in) != 0) {
        snprintf(msg, cap, "engine '%s': cannot make a pipe: %s", x->label, strerror(errno));
        return -1;
    }
    if (pipe(out) != 0) {
        snprintf(msg, cap, "engine '%s': cannot make a pipe: %s", x->label, strerror(errno));
        close(in[0]), close(in[1]);
        return -1;
    }
    /* close-on-exec everywhere: another engine started later must not
     * inherit this one's pipes (it would keep them open past our close) */
    for (int i = 0; i < 2; i++) fcntl(in[i], F_SETFD, FD_CLOEXEC), fcntl(out[i], F_SETFD, FD_CLOEXEC);
    char shcmd[sizeof x->cmdline + 8];
    snprintf(shcmd, sizeof shcmd, "exec %s", x->cmdline);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(msg, cap, "engine '%s': cannot start: %s", x->label, strerror(errno));
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        return -1;
    }
    if (pid == 0) {
        /* the child: only async-signal-safe calls until exec */
        signal(SIGPIPE, SIG_DFL);
        if (dup2(in[0], 0) < 0 || dup2(out[1], 1) < 0) _exit(127);
        execl("/bin/sh", "sh", "-c", shcmd, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    x->pid = pid;
    x->to_fd = in[1];
    x->from_fd = out[0];
    x->rn = 0;
    return 0;
}

/* Send one command and read its reply into x->reply (without the leading
 * "=id"/"?id" and without the blank line). Returns 0 for '=', 1 for '?' (the
 * reply holds the error), -1 when the engine failed (reason set, killed). */
static int ext_call(kontor_agent *a, const char *command) {
    ext *x = a->impl;
    if (x->pid <= 0) {
        set_reason(a, "engine '%s' is not running", x->label);
        return -1;
    }
    unsigned id = ++x->next_id;
    char line[KONTOR_PROTO_LINE_MAX + 32];
    int n = snprintf(line, sizeof line, "%u %s\n", id, command);
    if (n < 0 || (size_t)n >= sizeof line) {
        set_reason(a, "command '%.40s' too long", command);
        return -1;
    }
    for (int off = 0; off < n;) {
        ssize_t w = write(x->to_fd, line + off, (size_t)(n - off));
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            ext_lost(a, command);
            return -1;
        }
        off += (int)w;
    }
    double deadline = now_ms() + x->timeout_ms;
    for (;;) {
        /* a whole reply is buffered when a blank line ends it */
        char *end = NULL;
        size_t start = 0;
        while (start < x->rn && x->rbuf[start] == '\n') start++; /* stray blank lines */
        for (size_t i = start; i + 1 < x->rn; i++)
            if (x->rbuf[i] == '\n' && x->rbuf[i + 1] == '\n') {
                end = x->rbuf + i;
                break;
            }
        if (end) {
            char *r = x->rbuf + start;
            size_t len = (size_t)(end - r);
            size_t used = (size_t)(end - x->rbuf) + 2;
            memcpy(x->reply, r, len);
            x->reply[len] = 0;
            memmove(x->rbuf, x->rbuf + used, x->rn - used);
            x->rn -= used;
            for (char *p = x->reply; *p; p++)
                if (*p == '\r') *p = ' ';
            char *p = x->reply;
            char kind = *p++;
            unsigned got = 0;
            int digits = 0;
            while (*p >= '0' && *p <= '9' && digits < 10) got = got * 10 + (unsigned)(*p++ - '0'), digits++;
            if ((kind != '=' && kind != '?') || !digits || got != id) {
                char shown[80];
                snprintf(shown, sizeof shown, "%.60s", x->reply);
                for (char *q = shown; *q; q++)
                    if (*q == '\n' || (unsigned char)*q < 32) *q = ' ';
                ext_kill(x);
                set_reason(a, "engine '%s' answered '%s' with '%s', not '=%u' or '?%u'", x->label, command, shown, id,
                           id);
                return -1;
            }
            if (*p == ' ') p++;
            memmove(x->reply, p, strlen(p) + 1);
            return kind == '=' ? 0 : 1;
        }
        if (x->rn >= sizeof x->rbuf - 1) {
            ext_kill(x);
            set_reason(a, "engine '%s' answered '%s' with more than %d bytes", x->label, command, REPLY_MAX);
            return -1;
        }
        double left = deadline - now_ms();
        if (left <= 0) {
            ext_kill(x);
            set_reason(a, "engine '%s' did not answer '%s' within %d ms", x->label, command, x->timeout_ms);
            return -1;
        }
        struct pollfd pfd = {x->from_fd, POLLIN, 0};
        int pr = poll(&pfd, 1, (int)left + 1);
        if (pr < 0 && errno == EINTR) continue;
        if (pr < 0) {
            ext_lost(a, command);
            return -1;
        }
        if (pr == 0) continue;
        ssize_t got = read(x->from_fd, x->rbuf + x->rn, sizeof x->rbuf - 1 - x->rn);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) {
            ext_lost(a, command);
            return -1;
        }
        x->rn += (size_t)got;
    }
}

/* A command that must succeed; an error reply fails the engine. */
static int ext_must(kontor_agent *a, const char *command) {
    int r = ext_call(a, command);
    if (r == 1) {
        char shown[160];
        snprintf(shown, sizeof shown, "%.150s", ((ext *)a->impl)->reply);
        for (char *q = shown; *q; q++)
            if (*q == '\n') *q = ' ';
        set_reason(a, "engine '%s' refused '%s': %s", ((ext *)a->impl)->label, command, shown);
    }
    return r == 0 ? 0 : -1;
}

static int ext_start(kontor_agent *a, char *msg, size_t cap) {
    ext *x = a->impl;
    if (ext_spawn(x, msg, cap)) return -1;
    a->error[0] = 0;
    x->failed = 0;
    if (ext_must(a, "protocol_version")) {
        snprintf(msg, cap, "%s", a->error);
        ext_kill(x);
        return -1;
    }
    x->version = atoi(x->reply);
    if (x->version != KONTOR_PROTO_VERSION && x->version != 1) {
        snprintf(msg, cap, "engine '%s' speaks protocol version '%.20s', kontor speaks 1 and %d", x->label, x->reply,
                 KONTOR_PROTO_VERSION);
        ext_kill(x);
        return -1;
    }
    return 0;
}

static int emit_observe(void *ctx, const char *ev) {
    char line[KONTOR_PROTO_LINE_MAX];
    /* version 1 has no 'play' event: its engine declares by choosing (R1) */
    if (((ext *)((kontor_agent *)ctx)->impl)->version == 1 && strncmp(ev, "play ", 5) == 0) return 0;
    snprintf(line, sizeof line, "observe %s", ev);
    return ext_must(ctx, line);
}

/* Send the game as the seat sees it at the deal. */
static int ext_setup(kontor_agent *a, const kontor_view *v) {
    ext *x = a->impl;
    const kontor_state *s = &v->s;
    char line[KONTOR_PROTO_LINE_MAX], opts[512];
    x->in_game = 0;
    if (!(s->round == 1 && (s->phase == KONTOR_PHASE_CHOOSE || s->phase == KONTOR_PHASE_DECLARE) &&
          s->ncards_board == 9)) {
        set_reason(a, "engine '%s' cannot join a game after its deal", x->label);
        return -1;
    }
    kontor_config_describe(s->cfg, opts, sizeof opts);
    for (char *p = opts; *p; p++)
        if (*p == ',') *p = ' ';
    snprintf(line, sizeof line, "newgame %s %s%s%s", kontor_variant_name(s->cfg->variant), kontor_seat_name(s, v->seat),
             opts[0] ? " " : "", opts);
    if (ext_must(a, line)) return -1;
    if (proto_deal_events(v, x->tops, emit_observe, a)) return -1;
    x->last = *v;
    x->in_game = 1;
    return 0;
}

static void ext_newgame(kontor_agent *a, const kontor_view *v) {
    ext *x = a->impl;
    a->error[0] = 0;
    if (x->pid <= 0 || x->failed) {
        ext_kill(x);
        char msg[256];
        if (ext_start(a, msg, sizeof msg)) {
            set_reason(a, "%s", msg);
            return;
        }
    }
    x->failed = 0;
    ext_setup(a, v);
}

static void ext_observe(kontor_agent *a, const kontor_view *v, const kontor_log *log) {
    ext *x = a->impl;
    if (x->failed || !x->in_game) return;
    if (proto_decision_events(&x->last, v, log, x->tops, emit_observe, a)) return;
    x->last = *v;
}

static kontor_move ext_decide(kontor_agent *a, const kontor_view *v) {
    ext *x = a->impl;
    if (!x->failed && (x->pid <= 0 || !x->in_game)) ext_newgame(a, v);
    if (x->failed) {
        snprintf(a->error, sizeof a->error, "%s", x->reason);
        return KONTOR_FORFEIT;
    }
    static const char *const commands[] = {"genchoice", "genplace ship", "genplace remove", "genplace place"};
    const char *command = commands[v->s.phase < 4 ? v->s.phase : 0]; /* the declaration too: genchoice */
    x->last = *v;
    int r = ext_call(a, command);
    if (r < 0) return KONTOR_FORFEIT;
    char shown[96];
    snprintf(shown, sizeof shown, "%.80s", x->reply);
    for (char *q = shown; *q; q++)
        if (*q == '\n' || (unsigned char)*q < 32) *q = ' ';
    if (r == 1) {
        set_reason(a, "engine '%s' answered '%s' with an error: %s", x->label, command, shown);
        return KONTOR_FORFEIT;
    }
    kontor_move m;
    if (proto_parse_answer(&v->s, x->reply, &m)) {
        set_reason(a, "engine '%s' answered '%s' with '%s', which is not a decision", x->label, command, shown);
        return KONTOR_FORFEIT;
    }
    if (!kontor_is_legal(&v->s, v->seat, m)) {
        char why[160];
        set_reason(a, "engine '%s' answered '%s' with '%s', an illegal move: %s", x->label, command, shown,
                   kontor_why_illegal(&v->s, v->seat, m, why, sizeof why));
        return KONTOR_FORFEIT;
    }
    return m;
}

static void ext_release(kontor_agent *a) {
    ext *x = a->impl;
    if (!x) return;
    if (x->pid > 0 && x->to_fd >= 0) {
        /* a polite quit first, then the grace period, then SIGKILL */
        static const char quit[] = "quit\n";
        if (write(x->to_fd, quit, sizeof quit - 1) < 0) { /* it is gone already */
        }
        close(x->to_fd);
        x->to_fd = -1;
        double end = now_ms() + QUIT_GRACE_MS;
        while (now_ms() < end) {
            pid_t r = waitpid(x->pid, NULL, WNOHANG);
            if (r == x->pid || (r < 0 && errno != EINTR)) {
                x->pid = -1;
                break;
            }
            struct timespec ts = {0, 2000000};
            nanosleep(&ts, NULL);
        }
    }
    ext_kill(x);
    free(x);
    a->impl = NULL;
}

kontor_agent *kontor_external_agent_new(const char *cmdline, int timeout_ms, kontor_error *err) {
    if (err) memset(err, 0, sizeof *err);
    if (!cmdline || !*cmdline || strlen(cmdline) >= sizeof ((ext *)0)->cmdline) {
        if (err) {
            err->code = KONTOR_E_INVALID;
            snprintf(err->msg, sizeof err->msg, "engine '%.60s': the command line is empty or too long",
                     cmdline ? cmdline : "");
        }
        return NULL;
    }
    struct sigaction old;
    if (sigaction(SIGPIPE, NULL, &old) == 0 && old.sa_handler == SIG_DFL) signal(SIGPIPE, SIG_IGN);
    kontor_agent *a = calloc(1, sizeof *a);
    ext *x = calloc(1, sizeof *x);
    if (!a || !x) {
        free(a), free(x);
        if (err) err->code = KONTOR_E_RANGE, snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    snprintf(x->cmdline, sizeof x->cmdline, "%s", cmdline);
    snprintf(x->label, sizeof x->label, "%.60s%s", cmdline, strlen(cmdline) > 60 ? "..." : "");
    x->timeout_ms = timeout_ms > 0 ? timeout_ms : 10000;
    x->pid = -1;
    x->to_fd = x->from_fd = -1;
    a->impl = x;
    snprintf(a->name, sizeof a->name, "cmd:%.59s", cmdline);
    a->decide = ext_decide;
    a->observe = ext_observe;
    a->newgame = ext_newgame;
    a->release = ext_release;
    char msg[256];
    if (ext_start(a, msg, sizeof msg)) {
        if (err) err->code = KONTOR_E_IO, snprintf(err->msg, sizeof err->msg, "%s", msg);
        ext_release(a);
        free(a);
        return NULL;
    }
    return a;
}

long kontor_external_agent_pid(const kontor_agent *a) {
    if (!a || a->decide != ext_decide || !a->impl) return -1;
    const ext *x = a->impl;
    return x->pid > 0 ? (long)x->pid : -1;
}
