"""Debian source packages for the benchmarks (make calibrate, make bench-real):
`apt-get source` into a cache outside the repository, through a deb-src list
of its own made from the machine's deb lines (/etc/apt/sources.list and
/etc/apt/sources.list.d), so the machine's apt configuration is untouched.
Nothing fetched here is ever committed."""
import functools
import os
import re
import subprocess


def _apt(cache):
    """apt-get options for a private deb-src list under cache/apt; the
    directory sources unpack into"""
    etc, src = os.path.join(cache, "apt"), os.path.join(cache, "src")
    for d in ("lists/partial", "cache/archives/partial"):
        os.makedirs(os.path.join(etc, d), exist_ok=True)
    os.makedirs(src, exist_ok=True)
    lines, deb822 = [], []
    base = "/etc/apt/sources.list.d"
    for f in sorted(os.listdir(base)) if os.path.isdir(base) else []:
        text = open(os.path.join(base, f)).read()
        if f.endswith(".sources"):
            deb822.append(re.sub(r"^Types:\s*deb\s*$", "Types: deb-src", text, flags=re.M))
        elif f.endswith(".list"):
            lines += [l.replace("deb ", "deb-src ", 1) for l in text.splitlines()
                      if l.startswith("deb ")]
    if os.path.exists("/etc/apt/sources.list"):
        lines += [l.replace("deb ", "deb-src ", 1)
                  for l in open("/etc/apt/sources.list").read().splitlines()
                  if l.startswith("deb ")]
    parts = os.path.join(etc, "sources.list.d")
    os.makedirs(parts, exist_ok=True)
    open(os.path.join(parts, "deb-src.sources"), "w").write("\n\n".join(deb822))
    open(os.path.join(etc, "sources.list"), "w").write("\n".join(lines) + "\n")
    opts = ["-o", "Dir::Etc::sourcelist=" + os.path.join(etc, "sources.list"),
            "-o", "Dir::Etc::sourceparts=" + parts,
            "-o", "Dir::State::Lists=" + os.path.join(etc, "lists"),
            "-o", "Dir::Cache=" + os.path.join(etc, "cache"), "-o", "Debug::NoLocking=1"]
    return opts, src


def _vercmp(a, b):
    """Debian version order (dpkg --compare-versions)"""
    if a == b:
        return 0
    return -1 if subprocess.run(["dpkg", "--compare-versions", a, "lt", b]).returncode == 0 else 1


def fetch_source(pkg, cache):
    """the unpacked Debian source of pkg under cache/src/pkg (apt-get
    source once, then reused)"""
    opts, src = _apt(cache)
    tree = os.path.join(src, pkg)
    if os.path.isdir(tree):
        return tree
    stamp = os.path.join(cache, "apt", "updated")
    if not os.path.exists(stamp):
        subprocess.run(["apt-get", "-q"] + opts + ["update"], check=True, stdout=subprocess.DEVNULL)
        open(stamp, "w").close()
    # the newest version first; a mirror may lack it (a security update's
    # source, say), then the next one
    show = subprocess.run(["apt-cache"] + opts + ["showsrc", pkg], check=True,
                          capture_output=True, text=True).stdout
    versions = [l.split()[1] for l in show.splitlines() if l.startswith("Version:")]
    versions.sort(key=functools.cmp_to_key(_vercmp), reverse=True)
    for v in versions:
        r = subprocess.run(["apt-get", "-q"] + opts + ["source", "--download-only", pkg + "=" + v],
                           cwd=src, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if r.returncode == 0:
            break
    else:
        raise RuntimeError(f"apt-get source {pkg}: no version of {versions} could be fetched")
    dsc = [f for f in os.listdir(src) if f.startswith(pkg + "_" + v.split(":")[-1] + ".dsc")]
    subprocess.run(["dpkg-source", "-x", "--no-check", os.path.join(src, sorted(dsc)[-1]), tree],
                   check=True, stdout=subprocess.DEVNULL)
    return tree
