/* main.c: the kontor command: dispatch to one subcommand per file. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
    {"play", cmd_play, "play in the terminal against the computer or a friend"},
    {"selfplay", cmd_selfplay, "play random games, print a summary, write records"},
    {"bench", cmd_bench, "random full games per second, one core"},
    {"replay", cmd_replay, "check game records move by move, print the final board"},
    {"show", cmd_show, "the board of a game record after any round"},
    {"arena", cmd_arena, "round-robin tournament between agents, with Elo"},
    {"hint", cmd_hint, "the computer's advice for the side to move in a record"},
    {"analyse", cmd_analyse, "every decision of a record judged by the search: losses, mistakes"},
    {"engine", cmd_engine, "speak the engine protocol on stdin/stdout (docs/protocol.md)"},
    {"serve", cmd_serve, "the game server and browser client (http://localhost:8080)"},
    {"loadtest", cmd_loadtest, "load benchmark of kontor serve: many games over loopback"},
    {"variants", cmd_variants, "every variant and expansion, one a line"},
};
#define NCOMMANDS (sizeof commands / sizeof *commands)

static void usage(FILE *f) {
    fprintf(f, "usage: kontor <command> [options]   (kontor <command> --help for more)\n\n"
               "kontor %s: the board game Kontor (Michael Schacht, Goldsieber 1999).\n\ncommands:\n",
            KONTOR_VERSION);
    for (size_t i = 0; i < NCOMMANDS; i++) fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("kontor %s\n", KONTOR_VERSION);
        return 0;
    }
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(argv[1], commands[i].name) == 0) return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "kontor: '%s' is not a kontor command\n", argv[1]);
    usage(stderr);
    return 2;
}
