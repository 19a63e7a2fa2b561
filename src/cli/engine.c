/* engine.c: kontor engine: one of kontor's agents speaks the engine protocol.
 *
 * The whole protocol is in libkontor (src/proto/engine.c); this command only
 * picks the agent, seeds it, and runs the read loop on stdin and stdout, so
 * that any program that drives engines (a GUI, another language's arena, our
 * own cmd: agents) can play against kontor's players. The agent comes from
 * cli_agent_new like everywhere else, so `--agent cmd:OTHER` relays to another
 * engine, which is how an engine can be tested through kontor itself.
 */
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "kontor/agent.h"
#include "kontor/proto.h"

static const char *help =
    "usage: kontor engine [--agent SPEC] [--seed S]\n"
    "\n"
    "Speaks the kontor engine protocol (docs/protocol.md) on stdin and stdout:\n"
    "a controller sends newgame, the events its seat may see (observe), and asks\n"
    "for decisions (genchoice, genplace). Replies are \"=id result\" or\n"
    "\"?id error\", each ended by a blank line. Quit with 'quit' or end of input.\n"
    "\n"
    "  --agent SPEC  the player: random, greedy, ismcts, ismcts:iters=N,\n"
    "                easy, medium, hard (default), or cmd:PROGRAM\n"
    "  --seed S      the agent's seed and the seed of its guesses (default 1)\n"
    "\n"
    "Example:\n"
    "  printf 'newgame basic red\\nshowboard\\nquit\\n' | kontor engine --agent random\n";

int cmd_engine(int argc, char **argv) {
    const char *spec = "hard";
    uint64_t seed = 1;
    const cli_option opts[] = {{"--agent", &spec, NULL, 0, 0},
                               {"--seed", NULL, &seed, 0, UINT64_MAX},
                               {NULL, NULL, NULL, 0, 0}};
    int parsed = cli_options("engine", argc, argv, help, opts);
    if (parsed) return parsed == 1 ? 0 : 2;
    /* a controller that goes away must end the loop with a write error, not
     * kill us half-way through a reply */
    signal(SIGPIPE, SIG_IGN);
    kontor_error err;
    kontor_engine *e = kontor_engine_new(cli_agent_new, spec, seed, &err);
    if (!e) {
        cli_error("engine: %s", err.msg);
        return 2;
    }
    int rc = kontor_engine_run(e, STDIN_FILENO, stdout);
    kontor_engine_free(e);
    return rc;
}
