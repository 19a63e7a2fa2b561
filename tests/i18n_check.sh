#!/bin/sh
# i18n_check.sh: the terminal client's catalogues are complete and every
# string it shows a person is marked for translation (tests/test_i18n.c runs
# it; it needs gettext's tools: xgettext, msgfmt, msgcomm).
#
#   sh tests/i18n_check.sh translated LANG   every msgid of the sources has a
#                                            msgstr in po/LANG.po, none empty or fuzzy
#   sh tests/i18n_check.sh marked            every string literal of the sources with
#                                            a word in it is marked _() / N_(), or
#                                            listed in po/unmarked.txt (the test
#                                            script language, option names, files)
# Each prints what is wrong, one a line, and exits 1 then. SRC overrides the
# sources (a test hands it a broken copy). The engine's words for people
# (src/core/explain.c, W("...")) are translated too; they are marked by
# construction, so "marked" reads the client's files only. So are the action
# tiles' names (src/core/events.c, WN("...")) and the event cards' texts
# (data/events.txt, turned into N_() by po/events_words.sh; EVENTS overrides
# the file).
set -u
CLIENT="src/cli/play.c src/cli/tui_draw.c src/cli/tui_input.c"
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
# one msgid a line, as the C source spells it (escapes kept), from a .po/.pot
ids() {
    awk '
        function flush() { if (inid && id != "") print id; inid = 0; id = "" }
        /^msgid "/ { flush(); inid = 1; s = $0; sub(/^msgid "/, "", s); sub(/"$/, "", s); id = s; next }
        inid && /^"/ { s = $0; sub(/^"/, "", s); sub(/"$/, "", s); id = id s; next }
        { flush() }
        END { flush() }' "$1"
}
case ${1:-} in
translated)
    # the event-card texts of data/events.txt as N_() (po/events_words.sh)
    sh po/events_words.sh "${EVENTS:-data/events.txt}" > "$tmp/events_words.c" || exit 2
    SRC=${SRC:-"$CLIENT src/core/explain.c src/core/events.c"}
    SRC="$SRC $tmp/events_words.c"
    lang=${2:?which language}
    po=${PO:-po/$lang.po}
    xgettext --from-code=UTF-8 -k_ -kN_ -kP_:1,2 -kW -kWN --omit-header --no-wrap -o "$tmp/marked.pot" $SRC || exit 2
    msgmerge --quiet --no-fuzzy-matching -o "$tmp/merged.po" "$po" "$tmp/marked.pot" || exit 2
    msgattrib --untranslated --no-obsolete --no-wrap -o "$tmp/untr.po" "$tmp/merged.po" || exit 2
    msgattrib --only-fuzzy --no-obsolete --no-wrap -o "$tmp/fuzzy.po" "$po" || exit 2
    bad=0
    for f in untr fuzzy; do
        [ -s "$tmp/$f.po" ] || continue
        ids "$tmp/$f.po" | while IFS= read -r id; do printf "%s\n" "$po: $f: \"$id\""; done
        [ -n "$(ids "$tmp/$f.po")" ] && bad=1
    done
    # and msgfmt agrees (format strings match their msgids)
    msgfmt --check --statistics -o /dev/null "$po" 2>"$tmp/stat" || { cat "$tmp/stat"; bad=1; }
    grep -q 'untranslated\|fuzzy' "$tmp/stat" && { cat "$tmp/stat"; bad=1; }
    exit $bad ;;
marked)
    SRC=${SRC:-$CLIENT}
    xgettext -a --from-code=UTF-8 --omit-header --no-location --no-wrap -o "$tmp/all.pot" $SRC || exit 2
    xgettext --from-code=UTF-8 -k_ -kN_ -kP_:1,2 --omit-header --no-location --no-wrap -o "$tmp/marked.pot" $SRC || exit 2
    ids "$tmp/all.pot" | sort -u > "$tmp/all"
    ids "$tmp/marked.pot" | sort -u > "$tmp/marked"
    # a plural form is marked through its singular (P_)
    grep '^msgid_plural' "$tmp/marked.pot" | sed 's/^msgid_plural "//; s/"$//' >> "$tmp/marked"
    grep -v '^#' po/unmarked.txt | grep -v '^$' >> "$tmp/marked"
    sort -u -o "$tmp/marked" "$tmp/marked"
    # words: two letters in a row, once the printf conversions are taken out
    comm -23 "$tmp/all" "$tmp/marked" |
        sed 's/^/X/' | while IFS= read -r line; do
            id=${line#X}
            w=$(printf '%s' "$id" | sed 's/%[-+ #0-9.*]*[lhz]*[a-zA-Z%]//g; s/\\[ntr]//g')
            printf '%s' "$w" | grep -q '[A-Za-z][A-Za-z]' && printf "not marked for translation: \"%s\"\n" "$id"
        done > "$tmp/out"
    cat "$tmp/out"
    [ ! -s "$tmp/out" ] ;;
*)
    echo "usage: sh tests/i18n_check.sh translated LANG | marked" >&2
    exit 2 ;;
esac
