#!/usr/bin/env python3
"""Checks of rvpmu record against its own --trace (the retire-order list of
every instruction, with what each sampled counter gained from it, and the
samples taken). Prints one line: "ok DETAILS" and exits 0, or "bad WHY" and
exits 1.

  skid TRACE PERIOD SKID IPS
      Replays the counter: it starts at -PERIOD when armed (the start of the
      trace) and after each sample (the handler re-arms it); the instruction
      that brings the count since then to PERIOD overflows it. Each sample
      must come after at most SKID further instructions (exactly SKID is
      printed as the "exact" count), and its pc must be the next instruction
      the trace retires. IPS (one hex ip per line, from perf script) must be
      the trace's sample pcs in order.
  brstack TRACE BRSTACK KINDS DEPTH
      BRSTACK: perf script -F brstack, one sample per line. Each sample's
      stack must be, newest first, the last transfers of the trace's KINDS
      (letters of the trace's KIND column) before that sample: as many as
      the trace had, up to DEPTH.
"""
import sys


def read_trace(path):
    """Yields ('i', pc, len, kind, [counts]) and ('s', event, pc)."""
    with open(path) as f:
        for line in f:
            if line.startswith('i '):
                p = line.split()
                yield 'i', int(p[1], 16), int(p[2]), p[3], [int(x) for x in p[4:]]
            elif line.startswith('s '):
                p = line.split()
                yield 's', int(p[1]), int(p[2], 16)


def bad(why):
    print('bad', why)
    sys.exit(1)


def skid(trace, period, skid_max, ips_path):
    count, ovf_at, idx = 0, None, 0
    samples, next_pc_of, exact, dist = [], None, 0, {}
    for r in read_trace(trace):
        if r[0] == 'i':
            idx += 1
            if next_pc_of is not None:
                if r[1] != next_pc_of:
                    bad('sample pc %#x is not the next retired instruction (%#x)' % (next_pc_of, r[1]))
                next_pc_of = None
            if ovf_at is None:
                count += r[4][0]
                if count >= period:
                    ovf_at = idx
            elif idx - ovf_at > skid_max:
                bad('no sample within %d instructions of the overflow at instruction %d'
                    % (skid_max, ovf_at))
        else:
            if ovf_at is None:
                bad('sample %d at %#x without an overflow (count %d of %d)'
                    % (len(samples) + 1, r[2], count, period))
            k = idx - ovf_at  # instructions retired after the overflowing one
            dist[k] = dist.get(k, 0) + 1
            exact += k == skid_max
            samples.append(r[2])
            next_pc_of = r[2]
            count, ovf_at = 0, None
    with open(ips_path) as f:
        ips = [int(l.split()[0], 16) for l in f if l.strip()]
    if ips != samples:
        diff = next((i for i in range(min(len(ips), len(samples))) if ips[i] != samples[i]),
                    min(len(ips), len(samples)))
        bad('perf.data has %d samples, the trace %d; first difference at sample %d'
            % (len(ips), len(samples), diff + 1))
    if not samples:
        bad('no samples')
    print('ok %d samples, each %s instructions after the overflow; exact %d; perf.data = trace'
          % (len(samples), '/'.join('%d x%d' % (k, v) for k, v in sorted(dist.items())), exact))


def brstack(trace, brstack_path, kinds, depth):
    transfers, pending, stacks = [], None, []
    for r in read_trace(trace):
        if r[0] == 'i':
            if pending is not None:
                transfers.append((pending, r[1]))
                pending = None
            if r[3] in kinds:
                pending = r[1]
        else:
            if pending is not None:  # the sample pc is where it went
                transfers.append((pending, r[2]))
                pending = None
            stacks.append(len(transfers))
    with open(brstack_path) as f:
        got = [[tuple(int(x, 16) for x in e.split('/')[:2]) for e in l.split()] for l in f]
    if len(got) != len(stacks):
        bad('perf script lists %d samples, the trace %d' % (len(got), len(stacks)))
    total = 0
    for n, (upto, g) in enumerate(zip(stacks, got)):
        want = transfers[max(0, upto - depth):upto][::-1]
        if g != want:
            i = next((i for i in range(min(len(g), len(want))) if g[i] != want[i]), min(len(g), len(want)))
            bad('sample %d: %d records, the trace has %d; record %d is %s, the trace says %s'
                % (n + 1, len(g), len(want), i,
                   '%#x->%#x' % g[i] if i < len(g) else 'missing',
                   '%#x->%#x' % want[i] if i < len(want) else 'nothing'))
        total += len(g)
    if not total:
        bad('no branch records at all')
    print('ok %d samples, %d records, each stack the last transfers of the trace' % (len(got), total))


if __name__ == '__main__':
    a = sys.argv[1:]
    if a and a[0] == 'skid' and len(a) == 5:
        skid(a[1], int(a[2]), int(a[3]), a[4])
    elif a and a[0] == 'brstack' and len(a) == 5:
        brstack(a[1], a[2], a[3], int(a[4]))
    else:
        bad('usage: see the docstring')
