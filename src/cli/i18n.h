/* i18n.h: the words of the terminal client in the user's language (gettext).
 *
 * kontor play shows people text; machine output (records, the engine
 * protocol, JSON) stays English and never goes through _(). A string shown to
 * a person is written _("...") where it is used, N_("...") where it is only
 * stored (a table) and translated later with _(); xgettext collects both into
 * po/kontor.pot (make pot) and tests/test_i18n.c fails on a shown string left
 * unmarked. The catalogues are po/LANG.po, compiled by the Makefile into
 * build/locale/LANG/LC_MESSAGES/kontor.mo beside the binary. */
#ifndef KONTOR_CLI_I18N_H
#define KONTOR_CLI_I18N_H

#include <libintl.h>

#define _(s) gettext(s)
#define N_(s) (s)
#define P_(one, many, n) ngettext(one, many, (unsigned long)(n))

/* Choose the language and find the catalogue; call once, before any _().
 * lang is --lang's value ("de", "en") or NULL for the environment
 * (LANGUAGE, LC_ALL, LC_MESSAGES, LANG, as gettext reads them). Returns -1
 * and prints why when lang names a language we have no catalogue for. */
int cli_i18n_init(const char *lang);

/* The columns s takes on the terminal (UTF-8 aware; a byte count in a
 * locale that is not), and the bytes of s that fit in cols columns. */
int cli_text_width(const char *s);
int cli_text_fit(const char *s, int cols);

#endif
