#!/bin/sh
# Bare-metal tests of the AIA's hart-local CSRs without an IMSIC (Smaia/
# Ssaia v1.0; docs/bare-tests.md): mtopi/stopi/vstopi, mvien/mvip,
# hvien/hvip/hvictl/hviprio, the iprio windows, LCOFI injected into VS
# through hvien/hvip and delegated to it by hideleg, and the illegal and
# virtual-instruction cases. They use tests/bare's runtime and run through
# tests/bare/suite.sh: on qemu-system-riscv64 with H and x-smaia/x-ssaia
# (no IMSIC: the machine's default aia=none), and on rvpmu with the virt
# profile. QEMU 7.2's deviations from the spec are listed in
# qemu-deviations, each with the value it gives; rvpmu must pass every check.
here=$(cd "$(dirname "$0")" && pwd)
BARE_SUITE=bare-aia BARE_DIR=$here BARE_TESTS="aia-csr aia-vs" \
BARE_QEMU_CPU="rv64,h=true,sscofpmf=true,x-smaia=true,x-ssaia=true" \
BARE_PROFILE="--profile virt --no-uarch" \
BARE_DEVIATIONS=$(cat "$here/qemu-deviations") exec sh "$here/../bare/suite.sh"
