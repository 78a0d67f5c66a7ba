#!/usr/bin/env python3
"""Linux perf's own reader of vendor event JSON over the profiles' tables.

perf cannot load vendor JSON at run time: at build time its jevents.py
turns tools/perf/pmu-events/arch/ARCH/mapfile.csv and the JSON files
under it into C tables. This runs that script, from Debian's
linux-source-6.1 (the source is read from the package's tarball, never
copied here), on a tree holding the files profile_write_perf_json()
wrote for each profile, as perf's build would, and checks what it made:
every event with its name, description and code, in a table that the
mapfile row of the profile's core selects, and every metric (pmu-events'
metrics.json: MetricName, MetricExpr, MetricGroup, ScaleUnit,
BriefDescription) in that table. One PASS/FAIL line per check.

  perf_jevents.py TARBALL WORKDIR JSONDIR PROFILEDIR
"""
import json
import os
import re
import shutil
import subprocess
import sys

TOP = 'linux-source-6.1/tools/perf/pmu-events'
# (profile, directory under arch/riscv, the mapfile's id pattern or None
# for the profile's own id, which has no ERE metacharacters). u74:
# Linux's own row for the SiFive U74.
CORES = [('u74', 'sifive/u74', '0x489-0x8000000000000007-0x[[:xdigit:]]+'),
         ('virt', 'rvpmu/virt', None)]

failed = False


def report(ok, name, why=''):
    global failed
    failed |= not ok
    print(f'PASS profiles jevents {name}' if ok else f'FAIL profiles jevents {name}: {why}')


def extract(tarball, work):
    """jevents.py and its test arch (it wants one beside the real one)"""
    src = os.path.join(work, TOP)
    if not os.path.exists(os.path.join(src, 'jevents.py')):
        subprocess.run(['tar', '-xJf', tarball, '-C', work, '--wildcards',
                        f'{TOP}/jevents.py', f'{TOP}/arch/test/*'], check=True)
    return src


def cpuid(profile_dir, name):
    """perf's RISC-V cpuid: /proc/cpuinfo's mvendorid-marchid-mimpid, as
    Linux prints them (%#lx)"""
    with open(os.path.join(profile_dir, f'{name}.json')) as f:
        ids = json.load(f)['ids']
    return '-'.join(hex(int(ids[k], 0)) for k in ('mvendorid', 'marchid', 'mimpid'))


def fixdesc(s):
    """a description as perf's tables keep it: a final full stop dropped
    and quotes escaped"""
    for suffix in ('.  ', '. ', '.'):
        s = s[:-len(suffix)] if s.endswith(suffix) else s
    return s.replace('\n', '\\n').replace('"', '\\"').replace('\r', '\\r')


def posix_ere(pattern):
    """the mapfile's POSIX ERE (perf compiles it with regcomp) in Python's terms"""
    return pattern.replace('[[:xdigit:]]', '[0-9a-fA-F]')


def main():
    tarball, work, jsondir, profile_dir = sys.argv[1:5]
    if not os.path.exists(tarball):
        report(False, 'source', f'{tarball} missing (Debian package linux-source-6.1)')
        return
    os.makedirs(work, exist_ok=True)
    src = extract(tarball, work)
    tree = os.path.join(work, 'arch')
    shutil.rmtree(tree, ignore_errors=True)
    shutil.copytree(os.path.join(src, 'arch/test'), os.path.join(tree, 'test'))
    rows = ['Family-model,Version,Filename,EventType']
    events, metrics, ids = {}, {}, {}
    for name, sub, pattern in CORES:
        d = os.path.join(tree, 'riscv', sub)
        os.makedirs(d)
        shutil.copy(os.path.join(jsondir, f'{name}-events.json'), os.path.join(d, 'events.json'))
        shutil.copy(os.path.join(jsondir, f'{name}-metrics.json'), os.path.join(d, 'metrics.json'))
        with open(os.path.join(d, 'events.json')) as f:
            events[name] = json.load(f)
        with open(os.path.join(d, 'metrics.json')) as f:
            metrics[name] = json.load(f)
        ids[name] = cpuid(profile_dir, name)
        rows.append(f'{pattern or ids[name]},v1,{sub},core')
    with open(os.path.join(tree, 'riscv', 'mapfile.csv'), 'w') as f:
        f.write('\n'.join(rows) + '\n')
    out = os.path.join(work, 'pmu-events.c')
    r = subprocess.run([sys.executable, os.path.join(src, 'jevents.py'), 'riscv', tree, out],
                       capture_output=True, text=True)
    report(r.returncode == 0, 'run', ''.join((r.stdout + r.stderr).strip().splitlines()[-1:]))
    if r.returncode:
        return
    with open(out) as f:
        c = f.read()
    for name, sub, _ in CORES:
        table = 'pme_' + sub.replace('/', '_')
        body = re.search(r'static const struct compact_pmu_event ' + table + r'\[\] = \{\n(.*?)\n\};',
                         c, re.S)
        # each entry's comment: name, pmu, topic, desc, metric name and
        # group, event, then the rest, separated by \000
        # (a metric's: name empty, then its description, metric name and
        # group, its ScaleUnit at 11 and its expression at 13)
        made, made_m = {}, {}
        for m in re.finditer(r'/\* (.*?) \*/', body.group(1) if body else ''):
            f = m.group(1).split('\\000')
            if f[0]:
                made[f[0]] = (f[3], f[6])
            elif len(f) > 13 and f[4]:
                made_m[f[4]] = (f[3], f[5], f[11], f[13])
        bad = []
        for e in events[name]:
            code = int(e['EventCode'], 16)
            want = (fixdesc(e['BriefDescription']), f'event={hex(code) if code else 0}')
            if made.get(e['EventName'].lower()) != want:
                bad.append(f"{e['EventName']}: {made.get(e['EventName'].lower())} != {want}")
        report(body is not None and not bad and len(made) == len(events[name]),
               f'{name} events ({len(events[name])})',
               f'table {table} ' + ('missing' if body is None else f'{len(made)} entries; ' + '; '.join(bad[:3])))
        bad = []
        for e in metrics[name]:
            want = (fixdesc(e.get('BriefDescription', '')), e.get('MetricGroup', ''),
                    e.get('ScaleUnit', ''), e['MetricExpr'])
            if made_m.get(e['MetricName']) != want:
                bad.append(f"{e['MetricName']}: {made_m.get(e['MetricName'])} != {want}")
        report(body is not None and not bad and len(made_m) == len(metrics[name]),
               f'{name} metrics ({len(metrics[name])})',
               f'{len(made_m)} in table {table}; ' + '; '.join(bad[:3]))
        entry = re.search(r'\.cpuid = "(.*?)",\s*\.table = \{\s*\.entries = ' + table + ',', c)
        report(entry is not None and re.fullmatch(posix_ere(entry.group(1).replace('\\\\', '\\')),
                                                  ids[name]) is not None,
               f'{name} table selected', f'no mapping entry of {table} matches {ids[name]}')


if __name__ == '__main__':
    try:
        main()
    except Exception as err:   # a FAIL line, never a check lost to a traceback
        report(False, 'setup', f'{type(err).__name__}: {err}')
    sys.exit(1 if failed else 0)
