/* selfplay.c: kontor selfplay: uniformly random legal games, a summary, and a
 * record per game.
 *
 * Game g of a run is dealt from seed S+g and its decisions are drawn from a
 * generator seeded with S+g too, so any one game can be played again alone
 * (its record says its seed). Decisions are uniform over kontor_legal at every
 * decision point: the same distribution as kontor_playout, but written down. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "kontor/record.h"

static const char *help =
    "usage: kontor selfplay [--variant V] [--games N] [--seed S]\n"
    "                       [--record DIR] [--options LIST] [--cards FILE]\n"
    "\n"
    "Plays N (default 1000) games of uniformly random legal decisions of variant V\n"
    "(kontor variants lists them; default basic) and prints\n"
    "a summary: wins of red and black, draws, average rounds, games per second.\n"
    "Game g is dealt and played from seed S+g (default S = 1).\n"
    "  --record DIR    write each game's record to DIR/game-NNNNNN.kgn (the\n"
    "                  directory is created); replay them with kontor replay\n"
    "  --options LIST  rulings as name=value, comma-separated (docs/rules.md)\n"
    "  --cards FILE    play with another card set (docs/cards.md)\n";

static int write_record(const char *dir, uint64_t g, const kontor_record *rec) {
    char path[4096], *text;
    size_t len;
    snprintf(path, sizeof path, "%s/game-%06llu.kgn", dir, (unsigned long long)g);
    if (kontor_record_write(rec, &text, &len)) {
        cli_error("cannot format the record of game %llu", (unsigned long long)g);
        return -1;
    }
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    int ok = f && fwrite(text, 1, len, f) == len;
    if (f && fclose(f)) ok = 0;
    free(text);
    /* write, then rename: a crash never leaves half a record under the real name */
    if (!ok || rename(tmp, path)) {
        cli_error("cannot write '%s': %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

int cmd_selfplay(int argc, char **argv) {
    uint64_t games = 1000, seed = 1;
    const char *variant = "basic", *dir = NULL, *options = NULL, *cards = NULL;
    const cli_option opts[] = {{"--games", NULL, &games, 1, 100000000},
                               {"--seed", NULL, &seed, 0, UINT64_MAX / 2},
                               {"--variant", &variant, NULL, 0, 0},
                               {"--record", &dir, NULL, 0, 0},
                               {"--options", &options, NULL, 0, 0},
                               {"--cards", &cards, NULL, 0, 0},
                               {NULL, NULL, NULL, 0, 0}};
    int parsed = cli_options("selfplay", argc, argv, help, opts);
    if (parsed) return parsed == 1 ? 0 : 2;
    kontor_config cfg;
    if (cli_config(&cfg, variant, options, cards)) return 2;
    if (dir && cli_mkdirs(dir) != 0) {
        cli_error("cannot create directory '%s': %s", dir, strerror(errno));
        return 1;
    }
    uint64_t wins[3] = {0, 0, 0}, rounds = 0, decisions = 0;
    int tty = isatty(2);
    double t0 = cli_now(), last = t0;
    for (uint64_t g = 0; g < games; g++) {
        kontor_deal deal;
        kontor_state s;
        kontor_error err;
        kontor_rng rng;
        kontor_deal_shuffle(&deal, &cfg, seed + g);
        if (kontor_new_from_deal(&s, &cfg, &deal, &err)) {
            cli_error("%s", err.msg);
            return 1;
        }
        kontor_rng_seed(&rng, seed + g);
        kontor_record rec;
        if (dir) {
            kontor_record_init(&rec, &cfg, &deal);
            for (int p = 0; p < cfg.nseats; p++) snprintf(rec.players[p], sizeof rec.players[p], "random");
            snprintf(rec.event, sizeof rec.event, "kontor selfplay");
            rec.seed = seed + g;
            rec.has_seed = 1;
        }
        while (!kontor_over(&s)) {
            int seat = __builtin_ctz(kontor_actors(&s));
            kontor_move m[KONTOR_MAX_MOVES];
            int n = kontor_legal(&s, seat, m);
            kontor_move pick = m[kontor_rng_below(&rng, (uint32_t)n)];
            kontor_apply(&s, seat, pick, NULL);
            decisions++;
            if (dir && kontor_record_push(&rec, seat, pick)) {
                cli_error("out of memory");
                return 1;
            }
        }
        wins[s.winner + 1]++;
        rounds += s.round;
        if (dir) {
            kontor_record_set_result(&rec, &s);
            int bad = write_record(dir, g + 1, &rec);
            kontor_record_release(&rec);
            if (bad) return 1;
        }
        double now = cli_now();
        if (tty && now - last > 0.2) {
            fprintf(stderr, "\r%llu/%llu games", (unsigned long long)g + 1, (unsigned long long)games);
            last = now;
        }
    }
    double t = cli_now() - t0;
    if (tty) fputs("\r                              \r", stderr);
    printf("%llu %s games from seed %llu: red won %llu, black won %llu, drawn %llu\n", (unsigned long long)games,
           kontor_variant_name(cfg.variant), (unsigned long long)seed, (unsigned long long)wins[1],
           (unsigned long long)wins[2], (unsigned long long)wins[0]);
    printf("average %.2f rounds, %.1f decisions a game; %.0f games/s\n", (double)rounds / (double)games,
           (double)decisions / (double)games, (double)games / (t > 0 ? t : 1e-9));
    if (dir) printf("records in %s/\n", dir);
    return 0;
}
