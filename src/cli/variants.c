/* variants.c: kontor variants: every variant and expansion, one a line.
 *
 * The list comes from the engine's own table (kontor_variant_name and
 * kontor_variant_describe) so that it can never name a variant that
 * kontor_config_init does not know; the expansions are options that any
 * variant for two takes. The name comes first on each line, so scripts can
 * cut the first word. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static const char *help =
    "usage: kontor variants\n"
    "\n"
    "Lists every variant (for --variant, and the Variant tag of records) and every\n"
    "expansion (for --options), one a line: the name, then what it is.\n"
    "docs/variants.md gives the rules of each, and its rulings.\n";

/* The expansions of the designer's fan page, as options. */
static const struct {
    const char *name, *describe;
} expansions[] = {
    {"export=1", "expansion 1, Exportlager: one warehouse of a placed card may go to the export store; "
                 "each good's export majority scores 1 (variants for two)"},
    {"events=1", "expansion 2, Ereigniskarten: after a round with a scoring, an event card (ten of our own, "
                 "data/events.txt) (variants for two)"},
    {"tiles=1", "expansion 3, Aktionstafeln: four of eight action tiles on the ends of the water cross, won by "
                "closing them in (variants for two with the cross)"},
};

int cmd_variants(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(help, stdout);
            return 0;
        }
        cli_error("variants: '%s' is not an option (try --help)", argv[i]);
        return 2;
    }
    for (int v = 0; kontor_variant_describe(v); v++) printf("%-14s %s\n", kontor_variant_name(v), kontor_variant_describe(v));
    for (size_t i = 0; i < sizeof expansions / sizeof *expansions; i++)
        printf("%-14s %s\n", expansions[i].name, expansions[i].describe);
    return 0;
}
