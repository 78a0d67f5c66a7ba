# rvpmu — see README.md. `make` builds build/rvpmu.
CC      ?= gcc
OPT     ?= -O2
CFLAGS  ?= $(OPT) -g
ALL_CFLAGS = $(CFLAGS) -std=gnu11 -Wall -Wextra -Werror -Iinclude -MMD -MP
LDLIBS  += -lelf -ldw -lfdt -ljansson -liberty -lm
BUILD   ?= build

SRC := $(wildcard src/*/*.c)
OBJ := $(SRC:%.c=$(BUILD)/obj/%.o)

.PHONY: all test asan demo bench bench-real bench-system calibrate setup clean fuzz nopmu
all: $(BUILD)/rvpmu

$(BUILD)/rvpmu: $(OBJ)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

setup:
	@scripts/setup.sh

# The whole suite; ends with the line "N passed, N failed".
test: setup
	@$(MAKE) --no-print-directory all
	@RVPMU=$(abspath $(BUILD)/rvpmu) BUILD=$(abspath $(BUILD)) tests/run.sh

# The same suite under AddressSanitizer and UBSan.
asan: setup
	@$(MAKE) --no-print-directory BUILD=build-asan \
	  CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" all
	@RVPMU=$(abspath build-asan/rvpmu) BUILD=$(abspath build-asan) \
	  TEST_LDFLAGS="-fsanitize=address,undefined" tests/run.sh

demo: setup
	@$(MAKE) --no-print-directory all
	@scripts/demo.sh

# The same sources with PMU counting compiled out: the bench's idle-PMU
# baseline (never used for anything else).
nopmu:
	@$(MAKE) --no-print-directory BUILD=build-nopmu CFLAGS="$(CFLAGS) -DRVPMU_NO_PMU" all

# Times the u74 models per retired-instruction kind (bench/model_cost.c).
$(BUILD)/model-cost: bench/model_cost.c $(filter-out $(BUILD)/obj/src/cli/%,$(OBJ))
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

bench: setup
	@$(MAKE) --no-print-directory all nopmu $(BUILD)/model-cost
	@bench/run.sh

# Real programs from Debian source packages against qemu-riscv64:
# bench/results-real.md (bench/real.py; several minutes).
bench-real: setup
	@$(MAKE) --no-print-directory all
	@python3 bench/real.py

# System mode against qemu-system-riscv64: the bench workloads bare metal
# and the Linux boot to init, without and with the models:
# bench/results-system.md (bench/system.py; several minutes).
bench-system: setup
	@$(MAKE) --no-print-directory all
	@python3 bench/system.py

# The U74 profiles against published silicon figures: writes
# docs/calibration.md (bench/calibrate.py; COREMARK_SRC=DIR adds CoreMark).
calibrate: setup
	@$(MAKE) --no-print-directory all
	@python3 bench/calibrate.py

# The libFuzzer targets, a minute each (needs clang): ELF loader, perf.data
# reader, event lists and core profiles, block translation against the
# step loop, the system-mode machine on any image, and system-mode code
# translated against the step loop.
fuzz:
	tests/fuzz/run.sh 60 && tests/fuzz/run_perfdata.sh 60 && tests/fuzz/run_spec.sh 60 && \
	  tests/fuzz/run_jit.sh 60 && tests/fuzz/run_system.sh 60 && tests/fuzz/run_sysjit.sh 60

clean:
	rm -rf build build-asan build-nopmu

-include $(OBJ:.o=.d)
