#!/bin/sh
# The ghost layer's wrapper lists agree: every Fortran entry of
# src/ghost/ghost_fortran.def is the binding of a C entry of
# ghost_pmpi.def (same name, the C arguments plus ierror, communicators at
# the same places) and every C entry has one; the counts in ghost_pmpi.c's
# header and in docs/progress.md are the lists' counts; in a ghost build the
# shared library exports every wrapper (nm -D) and no MPI_/mpi_ symbol
# beyond them.
top=${TESTS_SRCDIR:-tests}/..
lib=${TESTS_BUILDDIR:-tests}/../.libs/libarmci.so
command -v python3 >/dev/null || { echo "SKIP test_ghost_defs: no python3"; exit 77; }
exports=""
. "${TESTS_SRCDIR:-tests}/build_facts.sh"
if ghost_build && [ -f "$lib" ]; then
    exports=$(mktemp)
    trap 'rm -f "$exports"' EXIT
    nm -D --defined-only "$lib" | awk '$2 == "T" {print $3}' >"$exports"
fi
python3 - "$top" "$exports" <<'EOF'
import re, sys
top, exports = sys.argv[1], sys.argv[2]
HAND = ["Init", "Init_thread", "Finalize", "Abort", "Comm_free", "Comm_get_attr", "Attr_get"]
errs = []

def split_top(s):
    """Split s at commas outside parentheses."""
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch == "," and depth == 0:
            out.append(cur.strip()); cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    return out + [cur.strip()] if cur.strip() else out

def entries(text, macro):
    """Bodies of macro(...) invocations at line starts, comments removed."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    for m in re.finditer(r"^%s\(" % macro, text, re.M):
        depth, i = 1, m.end()
        while depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        yield split_top(text[m.end():i - 1])

cdef = {}
for name, params, args in entries(open(top + "/src/ghost/ghost_pmpi.def").read(), "CW"):
    p, a = split_top(params.strip()[1:-1]), split_top(args.strip()[1:-1])
    if len(p) != len(a):
        errs.append("C %s: %d parameters, %d arguments" % (name, len(p), len(a)))
    comms = [i + 1 for i, x in enumerate(a) if x.startswith("W(")]
    if not comms:
        errs.append("C %s: no communicator marked W()" % name)
    if name in cdef:
        errs.append("C %s listed twice" % name)
    cdef[name] = (len(a), comms)

ftext = open(top + "/src/ghost/ghost_fortran.def").read()
fdef = {}
for macro in ("FW", "FW2"):
    for e in entries(ftext, macro):
        fdef[e[0]] = (int(e[1]), [int(x) for x in e[2:-1]])
byname = {n.lower(): n for n in cdef}
for f, (nargs, comms) in fdef.items():
    c = byname.get(f)
    if not c:
        errs.append("Fortran %s: no C entry" % f)
    elif (nargs, comms) != (cdef[c][0] + 1, cdef[c][1]):
        errs.append("Fortran %s: %d args, comm at %s; C %s: %d args, comm at %s"
                    % (f, nargs, comms, c, cdef[c][0], cdef[c][1]))
for c in cdef:
    if c.lower() not in fdef:
        errs.append("C %s: no Fortran entry" % c)

nc, nf, total = len(cdef), len(fdef), len(cdef) + len(HAND)
head = open(top + "/src/ghost/ghost_pmpi.c").read()
for want in ("%d functions in all" % total, "%d generated from the one list" % nc,
             "%d hand-written" % len(HAND)):
    if want not in head:
        errs.append("ghost_pmpi.c header does not say '%s'" % want)
doc = " ".join(open(top + "/docs/progress.md").read().split())
for want in ("wraps %d C functions (%d generated" % (total, nc),
             "and %d Fortran entry points (%d generated" % (nf + len(HAND), nf)):
    if want not in doc:
        errs.append("docs/progress.md does not say '%s'" % want)

if exports:
    have = set(open(exports).read().split())
    want = {"MPI_" + n for n in list(cdef) + HAND}
    want |= {"mpi_%s_" % n.lower() for n in list(fdef) + HAND}
    for s in sorted(want - have):
        errs.append("not exported: " + s)
    for s in sorted(x for x in have - want if re.match(r"(MPI_|mpi_)", x)):
        errs.append("exported but not listed: " + s)

for e in errs:
    print(e)
print("%s test_ghost_defs (%d C, %d Fortran wrappers%s)"
      % ("FAIL" if errs else "PASS", total, nf + len(HAND), ", exports checked" if exports else ""))
sys.exit(1 if errs else 0)
EOF
