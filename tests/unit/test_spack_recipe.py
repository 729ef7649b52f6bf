#!/usr/bin/env python3
"""The Spack recipes in spack/packages, loaded without Spack: a minimal
stand-in for spack.package records the directives, and each recipe's
configure arguments (libarmci, Global Arrays) or build environment (NWChem)
are checked for every variant they handle; every option libarmci's recipe
passes must be one configure.ac accepts.  What this cannot check is
Spack's concretizer and fetch: tools/spack-check.sh runs Spack itself."""
import importlib.util
import os
import re
import sys
import types

top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
fails = []


def check(cond, msg):
    if not cond:
        fails.append(msg)


class Directives:
    def __init__(self):
        self.versions, self.variants, self.deps = {}, {}, []


def fake_spack(builtin_classes):
    """spack.package with the directives the recipes use; builtin
    recipes (for the overlays) as spack.pkg.builtin.<name> modules."""
    rec = Directives()
    pkg = types.ModuleType("spack.package")

    class AutotoolsPackage:
        def __init__(self, spec):
            self.spec = spec

        def enable_or_disable(self, name):
            return ["--{0}-{1}".format("enable" if self.spec.on(name) else "disable", name)]

    pkg.AutotoolsPackage = AutotoolsPackage
    pkg.version = lambda v, **kw: rec.versions.__setitem__(v, kw)
    pkg.variant = lambda name, **kw: rec.variants.__setitem__(name, kw)
    pkg.depends_on = lambda dep, **kw: rec.deps.append((dep, kw.get("when")))
    pkg.license = lambda *a, **kw: None
    pkg.make = lambda *a, **kw: None
    mods = {"spack": types.ModuleType("spack"), "spack.package": pkg,
            "spack.pkg": types.ModuleType("spack.pkg"),
            "spack.pkg.builtin": types.ModuleType("spack.pkg.builtin")}
    for name, cls in builtin_classes.items():
        m = types.ModuleType("spack.pkg.builtin." + name)
        setattr(m, cls.__name__, cls)
        mods["spack.pkg.builtin." + name] = m
    return rec, mods


def load(name, builtin_classes=None):
    rec, mods = fake_spack(builtin_classes or {})
    saved = {k: sys.modules.get(k) for k in mods}
    sys.modules.update(mods)
    try:
        path = os.path.join(top, "spack", "packages", name, "package.py")
        spec = importlib.util.spec_from_file_location("recipe_" + name, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
    return rec, mod


class Spec:
    """A concrete spec: variant values, and dependencies with prefixes."""
    def __init__(self, variants, deps):
        self.v, self.deps = variants, deps

    def on(self, name):
        return bool(self.v[name])

    def satisfies(self, s):
        k, _, val = s.partition("=")
        return str(self.v.get(k)) == val

    def __getitem__(self, dep):
        return self.deps[dep]

    @property
    def variants(self):
        return {k: types.SimpleNamespace(value=v) for k, v in self.v.items()}


# ---- libarmci
rec, mod = load("libarmci")
Libarmci = getattr(mod, "Libarmci", None)
check(Libarmci is not None, "spack/packages/libarmci defines no class Libarmci")
check("0.1.0" in rec.versions, "libarmci: no version 0.1.0")
ac_version = re.search(r"AC_INIT\(\[libarmci\], \[([^]]+)\]", open(os.path.join(top, "configure.ac")).read())
check(ac_version and ac_version.group(1) in rec.versions,
      "libarmci: the recipe lacks configure.ac's version %s" % (ac_version and ac_version.group(1)))
for v, default in (("ghost-progress", False), ("debug", False), ("lto", True)):
    check(v in rec.variants and rec.variants[v].get("default") is default,
          "libarmci: variant %s with default %s" % (v, default))
check(any(d == "mpi" and w is None for d, w in rec.deps), "libarmci: no depends_on('mpi')")
configure_ac = open(os.path.join(top, "configure.ac")).read()
mpi = types.SimpleNamespace(mpicc="/opt/mpi/bin/mpicc", prefix="/opt/mpi")
for ghost in (False, True):
    for debug in (False, True):
        for lto in (False, True):
            spec = Spec({"ghost-progress": ghost, "debug": debug, "lto": lto}, {"mpi": mpi})
            args = Libarmci(spec).configure_args() if Libarmci else []
            want = {"--%s-ghost-progress" % ("enable" if ghost else "disable"),
                    "--%s-debug" % ("enable" if debug else "disable"),
                    "--%s-lto" % ("enable" if lto else "disable"), "CC=/opt/mpi/bin/mpicc"}
            check(want <= set(args), "libarmci %s: configure_args %s lacks %s"
                  % (spec.v, args, sorted(want - set(args))))
            for a in args:
                m = re.match(r"--(?:enable|disable)-([a-z-]+)$", a)
                if m:
                    check("AC_ARG_ENABLE([%s]" % m.group(1) in configure_ac,
                          "libarmci: configure.ac has no --enable-%s" % m.group(1))

# ---- Global Arrays overlay
class Globalarrays:
    def __init__(self, spec):
        self.spec = spec

    def configure_args(self):
        return ["--enable-shared", "--with-mpi", "--with-" + self.spec.variants["armci"].value]


rec, mod = load("globalarrays", {"globalarrays": Globalarrays})
GA = mod.Globalarrays
check("libarmci" in rec.variants.get("armci", {}).get("values", ()), "globalarrays: no armci=libarmci")
check(("libarmci", "armci=libarmci") in rec.deps, "globalarrays: no depends_on libarmci when armci=libarmci")
lib = types.SimpleNamespace(prefix="/opt/libarmci")
args = GA(Spec({"armci": "libarmci"}, {"libarmci": lib})).configure_args()
check("--with-armci=/opt/libarmci" in args and "--with-libarmci" not in args,
      "globalarrays armci=libarmci: configure_args %s" % args)
args = GA(Spec({"armci": "mpi-pr"}, {})).configure_args()
check("--with-mpi-pr" in args and not any(a.startswith("--with-armci") for a in args),
      "globalarrays armci=mpi-pr: configure_args %s" % args)

# ---- NWChem overlay
class Nwchem:
    def __init__(self, spec):
        self.spec = spec

    def setup_build_environment(self, env):
        pass


class Env:
    def __init__(self):
        self.vars = {}

    def set(self, k, v):
        self.vars[k] = str(v)


rec, mod = load("nwchem", {"nwchem": Nwchem})
check("libarmci" in rec.variants.get("armci", {}).get("values", ()), "nwchem: no armci=libarmci")
check(("libarmci", "armci=libarmci") in rec.deps, "nwchem: no depends_on libarmci when armci=libarmci")
env = Env()
mod.Nwchem(Spec({"armci": "libarmci"}, {"libarmci": lib})).setup_build_environment(env)
check(env.vars == {"ARMCI_NETWORK": "ARMCI", "EXTERNAL_ARMCI_PATH": "/opt/libarmci"},
      "nwchem armci=libarmci: build environment %s" % env.vars)
env = Env()
mod.Nwchem(Spec({"armci": "mpi-pr"}, {})).setup_build_environment(env)
check(env.vars == {}, "nwchem armci=mpi-pr: build environment %s" % env.vars)

for f in fails:
    print("test_spack_recipe: " + f)
print("%s test_spack_recipe" % ("FAIL" if fails else "PASS"))
sys.exit(1 if fails else 0)
