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
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(help, stdout);
            return 0;
        }
        if (i + 1 >= argc) {
            cli_error("engine: '%s' is not an option, or lacks its value (try --help)", a);
            return 2;
        }
        if (strcmp(a, "--agent") == 0) {
            spec = argv[++i];
        } else if (strcmp(a, "--seed") == 0) {
            if (cli_number(a, argv[++i], UINT64_MAX, &seed)) return 2;
        } else {
            cli_error("engine: '%s' is not an option (try --help)", a);
            return 2;
        }
    }
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
