/* agents.c: agents by spec for the commands: kontor's own, and the hook for
 * external engines.
 *
 * Every command that seats a player (arena, hint, the terminal client) asks
 * here, so that a spec means the same everywhere. kontor's own agents live in
 * libkontor (kontor_agent_new); an external program spoken to over the engine
 * protocol ("cmd:PROGRAM ARGS") needs process handling, which belongs to the
 * protocol code, not to the library: this file is where that code plugs in
 * (the one branch below). */
#include <string.h>

#include "cli/cli.h"
#include "kontor/agent.h"

kontor_agent *cli_agent_new(const char *spec, uint64_t seed, kontor_error *err) {
    if (spec && strncmp(spec, "cmd:", 4) == 0) {
        /* the engine protocol's client (src/proto) creates these */
        if (err) {
            memset(err, 0, sizeof *err);
            err->code = KONTOR_E_INVALID;
            snprintf(err->msg, sizeof err->msg,
                     "agent '%.150s': external engines (cmd:) are not built into this kontor yet", spec);
        }
        return NULL;
    }
    return kontor_agent_new(spec, seed, err);
}
