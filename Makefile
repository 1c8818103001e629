# eddy: build, run, test, check, fuzz and bench.
#
# Every top-level module folder contributes its *.c files to build/libeddy.a;
# server/main.c alone makes build/eddy. Unit tests are tests/unit/test_*.c,
# one binary each (test_plan_* without libeddy.a: see their rule). lemon
# output goes to build/gen and is never committed.

BUILD      ?= build
CC         ?= cc
OPT        ?= -O2
SAN_FLAGS  ?=
# -fstack-protector-strong: a smashed stack aborts (and the abort is logged, srv_crash.c)
# rather than running on; -g and frame pointers keep a core dump readable.
CFLAGS_ALL  = -std=c11 -D_GNU_SOURCE $(OPT) -g -fstack-protector-strong -fno-omit-frame-pointer -Wall -Wextra -Werror -Wno-unused-parameter \
              -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-missing-field-initializers \
              -pthread -I. -I$(BUILD)/gen $(SAN_FLAGS) $(CFLAGS)
LDLIBS_ALL  = -luv -lzookeeper_st -lssl -lcrypto -lpcre2-8 -lmicrohttpd -lm -pthread $(SAN_FLAGS) $(LDLIBS)

MODULES    := common types parser plan exec planner catalog sequencer dataflow server
LIB_SRC    := $(filter-out server/main.c,$(wildcard $(addsuffix /*.c,$(MODULES))))
LIB_OBJ    := $(patsubst %.c,$(BUILD)/obj/%.o,$(LIB_SRC)) $(BUILD)/obj/gen/sql.o
UNIT_SRC   := $(wildcard tests/unit/test_*.c)
UNIT_BIN   := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))
TOOL_SRC   := $(wildcard tests/tools/*.c)
TOOL_BIN   := $(patsubst tests/tools/%.c,$(BUILD)/tools/%,$(TOOL_SRC))
# The sqllogictest runner: its own small program over libpq (no libeddy.a).
SLT_SRC    := $(wildcard tests/slt/*.c)
SLT_BIN    := $(if $(SLT_SRC),$(BUILD)/tools/slt_run)
# Fuzz targets replayed over their corpora by make test (plain main, no libFuzzer);
# a target is built once the module it drives has sources.
FUZZ_REPLAY := $(if $(wildcard server/srv_codec_fuzz.c),$(BUILD)/fuzz/replay_codec) \
               $(if $(wildcard parser/*.c),$(BUILD)/fuzz/replay_parser) \
               $(if $(wildcard plan/plan_codec.c),$(BUILD)/fuzz/replay_plan) \
               $(if $(wildcard server/srv_tls.c),$(BUILD)/fuzz/replay_tls)

.PHONY: all run test check tsan fuzz soak bench setup setup-run clean deps deps-includes unit tools slt install deb clang-check

all: $(BUILD)/eddy $(UNIT_BIN) $(TOOL_BIN) $(SLT_BIN) $(FUZZ_REPLAY)

# One rule makes both files (grouped target), so make -j never runs lemon twice at once.
$(BUILD)/gen/sql.c $(BUILD)/gen/sql.h &: parser/sql.y
	@mkdir -p $(BUILD)/gen
	cp parser/sql.y $(BUILD)/gen/sql.y
	cd $(BUILD)/gen && lemon -q -s sql.y >/dev/null && test -f sql.c

# Everything that includes parser headers needs the generated token numbers first.
$(LIB_OBJ) $(BUILD)/obj/server/main.o: | $(BUILD)/gen/sql.h

# Module boundaries (DESIGN §3), on every build: includes before anything compiles
# (phony and order-only: it runs each time without forcing a rebuild), the
# symbols the objects use before libeddy.a is archived. Every target passes there.
deps-includes:
	@BUILD=$(BUILD) scripts/check-deps.sh includes $(MODULES)
$(LIB_OBJ) $(BUILD)/obj/server/main.o: | deps-includes

$(BUILD)/obj/gen/sql.o: $(BUILD)/gen/sql.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Iparser -Wno-unused-variable -Wno-unused-but-set-variable \
	    -Wno-missing-prototypes -Wno-strict-prototypes -Wno-shadow -Wno-implicit-fallthrough \
	    -Wno-sign-compare -Wno-unused-function -Wno-type-limits -MMD -MP -c $< -o $@

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

$(BUILD)/libeddy.a: $(LIB_OBJ)
	@rm -f $@
	@scripts/check-deps.sh symbols $^
	ar rcs $@ $^

$(BUILD)/eddy: $(BUILD)/obj/server/main.o $(BUILD)/libeddy.a
	$(CC) -o $@ $^ $(LDLIBS_ALL)

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libeddy.a $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -o $@ $< $(BUILD)/libeddy.a $(LDLIBS_ALL)

# Unit tests named test_plan_* link only the objects of plan/ and of the modules
# it may use (types, common), not libeddy.a: the link itself proves that what
# they test, such as decoding a plan as a worker does, needs nothing of the
# planner, the parser or the catalog.
PLAN_LINK_OBJ := $(filter $(BUILD)/obj/plan/% $(BUILD)/obj/types/% $(BUILD)/obj/common/%,$(LIB_OBJ))

$(BUILD)/tests/test_plan_%: tests/unit/test_plan_%.c $(PLAN_LINK_OBJ) $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -o $@ $< $(PLAN_LINK_OBJ) -lcrypto -lpcre2-8 -lm -pthread $(SAN_FLAGS) $(LDLIBS)

$(BUILD)/tools/%: tests/tools/%.c $(BUILD)/libeddy.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -I$(shell pg_config --includedir 2>/dev/null || echo /usr/include/postgresql) \
	    -o $@ $< $(BUILD)/libeddy.a $(LDLIBS_ALL) -lpq

$(BUILD)/tools/slt_run: $(SLT_SRC) $(wildcard tests/slt/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -I$(shell pg_config --includedir 2>/dev/null || echo /usr/include/postgresql) \
	    -o $@ $(SLT_SRC) -lpq -lcrypto $(SAN_FLAGS) $(LDLIBS)

$(BUILD)/fuzz/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay_main.c tests/fuzz/fuzz.h $(BUILD)/libeddy.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -o $@ tests/fuzz/fuzz_$*.c tests/fuzz/replay_main.c $(BUILD)/libeddy.a $(LDLIBS_ALL)

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

# Packages (scripts/setup.sh): setup-run is what building and running eddy
# needs, setup adds the test toolchain. SETUP_LIST=--list prints a profile's
# packages instead of installing them.
setup:
	@scripts/setup.sh $(SETUP_LIST) test

setup-run:
	@scripts/setup.sh $(SETUP_LIST) run

deps: $(LIB_OBJ)
	@scripts/check-deps.sh symbols $(LIB_OBJ)

# The laptop mode: only the build's packages, then the server in the
# foreground. RUN_LISTEN and RUN_ARGS change where and how it runs.
RUN_LISTEN ?= 127.0.0.1:6875
run: setup-run
	@$(MAKE) --no-print-directory -s $(BUILD)/eddy
	@echo "eddy: connect with   psql postgres://eddy@$(RUN_LISTEN)/eddy"
	@echo "eddy: stop with      Ctrl-C (or kill -TERM the eddy process)"
	@exec $(BUILD)/eddy --listen $(RUN_LISTEN) $(RUN_ARGS)

test: setup
	@$(MAKE) --no-print-directory all
	@BUILD=$(BUILD) tests/run.sh

# The whole suite under AddressSanitizer and UndefinedBehaviorSanitizer.
check: setup
	@$(MAKE) --no-print-directory BUILD=build/check OPT=-O1 \
	    SAN_FLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" all
	@BUILD=build/check tests/run.sh

tsan: setup
	@$(MAKE) --no-print-directory BUILD=build/tsan OPT=-O1 SAN_FLAGS="-fsanitize=thread" all
	@BUILD=build/tsan tests/run.sh

# Every source through clang as well, compile only (warnings are errors as with gcc): what gcc
# accepts and clang refuses (atomics, pragmas, string arithmetic) is found without a second build.
# `make CC=clang BUILD=build/clang all` builds and links the whole tree with clang.
CLANG_SRC := $(LIB_SRC) server/main.c $(UNIT_SRC) $(TOOL_SRC) $(SLT_SRC)
clang-check: $(BUILD)/gen/sql.h
	@printf '%s\n' $(CLANG_SRC) | xargs -P2 -n16 clang $(filter-out -g,$(CFLAGS_ALL)) -I/usr/include/postgresql \
	    -fsyntax-only && echo "clang: $(words $(CLANG_SRC)) files compile"

fuzz: setup $(BUILD)/libeddy.a
	@tests/fuzz/run.sh $(FUZZ_SECONDS)

# The sqllogictest layer alone, with the corpus run on PostgreSQL 15 as well and
# both pass counts printed per file (make test runs the corpus on eddy only;
# PostgreSQL takes minutes over the random/select files).
slt: setup
	@$(MAKE) --no-print-directory $(BUILD)/eddy $(BUILD)/tools/slt_run
	@SLT_PG=1 ONLY=slt BUILD=$(BUILD) tests/run.sh

# Long runs: the sqllogictest comparison (make slt), then the seeded differential
# generator (tests/diff/gen.py) over fresh seeds for SOAK_SECONDS.
soak: setup slt
	@$(MAKE) --no-print-directory $(BUILD)/eddy
	@BUILD=$(BUILD) tests/diff/soak.sh $(SOAK_SECONDS)

bench: setup
	@$(MAKE) --no-print-directory $(BUILD)/eddy $(BUILD)/tools/seq_bench $(BUILD)/tools/zk_rtt
	@BUILD=$(BUILD) tests/bench/run.sh

# Installing: the binary, its man page (written from --help by
# scripts/gen-man.sh) and a systemd unit naming the installed binary.
# DESTDIR stages the files (the Debian package's rules use it).
PREFIX     ?= /usr/local
DESTDIR    ?=
UNITDIR    ?= $(if $(filter /usr,$(PREFIX)),/lib/systemd/system,$(PREFIX)/lib/systemd/system)
VERSION    := $(shell sed -n 's/^\#define EDDY_VERSION "\(.*\)"/\1/p' common/common.h)

$(BUILD)/eddy.1: $(BUILD)/eddy scripts/gen-man.sh
	scripts/gen-man.sh $(BUILD)/eddy > $@.tmp && mv $@.tmp $@

$(BUILD)/eddy.service: packaging/eddy.service.in
	@mkdir -p $(dir $@)
	sed 's|@BINDIR@|$(PREFIX)/bin|g' $< > $@

install: $(BUILD)/eddy $(BUILD)/eddy.1
	@rm -f $(BUILD)/eddy.service
	@$(MAKE) --no-print-directory PREFIX=$(PREFIX) $(BUILD)/eddy.service
	install -D -m 755 $(BUILD)/eddy $(DESTDIR)$(PREFIX)/bin/eddy
	install -D -m 644 $(BUILD)/eddy.1 $(DESTDIR)$(PREFIX)/share/man/man1/eddy.1
	install -D -m 644 $(BUILD)/eddy.service $(DESTDIR)$(UNITDIR)/eddy.service

# The Debian package (scripts/deb.sh: dpkg-buildpackage over debian/ in a copy
# of the sources); the .deb lands in $(BUILD)/deb.
deb:
	@BUILD=$(BUILD) scripts/deb.sh

clean:
	rm -rf build
