# Makefile for monprof.  GNU make, no configure step.  Override anything
# below on the command line, e.g.  make O=../build CC=gcc-11 PREFIX=$HOME/.local
#
#   make            plugin, runtime, prof and the specs file, into $(O)/
#   make check      unit and end-to-end tests
#   make demo       profile a sample program and print prof's report
#   make bench      overhead against plain -O2 and glibc -pg
#   make fuzz-counts  random programs' calls: -p, -pg, reference, exact
#   make install    PREFIX=... LIBDIR=... DESTDIR=...
#   make uninstall  the same variables: removes what install put there
#   make deps       install missing build dependencies (apt-get, as root)

srcdir     := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
O          ?= build
# monprof's version: prof --version, monprof.pc, the CMake package and the
# shared runtime's file name.  Its major number is libmonprof.so's SONAME:
# raise it when the library drops or changes an exported symbol (mon.h's
# functions, or a hook ABI it no longer serves).
VERSION    := 1.0.0
SOVERSION  := $(firstword $(subst ., ,$(VERSION)))
PREFIX     ?= /usr/local
# Debian's multiarch layout: LIBDIR=$(PREFIX)/lib/x86_64-linux-gnu.
LIBDIR     ?= $(PREFIX)/lib
DESTDIR    ?=
PKG_CONFIG ?= pkg-config
NM ?= nm
WERROR     ?= 0

ifeq ($(origin CC),default)
CC := gcc
endif
# The plugin must be built by the C++ compiler of the GCC that loads it.
GCC_MAJOR  := $(shell $(CC) -dumpversion 2>/dev/null | cut -d. -f1)
PLUGIN_CXX ?= $(patsubst %gcc,%g++,$(patsubst gcc-%,g++-%,$(CC)))
PLUGIN_INC := $(shell $(CC) -print-file-name=plugin)/include

ABS_O      := $(abspath $(O))
ABS_SRC    := $(abspath $(srcdir))

WARN        = -Wall -Wextra -Wstrict-prototypes -Wmissing-prototypes -Wshadow \
	      -Wpointer-arith -Wformat=2
ifeq ($(WERROR),1)
WARN       += -Werror
endif
ALL_CFLAGS  = -std=gnu11 -O2 -g $(WARN) -D_GNU_SOURCE -I$(srcdir)/include \
	      $(CPPFLAGS) $(CFLAGS)

# Deferred (=): evaluated after `make deps` may have installed them.
ELF_CFLAGS  = $(shell $(PKG_CONFIG) --cflags libelf)
ELF_LIBS    = $(shell $(PKG_CONFIG) --libs libelf)
CHECK_CFLAGS = $(shell $(PKG_CONFIG) --cflags check)
CHECK_LIBS  = $(shell $(PKG_CONFIG) --libs check)

.PHONY: all deps check unit e2e layers demo bench fuzz install uninstall \
	clean
.DEFAULT_GOAL := all

# ---------------------------------------------------------------- deps
# Debian packages for what the build needs, and for what the tests also
# run (libtool for the drop-in's libtool case).  `make deps`, `make demo`
# and the check targets install them as root, otherwise print the
# command; a plain `make` only checks and prints.
DEPS_PKGS   = gcc-$(GCC_MAJOR)-plugin-dev g++-$(GCC_MAJOR) libelf-dev check \
	      pkg-config libiberty-dev binutils libdw-dev libprotobuf-c-dev \
	      protobuf-c-compiler zlib1g-dev
# go tool pprof and callgrind_annotate read prof's exports in the tests,
# headless Chromium draws the flame graph and xmllint parses it, and
# CMake, Meson and Ninja build small projects with the installed
# packages, libseccomp's filters are installed from a shared library
# (e2e 148) and strace counts a thread's system calls (e2e 152); each
# is skipped, with the reason, where it cannot be installed.
TEST_PKGS   = libtool-bin golang-go valgrind chromium libxml2-utils cmake \
	      meson ninja-build libseccomp-dev strace
DEPS_STAMP  = $(O)/.deps-ok
TEST_STAMP  = $(O)/.deps-test-ok
DEPS_INSTALL := $(if $(filter deps demo check check-real unit e2e,\
	      $(MAKECMDGOALS)),1,0)

deps: $(DEPS_STAMP) $(TEST_STAMP)

$(DEPS_STAMP):
	@DEPS_INSTALL=$(DEPS_INSTALL) $(SHELL) $(srcdir)/testsuite/tools/deps.sh \
	    "$(CC)" "$(PLUGIN_CXX)" "$(PKG_CONFIG)" $(DEPS_PKGS)
	@mkdir -p $(@D) && touch $@

$(TEST_STAMP): | $(DEPS_STAMP)
	@DEPS_INSTALL=$(DEPS_INSTALL) DEPS_TESTS=1 $(SHELL) \
	    $(srcdir)/testsuite/tools/deps.sh "$(CC)" "$(PLUGIN_CXX)" \
	    "$(PKG_CONFIG)" $(TEST_PKGS)
	@mkdir -p $(@D) && touch $@

# ---------------------------------------------------------------- runtime
# The runtime must never be instrumented: the hook would call itself.
# Its calls of the C library go through the GOT, which the loader fills
# at start (-fno-plt), not through PLT slots bound at the first call:
# the perf helper, where it is no thread of glibc's (rawthread.c), may
# make a function's first call, and a lazy binding walks the loader's
# scopes, which a dlclose() frees without waiting for such a thread.
RT_SRCS     = $(wildcard $(srcdir)/runtime/*.c)
RT_OBJS     = $(patsubst $(srcdir)/%.c,$(O)/obj/%.o,$(RT_SRCS))
RT_CFLAGS   = $(ALL_CFLAGS) -fPIC -fno-plt -fvisibility=hidden \
	      -fno-instrument-functions -fno-profile-arcs -pthread
RT_LIBS     = -pthread

# Every runtime object's code goes to one section, monprof_text, whose
# bounds the linker gives the runtime (__start_, __stop_): the samples
# of its own code are then known, and gmon.out leaves them out, as gprof
# would show its functions as the program's (a server's busiest backend
# had __mon_mcount_arc_rec_stub on top).  GCC's cold, startup and hot
# parts too, which the linker would otherwise place among the program's.
RT_SECTIONS = .text .text.unlikely .text.startup .text.hot .text.exit
OBJCOPY    ?= objcopy

$(O)/obj/runtime/%.o: $(srcdir)/runtime/%.c $(srcdir)/Makefile | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(RT_CFLAGS) -MMD -MP -MF $(@:.o=.d) -MT $@ -c -o $@.tmp $<
	$(OBJCOPY) $(RT_SECTIONS:%=--rename-section %=monprof_text) $@.tmp $@
	@rm -f $@.tmp

$(O)/libmonprof.a: $(RT_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

# The shared runtime, for -lmonprof and LD_PRELOAD: built as the
# specs file links the archive into an executable, by --wrap of the
# functions whose __real_ the runtime calls unconditionally (libc's,
# here), without stale.o, whose reference to a symbol nothing defines
# is for links that take it from the archive alone.  -z defs: a symbol
# left undefined would fail every program linked with -lmonprof.
SO_NAME     = libmonprof.so.$(SOVERSION)
SO_FILE     = libmonprof.so.$(VERSION)
SO_OBJS     = $(filter-out $(O)/obj/runtime/stale.o,$(RT_OBJS))
SO_WRAPS    = setns unshare timer_create mq_notify

$(O)/$(SO_FILE): $(SO_OBJS)
	$(CC) -shared -Wl,-soname,$(SO_NAME) -Wl,-z,defs \
	    $(SO_WRAPS:%=-Wl,--wrap=%) -o $@ $^ $(RT_LIBS) $(LDFLAGS)

# The links ldconfig and a -dev package make: the SONAME, which programs
# load, and libmonprof.so, which -lmonprof finds.
$(O)/$(SO_NAME): $(O)/$(SO_FILE)
	ln -sf $(SO_FILE) $@

$(O)/libmonprof.so: $(O)/$(SO_NAME)
	ln -sf $(SO_NAME) $@

# The runtime of a host that has none (null/null.c): every instrumented
# shared object needs it (the specs file names it by path), so that it
# loads where the program has no runtime; kept once loaded, as its
# thread-local storage is static.
NULL_LIB    = libmonprof-null.so

$(O)/$(NULL_LIB): $(srcdir)/null/null.c $(srcdir)/include/mon_abi.h | $(DEPS_STAMP)
	$(CC) $(ALL_CFLAGS) -fPIC -shared -Wl,-z,nodelete -o $@ $<

# ---------------------------------------------------------------- plugin
PLUGIN_SRCS = $(wildcard $(srcdir)/plugin/*.c)
PLUGIN_OBJS = $(patsubst $(srcdir)/%.c,$(O)/obj/%.o,$(PLUGIN_SRCS))
# The project's warnings that C++ knows; GCC's headers are system
# headers (their own warnings are not ours).  Only plugin_init and
# plugin_is_GPL_compatible are exported (GCC looks up nothing else).
PLUGIN_WARN = -Wall -Wextra -Wshadow -Wpointer-arith -Wformat=2 \
	      -Wmissing-declarations
ifeq ($(WERROR),1)
PLUGIN_WARN += -Werror
endif
PLUGIN_CXXFLAGS = -x c++ -std=gnu++11 -O2 -g -fPIC -fno-rtti -fno-exceptions \
	      -fasynchronous-unwind-tables -fvisibility=hidden $(PLUGIN_WARN) \
	      -isystem $(PLUGIN_INC) -I$(srcdir)/include -I$(srcdir)/plugin

$(O)/obj/plugin/%.o: $(srcdir)/plugin/%.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(PLUGIN_CXX) $(PLUGIN_CXXFLAGS) -MMD -MP -c -o $@ $<

$(O)/monprof.so: $(PLUGIN_OBJS)
	$(PLUGIN_CXX) -shared -o $@ $^

# The specs file names the build tree here; install writes one naming
# PREFIX.  The hooks it exports are the MON_*_NAME of mon_abi.h.
SPECS_EXPORTS = $(shell sed -n 's/^\#define[[:space:]]*MON_[A-Z0-9_]*_NAME[[:space:]]*"\([^"]*\)".*/--export-dynamic-symbol=\1/p' \
	      $(srcdir)/include/mon_abi.h)
comma := ,
# SFrame rows where the assembler writes them and the linker reads them
# (smaller and quicker to look up than .eh_frame, which the runtime
# reads otherwise, and no instruction in the code).  The probe links,
# -r and -shared, the rows of plugin/gsframe-probe.s, a shape GCC 12 -O2
# gives, on which binutils 2.40's ld aborts: a flag that breaks a build
# that works without it is never passed.
GSFRAME_OK := $(shell t=$$(mktemp -d) && \
	$(CC) -Wa,--gsframe -c -o $$t/a.o $(srcdir)/plugin/gsframe-probe.s \
	    2>/dev/null && $(CC) -r -nostdlib -o $$t/r.o $$t/a.o \
	    2>/dev/null && $(CC) -shared -nostdlib -o $$t/s.so $$t/a.o \
	    2>/dev/null && echo y; rm -rf $$t)
SPECS_UNWIND := $(if $(GSFRAME_OK),-Wa$(comma)--gsframe)
SPECS_SED   = -e 's|@EXPORTS@|$(SPECS_EXPORTS)|g' \
	      -e 's|@UNWIND@|$(SPECS_UNWIND)|g'

$(O)/monprof.specs: $(srcdir)/plugin/monprof.specs.in $(srcdir)/include/mon_abi.h \
    $(srcdir)/plugin/gsframe-probe.s
	@mkdir -p $(@D)
	sed -e 's|@PLUGIN@|$(ABS_O)/monprof.so|g' -e 's|@LIBDIR@|$(ABS_O)|g' \
	    -e 's|@NULL@|$(ABS_O)/$(NULL_LIB)|g' \
	    $(SPECS_SED) $< > $@


# ---------------------------------------------------------------- prof
# Source lines come from DWARF through libdw (elfutils, as libelf);
# --pprof's protobuf is encoded by protobuf-c, from prof/profile.proto,
# whose C code protoc-c generates into $(PROF_GEN) (never committed),
# and gzipped by zlib.
PROF_SRCS   = $(wildcard $(srcdir)/prof/*.c)
PROF_GEN    = $(O)/gen/prof
PROF_OBJS   = $(patsubst $(srcdir)/%.c,$(O)/obj/%.o,$(PROF_SRCS)) \
	      $(O)/obj/gen/prof/profile.pb-c.o $(O)/obj/gen/prof/runtime_syms.o
PROF_PKGS   = libdw libprotobuf-c zlib
PROTOC_C   ?= protoc-c
PROF_CFLAGS = $(ELF_CFLAGS) $(shell $(PKG_CONFIG) --cflags $(PROF_PKGS)) \
	      -I/usr/include/libiberty -I$(PROF_GEN) \
	      -DMONPROF_VERSION='"$(VERSION)"'
PROF_LIBS   = $(ELF_LIBS) $(shell $(PKG_CONFIG) --libs $(PROF_PKGS)) \
	      -liberty -lm

$(PROF_GEN)/%.pb-c.c $(PROF_GEN)/%.pb-c.h: $(srcdir)/prof/%.proto \
	    | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(PROTOC_C) --proto_path=$(srcdir)/prof --c_out=$(PROF_GEN) $<

$(O)/obj/prof/%.o: $(srcdir)/prof/%.c \
	    | $(DEPS_STAMP) $(PROF_GEN)/profile.pb-c.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(PROF_CFLAGS) -MMD -MP -c -o $@ $<

# The runtime's function symbols, so that prof knows the runtime linked
# into a program and never shows it: "file.c/name" for a static
# function, "/name" for the others, sorted as strcmp() sorts (symgroup.c).
$(PROF_GEN)/runtime_syms.c: $(RT_OBJS)
	@mkdir -p $(@D)
	{ echo '/* Generated by the Makefile from the runtime'"'"'s objects. */'; \
	  echo '#include <stddef.h>'; \
	  echo 'const char *const prof_runtime_syms[] = {'; \
	  $(NM) -A --defined-only $(RT_OBJS) | \
	    sed -n 's|^.*/\([^/:]*\)\.o:[0-9a-f]* \([tTWi]\) \(.*\)$$|\2 \1.c \3|p' | \
	    awk '{ f = $$1 == "t" ? $$2 : ""; n = $$3; \
		gsub(/\\/, "\\\\", n); gsub(/"/, "\\\"", n); \
		print "\t\"" f "/" n "\"," }' | LC_ALL=C sort -u; \
	  echo '};'; \
	  echo 'const size_t prof_runtime_nsyms = sizeof(prof_runtime_syms) /'; \
	  echo '    sizeof(prof_runtime_syms[0]);'; } > $@.tmp
	mv $@.tmp $@

# Kept, not removed as an intermediate file after the first build: the
# prof objects' dependency files name it, and a later make (the e2e
# cases' make install, several at once) would regenerate it and relink
# prof while other cases run it.
.SECONDARY: $(PROF_GEN)/profile.pb-c.h

# Generated code: not held to the project's warnings.
$(O)/obj/gen/prof/%.o: $(PROF_GEN)/%.c
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -g $(CPPFLAGS) $(CFLAGS) $(PROF_CFLAGS) -c -o $@ $<

# Runtime files prof links too, so that both read names alike: name.c
# (profile names, with fmt.c, which it calls) and match.c (object names).
PROF_RT     = $(patsubst %,$(O)/obj/runtime/%.o,name fmt match)

$(O)/prof: $(PROF_OBJS) $(PROF_RT)
	$(CC) -o $@ $^ $(PROF_LIBS) $(LDFLAGS)

# ---------------------------------------------------------------- all
ALL_TARGETS = $(O)/libmonprof.a $(O)/$(SO_FILE) $(O)/$(SO_NAME) \
	      $(O)/libmonprof.so $(O)/monprof.so \
	      $(O)/$(NULL_LIB) $(O)/monprof.specs
ifneq ($(PROF_SRCS),)
ALL_TARGETS += $(O)/prof
endif

all: $(ALL_TARGETS)

# ---------------------------------------------------------------- tests
# Unit tests: one Check suite per module, linked against the objects they
# test (hidden runtime symbols link statically).
UNIT_SRCS   = $(wildcard $(srcdir)/testsuite/unit/*.c)
UNIT_OBJS   = $(patsubst $(srcdir)/%.c,$(O)/obj/%.o,$(UNIT_SRCS))
PROF_LIBOBJS = $(filter-out $(O)/obj/prof/main.o,$(PROF_OBJS))

$(O)/obj/testsuite/unit/%.o: $(srcdir)/testsuite/unit/%.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) $(ELF_CFLAGS) -I$(srcdir)/runtime \
	    -I$(srcdir)/prof -MMD -MP -c -o $@ $<

$(O)/testsuite/unit/check_all: $(UNIT_OBJS) $(O)/libmonprof.a $(PROF_LIBOBJS)
	@mkdir -p $(@D)
	$(CC) -o $@ $(UNIT_OBJS) $(PROF_LIBOBJS) $(O)/libmonprof.a \
	    $(CHECK_LIBS) $(PROF_LIBS) -pthread

$(O)/testsuite/tools/%: $(srcdir)/testsuite/tools/%.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $<

TEST_TOOLS  = $(patsubst $(srcdir)/testsuite/tools/%.c,$(O)/testsuite/tools/%,\
	      $(wildcard $(srcdir)/testsuite/tools/*.c))

unit: $(O)/testsuite/unit/check_all
	$(O)/testsuite/unit/check_all

# make check -jN runs N cases at once.
E2E_JOBS   ?= $(or $(patsubst -j%,%,$(filter -j%,$(MAKEFLAGS))),1)

e2e: all $(TEST_TOOLS) | $(TEST_STAMP)
	CC="$(CC)" O="$(ABS_O)" SRCDIR="$(ABS_SRC)" E2E_JOBS="$(E2E_JOBS)" \
	    $(SHELL) $(srcdir)/testsuite/e2e/run.sh $(E2E)

# The layers of the runtime, the plugin and prof: no file calls a file
# above it, and prof's views read no file (DESIGN.md).
layers: $(RT_OBJS) $(PLUGIN_OBJS) $(PROF_OBJS)
	$(SHELL) $(srcdir)/testsuite/tools/layers.sh $(O)/obj/runtime \
	    $(srcdir)/runtime
	$(SHELL) $(srcdir)/testsuite/tools/plugin-layers.sh $(O)/obj/plugin \
	    $(srcdir)/plugin
	$(SHELL) $(srcdir)/testsuite/tools/prof-layers.sh $(O)/obj/prof \
	    $(srcdir)/prof

check: layers unit e2e

# Real open-source projects, fetched once as Debian source packages into
# $(O)/real/src, built by their own build systems plain, with -p and with
# -pg (about 20 minutes).  REAL="xz zstd" runs only those.
check-real: all $(TEST_TOOLS)
	CC="$(CC)" O="$(ABS_O)" SRCDIR="$(ABS_SRC)" \
	    $(SHELL) $(srcdir)/testsuite/real/run.sh $(REAL)

.PHONY: check-real

# Random programs (testsuite/tools/gencalls.c) built with -p, -pg and
# the reference counts, whose calls prof and gprof must count as the
# programs do (countcheck.sh): FUZZ_COUNTS_N seeds from
# FUZZ_COUNTS_SEED, as many at once as -j says (else one per CPU).  A
# failing program is kept in $(O)/fuzz-counts/fail-SEED with REPRO.
FUZZ_COUNTS_N    ?= 1000
FUZZ_COUNTS_SEED ?= 1
FUZZ_COUNTS_JOBS ?= $(or $(patsubst -j%,%,$(filter -j%,$(MAKEFLAGS))),\
		    $(shell nproc 2>/dev/null || echo 1))

fuzz-counts: all $(O)/testsuite/tools/gencalls
	CC="$(CC)" CXX="$(PLUGIN_CXX)" O="$(ABS_O)" \
	    $(SHELL) $(srcdir)/testsuite/tools/fuzz-counts.sh \
	    $(FUZZ_COUNTS_N) $(FUZZ_COUNTS_SEED) $(FUZZ_COUNTS_JOBS)

.PHONY: fuzz-counts

# ---------------------------------------------------------------- fuzz
# libFuzzer on prof's readers, clang only: fuzz_monread (mon.out),
# fuzz_symtab (ELF symbols and line tables, of the executable and of a
# shared object) and fuzz_gmonread (-pg's gmon.out); and on the
# runtime's -merge, which reads whatever file PROFDIR holds under the
# merged name (fuzz_merge).
# `make fuzz` runs each for FUZZ_TIME seconds, the ELF one from a small
# executable and shared object; e2e cases 307, 310 and 321 run them briefly
# when clang is present.
FUZZ_CC     ?= clang
FUZZ_TIME   ?= 60
FUZZ_TARGETS = monread symtab gmonread merge
FUZZ_PROF   = $(filter-out %/main.c,$(PROF_SRCS)) \
	      $(patsubst $(O)/obj/%.o,$(srcdir)/%.c,$(PROF_RT))
FUZZ_SEEDS  = $(O)/fuzz/corpus/symtab/exe $(O)/fuzz/corpus/symtab/lib.so

$(O)/fuzz/fuzz_%: $(srcdir)/testsuite/fuzz/fuzz_%.c $(FUZZ_PROF) \
	    $(wildcard $(srcdir)/prof/*.h) $(srcdir)/include/mon.h \
	    $(PROF_GEN)/profile.pb-c.c $(PROF_GEN)/runtime_syms.c
	@mkdir -p $(@D)
	$(FUZZ_CC) -g -O1 -fsanitize=fuzzer,address,undefined \
	    -fno-sanitize-recover=all -D_GNU_SOURCE -I$(srcdir)/include \
	    -I$(srcdir)/prof $(PROF_CFLAGS) -o $@ $< $(FUZZ_PROF) \
	    $(PROF_GEN)/profile.pb-c.c $(PROF_GEN)/runtime_syms.c $(PROF_LIBS)

# The runtime's -merge, on its own files: the writer, the environment and
# mapped.c's memory are stand-ins in the target.
FUZZ_MERGE  = $(patsubst %,$(srcdir)/runtime/%.c,merge gmonmerge name sort \
	      fmt)

$(O)/fuzz/fuzz_merge: $(srcdir)/testsuite/fuzz/fuzz_merge.c $(FUZZ_MERGE) \
	    $(wildcard $(srcdir)/runtime/*.h) $(srcdir)/include/mon.h
	@mkdir -p $(@D)
	$(FUZZ_CC) -g -O1 -fsanitize=fuzzer,address,undefined \
	    -fno-sanitize-recover=all -D_GNU_SOURCE -I$(srcdir)/include \
	    -I$(srcdir)/runtime -o $@ $< $(FUZZ_MERGE)

$(O)/fuzz/corpus/symtab/exe: $(srcdir)/testsuite/e2e/300-prof.c
	@mkdir -p $(@D)
	$(CC) -O0 -g -o $@ $<

$(O)/fuzz/corpus/symtab/lib.so: $(srcdir)/testsuite/e2e/300-prof.c
	@mkdir -p $(@D)
	$(CC) -O0 -g -shared -fPIC -Wl,--build-id -o $@ $<

fuzz: $(FUZZ_TARGETS:%=$(O)/fuzz/fuzz_%) $(FUZZ_SEEDS)
	@mkdir -p $(O)/fuzz/corpus/monread
	$(O)/fuzz/fuzz_monread -max_total_time=$(FUZZ_TIME) -max_len=4096 \
	    $(O)/fuzz/corpus/monread
	$(O)/fuzz/fuzz_symtab -max_total_time=$(FUZZ_TIME) -max_len=32768 \
	    -close_fd_mask=2 $(O)/fuzz/corpus/symtab
	@mkdir -p $(O)/fuzz/corpus/gmonread
	$(O)/fuzz/fuzz_gmonread -max_total_time=$(FUZZ_TIME) -max_len=4096 \
	    $(O)/fuzz/corpus/gmonread
	@mkdir -p $(O)/fuzz/corpus/merge
	$(O)/fuzz/fuzz_merge -max_total_time=$(FUZZ_TIME) -max_len=4096 \
	    $(O)/fuzz/corpus/merge

# ---------------------------------------------------------------- demo, bench
demo: all
	CC="$(CC)" O="$(ABS_O)" SRCDIR="$(ABS_SRC)" \
	    $(SHELL) $(srcdir)/testsuite/demo/demo.sh

bench: all $(TEST_TOOLS)
	CC="$(CC)" O="$(ABS_O)" SRCDIR="$(ABS_SRC)" \
	    $(SHELL) $(srcdir)/testsuite/bench/bench.sh

# ---------------------------------------------------------------- install
# Everything library-ish goes under LIBDIR (the multiarch directory on
# Debian), and every installed file that names a path names it there:
# the specs file, monprof.pc, the CMake package and the Meson native
# files, which are written here with PREFIX's and LIBDIR's paths.
D           = $(DESTDIR)
BINDIR      = $(PREFIX)/bin
INCLUDEDIR  = $(PREFIX)/include
MANDIR      = $(PREFIX)/share/man
PKGLIBDIR   = $(LIBDIR)/monprof
MESONDIR    = $(PKGLIBDIR)/meson
PCDIR       = $(LIBDIR)/pkgconfig
CMAKEDIR    = $(LIBDIR)/cmake/monprof
MAN1        = $(notdir $(wildcard $(srcdir)/man/*.1))
MAN3        = $(notdir $(wildcard $(srcdir)/man/*.3))
MAN3_LINKS  = $(if $(filter monitor.3,$(MAN3)),\
	      monstartup.3 moncontrol.3 monitor_signal.3 profil.3)
# monprof.pc names LIBDIR from ${prefix} where it lies below it, as
# pkg-config's --define-prefix expects.
PC_LIBDIR   = $(patsubst $(PREFIX)/%,$${prefix}/%,$(LIBDIR))
INST_SED    = -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' \
	      -e 's|@SOVERSION@|$(SOVERSION)|g' \
	      -e 's|@GCC_MAJOR@|$(GCC_MAJOR)|g'

# What install puts there, and uninstall removes, file by file.
INSTALLED   = $(if $(PROF_SRCS),$(BINDIR)/prof) \
	      $(addprefix $(LIBDIR)/,libmonprof.a $(SO_FILE) $(SO_NAME) \
	      libmonprof.so) \
	      $(addprefix $(PKGLIBDIR)/,monprof.so $(NULL_LIB) monprof.specs) \
	      $(MESONDIR)/monprof-p.ini $(MESONDIR)/monprof-pg.ini \
	      $(PCDIR)/monprof.pc $(CMAKEDIR)/monprofConfig.cmake \
	      $(CMAKEDIR)/monprofConfigVersion.cmake $(INCLUDEDIR)/mon.h \
	      $(addprefix $(MANDIR)/man1/,$(MAN1)) \
	      $(addprefix $(MANDIR)/man3/,$(MAN3) $(MAN3_LINKS))

install: all
	install -d $(D)$(LIBDIR) $(D)$(PKGLIBDIR) $(D)$(MESONDIR) \
	    $(D)$(PCDIR) $(D)$(CMAKEDIR) $(D)$(INCLUDEDIR) $(D)$(MANDIR)/man1 \
	    $(D)$(MANDIR)/man3 $(if $(PROF_SRCS),$(D)$(BINDIR))
	install -m 644 $(O)/libmonprof.a $(D)$(LIBDIR)/
	install -m 644 $(O)/$(SO_FILE) $(D)$(LIBDIR)/
	ln -sf $(SO_FILE) $(D)$(LIBDIR)/$(SO_NAME)
	ln -sf $(SO_NAME) $(D)$(LIBDIR)/libmonprof.so
	install -m 755 $(O)/monprof.so $(O)/$(NULL_LIB) $(D)$(PKGLIBDIR)/
	sed -e 's|@PLUGIN@|$(PKGLIBDIR)/monprof.so|g' \
	    -e 's|@LIBDIR@|$(LIBDIR)|g' \
	    -e 's|@NULL@|$(PKGLIBDIR)/$(NULL_LIB)|g' $(SPECS_SED) \
	    $(srcdir)/plugin/monprof.specs.in > $(D)$(PKGLIBDIR)/monprof.specs
	for f in p pg; do \
	    sed -e "s|@FLAG@|$$f|g" -e 's|@SPECS@|$(PKGLIBDIR)/monprof.specs|g' \
	    -e "s|@NATIVE@|$(MESONDIR)/monprof-$$f.ini|g" \
	    $(srcdir)/pkg/monprof.ini.in > $(D)$(MESONDIR)/monprof-$$f.ini; \
	    done
	sed $(INST_SED) -e 's|@LIBDIR@|$(PC_LIBDIR)|g' \
	    $(srcdir)/pkg/monprof.pc.in > $(D)$(PCDIR)/monprof.pc
	for f in monprofConfig monprofConfigVersion; do \
	    sed $(INST_SED) -e 's|@LIBDIR@|$(LIBDIR)|g' \
	    $(srcdir)/pkg/$$f.cmake.in > $(D)$(CMAKEDIR)/$$f.cmake; done
	install -m 644 $(srcdir)/include/mon.h $(D)$(INCLUDEDIR)/
	$(if $(PROF_SRCS),install -m 755 $(O)/prof $(D)$(BINDIR)/)
	$(if $(MAN1),install -m 644 $(addprefix $(srcdir)/man/,$(MAN1)) \
	    $(D)$(MANDIR)/man1/)
	$(if $(MAN3),install -m 644 $(addprefix $(srcdir)/man/,$(MAN3)) \
	    $(D)$(MANDIR)/man3/)
	for l in $(MAN3_LINKS); do ln -sf monitor.3 $(D)$(MANDIR)/man3/$$l; done

# Exactly the files install wrote (the same PREFIX, LIBDIR and DESTDIR),
# and the directories that are monprof's alone, once empty; the shared
# ones (bin, pkgconfig, man3, ...) stay.
uninstall:
	rm -f $(addprefix $(D),$(INSTALLED))
	rmdir $(D)$(MESONDIR) $(D)$(PKGLIBDIR) $(D)$(CMAKEDIR) 2>/dev/null || :

clean:
	rm -rf $(O)

-include $(wildcard $(O)/obj/*/*.d $(O)/obj/testsuite/unit/*.d)
