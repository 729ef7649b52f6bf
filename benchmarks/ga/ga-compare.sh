#!/bin/sh
# ga-compare.sh - the GA-level benchmarks of benchmarks/ga (ga_scf, ga_patch,
# ga_irreg, ga_classes) side by side on several Global Arrays runtimes.
#
# Each runtime is a GA installation (PREFIX/include/ga.h, PREFIX/lib/libga.a)
# built from one GA source tree by tools/apps/ga.sh: over this library
# (GA --with-armci=ARMCI_PREFIX; plain and ghost-progress builds), over
# another ARMCI (e.g. pmodels/armci-mpi built from source, the same way), or
# on GA's own runtimes (--with-mpi-ts, --with-mpi-pr: their libarmci is in
# PREFIX/lib).  The script compiles the three programs against each install
# with the MPI C compiler and -I/-L from the prefixes given here (never the
# paths recorded inside the install, so installs copied or moved to another
# machine work), runs every (processes, program, runtime) once per round,
# the runtimes in a rotated order each round (round r starts with runtime
# r), and writes ONE results file: the median over rounds of every row the
# programs print (each row is already the median of its repetitions inside
# the program), one column per runtime, and the ratio of every runtime's
# time to the reference runtime's (-b; above 1 = the reference is faster).
# With gnuplot it also draws FILE's stem + _patch_npN.png (ga_patch
# bandwidth by size) and _ratio.png (every other row, time / reference).
# Every run's output is kept under FILE's stem + .raw/.  Nothing is
# downloaded and no third-party source is copied anywhere: the sources
# compiled are this directory's.
#
# "procs" in the table is always the number of COMPUTING processes (GA's
# GA_Nnodes()).  Runtimes that need extra processes get them on top: say
# -x NAME=1 for MPI-PR (its progress rank per node) and -x NAME=G for this
# library's ghost build (ARMCI_GHOSTS_PER_NODE, default 1, per (virtual)
# node).  The results file lists every runtime's launched process count.
#
# usage: ga-compare.sh [options] -R NAME=GA_PREFIX [-R NAME=GA_PREFIX ...]
#   -R NAME=GA_PREFIX   a runtime; the same prefix may appear under several
#                       names with different settings (-E, -V)
#   -A NAME=PREFIX      the ARMCI install the runtime's GA was built on
#                       (include/, lib/libarmci.so; linked with an rpath and
#                       put first on LD_LIBRARY_PATH); leave out for GA's own
#                       runtimes
#   -E NAME=VAR=VALUE   environment for that runtime's runs (repeatable),
#                       e.g. -E ghost-auto=ARMCI_GHOST_ASYNC=auto
#   -V NAME=V           run on V virtual nodes: this library gets
#                       ARMCI_VIRTUAL_NODE_SIZE = procs / V; GA's own runtimes
#                       (no -A) get tools/apps/procname_shim.c preloaded into
#                       their ranks with PROCNAME_SHIM_PER_NODE = procs / V +
#                       the -x count (MPI-PR then runs a progress rank on each
#                       virtual node, and GA bins owners by virtual node)
#   -x NAME=K           K extra processes per node (MPI-PR 1; ghost build:
#                       its ghosts per node); nodes = V with -V, else -H
#   -a NAME="ARGS"      extra launcher arguments for that runtime
#   -b NAME             the reference for the ratios (default: the first
#                       runtime given with -A, i.e. this library)
#   -n "LIST"           computing processes per run (default "2")
#   -H NODES            physical nodes the launcher spreads over (default 1)
#   -r ROUNDS           rounds (default 3)
#   -p PROG="ARGS"      one program run: PROG is ga_scf, ga_patch, ga_irreg or
#                       ga_classes, ARGS its key=value sizes (see the program's
#                       header), e.g. -p ga_scf="n=512 nb=64 extra=8";
#                       repeatable; default: each program once, its defaults
#   -s                  smoke test: every program in its small mode, 1 round
#   -m MPI              ompi (default), mpich or an MPI prefix, as in
#                       tools/apps/mpi-env.sh: the compiler and launcher
#   -c CC               MPI C compiler (overrides -m)
#   -l "LAUNCHER"       launcher words before the process count (overrides
#                       -m), e.g. "mpiexec --bind-to core -n"
#   -t SECONDS          time limit of one run (default 900)
#   -o FILE             results (default benchmarks/results/ga_compare.txt)
#   -w DIR              build directory (default: a temporary one, removed)
# Environment: GA_COMPARE_CFLAGS (-O2), GA_COMPARE_LIBS (libraries after
# -lga -larmci; default: the -l words of PREFIX/bin/ga-config --libs
# --flibs, else "-llapack -lblas -lgfortran -lm").
#
# The installs: tools/apps/ga.sh -B [-r RUNTIME] GA_SRC [ARMCI_PREFIX] builds
# GA_WORK/build-<version>-<runtime>-<mpi>/install (GA_WORK defaults to
# ~/.cache/libarmci-apps): -r armci with this library's install prefix,
# -r ghost with the ghost build's, -r mpi-ts, -r mpi-pr; GA over another
# ARMCI (armci-mpi built from source): GA_NAME=armci-mpi ga.sh -r armci
# with its prefix, so the two armci builds do not share a directory.
# Example, installs of GA v5.8.2 on Open MPI and this library installed in
# /root/cache/armci-ompi (plain) and /root/cache/armci-ghost-ompi (ghost):
#   W=$HOME/.cache/libarmci-apps
#   benchmarks/ga/ga-compare.sh -n "2 4" -r 3 \
#     -R ours=$W/build-ga-v5.8.2-armci-ompi/install -A ours=/root/cache/armci-ompi \
#     -R ghost=$W/build-ga-v5.8.2-ghost-ompi/install -A ghost=/root/cache/armci-ghost-ompi \
#       -x ghost=1 -E ghost=ARMCI_GHOST_ASYNC=on \
#     -R mpi-ts=$W/build-ga-v5.8.2-mpi-ts-ompi/install \
#     -R mpi-pr=$W/build-ga-v5.8.2-mpi-pr-ompi/install -x mpi-pr=1 \
#     -o benchmarks/results/ga_compare.txt
# Virtual nodes (ours on 2 virtual nodes; the ghost build with one ghost
# on each, redirection on and automatic):
#     -R vn=...armci.../install -A vn=/root/cache/armci-ompi -V vn=2
#     -R g-on=...ghost.../install -A g-on=... -V g-on=2 -x g-on=1 \
#       -E g-on=ARMCI_GHOST_ASYNC=on
#     -R g-auto=... -V g-auto=2 -x g-auto=1 -E g-auto=ARMCI_GHOST_ASYNC=auto
# GA's own runtimes on the same virtual nodes (MPI-PR: a progress rank each):
#     -R pr-vn=...mpi-pr.../install -V pr-vn=2 -x pr-vn=1
#     -R ts-vn=...mpi-ts.../install -V ts-vn=2
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
usage() { sed -n '31,69p' "$0" >&2; exit 2; }
die() { echo "ga-compare.sh: $*" >&2; exit 1; }

nr=0          # runtimes: rt_name_I rt_ga_I rt_armci_I rt_env_I rt_v_I rt_x_I rt_args_I
njobs=0       # program runs: job_prog_J job_args_J
nprocs="2" nodes=1 rounds=3 mpi=ompi cc="" launcher="" limit=900 small=0
out=$top/benchmarks/results/ga_compare.txt work="" base=""

rt_index() { # NAME -> index, or empty
    i=0
    while [ $i -lt $nr ]; do
        eval "[ \"\$rt_name_$i\" = \"\$1\" ]" && { echo $i; return; }
        i=$((i + 1))
    done
}
rt_set() { # OPTION NAME=VALUE FIELD [append]
    name=${2%%=*} val=${2#*=}
    [ "$name" != "$2" ] || die "-$1 $2: expected NAME=VALUE"
    i=$(rt_index "$name")
    [ -n "$i" ] || die "-$1 $2: no runtime $name (give -R $name=... first)"
    if [ "${4:-}" = append ]; then
        eval "rt_$3_$i=\"\$rt_$3_$i \$val\""
    else
        eval "rt_$3_$i=\$val"
    fi
}

while getopts R:A:E:V:x:a:b:n:H:r:p:sm:c:l:t:o:w: opt; do
    case $opt in
    R)  name=${OPTARG%%=*} val=${OPTARG#*=}
        [ "$name" != "$OPTARG" ] || die "-R $OPTARG: expected NAME=GA_PREFIX"
        case $name in *[!A-Za-z0-9_.-]* | "") die "-R: runtime names use A-Z a-z 0-9 _ . -" ;; esac
        [ -z "$(rt_index "$name")" ] || die "-R: runtime $name given twice"
        [ -f "$val/include/ga.h" ] && [ -f "$val/lib/libga.a" ] ||
            die "-R $name: $val has no include/ga.h and lib/libga.a"
        val=$(cd "$val" && pwd)
        eval "rt_name_$nr=\$name rt_ga_$nr=\$val rt_armci_$nr='' rt_env_$nr='' rt_v_$nr=0 rt_x_$nr=0 rt_args_$nr=''"
        nr=$((nr + 1)) ;;
    A)  rt_set A "$OPTARG" armci
        i=$(rt_index "${OPTARG%%=*}")
        eval "p=\$rt_armci_$i"
        [ -d "$p/lib" ] || die "-A $OPTARG: no $p/lib"
        p=$(cd "$p" && pwd)
        eval "rt_armci_$i=\$p" ;;
    E)  case ${OPTARG#*=} in *=*) ;; *) die "-E $OPTARG: expected NAME=VAR=VALUE" ;; esac
        case ${OPTARG#*=} in *[\ \	\']*) die "-E $OPTARG: no spaces or quotes in values" ;; esac
        rt_set E "$OPTARG" env append ;;
    V)  rt_set V "$OPTARG" v ;;
    x)  rt_set x "$OPTARG" x ;;
    a)  rt_set a "$OPTARG" args ;;
    b)  base=$OPTARG ;;
    n)  nprocs=$OPTARG ;;
    H)  nodes=$OPTARG ;;
    r)  rounds=$OPTARG ;;
    p)  prog=${OPTARG%%=*}
        case $prog in ga_scf | ga_patch | ga_irreg | ga_classes) ;;
        *) die "-p $OPTARG: programs are ga_scf, ga_patch, ga_irreg, ga_classes" ;; esac
        args=
        [ "$prog" = "$OPTARG" ] || args=${OPTARG#*=}
        eval "job_prog_$njobs=\$prog job_args_$njobs=\$args"
        njobs=$((njobs + 1)) ;;
    s)  small=1 ;;
    m)  mpi=$OPTARG ;;
    c)  cc=$OPTARG ;;
    l)  launcher=$OPTARG ;;
    t)  limit=$OPTARG ;;
    o)  out=$OPTARG ;;
    w)  work=$OPTARG ;;
    *)  usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage
[ $nr -gt 0 ] || { echo "ga-compare.sh: give at least one -R NAME=GA_PREFIX" >&2; usage; }
for v in "$nodes" "$rounds" "$limit" $nprocs; do
    case $v in '' | *[!0-9]* | 0) die "counts must be positive integers (got '$v')" ;; esac
done
i=0
while [ $i -lt $nr ]; do
    eval "v=\$rt_v_$i x=\$rt_x_$i n=\$rt_name_$i"
    case "$v$x" in *[!0-9]*) die "-V/-x $n: integers expected" ;; esac
    if [ "$v" -gt 0 ]; then
        for p in $nprocs; do
            [ $((p % v)) -eq 0 ] || die "-V $n=$v: $p processes do not split into $v virtual nodes"
        done
    fi
    i=$((i + 1))
done
if [ -z "$base" ]; then
    i=0
    while [ $i -lt $nr ]; do
        eval "[ -n \"\$rt_armci_$i\" ]" && { eval "base=\$rt_name_$i"; break; }
        i=$((i + 1))
    done
    [ -n "$base" ] || base=$rt_name_0
fi
[ -n "$(rt_index "$base")" ] || die "-b $base: no such runtime"
if [ $njobs -eq 0 ]; then
    for prog in ga_scf ga_patch ga_irreg ga_classes; do
        eval "job_prog_$njobs=\$prog job_args_$njobs=''"
        njobs=$((njobs + 1))
    done
fi
if [ $small = 1 ]; then
    rounds=1
    j=0
    while [ $j -lt $njobs ]; do eval "job_args_$j=small"; j=$((j + 1)); done
fi

# compilers and launcher
. "$top/tools/apps/mpi-env.sh" || die "no $top/tools/apps/mpi-env.sh"
mpi_env "$mpi" || exit 2
[ -n "$cc" ] || cc=$MPICC
[ -n "$launcher" ] || launcher=$MPIEXEC
command -v "${cc%% *}" >/dev/null || die "no MPI C compiler $cc"
ompi=0 # Open MPI's launcher needs -x to pass variables to other nodes
case $mpi in
ompi) ompi=1 ;;
/*) [ -x "$mpi/bin/ompi_info" ] && ompi=1 ;;
esac
cflags=${GA_COMPARE_CFLAGS:--O2}
shim="" # built once below when a GA runtime runs on virtual nodes

case $out in /*) ;; *) out=$(pwd)/$out ;; esac
stem=${out%.txt}
raw=$stem.raw
mkdir -p "$(dirname "$out")" || die "cannot create $(dirname "$out")"
rm -rf "$raw" && mkdir -p "$raw" || die "cannot create $raw"
if [ -z "$work" ]; then
    work=$(mktemp -d "${TMPDIR:-/tmp}/ga-compare.XXXXXX") || die "mktemp failed"
    trap 'rm -rf "$work"' EXIT
    trap 'exit 130' INT TERM
fi
mkdir -p "$work" || die "cannot create $work"

# build: once per distinct (GA prefix, ARMCI prefix)
extra_libs() { # GA_PREFIX -> the -l words GA needs besides ga/armci/comex
    [ -n "${GA_COMPARE_LIBS:-}" ] && { echo "$GA_COMPARE_LIBS"; return; }
    words=$("$1/bin/ga-config" --libs --flibs 2>/dev/null) ||
        { echo "-llapack -lblas -lgfortran -lm"; return; }
    seen=" "
    for w in $words; do
        case $w in -lga | -larmci | -lcomex) continue ;; -l*) ;; *) continue ;; esac
        case $seen in *" $w "*) ;; *) seen="$seen$w " ;; esac
    done
    echo $seen
}
i=0
while [ $i -lt $nr ]; do
    eval "ga=\$rt_ga_$i armci=\$rt_armci_$i name=\$rt_name_$i"
    j=0 bdir=""
    while [ $j -lt $i ]; do
        eval "[ \"\$rt_ga_$j\" = \"\$ga\" ] && [ \"\$rt_armci_$j\" = \"\$armci\" ]" &&
            { bdir=$work/build-$j; break; }
        j=$((j + 1))
    done
    if [ -z "$bdir" ]; then
        bdir=$work/build-$i
        mkdir -p "$bdir"
        if [ -n "$armci" ]; then
            inc="-I$ga/include -I$armci/include"
            libs="-L$ga/lib -lga -L$armci/lib -Wl,-rpath,$armci/lib -larmci"
        else
            inc="-I$ga/include"
            libs="-L$ga/lib -lga -larmci"
            [ -f "$ga/lib/libcomex.a" ] && libs="$libs -lcomex"
        fi
        libs="$libs $(extra_libs "$ga")"
        for prog in ga_scf ga_patch ga_irreg ga_classes; do
            echo "ga-compare.sh: building $prog for $name: $cc $cflags $inc ... $libs"
            $cc $cflags $inc -o "$bdir/$prog" "$here/$prog.c" $libs >"$bdir/$prog.log" 2>&1 ||
                { cat "$bdir/$prog.log"; die "cannot build $prog for $name"; }
        done
    fi
    eval "rt_bin_$i=\$bdir v=\$rt_v_$i"
    if [ -z "$armci" ] && [ "$v" -gt 0 ] && [ -z "$shim" ]; then
        shim=$(MPICC=$cc procname_shim "$work" "$top/tools/apps/procname_shim.c") ||
            die "cannot build the procname shim"
    fi
    i=$((i + 1))
done

# One run: the environment and launch line of runtime I with P processes.
launched() { # I P -> processes launched
    eval "v=\$rt_v_$1 x=\$rt_x_$1"
    n=$nodes
    [ "$v" -gt 0 ] && n=$v
    echo $(($2 + x * n))
}
run_env() { # I P -> VAR=VALUE words
    eval "v=\$rt_v_$1 e=\$rt_env_$1 armci=\$rt_armci_$1 x=\$rt_x_$1"
    words=$e
    if [ "$v" -gt 0 ] && [ -n "$armci" ]; then
        words="$words ARMCI_VIRTUAL_NODE_SIZE=$(($2 / v))"
    elif [ "$v" -gt 0 ]; then
        words="$words PROCNAME_SHIM_PER_NODE=$(($2 / v + x))"
    fi
    [ -n "$armci" ] && words="$words LD_LIBRARY_PATH=$armci/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    echo $words
}

data=$work/data
: >"$data"
failed=0
echo "ga-compare.sh: $rounds rounds, procs: $nprocs, $nr runtimes, $njobs program runs; raw output in $raw"
r=0
while [ $r -lt "$rounds" ]; do
    for p in $nprocs; do
        j=0
        while [ $j -lt $njobs ]; do
            eval "prog=\$job_prog_$j args=\$job_args_$j"
            k=0
            while [ $k -lt $nr ]; do
                i=$(((k + r) % nr))
                eval "name=\$rt_name_$i bin=\$rt_bin_$i/\$prog largs=\$rt_args_$i v=\$rt_v_$i a=\$rt_armci_$i"
                # the shim goes into the ranks only (the launcher calls gethostname too)
                pre=""
                [ "$v" -gt 0 ] && [ -z "$a" ] && pre="env LD_PRELOAD=$shim"
                np=$(launched $i $p)
                envw=$(run_env $i $p)
                xargs=""
                if [ $ompi = 1 ]; then
                    for w in $envw; do xargs="$xargs -x ${w%%=*}"; done
                fi
                log=$raw/r$r.p$p.j$j.$prog.$name.txt
                {
                    echo "# round $r, $p computing processes, runtime $name, $np launched"
                    echo "# env $envw"
                    echo "# run $launcher $np$xargs $largs $pre $bin $args"
                } >"$log"
                t0=$(date +%s)
                env $envw timeout -k 10 "$limit" $launcher $np $xargs $largs $pre "$bin" $args \
                    >>"$log" 2>&1 </dev/null
                rc=$?
                echo "ga-compare.sh: round $r procs $p $prog ${args:+($args) }$name: exit $rc, $(($(date +%s) - t0)) s"
                if [ $rc -ne 0 ]; then
                    failed=$((failed + 1))
                    echo "$p $name FAIL $prog ${log#"$(dirname "$out")"/}" >>"$data"
                    tail -5 "$log" | sed 's/^/    /'
                else
                    awk -v p=$p -v rt="$name" '
                        /^#/ || NF != 3 || $1 == "kernel" { next }
                        $3 + 0 == $3 { print p, rt, $1, $2, $3 }' "$log" >>"$data"
                fi
                k=$((k + 1))
            done
            j=$((j + 1))
        done
    done
    r=$((r + 1))
done

# The table: medians over rounds, one column per runtime, then ratios.
names="" launch=""
i=0
while [ $i -lt $nr ]; do
    eval "names=\"\$names \$rt_name_$i\""
    i=$((i + 1))
done
{
    echo "# ga-compare.sh: GA-level benchmarks (benchmarks/ga) side by side; $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "# host $(uname -n), $(nproc 2>/dev/null || echo '?') cores, $nodes node(s); launcher: $launcher; compiler: $cc $cflags"
    echo "# $rounds round(s), runtimes in rotated order each round; every cell: median over rounds of the"
    echo "# program's own median over its repetitions (seconds).  procs = computing processes (GA_Nnodes);"
    echo "# launched = procs + extra processes (MPI-PR's progress ranks, this library's ghosts)."
    echo "# ratio NAME/$base = time of NAME / time of $base: above 1, $base is faster."
    echo "# program runs:"
    j=0
    while [ $j -lt $njobs ]; do
        eval "echo \"#   \$job_prog_$j \${job_args_$j:-(defaults)}\""
        j=$((j + 1))
    done
    # sizes given as the programs' GA_BENCH_<KEY> variables apply to every run
    gb=$(env | grep '^GA_BENCH_' | sort | tr '\n' ' ')
    [ -z "$gb" ] || echo "# program parameters from the environment: $gb"
    echo "# runtimes:"
    i=0
    while [ $i -lt $nr ]; do
        eval "n=\$rt_name_$i ga=\$rt_ga_$i armci=\$rt_armci_$i la=\$rt_args_$i"
        l=""
        for p in $nprocs; do l="$l $p->$(launched $i $p)"; done
        eval "e=\$rt_env_$i v=\$rt_v_$i x=\$rt_x_$i"
        if [ "$v" -gt 0 ] && [ -n "$armci" ]; then
            e="$e ARMCI_VIRTUAL_NODE_SIZE=procs/$v"
        elif [ "$v" -gt 0 ]; then
            e="$e PROCNAME_SHIM_PER_NODE=procs/$v+$x (procname_shim.so in the ranks)"
        fi
        e=$(echo $e)
        echo "#   $n: GA $ga${armci:+ on ARMCI $armci}; procs->launched:$l${e:+; env $e}${la:+; launcher args $la}"
        i=$((i + 1))
    done
    awk -v names="$names" -v base="$base" '
        function median(s,   a, n, i, j, t) {
            n = split(s, a, " ")
            for (i = 2; i <= n; i++) { t = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
            return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
        }
        $3 == "FAIL" { fails = fails sprintf("#   procs %s, %s, %s: see %s\n", $1, $2, $4, $5); next }
        {
            row = $1 " " $3 " " $4
            if (!(row in seen)) { seen[row] = 1; order[++nrows] = row }
            v[row, $2] = v[row, $2] " " $5
        }
        END {
            nn = split(names, nm, " ")
            hdr = "procs kernel size"
            for (i = 1; i <= nn; i++) hdr = hdr " " nm[i] "_s"
            for (i = 1; i <= nn; i++) if (nm[i] != base) hdr = hdr " " nm[i] "/" base
            print hdr
            for (r = 1; r <= nrows; r++) {
                line = order[r]
                for (i = 1; i <= nn; i++) {
                    m[i] = ((order[r], nm[i]) in v) ? median(v[order[r], nm[i]]) : ""
                    line = line " " (m[i] == "" ? "-" : sprintf("%.4g", m[i]))
                    if (nm[i] == base) b = m[i]
                }
                for (i = 1; i <= nn; i++) if (nm[i] != base)
                    line = line " " ((m[i] == "" || b == "" || b + 0 == 0) ? "-" : sprintf("%.2f", m[i] / b))
                print line
            }
            if (fails != "") printf "# failed runs (their cells use the other rounds, or -):\n%s", fails
        }' "$data"
} >"$out"
cat "$out"
echo "ga-compare.sh: results in $out"

# Plots (gnuplot): ga_patch bandwidth by size; every other row's ratios.
if command -v gnuplot >/dev/null 2>&1; then
    set -- $names
    tab=$work/table
    grep -v '^#' "$out" | tail -n +2 >"$tab"
    for p in $nprocs; do
        grep -q "^$p [a-z]*_\(contig\|strided\) " "$tab" || continue
        {
            echo "set terminal pngcairo size 1500,900 noenhanced"
            echo "set output '${stem}_patch_np$p.png'"
            echo "set multiplot layout 2,3 title 'ga_patch, $p computing processes: MB/s by patch bytes (median)'"
            echo "set logscale x 2; set logscale y; set key left top; set grid"
            for kind in contig strided; do
                for op in put get acc; do
                    echo "set title '${op}_$kind'"
                    plot="plot"
                    c=4
                    for n in "$@"; do
                        plot="$plot '$tab' using (\$1 == $p && strcol(2) eq '${op}_$kind' ? \$3 : NaN):(\$3 / column($c) / 1e6) with linespoints title '$n',"
                        c=$((c + 1))
                    done
                    echo "${plot%,}"
                done
            done
            echo "unset multiplot"
        } >"$work/patch.gp"
        gnuplot "$work/patch.gp" 2>"$work/gnuplot.log" || cat "$work/gnuplot.log"
    done
    awk -v nn=$# '$2 !~ /_(contig|strided)$/ { printf "\"%s %s p%s\"", $2, $3, $1
        for (i = 4 + nn; i < 4 + 2 * nn - 1; i++) printf " %s", $i; printf "\n" }' "$tab" >"$work/ratio.dat"
    if [ -s "$work/ratio.dat" ] && [ $# -gt 1 ]; then
        {
            echo "set terminal pngcairo size 1500,700 noenhanced"
            echo "set output '${stem}_ratio.png'"
            echo "set title 'time / time of $base (median over rounds; above 1: $base faster)'"
            echo "set style data histograms; set style histogram clustered gap 1"
            echo "set style fill solid 0.8 border -1; set boxwidth 0.9"
            # ratios spanning more than 20x (MPICH on a crowded host: 0.1 to
            # 2000) are unreadable on a linear axis
            if awk '{ for (i = 2; i <= NF; i++) if ($i + 0 > 20 || ($i + 0 > 0 && $i + 0 < 0.05)) f = 1 }
                    END { exit !f }' "$work/ratio.dat"; then
                echo "set xtics rotate by -45 scale 0; set grid y; set logscale y"
            else
                echo "set xtics rotate by -45 scale 0; set grid y; set yrange [0:*]"
            fi
            echo "set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2"
            plot="plot"
            c=2
            for n in "$@"; do
                [ "$n" = "$base" ] && continue
                plot="$plot '$work/ratio.dat' using $c:xtic(1) title '$n',"
                c=$((c + 1))
            done
            echo "${plot%,}"
        } >"$work/ratio.gp"
        gnuplot "$work/ratio.gp" 2>"$work/gnuplot.log" || cat "$work/gnuplot.log"
    fi
    ls "${stem}"_*.png 2>/dev/null | sed 's/^/ga-compare.sh: plot /'
fi
[ $failed -eq 0 ] || { echo "ga-compare.sh: $failed run(s) failed" >&2; exit 1; }
exit 0
