#!/bin/sh
# Install the Debian packages rvpmu needs, when any is missing.
set -e
PKGS="gcc make gcc-riscv64-linux-gnu g++-riscv64-linux-gnu libc6-dev-riscv64-cross binutils-riscv64-linux-gnu
gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf qemu-user qemu-system-misc opensbi
libelf-dev libdw-dev libiberty-dev libfdt-dev libjansson-dev device-tree-compiler linux-perf python3
chromium linux-source-6.1 cpio dpkg-dev tcl"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "setup: installing$missing" >&2
if [ "$(id -u)" != 0 ]; then
	echo "setup: need root to install:$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends $missing >/dev/null
