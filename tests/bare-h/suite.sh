#!/bin/sh
# Bare-metal tests of the hypervisor extension (docs/bare-tests.md): the
# H and VS CSRs, two-stage translation and guest-page faults, virtual
# instructions, HLV/HSV, delegation to HS and VS, and the PMU in VS/VU.
# They use tests/bare's runtime and run through tests/bare/suite.sh: on
# qemu-system-riscv64 (with H) and on rvpmu with the virt profile, whose
# core has H. QEMU 7.2's deviations from the spec are listed below, each
# with the value it gives; rvpmu must pass every check.
here=$(cd "$(dirname "$0")" && pwd)
BARE_SUITE=bare-h BARE_DIR=$here BARE_TESTS="h-csr h-vm h-pmu" \
BARE_QEMU_CPU="rv64,h=true,sscofpmf=true" BARE_PROFILE="--profile virt --no-uarch" \
BARE_DEVIATIONS=$(cat "$here/qemu-deviations") exec sh "$here/../bare/suite.sh"
