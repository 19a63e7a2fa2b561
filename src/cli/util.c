/* util.c: helpers shared by the subcommands: files, configurations, numbers,
 * the clock and error messages. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"

void cli_error(const char *fmt, ...) {
    va_list ap;
    fputs("kontor: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* The whole file (or stdin for "-") into a NUL-terminated buffer of the
 * caller's. A file is read with read(2) into a buffer of its size, not
 * through stdio: kontor replay reads one a record, and stdio's fopen, buffer
 * and copies cost more instructions than reading a record's 900 bytes
 * (docs/engine-speed.md, issue 17). Files of 2 GiB or more are refused with EFBIG. */
static int read_fd(int fd, size_t cap, char **buf, size_t *len) {
    size_t n = 0;
    char *b = malloc(cap);
    if (!b) return -1;
    for (;;) {
        if (n + 1 >= cap) {
            if (cap > ((size_t)1 << 30)) {
                free(b);
                errno = EFBIG;
                return -1;
            }
            char *nb = realloc(b, cap * 2);
            if (!nb) {
                free(b);
                return -1;
            }
            b = nb;
            cap *= 2;
        }
        ssize_t got = read(fd, b + n, cap - n - 1);
        if (got < 0) {
            if (errno == EINTR) continue;
            int e = errno;
            free(b);
            errno = e ? e : EIO;
            return -1;
        }
        if (got == 0) break;
        n += (size_t)got;
    }
    b[n] = 0;
    *buf = b;
    *len = n;
    return 0;
}

int cli_read_file(const char *path, char **buf, size_t *len) {
    if (strcmp(path, "-") != 0) {
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) return -1;
        struct stat st;
        size_t cap = 4096;
        if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
            if (st.st_size >= ((off_t)1 << 31) - 1) {
                close(fd);
                errno = EFBIG;
                return -1;
            }
            cap = (size_t)st.st_size + 2; /* the text, its NUL, and a byte to see the end */
        }
        int rc = read_fd(fd, cap, buf, len);
        int e = errno;
        close(fd);
        errno = e;
        return rc;
    }
    FILE *f = stdin;
    size_t cap = 4096, n = 0;
    char *b = malloc(cap);
    if (!b) goto fail;
    for (;;) {
        if (n + 1 >= cap) {
            if (cap > ((size_t)1 << 30)) {
                errno = EFBIG;
                goto fail;
            }
            char *nb = realloc(b, cap * 2);
            if (!nb) goto fail;
            b = nb;
            cap *= 2;
        }
        size_t got = fread(b + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0) break;
    }
    if (ferror(f)) goto fail;
    b[n] = 0;
    *buf = b;
    *len = n;
    return 0;
fail:
    {
        int e = errno;
        free(b);
        errno = e ? e : EIO;
    }
    return -1;
}

/* Configs and records only point at their card set (kontor_config.cards), so
 * a set read from a file lives as long as the process: the last one read is
 * kept and given again for the same path (replay reads one per record). */
const kontor_cardset *cli_cards(const char *path) {
    static kontor_cardset *kept;
    static char *kept_path;
    if (kept && strcmp(kept_path, path) == 0) return kept;
    char *text;
    size_t len;
    if (cli_read_file(path, &text, &len)) {
        cli_error("cannot read card file '%s': %s", path, strerror(errno));
        return NULL;
    }
    kontor_cardset *cs = malloc(sizeof *cs);
    char *p = strdup(path);
    kontor_error err;
    kontor_status st = cs && p ? kontor_cards_parse(cs, text, len, &err) : KONTOR_E_RANGE;
    free(text);
    if (st) {
        cli_error("card file '%s': %s", path, cs && p ? err.msg : "out of memory");
        free(cs);
        free(p);
        return NULL;
    }
    /* the previous set may still be referred to: it is not freed */
    kept = cs;
    kept_path = p;
    return kept;
}

int cli_config(kontor_config *cfg, const char *variant, const char *options, const char *cards_file) {
    kontor_error err;
    if (kontor_config_init(cfg, variant ? variant : "basic", &err)) {
        cli_error("%s", err.msg);
        return 1;
    }
    if (cards_file) {
        cfg->cards = cli_cards(cards_file);
        if (!cfg->cards) return 1;
    }
    if (options && kontor_config_options(cfg, options, &err)) {
        cli_error("%s", err.msg);
        return 1;
    }
    return 0;
}

int cli_number_in(const char *opt, const char *text, uint64_t min, uint64_t max, uint64_t *out) {
    char *end;
    errno = 0;
    if (!text || !*text || *text == '-') goto bad;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || *end || v < min || v > max) goto bad;
    *out = v;
    return 0;
bad:
    cli_error("%s wants a whole number from %llu to %llu, not '%s'", opt, (unsigned long long)min,
              (unsigned long long)max, text ? text : "");
    return -1;
}

int cli_number(const char *opt, const char *text, uint64_t max, uint64_t *out) {
    return cli_number_in(opt, text, 0, max, out);
}

int cli_options(const char *cmd, int argc, char **argv, const char *help, const cli_option *opts) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(help, stdout);
            return 1;
        }
        const cli_option *o = opts;
        while (o->name && strcmp(o->name, a) != 0) o++;
        if (!o->name) {
            cli_error("%s: '%s' is not an option (try --help)", cmd, a);
            return 2;
        }
        if (i + 1 >= argc) {
            cli_error("%s: %s wants a value (try --help)", cmd, a);
            return 2;
        }
        const char *v = argv[++i];
        if (o->str) *o->str = v;
        else if (cli_number_in(a, v, o->min, o->max, o->num)) return 2;
    }
    return 0;
}

double cli_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int cli_mkdirs(const char *path) {
    char p[4096];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof p) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(p, path, n + 1);
    /* each parent in turn, then the directory itself (like mkdir -p) */
    for (size_t i = 1; i <= n; i++) {
        if (p[i] != '/' && p[i] != 0) continue;
        char keep = p[i];
        p[i] = 0;
        if (mkdir(p, 0777) != 0 && errno != EEXIST) return -1;
        p[i] = keep;
    }
    struct stat st;
    if (stat(path, &st) != 0) return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}
