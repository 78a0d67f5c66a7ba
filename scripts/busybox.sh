#!/bin/sh
# Build a static riscv64 BusyBox from Debian's source package into
# build/busybox/busybox (tests/procs runs its shell when it is there).
# Debian's busybox package, with the default applets (defconfig), static;
# the tc applet is left out (it does not build against bookworm's kernel
# headers). Takes a few minutes on two cores. Usage: scripts/busybox.sh [BUILD]
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
out=$build/busybox
mkdir -p "$out/apt/lists/partial" "$out/src"
# a private deb-src list: the host's apt configuration stays as it is
echo "deb-src http://deb.debian.org/debian bookworm main" >"$out/apt/src.list"
apt="-o Dir::Etc::sourcelist=$out/apt/src.list -o Dir::Etc::sourceparts=- -o Dir::State::Lists=$out/apt/lists"
# shellcheck disable=SC2086
apt-get $apt update >/dev/null
cd "$out/src"
# shellcheck disable=SC2086
apt-get $apt source --download-only busybox >/dev/null 2>&1
tar xjf busybox_*.orig.tar.bz2
cd busybox-*/
make defconfig >/dev/null
sed -i 's/^# CONFIG_STATIC is not set/CONFIG_STATIC=y/; s/^CONFIG_TC=y/# CONFIG_TC is not set/' .config
make -j2 CROSS_COMPILE=riscv64-linux-gnu- >"$out/build.log" 2>&1
cp busybox "$out/busybox"
echo "$out/busybox"
