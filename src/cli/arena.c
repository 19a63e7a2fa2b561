/* arena.c: kontor arena: a round-robin tournament between agents, with Elo.
 *
 * The tournament itself (paired deals, fresh seeded agents per game,
 * parallel games, the table, the Elo fit) is library code in src/ai/arena.c
 * and src/ai/rating.c, shared with the tests; this file reads the options,
 * shows progress, writes records and prints the table and the picture. An
 * agent list is split on commas, but a piece of the form key=value without a
 * colon continues the previous agent's options, so
 * "ismcts:iters=100,threads=2,greedy" is two agents.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "kontor/agent.h"
#include "kontor/match.h"

static const char *help =
    "usage: kontor arena --agents A,B,... [--games N] [--variant V] [--options O]\n"
    "                    [--seed S] [--time MS] [--threads T] [--jobs J]\n"
    "                    [--record DIR | --resume DIR] [--svg FILE]\n"
    "\n"
    "Plays a round-robin tournament: every pair of agents plays N games (default\n"
    "20, rounded up to even) on N/2 deals, each deal once with each agent as red,\n"
    "so the luck of the deal cancels. Deal d has seed S+d (default S = 1). Prints\n"
    "per pairing wins, draws, losses and the mean point difference, and per agent\n"
    "its score, Elo (maximum likelihood, mean 0) with a 95% interval, and its\n"
    "decisions per second. Progress goes to stderr (a bar on a terminal, else a\n"
    "line a minute).\n"
    "\n"
    "Agents: random, greedy[:samples=K,noise=P], ismcts[:iters=N|ms=N,threads=T,\n"
    "par=tree|root|sync,merge=K,mopp=0|1,depth=1|2,vl=K,c=X,policy=0|1,ship=P,\n"
    "place=P,rounds=R,scale=X,stop=0|1,clock=wall|cpu,order=0|1,prior=W,keep=D,\n"
    "eorder=K,ebias=W,margin=X,reuse=0|1,bank=0|1,seq=F,remove=0|1,belief=K,beta=X,bnum=Y,\n"
    "sim=uct|rm|exp3,final=max|visits|nash,shrink=K], exploit:TARGET, easy, medium, hard\n"
    "(docs/ai.md), cmd:PROGRAM (an external engine). clock=cpu counts an ms= budget in\n"
    "the search thread's CPU time: equal-time matches on a loaded machine.\n"
    "threads=T with T > 1 searches one shared tree (par=tree, the default; not\n"
    "reproducible) or T trees (par=root, reproducible for a seed; par=sync: T\n"
    "trees that merge their root statistics every merge=K iterations, default 64;\n"
    "mopp=1: at a card choice the other seats' root statistics too; depth=2:\n"
    "the level below the root too).\n"
    "\n"
    "  --time MS      give every ismcts agent without a budget MS ms per decision\n"
    "  --threads T   give every ismcts agent without threads= T search threads\n"
    "  --jobs J      play J games at once (default 1; results do not change)\n"
    "  --record DIR  write every game as DIR/game-NNNN.kgn\n"
    "  --resume DIR  the same, and a game whose finished record is already there\n"
    "                (same variant, agents and deal) is counted from it, not\n"
    "                played again: an interrupted run goes on where it stopped\n"
    "  --svg FILE    draw the Elo table and the win-rate matrix as an SVG picture\n";

#define MAX_SPEC 128

typedef struct arena_cli {
    char specs[KONTOR_ARENA_MAX][MAX_SPEC];
    int n;
    const char *record_dir;
    const char *resume_dir;
    const kontor_config *cfg;
    int record_failed;
    int last_pct;
    int resumed;            /* games counted from their records */
    double t0, last_line;   /* progress lines when stderr is no terminal */
} arena_cli;

/* Split the --agents list (see the opening comment). */
static int split_agents(arena_cli *c, const char *list) {
    const char *p = list;
    c->n = 0;
    while (*p) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char piece[MAX_SPEC];
        if (len == 0 || len >= MAX_SPEC) {
            cli_error("arena: --agents '%s': %s", list, len ? "an agent spec is too long" : "an empty agent name");
            return -1;
        }
        memcpy(piece, p, len);
        piece[len] = 0;
        int cont = strchr(piece, '=') && !strchr(piece, ':');
        if (cont) {
            if (c->n == 0) {
                cli_error("arena: --agents '%s': option '%s' before any agent", list, piece);
                return -1;
            }
            char *prev = c->specs[c->n - 1];
            if (strlen(prev) + len + 2 >= MAX_SPEC) {
                cli_error("arena: --agents '%s': an agent spec is too long", list);
                return -1;
            }
            strcat(prev, ",");
            strcat(prev, piece);
        } else {
            if (c->n >= KONTOR_ARENA_MAX) {
                cli_error("arena: --agents '%s': at most %d agents", list, KONTOR_ARENA_MAX);
                return -1;
            }
            strcpy(c->specs[c->n++], piece);
        }
        p += len;
        if (*p == ',') p++;
    }
    if (c->n < 2) {
        cli_error("arena: --agents '%s': name at least two agents", list);
        return -1;
    }
    return 0;
}

static int has_opt(const char *spec, const char *key) {
    const char *colon = strchr(spec, ':');
    if (!colon) return 0;
    size_t k = strlen(key);
    for (const char *p = colon + 1; *p;) {
        if (strncmp(p, key, k) == 0 && p[k] == '=') return 1;
        const char *comma = strchr(p, ',');
        if (!comma) break;
        p = comma + 1;
    }
    return 0;
}

static int add_opt(char *spec, const char *kv) {
    if (strlen(spec) + strlen(kv) + 2 >= MAX_SPEC) return -1;
    strcat(spec, strchr(spec, ':') ? "," : ":");
    strcat(spec, kv);
    return 0;
}

static kontor_agent *factory(void *ctx, const char *spec, uint64_t seed, kontor_error *err) {
    (void)ctx;
    return cli_agent_new(spec, seed, err);
}

/* --resume: is game g's finished record in the directory already, for the
 * same deal and the same agents in the same seats? Then its result counts. */
static int known_game(void *ctx, const kontor_arena_game *g, kontor_match_result *r) {
    const arena_cli *c = ctx;
    char path[4096], *text = NULL;
    size_t len = 0;
    snprintf(path, sizeof path, "%s/game-%04d.kgn", c->record_dir, g->index + 1);
    if (cli_read_file(path, &text, &len)) return 0;
    kontor_record rec;
    kontor_error err;
    int ok = kontor_record_parse_with(&rec, c->cfg->cards, text, len, &err) == KONTOR_OK;
    free(text);
    if (!ok) return 0;
    kontor_deal deal;
    kontor_deal_shuffle(&deal, c->cfg, g->deal_seed);
    int ns = c->cfg->nseats;
    ok = rec.has_seed && rec.seed == g->deal_seed && !rec.termination[0] && rec.cfg.nseats == ns &&
         memcmp(&deal, &rec.deal, sizeof deal) == 0;
    for (int q = 0; q < ns && ok; q++) {
        int team = ns == 4 ? q / 2 : q;
        ok = strcmp(rec.players[q], c->specs[team == g->seat_a ? g->a : g->b]) == 0;
    }
    kontor_state s;
    if (ok) ok = kontor_record_replay(&rec, -1, &s, NULL, NULL, &err) == KONTOR_OK && kontor_over(&s);
    kontor_record_release(&rec);
    if (!ok) return 0;
    r->winner = s.winner;
    r->score[0] = s.score[0];
    r->score[1] = s.score[1];
    r->rounds = s.round;
    r->nseats = ns;
    r->forfeit = -1;
    return 1;
}

static void on_done(void *ctx, const kontor_arena_game *g, const kontor_record *rec, int finished, int total) {
    arena_cli *c = ctx;
    if (!rec && c->resume_dir) c->resumed++;
    if (rec && c->record_dir) {
        char path[4096], *text = NULL;
        size_t len = 0;
        snprintf(path, sizeof path, "%s/game-%04d.kgn", c->record_dir, g->index + 1);
        FILE *f = NULL;
        if (kontor_record_write(rec, &text, &len) != KONTOR_OK || !(f = fopen(path, "w")) ||
            fwrite(text, 1, len, f) != len) {
            if (!c->record_failed) cli_error("arena: cannot write record '%s': %s", path, strerror(errno));
            c->record_failed = 1;
        }
        if (f) fclose(f);
        free(text);
    }
    if (!isatty(2)) { /* a log: a line a minute, so a long run shows it is alive */
        double now = cli_now();
        if (now - c->last_line >= 60) {
            c->last_line = now;
            double per = (now - c->t0) / (finished - c->resumed > 0 ? finished - c->resumed : 1);
            fprintf(stderr, "kontor: arena: %d/%d games (%d from records), %.0f min so far, about %.0f min to go\n",
                    finished, total, c->resumed, (now - c->t0) / 60, per * (total - finished) / 60);
            fflush(stderr);
        }
        return;
    }
    int pct = (int)(100.0 * finished / total);
    if (pct != c->last_pct || finished == total) {
        c->last_pct = pct;
        char bar[41];
        int fill = 40 * finished / total;
        for (int i = 0; i < 40; i++) bar[i] = i < fill ? '#' : '.';
        bar[40] = 0;
        fprintf(stderr, "\r[%s] %d/%d games", bar, finished, total);
        if (finished == total) fputc('\n', stderr);
        fflush(stderr);
    }
}

static double score_of(const kontor_arena_pair *p) {
    return p->games ? (p->wins + 0.5 * p->draws) / p->games : 0.0;
}

static void xml_text(FILE *f, const char *s) {
    for (; *s; s++) {
        if (*s == '<') fputs("&lt;", f);
        else if (*s == '>') fputs("&gt;", f);
        else if (*s == '&') fputs("&amp;", f);
        else fputc(*s, f);
    }
}

/* The picture: Elo with its 95% interval as bars on the left, the matrix of
 * scores (row against column) on the right, red for losing, green for
 * winning. Hand-written SVG: no library for 60 lines of text. */
static int write_svg(const char *path, const arena_cli *c, const kontor_arena_table *t, const double *elo,
                     const double *se, const char *title) {
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    int n = c->n, row = 28, top = 60, namew = 230, barw = 300, cell = 56;
    int W = namew + barw + 60 + n * cell + 40, H = top + n * row + 60 + (n * cell > n * row ? n * cell - n * row : 0);
    double lo = 0, hi = 0;
    for (int i = 0; i < n; i++) {
        if (elo[i] - 1.96 * se[i] < lo) lo = elo[i] - 1.96 * se[i];
        if (elo[i] + 1.96 * se[i] > hi) hi = elo[i] + 1.96 * se[i];
    }
    if (hi - lo < 100) hi = lo + 100;
    double scale = barw / (hi - lo);
    int x0 = namew + (int)(-lo * scale);
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" "
               "font-size=\"13\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n", W, H);
    fprintf(f, "<text x=\"10\" y=\"22\" font-size=\"16\">");
    xml_text(f, title);
    fprintf(f, "</text>\n<text x=\"10\" y=\"44\">Elo (mean 0) with 95%% interval</text>\n");
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#888\"/>\n", x0, top - 8, x0, top + n * row);
    for (int i = 0; i < n; i++) {
        int y = top + i * row;
        fprintf(f, "<text x=\"10\" y=\"%d\">", y + 17);
        xml_text(f, c->specs[i]);
        fprintf(f, "</text>\n");
        int xe = namew + (int)((elo[i] - lo) * scale);
        int xa = xe < x0 ? xe : x0, w = abs(xe - x0);
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"16\" fill=\"%s\"/>\n", xa, y + 4, w ? w : 1,
                elo[i] >= 0 ? "#4a8" : "#c66");
        int l = namew + (int)((elo[i] - 1.96 * se[i] - lo) * scale), r = namew + (int)((elo[i] + 1.96 * se[i] - lo) * scale);
        fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", l, y + 12, r, y + 12);
        fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\">%+.0f</text>\n", r + 4, y + 16, elo[i]);
    }
    int mx = namew + barw + 60;
    fprintf(f, "<text x=\"%d\" y=\"44\">score of row against column</text>\n", mx);
    for (int i = 0; i < n; i++) {
        fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\">%d</text>\n", mx - 16, top + i * cell + cell / 2 + 4, i + 1);
        fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\">%d</text>\n", mx + i * cell + cell / 2 - 3, top - 4, i + 1);
        for (int j = 0; j < n; j++) {
            int x = mx + j * cell, y = top + i * cell;
            if (i == j || !t->p[i][j].games) {
                fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#eee\" stroke=\"white\"/>\n", x, y,
                        cell, cell);
                continue;
            }
            double sc = score_of(&t->p[i][j]);
            int red = sc < 0.5 ? 220 : (int)(220 - (sc - 0.5) * 2 * 150);
            int green = sc > 0.5 ? 200 : (int)(200 - (0.5 - sc) * 2 * 130);
            fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"rgb(%d,%d,120)\" stroke=\"white\"/>\n",
                    x, y, cell, cell, red, green);
            fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">%.0f%%</text>\n", x + cell / 2,
                    y + cell / 2 + 4, 100 * sc);
        }
    }
    fprintf(f, "<text x=\"10\" y=\"%d\" font-size=\"11\">rows and columns: agents in the order listed (1 = first)</text>\n",
            H - 12);
    fprintf(f, "</svg>\n");
    return fclose(f) ? -1 : 0;
}

int cmd_arena(int argc, char **argv) {
    const char *agents = NULL, *variant = "basic", *options = NULL, *svg = NULL;
    uint64_t games = 20, seed = 1, ms = 0, threads = 0, jobs = 1;
    arena_cli c;
    memset(&c, 0, sizeof c);
    c.last_pct = -1;
    const cli_option opts[] = {{"--agents", &agents, NULL, 0, 0},
                               {"--games", NULL, &games, 1, 1000000},
                               {"--variant", &variant, NULL, 0, 0},
                               {"--options", &options, NULL, 0, 0},
                               {"--seed", NULL, &seed, 0, UINT64_MAX},
                               {"--time", NULL, &ms, 1, 3600000},
                               {"--threads", NULL, &threads, 1, 64},
                               {"--jobs", NULL, &jobs, 1, 64},
                               {"--record", &c.record_dir, NULL, 0, 0},
                               {"--resume", &c.resume_dir, NULL, 0, 0},
                               {"--svg", &svg, NULL, 0, 0},
                               {NULL, NULL, NULL, 0, 0}};
    int parsed = cli_options("arena", argc, argv, help, opts);
    if (parsed) return parsed == 1 ? 0 : 2;
    if (!agents) {
        cli_error("arena: --agents is required (try --help)");
        return 2;
    }
    if (split_agents(&c, agents)) return 2;
    for (int i = 0; i < c.n; i++) {
        if (strncmp(c.specs[i], "ismcts", 6) != 0 || (c.specs[i][6] && c.specs[i][6] != ':')) continue;
        char kv[32];
        if (ms && !has_opt(c.specs[i], "iters") && !has_opt(c.specs[i], "ms")) {
            snprintf(kv, sizeof kv, "ms=%llu", (unsigned long long)ms);
            if (add_opt(c.specs[i], kv)) return cli_error("arena: agent '%s': spec too long", c.specs[i]), 2;
        }
        if (threads && !has_opt(c.specs[i], "threads")) {
            snprintf(kv, sizeof kv, "threads=%llu", (unsigned long long)threads);
            if (add_opt(c.specs[i], kv)) return cli_error("arena: agent '%s': spec too long", c.specs[i]), 2;
        }
    }
    kontor_config cfg;
    if (cli_config(&cfg, variant, options, NULL)) return 2;
    c.cfg = &cfg;
    if (c.resume_dir) {
        if (c.record_dir && strcmp(c.record_dir, c.resume_dir) != 0) {
            cli_error("arena: --record '%s' and --resume '%s' name two directories", c.record_dir, c.resume_dir);
            return 2;
        }
        c.record_dir = c.resume_dir;
    }
    if (c.record_dir && cli_mkdirs(c.record_dir) != 0) {
        cli_error("arena: cannot make directory '%s': %s", c.record_dir, strerror(errno));
        return 1;
    }
    const char *specs[KONTOR_ARENA_MAX];
    for (int i = 0; i < c.n; i++) specs[i] = c.specs[i];
    kontor_arena_opts o;
    memset(&o, 0, sizeof o);
    o.cfg = &cfg;
    o.specs = specs;
    o.n = c.n;
    o.games = (int)games;
    o.seed = seed;
    o.jobs = (int)jobs;
    o.factory = factory;
    o.done = on_done;
    o.done_ctx = &c;
    o.records = c.record_dir != NULL;
    if (c.resume_dir) {
        o.known = known_game;
        o.known_ctx = &c;
    }
    for (int i = 0; i < c.n; i++) {
        kontor_error e;
        kontor_agent *a = cli_agent_new(c.specs[i], 1, &e);
        if (!a) {
            cli_error("arena: %s", e.msg);
            return 2;
        }
        kontor_agent_free(a);
    }
    int per_pair = ((int)games + 1) / 2 * 2;
    printf("kontor arena: %s game, %d agents, %d games per pair on %d paired deals (seeds %llu..%llu)\n",
           kontor_variant_name(cfg.variant), c.n, per_pair, per_pair / 2, (unsigned long long)seed,
           (unsigned long long)(seed + (uint64_t)per_pair / 2 - 1));
    fflush(stdout);
    kontor_arena_table t;
    kontor_error err;
    double t0 = cli_now();
    c.t0 = c.last_line = t0;
    if (kontor_arena_run(&o, &t, &err) != KONTOR_OK) {
        cli_error("arena: %s", err.msg);
        return 1;
    }
    double wall = cli_now() - t0;
    double elo[KONTOR_ARENA_MAX], se[KONTOR_ARENA_MAX];
    int fit = kontor_elo(&t, elo, se);

    int w = 12;
    for (int i = 0; i < c.n; i++)
        if ((int)strlen(c.specs[i]) > w) w = (int)strlen(c.specs[i]);
    printf("\n%-*s  %-*s  %5s %5s %5s  %6s  %9s\n", w, "agent", w, "against", "win", "draw", "loss", "score",
           "pts/game");
    for (int i = 0; i < c.n; i++)
        for (int j = i + 1; j < c.n; j++) {
            const kontor_arena_pair *p = &t.p[i][j];
            printf("%-*s  %-*s  %5d %5d %5d  %5.1f%%  %+9.2f\n", w, c.specs[i], w, c.specs[j], p->wins, p->draws,
                   p->losses, 100 * score_of(p), p->games ? (double)p->diff / p->games : 0.0);
        }
    printf("\n%-*s  %6s  %6s  %6s  %11s  %9s  %10s  %s\n", w, "agent", "games", "score", "Elo", "95% CI", "dec/s",
           "playouts/s", "forfeits");
    for (int i = 0; i < c.n; i++) {
        int g = 0;
        double pts = 0;
        for (int j = 0; j < c.n; j++) {
            g += t.p[i][j].games;
            pts += t.p[i][j].wins + 0.5 * t.p[i][j].draws;
        }
        double dps = t.seconds[i] > 0 ? (double)t.decisions[i] / t.seconds[i] : 0.0;
        char pps[16] = "-";
        if (t.iters[i] && t.search_seconds[i] > 0) snprintf(pps, sizeof pps, "%.0f", t.iters[i] / t.search_seconds[i]);
        printf("%-*s  %6d  %5.1f%%  %+6.0f  %+5.0f..%+-5.0f  %9.0f  %10s  %d\n", w, c.specs[i], g, g ? 100 * pts / g : 0.0,
               elo[i], elo[i] - 1.96 * se[i], elo[i] + 1.96 * se[i], dps, pps, t.forfeits[i]);
    }
    if (fit) printf("(the Elo fit did not converge: the ratings above are not reliable)\n");
    printf("\n%d games in %.1f s", c.n * (c.n - 1) / 2 * per_pair, wall);
    if (c.resume_dir) printf(" (%d of them counted from their records in %s)", c.resumed, c.resume_dir);
    printf("\n");
    if (svg) {
        char title[256];
        snprintf(title, sizeof title, "kontor arena: %s game, %d games per pair, seed %llu",
                 kontor_variant_name(cfg.variant), per_pair, (unsigned long long)seed);
        if (write_svg(svg, &c, &t, elo, se, title)) {
            cli_error("arena: cannot write '%s': %s", svg, strerror(errno));
            return 1;
        }
    }
    return c.record_failed ? 1 : 0;
}
