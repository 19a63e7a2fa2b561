/* test_i18n.c: both languages, complete, in the terminal and in the browser.
 *
 * The terminal client (kontor play) speaks through gettext: every string it
 * shows a person is marked _() or N_() and po/de.po translates each of them
 * (tests/i18n_check.sh does the gettext side; these tests run it and show
 * that it can fail). The browser words every error the server answers with
 * by its code from web/lang/en.js and de.js: a test reads the server's
 * sources for every code it can send and fails when a catalogue lacks one.
 * The German screen itself is checked in test_play.c (golden screens and a
 * real terminal). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <dirent.h>

#include "testutil.h"

static int sh(const char *cmd) {
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static int have_gettext(void) { return sh("xgettext --version >/dev/null 2>&1 && msgfmt --version >/dev/null 2>&1") == 0; }

/* Skip the test (said on stderr) where gettext's tools are missing. */
static void need_gettext(void) {
    if (!have_gettext()) {
        fprintf(stderr, "gettext's tools are not installed (apt-get install gettext): skipped\n");
        skip();
    }
}

/* ---- the terminal client ------------------------------------------------------ */

/* A scratch directory for the broken copies the script is run on. */
static void scratch(char dir[static 24]) {
    strcpy(dir, "/tmp/kontor-i18n-XXXXXX");
    assert_non_null(mkdtemp(dir));
}

/* tests/i18n_check.sh ARGS, run with the environment ENV on what the shell
 * command PREP made (both may name the scratch directory dir as $D), fails:
 * exits 1, and says WANT (a grep pattern, quoted for the shell) if given. */
static void assert_check_fails(const char *dir, const char *prep, const char *env, const char *args, const char *want) {
    char cmd[1024];
    int n = snprintf(cmd, sizeof cmd, "D=%s; { %s; } || exit 2; %s sh tests/i18n_check.sh %s >$D/out 2>&1; test $? = 1%s%s%s",
                     dir, prep, env, args, want ? " && grep -q " : "", want ? want : "", want ? " $D/out" : "");
    assert_true(n > 0 && (size_t)n < sizeof cmd);
    if (sh(cmd) != 0) fail_msg("tests/i18n_check.sh %s did not fail (1) saying %s after: %s", args, want ? want : "-", prep);
}

static void remove_scratch(const char *dir) {
    char cmd[64];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(sh(cmd), 0);
}

static void test_de_po_translates_every_shown_string(void **state) {
    (void)state;
    need_gettext();
    assert_int_equal(sh("sh tests/i18n_check.sh translated de"), 0);
    char dir[24];
    scratch(dir);
    /* the check fails on a new message nobody translated ... */
    assert_check_fails(dir,
                       "cp src/cli/tui_input.c $D/x.c && "
                       "printf '%s\\n' 'static const char *x = _(\"a message nobody translated\");' >> $D/x.c",
                       "SRC=\"src/cli/play.c src/cli/tui_draw.c $D/x.c\"", "translated de", "'a message nobody translated'");
    /* ... and on a fuzzy or empty translation */
    assert_check_fails(dir, "awk '/^msgid \"quit the game\\?\"/ { print \"#, fuzzy\" } { print }' po/de.po > $D/fuzzy.po",
                       "PO=$D/fuzzy.po", "translated de", NULL);
    assert_check_fails(dir, "sed 's/^msgstr \"das Spiel beenden?\"/msgstr \"\"/' po/de.po > $D/empty.po", "PO=$D/empty.po",
                       "translated de", "'quit the game'");
    remove_scratch(dir);
}

/* de.po holds a German msgstr for s: the msgid spelled as in the catalogue
 * (no escapes needed: the event texts and tile names hold no '"' or '\'). */
static int de_translates(const char *po, const char *s) {
    char want[400];
    snprintf(want, sizeof want, "\nmsgid \"%s\"\nmsgstr \"", s);
    const char *at = strstr(po, want);
    return at && at[strlen(want)] != '"';
}

/* The event cards' texts (data/events.txt) and the action tiles' names are
 * shown by the German terminal through _(): each has German in de.po, read
 * from the engine itself (so a generator that extracted nothing would not
 * pass), and the script's check fails on one left out. */
static void test_de_po_translates_every_event_card_and_tile_name(void **state) {
    (void)state;
    char *po = kt_slurp("po/de.po");
    assert_non_null(po);
    kontor_event_card ev[KONTOR_EVENTS_MAX];
    int n = kontor_events_default(ev, KONTOR_EVENTS_MAX);
    assert_true(n >= 10);
    for (int i = 0; i < n; i++) {
        if (!de_translates(po, ev[i].text)) fprintf(stderr, "no German for event %s: \"%s\"\n", ev[i].name, ev[i].text);
        assert_true(de_translates(po, ev[i].text));
    }
    for (int t = 0; t < KONTOR_TILES; t++) {
        if (!de_translates(po, kontor_tile_name(t))) fprintf(stderr, "no German for tile %d: \"%s\"\n", t + 1, kontor_tile_name(t));
        assert_true(de_translates(po, kontor_tile_name(t)));
    }
    free(po);
    if (!have_gettext()) {
        fprintf(stderr, "gettext's tools are not installed (apt-get install gettext): script check skipped\n");
        return;
    }
    char dir[24];
    scratch(dir);
    /* a tile's German deleted */
    assert_check_fails(dir, "sed 's/^msgstr \"das Schiff bis zum Spielende\"/msgstr \"\"/' po/de.po > $D/tile.po", "PO=$D/tile.po",
                       "translated de", "'untr: \"the ship for the rest of the game\"'");
    /* an event's German deleted */
    assert_check_fails(dir, "sed 's/^msgstr \"Springflut: .*\"/msgstr \"\"/' po/de.po > $D/event.po", "PO=$D/event.po",
                       "translated de", "'untr: \"Spring tide: '");
    /* a new event written into the file, nobody translated it */
    assert_check_fails(dir,
                       "cp data/events.txt $D/events.txt && "
                       "echo 'fog | no_pass | Fog over the harbour: nobody may pass.' >> $D/events.txt",
                       "EVENTS=$D/events.txt", "translated de", "'untr: \"Fog over the harbour: nobody may pass.\"'");
    remove_scratch(dir);
}

static void test_every_shown_string_is_marked(void **state) {
    (void)state;
    need_gettext();
    assert_int_equal(sh("sh tests/i18n_check.sh marked"), 0);
    /* a message shown without _() is found */
    char dir[24];
    scratch(dir);
    assert_check_fails(dir, "sed 's/_(\"quit the game?\")/\"quit the game?\"/' src/cli/tui_input.c > $D/x.c",
                       "SRC=\"src/cli/play.c src/cli/tui_draw.c $D/x.c\"", "marked",
                       "'not marked for translation: \"quit the game?\"'");
    remove_scratch(dir);
}

/* ---- the server's error codes in the browser's catalogues ------------------------- */

#define MAX_CODES 128

typedef struct codes {
    char name[MAX_CODES][40];
    char where[MAX_CODES][80];
    int n;
} codes;

static void add_code(codes *cs, const char *s, size_t len, const char *file) {
    if (!len || len >= sizeof cs->name[0]) return;
    for (size_t i = 0; i < len; i++)
        if (!(islower((unsigned char)s[i]) || s[i] == '_')) return; /* a code is lower_case */
    for (int i = 0; i < cs->n; i++)
        if (strlen(cs->name[i]) == len && strncmp(cs->name[i], s, len) == 0) return;
    assert_true(cs->n < MAX_CODES);
    memcpy(cs->name[cs->n], s, len);
    cs->name[cs->n][len] = 0;
    snprintf(cs->where[cs->n], sizeof cs->where[0], "%s", file);
    cs->n++;
}

/* One C argument that starts at p, up to the comma or closing parenthesis
 * at depth 0, or ';': returns where it ends; with cs, its string literals at
 * depth 0 are added as codes (found in file). */
static const char *walk_arg(const char *p, codes *cs, const char *file) {
    int depth = 0;
    for (; *p; p++) {
        if (*p == '"') {
            const char *q = p + 1;
            while (*q && *q != '"') q += *q == '\\' && q[1] ? 2 : 1;
            if (cs && depth == 0) add_code(cs, p + 1, (size_t)(q - p - 1), file);
            p = q;
            if (!*p) break;
        } else if (*p == '(') {
            depth++;
        } else if (*p == ')') {
            if (depth-- == 0) break;
        } else if ((*p == ',' && depth == 0) || *p == ';') {
            break;
        }
    }
    return p;
}

/* Skip n arguments of a call whose '(' was just passed (stops at its ')'). */
static const char *skip_args(const char *p, int n) {
    for (; n > 0; n--) {
        p = walk_arg(p, NULL, NULL);
        if (*p != ',') return p;
        p++;
    }
    return p;
}

/* Every error code the server's sources can send: the code argument of
 * send_error, queue_error and reply_code, what follows a "code" key in
 * json_pack (a ternary gives both), what sj_shape_ok stores in *code, the
 * codes written into literal JSON, and http_error_code's table. */
static void server_codes(codes *cs) {
    memset(cs, 0, sizeof *cs);
    DIR *d = opendir("src/server");
    assert_non_null(d);
    struct dirent *e;
    static const struct { const char *call; int arg; } calls[] = {
        {"send_error(", 1}, {"queue_error(", 1}, {"reply_code(", 2}};
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 3 || strcmp(e->d_name + len - 2, ".c") != 0) continue;
        char path[300];
        snprintf(path, sizeof path, "src/server/%s", e->d_name);
        char *src = kt_slurp(path);
        assert_non_null(src);
        for (size_t k = 0; k < sizeof calls / sizeof *calls; k++)
            for (const char *p = src; (p = strstr(p, calls[k].call)); p++)
                walk_arg(skip_args(p + strlen(calls[k].call), calls[k].arg), cs, path);
        for (const char *p = src; (p = strstr(p, "\"code\",")); p++) walk_arg(p + 7, cs, path);
        for (const char *p = src; (p = strstr(p, "*code = ")); p++) walk_arg(p + 8, cs, path);
        for (const char *p = src; (p = strstr(p, "\\\"code\\\":\\\"")); p++) {
            const char *v = p + 11, *q = strstr(v, "\\\"");
            if (q && strncmp(v, "%s", 2) != 0) add_code(cs, v, (size_t)(q - v), path);
        }
        const char *f = strstr(src, "const char *http_error_code(int status) {");
        if (f) {
            const char *end = strstr(f, "\n}\n");
            assert_non_null(end);
            for (const char *p = f; (p = strstr(p, "return ")) && p < end; p++) walk_arg(p + 7, cs, path);
        }
        free(src);
    }
    closedir(d);
}

static void test_server_error_codes_are_found(void **state) {
    (void)state;
    codes cs;
    server_codes(&cs);
    /* the scan sees each way a code is written (if one stops matching, the
     * catalogue test below would pass on too few codes) */
    static const char *const known[] = {"bad_request", "no_game", "bad_token", "spectator", "illegal", "server",
                                        "too_deep", "bad_json", "join_timeout", "rate", "full", "not_found",
                                        "private", "seat_taken", "running"};
    for (size_t i = 0; i < sizeof known / sizeof *known; i++) {
        int found = 0;
        for (int k = 0; k < cs.n; k++) found |= strcmp(cs.name[k], known[i]) == 0;
        if (!found) fail_msg("the scan of src/server did not find the error code '%s'", known[i]);
    }
    assert_true(cs.n >= 20);
}

static void test_every_server_error_code_is_in_both_catalogues(void **state) {
    (void)state;
    codes cs;
    server_codes(&cs);
    static const char *const cats[] = {"web/lang/en.js", "web/lang/de.js"};
    int missing = 0;
    for (size_t c = 0; c < 2; c++) {
        char *js = kt_slurp(cats[c]);
        assert_non_null(js);
        for (int i = 0; i < cs.n; i++) {
            char key[64];
            snprintf(key, sizeof key, "'err.%s':", cs.name[i]);
            if (!strstr(js, key)) {
                fprintf(stderr, "%s has no message for the error code '%s' (sent by %s): add 'err.%s'\n", cats[c],
                        cs.name[i], cs.where[i], cs.name[i]);
                missing++;
            }
        }
        free(js);
    }
    assert_int_equal(missing, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_de_po_translates_every_shown_string),
        cmocka_unit_test(test_every_shown_string_is_marked),
        cmocka_unit_test(test_de_po_translates_every_event_card_and_tile_name),
        cmocka_unit_test(test_server_error_codes_are_found),
        cmocka_unit_test(test_every_server_error_code_is_in_both_catalogues),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
