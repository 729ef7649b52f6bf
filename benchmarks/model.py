#!/usr/bin/env python3
"""The cost of NWChem across nodes from per-class costs (issue 56 item 4).

A test's time over N nodes is its one-node time plus, for every operation
class, the operations that now cross a node boundary times what crossing
adds to one, plus what the task counter's self-scheduling adds:

    T(cfg) = T_on + comp * (share(cfg) - 1)
             + sum_c n_c * f_c(cfg) * (cost_c(cfg) - cost_c(on)) + counter(cfg)
             + n_bar * (bar(cfg) - bar(on))

  T_on      the test's measured time on one node (the median of config
            armci:on in MEASURED; it holds launch and start-up too), or its
            profile's wall time where MEASURED has no armci:on;
  n_c       operations of class c (get, put, acc, noncontiguous) per
            process, from the test's one-node profile
            (tools/apps/nwchem-profile.sh, mode on);
  f_c(cfg)  the share of them that take the MPI path (or a ghost) to
            another node: those whose target is another process (1 - s_c,
            s_c the class's share aimed at the process itself, counted by
            the profile's "where" lines; 1/P without them) on another node,
            (P - k) / (P - 1) of them with P processes in nodes of k and the
            other targets equally likely.  Accumulates of the plain build
            take the MPI path wherever their target, its own process's
            included: the library sends every atomic operation on a region
            that spans nodes through one path, so that MPI keeps them atomic
            (docs/architecture.md, ARMCI_Acc).  The ghost build's node
            members and ghosts share the node's memory and apply atomics
            with the CPU, so only those aimed at another node cross;
  cost_c    one operation of class c with every process issuing at once
            (benchmarks/ga/ga_classes.c through benchmarks/ga/ga-vnodes.sh),
            in the configuration and on one node, at the size nearest the
            test's mean bytes per operation;
  counter   NWChem hands out tasks by a fetch-and-add on one counter: each
            process takes its next task when it finishes one, so one that
            pays less per add takes more tasks.  With w the work per task on
            one node (a process's busy time there, less its adds, over its
            adds) and c_i what process i pays per add (read_inc of
            ga_classes: in the plain build every process pays the
            configuration's cost; in the ghost build the k processes of the
            counter's node pay the one-node cost and the others the
            configuration's), the P * n_rmw tasks take
            P * n_rmw / sum_i 1 / (w + c_i), against n_rmw * (w + c_on) on
            one node;
  n_bar, bar  barriers per process (the profile's no-data lines for
            armci_msg_barrier and ARMCI_Barrier: GA_Sync's) and what one
            costs in the configuration and on one node (bench_barrier's
            armci row, given with --barrier-us; without it, no term).  Where
            waits yield the world's barrier meets in node-shared memory and
            only the nodes' first processes go through MPI, so one node
            pays less than any layout of several nodes;
  comp      the test's computation per process on one node (its profile);
  share(cfg)  what computing costs when a node's processes outnumber its
            cores.  Progress ranks and spinning processes take a full
            share: (processes launched) / (computing processes) on a host
            with fewer cores than processes, 1 where every process has a
            core.  Ghosts nap while idle, so they take only the work of
            serving: 1 + (messages the ghosts serve) * (a small accumulate's
            ghost-path cost) / (P * comp), capped at the full share.

Then the same tests on a cluster of N nodes of C processes each (strong
scaling: the problem, and so the total of each class over all processes,
stays what it was here): the data messages and bytes each node sends to
other nodes (operations aimed at another process, (NC - C) / (NC - 1) of
them off the node), and the fetch-and-adds that reach the node holding the task
counter, with the time that node needs to serve them one after another at
the measured cost of one (a floor under the run time however many nodes
compute).

Not modelled (docs/performance.md, "How the cost grows with nodes"):
waiting for targets that compute longer than ga_classes' targets do (they
all issue at once); strided transfers that one node carries out whole and
other nodes by segment (check_offnode shows it); tasks of unequal work
(the counter term takes them all at their mean); creating and freeing
arrays, which costs the ghost build more.

usage: benchmarks/model.py PROFILE COSTS MEASURED [--cores=C] [--ppn-cluster=C] [--where=W]
                           [--barrier-us=on:US,vn2:US,vn1:US,...]
  PROFILE   tools/apps/nwchem-profile.sh output (needs mode on)
  COSTS     benchmarks/ga/ga-vnodes.sh results (rows of ga_classes)
  MEASURED  tools/apps/nwchem-compare.sh raw file (round config test status s)
  W         another profile whose mode-on "where" lines give the shares
            aimed at self (the shares are the test's, not the host's: a
            profile from a day of other host speed serves); PROFILE's own
            where lines without it.  The vn2/vn1 where lines of W (or of
            PROFILE) check the off-node counts the shares predict.
  US        microseconds per ARMCI_Barrier in each cost column (on, vn2,
            vn1, ghost-vn2, ghost-vn1; on required), from
            benchmarks/bench_barrier in the same MPI and layouts; a column
            left out gets no barrier term.
Prints the prediction against the measurement per test and configuration,
the sums, the largest error, and the cluster projection.
"""
import math
import re
import sys
from collections import defaultdict

P = 4  # computing processes in the measured runs
CONFIGS = {  # nwchem-compare config: (cost column, node size k, processes launched)
    "armci:vn2": ("vn2", 2, 4),
    "armci:vn1": ("vn1", 1, 4),
    "armci:ghost-on-vn2": ("ghost-vn2", 2, 6),
    "armci:ghost-on-vn1": ("ghost-vn1", 1, 8),
}
CLASS_ROW = {"get": "get", "acc": "acc", "put": "put", "noncontig": "get_2d"}
BARRIER_CALLS = ("armci_msg_barrier", "ARMCI_Barrier")  # the profile's no-data names


def median(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def read_profile(path, mode="on"):
    """{test: {"comp": s, "comm": s, "wall": s, "ops": {cls: per process},
    "bytes": {cls: mean}, "self": {cls: share to self}, "off": {cls: ops to
    other nodes, all processes}}} of one mode's rows"""
    prof = {}
    for line in open(path):
        w = line.split()
        if not w or w[0].startswith("#") or w[0] != mode:
            continue
        t = prof.setdefault(w[1], {"ops": {}, "bytes": {}, "self": {}, "off": {}, "time": {}})
        if w[2] == "wall":
            t["wall"], t["comm"], t["comp"] = float(w[3]), float(w[5]), float(w[7])
        elif w[2] == "class":
            cls, ops, nbytes = w[3], float(w[5]), float(w[7])
            t["ops"][cls] = ops / P
            t["bytes"][cls] = nbytes / ops if ops else 0
            t["time"][cls] = float(w[w.index("T") + 1]) if "T" in w else 0.0
        elif w[2] == "where":
            n = float(w[5]) + float(w[7]) + float(w[9])
            t["self"][w[3]] = float(w[5]) / n if n else 1.0 / P
            t["off"][w[3]] = float(w[9])
        elif w[2] == "nodata" and w[3] in BARRIER_CALLS:
            t["barriers"] = t.get("barriers", 0.0) + float(w[5]) / P
    return prof


def to_others(t, cls):
    """1 - s_c: the share of a class's operations aimed at another process
    (every target equally likely without a where line)."""
    return 1 - t["self"].get(cls, 1.0 / P)


def offnode_share(t, cls, k, ghosts=False):
    """f above: the share of a class's operations that pay the MPI path's
    cost across nodes of k processes."""
    if k >= P:
        return 0.0
    if cls in ("acc", "rmw") and not ghosts:
        return 1.0
    return to_others(t, cls) * (P - k) / (P - 1)


def read_costs(path):
    """{column: {(kernel, size): seconds}} from a ga-compare table."""
    costs, cols = defaultdict(dict), None
    for line in open(path):
        w = line.split()
        if not w or line.startswith("#"):
            continue
        if w[0] == "procs":
            cols = [c[:-2] for c in w[3:] if c.endswith("_s")]
            continue
        if cols and w[1] in ("read_inc", "get", "acc", "put", "get_2d", "acc_2d"):
            for c, v in zip(cols, w[3:3 + len(cols)]):
                if v != "-":
                    costs[c][(w[1], int(w[2]))] = float(v)
    return costs


def read_measured(path):
    runs = defaultdict(list)
    for line in open(path):
        w = line.split()
        if len(w) == 5 and w[3] == "pass":
            runs[(w[2], w[1])].append(float(w[4]))
    return {k: median(v) for k, v in runs.items()}


def cost(costs, col, kernel, nbytes):
    sizes = [s for (k, s) in costs[col] if k == kernel]
    if not sizes:
        return 0.0
    s = min(sizes, key=lambda x: abs(math.log(max(x, 1)) - math.log(max(nbytes, 1))))
    return costs[col][(kernel, s)]


def counter_rates(t, costs, col, k, ghosts):
    """Self-scheduling on one task counter: every process takes its next
    task with a fetch-and-add, so a process that pays less per add takes
    more of the tasks.  Returns (w, [c_i], near): the work per task on one
    node (a process's busy time there, less its adds, over its adds), what
    one add costs each process in column col, and how many of them (the
    first) add on the counter's node.  The counter lives on one
    process; with ghosts the k processes of its node add with CPU atomics
    (its one-node cost), the others through a ghost; without, every add
    takes the MPI path."""
    n = t["ops"].get("rmw", 0.0)
    if not n:
        return 0.0, [], 0
    w = max(0.0, t["comp"] + t["comm"] - t["time"].get("rmw", 0.0)) / n
    c_on, c_cfg = cost(costs, "on", "read_inc", 1), cost(costs, col, "read_inc", 1)
    near = min(k, P) if ghosts else 0
    return w, [c_on] * near + [c_cfg] * (P - near), near


def counter_extra(t, costs, col, k, ghosts):
    """What the counter-driven part gains over one node: the P * n tasks at
    the processes' combined rate against n tasks each at the one-node
    rate; and how many adds reach a ghost (those of the processes off the
    counter's node, in the ghost build)."""
    w, c, near = counter_rates(t, costs, col, k, ghosts)
    if not c:
        return 0.0, 0.0
    n = t["ops"]["rmw"]
    rates = [1.0 / (w + ci) for ci in c]
    far = sum(rates[near:]) if ghosts else 0.0
    t_cfg = P * n / sum(rates)
    return t_cfg - n * (w + cost(costs, "on", "read_inc", 1)), P * n * far / sum(rates)


def read_barriers(arg):
    """{cost column: seconds per barrier} from "on:8.0,vn2:21.2,..." (us)."""
    out = {}
    for item in arg.split(","):
        col, _, us = item.partition(":")
        try:
            out[col.strip()] = float(us) * 1e-6
        except ValueError:
            sys.exit("model.py: --barrier-us wants COLUMN:MICROSECONDS,... (got %r)" % item)
    if "on" not in out:
        sys.exit("model.py: --barrier-us needs the one-node cost (on:US)")
    return out


def predict(t, costs, cfg, cores, t_on, barriers=None):
    col, k, launched = CONFIGS[cfg]
    ghosts = col.startswith("ghost")
    extra, served = counter_extra(t, costs, col, k, ghosts)
    if barriers and col in barriers:
        extra += t.get("barriers", 0.0) * (barriers[col] - barriers["on"])
    for cls, n in t["ops"].items():
        if cls not in CLASS_ROW:
            continue
        kern, nb = CLASS_ROW[cls], t["bytes"].get(cls, 8)
        f = offnode_share(t, cls, k, ghosts)
        extra += n * f * max(0.0, cost(costs, col, kern, nb) - cost(costs, "on", kern, nb))
        if cls in ("acc", "put"):
            served += P * n * f
    share = 1.0
    if launched > cores and not ghosts:
        share = launched / P
    elif launched > cores and t["comp"] > 0:
        # Ghosts nap while idle: what they take from the users' cores is
        # the work of serving, at most a small accumulate's ghost-path cost
        # (every process issuing at once) per message served.
        share = min(launched / P, 1.0 + served * cost(costs, col, "acc", 32) / (P * t["comp"]))
    base = t_on if t_on is not None else t["wall"]
    return base + t["comp"] * (share - 1) + extra


def projection(prof, costs, cores_per_node, col):
    """Per-node data messages and bytes to other nodes, and the counter
    node's load, on N nodes, for the whole problem (totals over processes)."""
    out = []
    tot_ops = defaultdict(float)
    tot_bytes = defaultdict(float)
    for t in prof.values():
        for cls, n in t["ops"].items():
            if cls == "rmw":  # the counter's: from other nodes (nodes - 1) / nodes of them
                tot_ops[cls] += n * P
                continue
            other = n * P * to_others(t, cls)
            tot_ops[cls] += other
            tot_bytes[cls] += other * t["bytes"].get(cls, 0)
    c_rmw = cost(costs, col, "read_inc", 1)
    for nodes in (16, 64, 1024):
        procs = nodes * cores_per_node
        f = (procs - cores_per_node) / (procs - 1)  # another process is on another node
        msgs = f / nodes * sum(v for c, v in tot_ops.items() if c != "rmw")
        byts = f / nodes * sum(v for c, v in tot_bytes.items() if c != "rmw")
        rmw_in = (nodes - 1) / nodes * tot_ops.get("rmw", 0)  # at the counter's node
        out.append((nodes, procs, msgs, byts, rmw_in, rmw_in * c_rmw))
    return out


def check_offnode(prof, path):
    """Operations to other nodes that the self shares and equally likely
    other targets predict, against the profiler's count in each virtual
    node mode of path, per transfer class (the model charges every atomic
    operation the MPI path whatever its target).  A count above the
    prediction means operations that one node carries out whole and other
    nodes in pieces (strided transfers by segment)."""
    for mode, k in (("vn2", 2), ("vn1", 1)):
        seen = read_profile(path, mode)
        for cls in ("put", "get", "noncontig"):
            pred = cnt = 0.0
            for name, t in seen.items():
                if name in prof and cls in t["off"] and cls in prof[name]["ops"]:
                    pred += P * prof[name]["ops"][cls] * offnode_share(prof[name], cls, k)
                    cnt += t["off"][cls]
            if cnt:
                print("# %s %-9s ops to other nodes: predicted %.4g, counted %.4g (%+.0f%%)"
                      % (mode, cls, pred, cnt, 100 * (pred - cnt) / cnt))


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    opts = dict(a[2:].split("=", 1) for a in argv[1:] if a.startswith("--") and "=" in a)
    if len(args) != 3:
        sys.exit(__doc__)
    cores = int(opts.get("cores", "2"))
    cluster_ppn = int(opts.get("ppn-cluster", "16"))
    prof, costs, meas = read_profile(args[0]), read_costs(args[1]), read_measured(args[2])
    barriers = read_barriers(opts["barrier-us"]) if "barrier-us" in opts else None
    if "where" in opts:
        for name, t in read_profile(opts["where"]).items():
            if name in prof and t["self"]:
                prof[name]["self"] = t["self"]
    # the configurations MEASURED ran (MPICH's 15-test run has no ghost-on)
    configs = [c for c in CONFIGS if any(k[1] == c for k in meas)]
    if not configs:
        sys.exit("model.py: %s has none of the configurations %s" % (args[2], ", ".join(CONFIGS)))
    tests = [t for t in prof if all((t, c) in meas for c in configs)]
    print("# benchmarks/model.py %s" % " ".join(argv[1:]))
    print("# seconds: measured (median) / predicted, and the error of the prediction")
    if barriers:
        print("# barrier term: " + ", ".join("%s %.1f us" % (c, 1e6 * v) for c, v in barriers.items()))
    hdr = "%-18s" % "test" + "".join(" %26s" % c for c in configs)
    print(hdr)
    sums = defaultdict(lambda: [0.0, 0.0])
    worst = (0.0, "")
    for t in tests:
        line = "%-18s" % t
        for c in configs:
            m, p = meas[(t, c)], predict(prof[t], costs, c, cores, meas.get((t, "armci:on")),
                                         barriers)
            e = (p - m) / m
            sums[c][0] += m
            sums[c][1] += p
            if abs(e) > abs(worst[0]):
                worst = (e, "%s %s" % (t, c))
            line += " %9.1f / %6.1f (%+4.0f%%)" % (m, p, 100 * e)
        print(line)
    line = "%-18s" % ("sum (%d tests)" % len(tests))
    for c in configs:
        m, p = sums[c]
        line += " %9.1f / %6.1f (%+4.0f%%)" % (m, p, 100 * (p - m) / m)
    print(line)
    print("# largest error: %+.0f%% (%s)" % (100 * worst[0], worst[1]))
    check_offnode(prof, opts.get("where", args[0]))
    for col in ("vn1", "ghost-vn1"):
        if col not in costs:
            continue
        print("# projection, the same tests on N nodes of %d processes (strong scaling),"
              " a fetch-and-add costing what it cost in %s:" % (cluster_ppn, col))
        print("# nodes procs  msgs/node(data)  bytes/node(data)  counter-node RMW in  its serial time s")
        for nodes, procs, msgs, byts, rmw_in, rmw_s in projection(prof, costs, cluster_ppn, col):
            print("  %5d %6d %16.3g %17.3g %20.3g %18.3g" % (nodes, procs, msgs, byts, rmw_in, rmw_s))


if __name__ == "__main__":
    main(sys.argv)
