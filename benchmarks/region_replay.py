#!/usr/bin/env python3
"""Replays the allocations over all processes of one run against the kept-region
rule of src/gmr/gmr_recycle.c, for several slice granularities, and prints how
many windows each would have made.

Input: the stderr of a run with ARMCI_VERBOSE=2 (every process logs each
ARMCI_Malloc and each free of a region over all processes, in call order; the
i-th such line of every process belongs to the same collective call).

usage: benchmarks/region_replay.py LOG [GRAIN...]   (GRAIN in bytes; default 1 16 256 1024 4096)

The replay follows the library's rule: a request takes the kept region of the
fewest bytes whose every slice holds the member's request, if those bytes are
at most twice the request's plus 64 KiB; otherwise it makes a window, whose
slices are the requests rounded up to GRAIN.  A freed region goes back to the
kept list (the cache's byte and count limits are left out: the log says when
a region was freed instead of kept, and such runs are reported).  Which live
region a free releases is known only by its slice sizes; among equal ones
the replay takes the oldest.  Prints, per grain, the windows made and the
most regions in use at once.
"""
import re
import sys

LINE = re.compile(r'^\[(\d+)\] ARMCI: (ARMCI_Malloc: )?region of (\d+) ranks, (\d+) bytes here, (.*)$')
SLACK = 65536


def read_events(path):
    per_rank = {}
    freed_not_kept = 0
    with open(path, errors='replace') as f:
        lines = [m for m in (LINE.match(l.rstrip('\n')) for l in f) if m]
    nranks = max((int(m.group(3)) for m in lines), default=0)  # regions over all processes
    for m in lines:
        rank, size, rest = int(m.group(1)), int(m.group(4)), m.group(5)
        if int(m.group(3)) != nranks:
            continue  # a group region: not kept by the library
        if m.group(2):
            per_rank.setdefault(rank, []).append(('alloc', size))
        elif rest.startswith('kept') or rest.startswith('freed'):
            per_rank.setdefault(rank, []).append(('free', size))
            freed_not_kept += rank == 0 and rest.startswith('freed')
    if not per_rank or sorted(per_rank) != list(range(nranks)):
        sys.exit('region_replay: %s: no ARMCI_VERBOSE=2 lines from every rank' % path)
    n = min(len(v) for v in per_rank.values())
    events = []
    for i in range(n):
        kinds = {per_rank[r][i][0] for r in range(nranks)}
        if len(kinds) != 1:
            sys.exit('region_replay: event %d: the ranks disagree (%s)' % (i, sorted(kinds)))
        events.append((kinds.pop(), tuple(per_rank[r][i][1] for r in range(nranks))))
    return events, freed_not_kept


def replay(events, grain):
    kept, live = [], []
    made = peak = 0
    for kind, sizes in events:
        if max(sizes) == 0:
            continue  # no region at all (every slice empty)
        if kind == 'alloc':
            want = sum(sizes)
            best = None
            for i, caps in enumerate(kept):
                if all(s <= c for s, c in zip(sizes, caps)) and sum(caps) <= 2 * want + SLACK:
                    if best is None or sum(caps) < sum(kept[best]):
                        best = i
            if best is None:
                made += 1
                caps = tuple((s + grain - 1) // grain * grain for s in sizes)
            else:
                caps = kept.pop(best)
            live.append((sizes, caps))
            peak = max(peak, len(live))
        else:
            for i, (s, caps) in enumerate(live):
                if s == sizes:
                    kept.append(live.pop(i)[1])
                    break
    return made, peak


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    grains = [int(g) for g in sys.argv[2:]] or [1, 16, 256, 1024, 4096]
    events, freed = read_events(sys.argv[1])
    count = {k: sum(1 for e, s in events if e == k and max(s) > 0) for k in ('alloc', 'free')}
    print('%s: %d allocations over all %d processes, %d frees%s' % (
        sys.argv[1], count['alloc'], len(events[0][1]), count['free'],
        '; %d regions freed instead of kept (cache full): the replay keeps them' % freed
        if freed else ''))
    for g in grains:
        made, peak = replay(events, g)
        print('grain %6d bytes: %5d windows made, at most %d regions in use at once' % (g, made, peak))


if __name__ == '__main__':
    main()
