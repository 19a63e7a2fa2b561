/* match.c: the game driver (match.h): ask each seat that owes a decision,
 * check it, apply it, tell everyone.
 *
 * The loop is deliberately plain: kontor_actors gives the seats that owe a
 * decision; in the simultaneous card choice they are asked one after the
 * other in seat order, which is fair because a choice already made shows in
 * the next seat's view only as "hidden". The driver never trusts an agent:
 * every answer goes through kontor_apply, and a refused one ends the game
 * against that seat with the engine's own explanation (kontor_why_illegal),
 * which is what a tournament director would write on the score sheet.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ai/ai.h"
#include "kontor/match.h"

/* snprintf that may cut its text short on purpose (messages into fixed
 * fields of the result and the record). */
__attribute__((format(printf, 3, 4))) static void say(char *buf, size_t cap, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, cap, fmt, ap);
    va_end(ap);
}

static void fill_result(kontor_match_result *res, const kontor_state *s) {
    int pts[2];
    if (kontor_over(s)) {
        pts[0] = s->score[0];
        pts[1] = s->score[1];
    } else {
        kontor_points(s, pts);
    }
    res->score[0] = pts[0];
    res->score[1] = pts[1];
    res->rounds = s->round;
    if (res->forfeit < 0) res->winner = kontor_over(s) ? s->winner : -1;
}

static void forfeit(kontor_state *s, kontor_record *rec, kontor_match_result *res, int seat) {
    res->forfeit = seat;
    res->winner = 1 - kontor_team(s, seat);
    if (rec) {
        snprintf(rec->result, sizeof rec->result, "%s", res->winner == 0 ? "1-0" : "0-1");
        say(rec->termination, sizeof rec->termination, "%s", res->reason);
    }
}

kontor_status kontor_match_play(kontor_state *s, kontor_agent *const agents[], kontor_record *rec,
                                kontor_match_cb each, void *ctx, kontor_match_result *out) {
    kontor_match_result local;
    kontor_match_result *res = out ? out : &local;
    memset(res, 0, sizeof *res);
    res->forfeit = -1;
    res->winner = -1;
    res->nseats = s->cfg->nseats;
    int ns = s->cfg->nseats;
    kontor_view v;

    for (int q = 0; q < ns; q++)
        if (agents[q]->newgame) {
            kontor_view_of(s, q, &v);
            agents[q]->newgame(agents[q], &v);
        }

    unsigned actors;
    while ((actors = kontor_actors(s)) != 0) {
        int seat = 0;
        while (!((actors >> seat) & 1)) seat++;
        kontor_agent *a = agents[seat];
        kontor_view_of(s, seat, &v);
        a->error[0] = 0;
        double t0 = ai_now();
        kontor_move m = a->decide(a, &v);
        res->seconds[seat] += ai_now() - t0;

        kontor_log log;
        log.n = 0;
        if (m == KONTOR_FORFEIT) {
            say(res->reason, sizeof res->reason, "%s forfeits in round %d: %s", kontor_seat_name(s, seat),
                     s->round, a->error[0] ? a->error : "the agent gave up without saying why");
            forfeit(s, rec, res, seat);
            fill_result(res, s);
            return KONTOR_OK;
        }
        if (kontor_apply(s, seat, m, &log) != KONTOR_OK) {
            char why[192];
            kontor_why_illegal(s, seat, m, why, sizeof why);
            say(res->reason, sizeof res->reason, "%s loses in round %d: agent '%s' made an illegal decision: %s",
                     kontor_seat_name(s, seat), s->round, a->name, why);
            forfeit(s, rec, res, seat);
            fill_result(res, s);
            return KONTOR_OK;
        }
        res->decisions++;
        res->seat_decisions[seat]++;
        if (rec && kontor_record_push(rec, seat, m) != KONTOR_OK) {
            say(res->reason, sizeof res->reason, "the record could not grow (out of memory) in round %d",
                     s->round);
            fill_result(res, s);
            return KONTOR_E_RANGE;
        }
        if (each) each(ctx, s, seat, m, &log);
        for (int q = 0; q < ns; q++)
            if (agents[q]->observe) {
                kontor_view_of(s, q, &v);
                agents[q]->observe(agents[q], &v, &log);
            }
    }
    fill_result(res, s);
    if (rec) kontor_record_set_result(rec, s);
    return KONTOR_OK;
}
