/* agents.c: agents by spec for the commands: kontor's own, and the hook for
 * external engines.
 *
 * Every command that seats a player (arena, hint, the terminal client) asks
 * here, so that a spec means the same everywhere. kontor's own agents live in
 * libkontor (kontor_agent_new); an external program spoken to over the engine
 * protocol ("cmd:PROGRAM ARGS") is started and spoken to by the protocol's
 * controller end (src/proto/external.c, kontor_external_agent_new): this file
 * is where it plugs in (the one branch below). The time an engine gets per
 * answer is 10 seconds, or KONTOR_ENGINE_TIMEOUT_MS from the environment: a
 * property of the machine the tournament runs on, not of the agent spec. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "kontor/agent.h"
#include "kontor/proto.h"

/* The default time an external engine gets for one answer. */
#define ENGINE_TIMEOUT_MS 10000

kontor_agent *cli_agent_new(const char *spec, uint64_t seed, kontor_error *err) {
    if (spec && strncmp(spec, "cmd:", 4) == 0) {
        (void)seed; /* an external engine seeds itself */
        int ms = ENGINE_TIMEOUT_MS;
        const char *env = getenv("KONTOR_ENGINE_TIMEOUT_MS");
        if (env && *env) {
            char *end;
            long v = strtol(env, &end, 10);
            if (*end || v < 1 || v > 3600000) {
                if (err) {
                    memset(err, 0, sizeof *err);
                    err->code = KONTOR_E_INVALID;
                    snprintf(err->msg, sizeof err->msg,
                             "KONTOR_ENGINE_TIMEOUT_MS '%.40s' is not a number of milliseconds from 1 to 3600000", env);
                }
                return NULL;
            }
            ms = (int)v;
        }
        return kontor_external_agent_new(spec + 4, ms, err);
    }
    return kontor_agent_new(spec, seed, err);
}
