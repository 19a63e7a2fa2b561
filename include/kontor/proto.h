/* proto.h: the kontor engine protocol (docs/protocol.md): both ends of it.
 *
 * The protocol is line-based text over a pipe in the style of GTP with a
 * UCI-style handshake, so that a bot written in any language can sit at a
 * kontor table. This header gives the two ends kontor itself needs:
 *
 *   - the engine end (kontor_engine): reads command lines, keeps its own copy
 *     of the game rebuilt from the public events the controller sends
 *     (observe), and asks a kontor_agent for decisions. `kontor engine` is a
 *     loop around kontor_engine_handle.
 *   - the controller end (kontor_external_agent_new): a kontor_agent that
 *     starts a program, speaks the protocol to it, and turns its answers into
 *     kontor_moves, so an external engine can sit in any seat of any driver.
 *
 * Both ends share the event text format (kontor_proto_format_event), so what
 * one writes the other reads. Nothing here touches hidden information: the
 * controller formats events only from the seat's kontor_view and the public
 * log, and the engine end shows its agent only kontor_view_of() of its copy.
 */
#ifndef KONTOR_PROTO_H
#define KONTOR_PROTO_H

#include <stddef.h>
#include <stdio.h>

#include "kontor/agent.h"
#include "kontor/kontor.h"

#ifdef __cplusplus
extern "C" {
#endif

#define KONTOR_PROTO_VERSION 2
/* Longest command line an engine accepts, newline excluded. Long enough for
 * any event or option list (the longest real line is under 200 bytes), short
 * enough that a runaway writer cannot make the engine grow without bound. */
#define KONTOR_PROTO_LINE_MAX 4096
#define KONTOR_PROTO_MAX_ARGS 64

/* The fixed error tokens. A failure reply is "?id TOKEN" or "?id TOKEN: detail";
 * controllers branch on the token, people read the detail. */
typedef enum kontor_proto_err {
    KONTOR_PE_OK = 0,
    KONTOR_PE_UNKNOWN_COMMAND, /* "unknown command" */
    KONTOR_PE_SYNTAX,          /* "syntax error": wrong arguments, malformed event */
    KONTOR_PE_LINE_TOO_LONG,   /* "line too long" */
    KONTOR_PE_NO_GAME,         /* "no game": no newgame yet, or the game is over */
    KONTOR_PE_NOT_YOUR_TURN,   /* "not your turn": the seat owes no such decision */
    KONTOR_PE_ILLEGAL,         /* "illegal move": an observed decision the rules forbid */
    KONTOR_PE_BAD_EVENT,       /* "bad event": an event that contradicts the game so far */
    KONTOR_PE_BAD_OPTION,      /* "bad option": unknown setoption name or value, bad newgame rules */
    KONTOR_PE_ENGINE_FAILURE   /* "engine failure": the engine's own player failed */
} kontor_proto_err;

const char *kontor_proto_err_token(kontor_proto_err e);

/* One command line split into an optional numeric id, a name and arguments.
 * The pointers point into buf (owned by the struct). */
typedef struct kontor_command {
    char buf[KONTOR_PROTO_LINE_MAX + 1];
    char id[24];    /* the digits of the id, "" when none was given */
    const char *name; /* NULL for an empty (or comment-only) line */
    int argc;
    const char *argv[KONTOR_PROTO_MAX_ARGS];
} kontor_command;

/* Split a line (no newline; any bytes) as GTP does: control characters other
 * than tab are dropped, tabs are spaces, '#' starts a comment. Returns
 * KONTOR_PE_OK, KONTOR_PE_LINE_TOO_LONG (the id is still filled when it could
 * be read) or KONTOR_PE_SYNTAX (too many arguments, an overlong id). */
kontor_proto_err kontor_command_parse(kontor_command *cmd, const char *line, size_t len);

/* ---- events ------------------------------------------------------------------ */

/* Write one event of the log as protocol text ("place red 31 +1,-2"); s is
 * the state (or the view's state) the event happened in, for card numbers and
 * area sizes. Returns the length, 0 for an event the protocol does not carry. */
size_t kontor_proto_format_event(const kontor_state *s, const kontor_event *e, char *buf, size_t cap);
/* Write card id as a "card" event in the card file format
 * ("card 31 red goods TW ship"). */
size_t kontor_proto_format_card(const kontor_cardset *cs, int id, char *buf, size_t cap);

/* ---- the engine end ------------------------------------------------------------ */

/* How the engine makes (and re-makes, on setoption level/ms/seed) its player:
 * kontor_agent_new, or the CLI's cli_agent_new. */
typedef kontor_agent *(*kontor_engine_factory)(const char *spec, uint64_t seed, kontor_error *err);

typedef struct kontor_engine kontor_engine;

/* An engine that plays with the agent made by factory(spec, seed). NULL with
 * err filled when the agent cannot be made. Free with kontor_engine_free. */
kontor_engine *kontor_engine_new(kontor_engine_factory factory, const char *spec, uint64_t seed,
                                 kontor_error *err);
void kontor_engine_free(kontor_engine *e); /* NULL is a no-op */

/* Handle one command line (without its newline). The reply, ended by its
 * blank line, is written into out (cap bytes; replies longer than cap are
 * cut at a line end and still end with the blank line); returns its length
 * via *outlen. Returns 1 after quit, else 0. */
int kontor_engine_handle(kontor_engine *e, const char *line, size_t len, char *out, size_t cap, size_t *outlen);

/* Read commands from in_fd and write replies to out until quit or end of
 * input. Returns 0 after quit or a clean end of input, 1 on a read or write
 * error. */
int kontor_engine_run(kontor_engine *e, int in_fd, FILE *out);

/* ---- the controller end: external engines as agents ---------------------------- */

/* An agent that runs cmdline (through /bin/sh -c "exec cmdline") and asks it
 * for decisions over the protocol. timeout_ms bounds every answer (0: 10000).
 * An engine that does not start, hangs past the timeout, exits, or answers
 * with an error or an illegal decision makes decide return KONTOR_FORFEIT
 * with the reason in a->error; the process is then killed and reaped, and a
 * fresh one is started for the next game. The engine gets only what the
 * seat's kontor_view and the public log hold. Sets SIGPIPE to SIG_IGN for the
 * process (a dead engine must be an error value, not a signal). Returns NULL
 * with err filled when the program cannot be started or fails the handshake.
 * Free with kontor_agent_free or a->release. */
kontor_agent *kontor_external_agent_new(const char *cmdline, int timeout_ms, kontor_error *err);
/* The engine's process id, or -1 when none is running (for tests). */
long kontor_external_agent_pid(const kontor_agent *a);

#ifdef __cplusplus
}
#endif
#endif
