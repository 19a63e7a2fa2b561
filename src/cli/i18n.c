/* i18n.c: choose the terminal client's language and find its catalogue.
 *
 * gettext reads the language the usual way: LANGUAGE (a list such as
 * "de:en"), else LC_ALL, LC_MESSAGES, LANG; --lang de|en sets LANGUAGE and
 * beats them all. One snag is honest to name: glibc ignores LANGUAGE while
 * the locale is "C", and a Debian machine often has no locale but C.UTF-8
 * (LANG=de_DE.UTF-8 then fails to load and leaves "C"). When a language is
 * asked for and the locale came out as "C", we switch to C.UTF-8 (built into
 * glibc since 2.35, so present everywhere): the messages come from the
 * catalogue and the terminal gets UTF-8 for the umlauts. An explicit
 * LC_ALL=C (or LANG=C) without --lang keeps the untranslated English, as
 * POSIX wants. Numbers stay in the C locale (LC_NUMERIC) everywhere.
 *
 * The catalogue is found without installation: KONTOR_LOCALEDIR if set, else
 * "locale" beside the executable (build/locale for build/kontor, where the
 * Makefile compiles po/LANG.po), else the compile-time KONTOR_LOCALEDIR_DEFAULT. */
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/i18n.h"

#ifndef KONTOR_LOCALEDIR_DEFAULT
#define KONTOR_LOCALEDIR_DEFAULT "/usr/local/share/locale"
#endif

static int utf8;

static const char *translate(const char *english) { return gettext(english); }

static const char *env(const char *name) {
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

static int is_c(const char *loc) {
    return !loc || strcmp(loc, "C") == 0 || strcmp(loc, "POSIX") == 0;
}

/* "locale" beside the executable, if that directory exists. */
static int dir_beside_exe(char *buf, size_t cap) {
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return -1;
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash) return -1;
    *slash = 0;
    if ((size_t)snprintf(buf, cap, "%s/locale", exe) >= cap) return -1;
    struct stat st;
    return stat(buf, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : -1;
}

int cli_i18n_init(const char *lang) {
    if (lang && strcmp(lang, "de") != 0 && strcmp(lang, "en") != 0) {
        fprintf(stderr, "kontor: --lang wants de or en, not '%s'\n", lang);
        return -1;
    }
    const char *loc = env("LC_ALL");
    if (!loc) loc = env("LC_MESSAGES");
    if (!loc) loc = env("LANG");
    const char *want = lang ? lang : env("LANGUAGE") ? env("LANGUAGE") : loc;
    if (lang) setenv("LANGUAGE", lang, 1);
    setlocale(LC_ALL, "");
    int explicit_c = !lang && loc && is_c(loc);
    if (want && !is_c(want) && !explicit_c && is_c(setlocale(LC_MESSAGES, NULL))) {
        /* a language is asked for, and glibc would ignore it in "C" */
        if (setlocale(LC_ALL, "C.UTF-8") && !lang && !env("LANGUAGE")) setenv("LANGUAGE", want, 1);
    }
    setlocale(LC_NUMERIC, "C");
    const char *cs = nl_langinfo(CODESET);
    utf8 = cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
    char dir[PATH_MAX];
    const char *d = env("KONTOR_LOCALEDIR");
    if (!d) d = dir_beside_exe(dir, sizeof dir) == 0 ? dir : KONTOR_LOCALEDIR_DEFAULT;
    bindtextdomain("kontor", d);
    textdomain("kontor");
    /* the engine's explanations and decisions in words, too */
    kontor_set_words(translate);
    return 0;
}

int cli_text_width(const char *s) {
    int w = 0;
    for (; *s; s++) w += !utf8 || ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

int cli_text_fit(const char *s, int cols) {
    int w = 0, i = 0;
    for (; s[i]; i++) {
        int starts = !utf8 || ((unsigned char)s[i] & 0xC0) != 0x80;
        if (starts && w == cols) break;
        w += starts;
    }
    return i;
}
