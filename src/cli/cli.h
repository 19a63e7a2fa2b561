/* cli.h: what the subcommands of the kontor command share.
 *
 * One command, many subcommands, one file each (KataGo's cpp/command/ is the
 * model): main.c dispatches on the first word to cmd_<name>(argc, argv), with
 * argv[0] the subcommand's name. Every subcommand answers --help. */
#ifndef KONTOR_CLI_H
#define KONTOR_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kontor/kontor.h"

int cmd_bench(int argc, char **argv);
int cmd_selfplay(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_variants(int argc, char **argv);

/* Read and parse a game record (replay.c), with the card set of cards_file
 * (NULL: built-in). Prints "kontor: record 'FILE' line N: ..." and returns
 * non-zero on failure; on success r owns its plies (kontor_record_release). */
struct kontor_record;
int cli_load_record(const char *path, const char *cards_file, struct kontor_record *r);
/* "1-0", "0-1", "1/2-1/2", or "*" while the game is not over. */
const char *cli_result_of(const kontor_state *s);

int cmd_arena(int argc, char **argv);
int cmd_hint(int argc, char **argv);
int cmd_analyse(int argc, char **argv);
int cmd_engine(int argc, char **argv);
int cmd_play(int argc, char **argv);

/* An agent from a spec: kontor's own ("greedy", "ismcts:iters=2000", ...) or
 * an external engine ("cmd:PROGRAM"). NULL and err on failure (agents.c). */
struct kontor_agent;
struct kontor_agent *cli_agent_new(const char *spec, uint64_t seed, kontor_error *err);
int cmd_serve(int argc, char **argv);
int cmd_loadtest(int argc, char **argv);

/* Read a whole file (or "-" for stdin) into a malloc'd, NUL-terminated
 * buffer. Returns 0, or -1 with errno set. */
int cli_read_file(const char *path, char **buf, size_t *len);
/* Make directory path and its missing parents (mkdir -p). 0, or -1 with errno. */
int cli_mkdirs(const char *path);

/* Build a configuration from --variant, --options and --cards values (each may
 * be NULL). Prints "kontor: ..." to stderr and returns non-zero on error. */
/* The card set in file path, read once and kept for the process (configs and
 * records point at it); NULL after printing why it cannot be read. */
const kontor_cardset *cli_cards(const char *path);
int cli_config(kontor_config *cfg, const char *variant, const char *options, const char *cards_file);

/* Parse an unsigned number for option opt; prints an error and returns -1 on
 * failure. */
int cli_number(const char *opt, const char *text, uint64_t max, uint64_t *out);
/* The same with a least value too (1 for counts that cannot be zero). */
int cli_number_in(const char *opt, const char *text, uint64_t min, uint64_t max, uint64_t *out);

/* A command's options, each "--name VALUE": a string (str) or a whole number
 * from min to max (num). A table ends with a NULL name. */
typedef struct cli_option {
    const char *name;
    const char **str;
    uint64_t *num;
    uint64_t min, max;
} cli_option;
/* Parse argv[1..] against opts; --help or -h prints help. Returns 0 to go
 * on, 1 when the help was printed (the command exits 0), 2 after an error
 * it printed as "kontor: CMD: ..." (the command exits 2). */
int cli_options(const char *cmd, int argc, char **argv, const char *help, const cli_option *opts);

/* Seconds on a monotonic clock. */
double cli_now(void);

/* "kontor: " + message to stderr. */
__attribute__((format(printf, 1, 2))) void cli_error(const char *fmt, ...);

#endif
