# kontor: one hand-written GNU Makefile (the way Lua, Redis, SQLite and Git build).
#
#   make                 build libkontor.a and the kontor command into build/
#   make test            build and run every test (cmocka), then print "N passed, N failed"
#   make SANITIZE=address,undefined test
#                        the same under ASan and UBSan, in build-san/
#   make fuzz            build the libFuzzer targets (needs clang)
#   make check           what CI runs: tests, tests under sanitizers, short fuzz runs
#   make bench           kontor bench
#   make pot             po/kontor.pot from the marked strings of the terminal client

CC ?= cc
OPT ?= -O2
WARN = -Wall -Wextra -Werror -Wshadow -Wmissing-prototypes -Wstrict-prototypes \
       -Wpointer-arith -Wvla -Wformat=2
CFLAGS_BASE = -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) -g -Iinclude -Isrc
LDLIBS = -lm -pthread

ifdef SANITIZE
BUILD ?= build-san
CFLAGS_BASE += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all \
               -DKONTOR_CHECK_UNCHECKED
LDFLAGS += -fsanitize=$(SANITIZE)
OPT = -O1
else
BUILD ?= build
endif

# Bitboards count cells with popcount: let x86-64 use its instruction
# (every x86-64 processor since 2008 has it) instead of a library call.
ifeq ($(shell uname -m),x86_64)
ARCH_CFLAGS ?= -mpopcnt
endif

CFLAGS ?=
ALL_CFLAGS = $(CFLAGS_BASE) $(ARCH_CFLAGS) $(OPT) $(CFLAGS)

# The rules engine and the playouts are the hot path: -O3 there (its loop
# unrolling and inlining measured 5-15% more random games a second than -O2;
# README, "Benchmarks"); and the records' fast reader (-O3: 1% fewer
# instructions a replayed record). The rest stays at $(OPT); a sanitizer build or an
# explicit OPT=... on the command line sets every file alike.
ifndef SANITIZE
ifeq ($(origin OPT),file)
HOT_OPT ?= -O3
$(BUILD)/src/core/%.o $(BUILD)/src/ai/playout.o $(BUILD)/src/ai/ismcts_tree.o $(BUILD)/src/ai/ismcts_index.o $(BUILD)/src/record/fast.o: OPT = $(HOT_OPT)
endif
endif

LIB_SRC := $(wildcard src/core/*.c src/record/*.c src/ai/*.c src/proto/*.c)
CLI_SRC := $(wildcard src/cli/*.c)
TEST_SRC := $(wildcard tests/test_*.c)

LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/cards_default.o $(BUILD)/gen/layouts.o \
           $(BUILD)/gen/events_default.o
LAYOUTS := $(sort $(wildcard data/layouts/*.txt))
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/%.o)
# The game server (src/server/) goes into the kontor binary only, with its
# libraries: libuv (the event loop), wslay (WebSocket frames; Debian ships
# no .pc file for it), nettle (SHA-1 and base64 of the WebSocket handshake),
# jansson (JSON) and SQLite. The server tests link it too. libpq
# (PostgreSQL: several nodes on one database, store_pg.c and nodesync.c) is
# not linked but loaded by src/server/pq.c when a postgresql:// store is
# opened: linked, it and its 17 libraries cost every kontor command about
# 11.8 M instructions of the dynamic loader (README, issue 17). Its header is
# still needed to build.
# SQLite, libuv and nettle are not linked either: src/server/lazy_*.c define
# the functions kontor calls and load each library on its first call
# (src/server/lazylib.h), because loading them cost every command, `kontor
# replay` of one record included, 1.6 M instructions of relocations before
# main (README, issue 17). The name loaded is the soname of the library the
# compiler would link (read with readelf; the files have defaults). jansson
# and wslay (about 50,000 instructions together) stay linked.
SERVER_SRC := $(wildcard src/server/*.c)
SERVER_OBJ := $(SERVER_SRC:%.c=$(BUILD)/%.o)
SERVER_LIBS := -lwslay $(shell pkg-config --libs jansson 2>/dev/null || echo -ljansson) -ldl
SONAME_OF = $(shell readelf -d $$($(CC) -print-file-name=lib$(1).so) 2>/dev/null | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
LAZY_SONAME = $(if $(call SONAME_OF,$(1)),-DLIB_SONAME='"$(call SONAME_OF,$(1))"')
$(BUILD)/src/server/lazy_sqlite.o $(BUILD)/leaky/src/server/lazy_sqlite.o: CFLAGS_BASE += $(call LAZY_SONAME,sqlite3)
$(BUILD)/src/server/lazy_uv.o $(BUILD)/leaky/src/server/lazy_uv.o: CFLAGS_BASE += $(call LAZY_SONAME,uv)
$(BUILD)/src/server/lazy_nettle.o $(BUILD)/leaky/src/server/lazy_nettle.o: CFLAGS_BASE += $(call LAZY_SONAME,nettle)
PQ_CFLAGS := $(shell pkg-config --cflags libpq 2>/dev/null || echo -I/usr/include/postgresql)
PQ_USERS := store_pg nodesync pq
$(PQ_USERS:%=$(BUILD)/src/server/%.o): CFLAGS_BASE += $(PQ_CFLAGS)
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)

LIB := $(BUILD)/libkontor.a
# the terminal client's catalogues (see the rules below)
I18N_SRC := src/cli/play.c src/cli/tui_draw.c src/cli/tui_input.c src/core/explain.c src/core/events.c
PO := $(wildcard po/*.po)
MO := $(PO:po/%.po=$(BUILD)/locale/%/LC_MESSAGES/kontor.mo)
KONTOR := $(BUILD)/kontor

.PHONY: all test check fuzz bench clean pot
all: $(KONTOR) kontor $(MO)

kontor: $(KONTOR) $(MO)
	@ln -sf $(KONTOR) kontor

# The terminal client's languages (gettext): po/LANG.po compiled into
# $(BUILD)/locale/LANG/LC_MESSAGES/kontor.mo, where the binary finds it beside
# itself (src/cli/i18n.c). make pot extracts the marked strings anew;
# tests/test_i18n.c checks that de.po translates every one of them.
$(BUILD)/locale/%/LC_MESSAGES/kontor.mo: po/%.po
	@mkdir -p $(dir $@)
	msgfmt --check -o $@ $<

# The event texts are data (data/events.txt): po/events_words.sh writes them as
# N_() entries for xgettext; the tiles' names are marked WN() in events.c.
$(BUILD)/gen/events_words.c: data/events.txt po/events_words.sh
	@mkdir -p $(dir $@)
	sh po/events_words.sh data/events.txt > $@

pot: $(BUILD)/gen/events_words.c
	xgettext --from-code=UTF-8 -k_ -kN_ -kP_:1,2 -kW -kWN --add-comments=TRANSLATORS: --package-name=kontor \
	    --msgid-bugs-address=dev@kontor.invalid --no-wrap -o po/kontor.pot $(I18N_SRC) $(BUILD)/gen/events_words.c

$(BUILD)/%.o: %.c $(wildcard include/kontor/*.h src/*/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# The default card set is data (data/cards.txt), compiled in as a string.
$(BUILD)/gen/cards_default.c: data/cards.txt
	@mkdir -p $(dir $@)
	@{ echo '/* generated from data/cards.txt by the Makefile; do not edit */'; \
	   echo 'const char *kontor_cards_default_text(void);'; \
	   echo 'const char *kontor_cards_default_text(void) {'; \
	   echo '    return'; \
	   sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/        "/' -e 's/$$/\\n"/' $<; \
	   echo '        ;'; echo '}'; } > $@

$(BUILD)/gen/cards_default.o: $(BUILD)/gen/cards_default.c
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# The event cards of the second expansion are data too (data/events.txt).
$(BUILD)/gen/events_default.c: data/events.txt
	@mkdir -p $(dir $@)
	@{ echo '/* generated from data/events.txt by the Makefile; do not edit */'; \
	   echo 'const char *kontor_events_default_text(void);'; \
	   echo 'const char *kontor_events_default_text(void) {'; \
	   echo '    return'; \
	   sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/        "/' -e 's/$$/\\n"/' $<; \
	   echo '        ;'; echo '}'; } > $@

$(BUILD)/gen/events_default.o: $(BUILD)/gen/events_default.c
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# The scenarios' start layouts are data too (data/layouts/NAME.txt), compiled
# in as a table of name and text (kontor_layout_text).
$(BUILD)/gen/layouts.c: $(LAYOUTS) Makefile
	@mkdir -p $(dir $@)
	@{ echo '/* generated from the files data/layouts/NAME.txt by the Makefile; do not edit */'; \
	   echo '#include <string.h>'; \
	   echo 'const char *kontor_layout_text(const char *name);'; \
	   echo 'static const struct { const char *name, *text; } layouts[] = {'; \
	   for f in $(LAYOUTS); do \
	     echo "    {\"$$(basename $$f .txt)\","; \
	     sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/        "/' -e 's/$$/\\n"/' $$f; \
	     echo '    },'; \
	   done; \
	   echo '};'; \
	   echo 'const char *kontor_layout_text(const char *name) {'; \
	   echo '    for (size_t i = 0; i < sizeof layouts / sizeof *layouts; i++)'; \
	   echo '        if (strcmp(layouts[i].name, name) == 0) return layouts[i].text;'; \
	   echo '    return NULL;'; \
	   echo '}'; } > $@

$(BUILD)/gen/layouts.o: $(BUILD)/gen/layouts.c
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

# the terminal client (kontor play) needs ncurses; it is not linked but loaded
# on first use (src/cli/lazy_curses.c), like the server's libraries above
$(BUILD)/src/cli/lazy_curses.o: CFLAGS_BASE += $(call LAZY_SONAME,ncursesw)
$(KONTOR): $(CLI_OBJ) $(SERVER_OBJ) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ) $(SERVER_OBJ) $(LIB) $(SERVER_LIBS) $(LDLIBS)

$(BUILD)/tests/%: tests/%.c tests/testutil.h $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(TEST_EXTRA) $(LIB) -lcmocka $(LDLIBS)

# the computer players' tests share an agent maker and a random game to a placement (tests/aiutil.h)
$(BUILD)/tests/test_ai $(BUILD)/tests/test_match $(BUILD)/tests/test_playout $(BUILD)/tests/test_search_opts \
  $(BUILD)/tests/test_search_reuse $(BUILD)/tests/test_tree_par $(BUILD)/tests/test_rave: tests/aiutil.h
# the scenario tests share their hand-built positions (tests/scenutil.h)
$(BUILD)/tests/test_scenarios $(BUILD)/tests/test_scenarios_players: tests/scenutil.h
# the rules tests, split along the rulebook's parts, share theirs (tests/rulesutil.h)
$(BUILD)/tests/test_rules_round $(BUILD)/tests/test_rules_board $(BUILD)/tests/test_rules_scoring: tests/rulesutil.h
# tests/test_jtext.c: the server's JSON writers (jtext.c, sjtext.c, views.c's
# state message) against json_dumps of sjson.c's trees on whole games
$(BUILD)/tests/test_jtext: $(filter-out $(BUILD)/src/server/server.o,$(SERVER_OBJ))
$(BUILD)/tests/test_jtext: TEST_EXTRA = $(filter-out $(BUILD)/src/server/server.o,$(SERVER_OBJ)) $(SERVER_LIBS)
# tests/test_store.c: the store suite, on SQLite and on a PostgreSQL it starts (tests/pgtmp.h)
$(BUILD)/tests/test_store: tests/pgtmp.h $(filter-out $(BUILD)/src/server/server.o,$(SERVER_OBJ))
$(BUILD)/tests/test_store: TEST_EXTRA = $(filter-out $(BUILD)/src/server/server.o,$(SERVER_OBJ)) $(SERVER_LIBS)
# tests/test_api_body.c: the API's handlers in process (server_http), server.c included
$(BUILD)/tests/test_api_body: $(SERVER_OBJ)
$(BUILD)/tests/test_api_body: TEST_EXTRA = $(SERVER_OBJ) $(SERVER_LIBS)
# tests/test_server_configs.c: the same, thousands of games of distinct options (src/core/intern.c's holds)
$(BUILD)/tests/test_server_configs: $(SERVER_OBJ)
$(BUILD)/tests/test_server_configs: TEST_EXTRA = $(SERVER_OBJ) $(SERVER_LIBS)
# tests/test_cluster.c: three nodes on that PostgreSQL behind nginx (deploy/nginx.conf), one killed
$(BUILD)/tests/test_cluster: tests/pgtmp.h deploy/nginx.conf $(KONTOR) $(filter-out $(BUILD)/src/server/server.o,$(SERVER_OBJ))
$(BUILD)/tests/test_cluster: TEST_EXTRA = $(filter-out $(BUILD)/src/server/server.o,$(SERVER_OBJ)) $(SERVER_LIBS)
# tests/test_server*.c, the security tests, the leak oracle and the limits
# under abuse (issue 15) drive a real server over loopback with the C client
# of src/server/ (tests/srvutil.h)
SERVER_TESTS := $(BUILD)/tests/test_server $(BUILD)/tests/test_server_variants $(BUILD)/tests/test_security \
                $(BUILD)/tests/test_leak $(BUILD)/tests/test_chat $(BUILD)/tests/test_takeback \
                $(BUILD)/tests/test_serve_limits
$(SERVER_TESTS): tests/srvutil.h $(filter-out $(BUILD)/src/server/server.o,$(SERVER_OBJ))
$(SERVER_TESTS): TEST_EXTRA = $(filter-out $(BUILD)/src/server/server.o,$(SERVER_OBJ)) $(SERVER_LIBS)
# The leak oracle's proof that it can fail: a second kontor whose server is
# compiled with -DKONTOR_TEST_LEAKY serves a running game's record and /view's
# last decision as before issue 13, and names another seat's card in the
# words of each legal decision. Only this test binary has the switch;
# $(KONTOR) cannot leak, whatever its environment. (Every server file is
# compiled again for it, so the switch may live in any of them.)
LEAKY_OBJ := $(SERVER_SRC:%.c=$(BUILD)/leaky/%.o)
$(BUILD)/leaky/%.o: %.c $(wildcard include/kontor/*.h src/*/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DKONTOR_TEST_LEAKY -c $< -o $@
$(PQ_USERS:%=$(BUILD)/leaky/src/server/%.o): CFLAGS_BASE += $(PQ_CFLAGS)
$(BUILD)/tests/kontor-leaky: $(CLI_OBJ) $(LEAKY_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ) $(LEAKY_OBJ) $(LIB) $(SERVER_LIBS) $(LDLIBS)
$(BUILD)/tests/test_leak: $(BUILD)/tests/kontor-leaky

test: $(TEST_BIN) $(KONTOR) $(MO)
	@KONTOR=$(KONTOR) sh tests/run.sh $(TEST_BIN)

FUZZ_SRC := $(wildcard fuzz/fuzz_*.c)
FUZZ_BIN := $(FUZZ_SRC:fuzz/%.c=build-fuzz/%)
fuzz: $(FUZZ_BIN)
# (the headers too: a change to a struct in one must rebuild every target)
build-fuzz/%: fuzz/%.c $(LIB_SRC) $(wildcard include/kontor/*.h src/*/*.h) \
              $(BUILD)/gen/cards_default.c $(BUILD)/gen/layouts.c $(BUILD)/gen/events_default.c
	@mkdir -p build-fuzz
	clang -std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 -Iinclude -Isrc -fsanitize=fuzzer,address,undefined \
	    -o $@ $< $(LIB_SRC) $(BUILD)/gen/cards_default.c $(BUILD)/gen/layouts.c $(BUILD)/gen/events_default.c -lm

# the server's handlers, in process (fuzz/fuzz_server.c), with its libraries
build-fuzz/fuzz_server: fuzz/fuzz_server.c $(LIB_SRC) $(SERVER_SRC) $(BUILD)/gen/cards_default.c $(BUILD)/gen/layouts.c $(BUILD)/gen/events_default.c
	@mkdir -p build-fuzz
	clang -std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 -Iinclude -Isrc $(PQ_CFLAGS) -fsanitize=fuzzer,address,undefined \
	    -o $@ $< $(LIB_SRC) $(filter-out src/server/wsclient.c,$(SERVER_SRC)) $(BUILD)/gen/cards_default.c \
	    $(BUILD)/gen/layouts.c $(BUILD)/gen/events_default.c $(SERVER_LIBS) -lm -pthread

check:
	sh tests/check.sh

bench: $(KONTOR)
	$(KONTOR) bench

clean:
	rm -rf build build-san build-fuzz kontor
