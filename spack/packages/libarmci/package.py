# libarmci's Spack recipe (a package repository of its own: spack/ in the
# libarmci source tree; `spack repo add spack`).
from spack.package import *

try:  # Spack 1.x keeps the build systems in the builtin repository
    from spack_repo.builtin.build_systems.autotools import AutotoolsPackage
except ImportError:  # Spack 0.x: spack.package provides AutotoolsPackage
    pass


class Libarmci(AutotoolsPackage):
    """Drop-in ARMCI (the one-sided communication layer under Global Arrays
    and NWChem) over MPI-3 one-sided communication, with a built-in progress
    engine: a progress thread, or hidden ghost processes that carry out the
    operations the MPI leaves to the target's software."""

    homepage = "https://libarmci.org"
    # release tarballs are what `make dist` produces
    url = "https://libarmci.org/releases/libarmci-0.1.0.tar.gz"

    license("BSD-3-Clause")

    # A site mirror of a `make dist` tarball installs without a checksum
    # (tools/spack-check.sh: `spack install --no-checksum libarmci@0.1.0`).
    version("0.1.0")

    variant(
        "ghost-progress",
        default=False,
        description="Build the ghost-process progress backend (PMPI layer): "
        "launch one extra process per node",
    )
    variant("debug", default=False, description="Internal assertions")
    variant("lto", default=True, description="Link-time optimisation of the library")

    depends_on("c", type="build")
    depends_on("mpi")

    def configure_args(self):
        args = ["CC={0}".format(self.spec["mpi"].mpicc)]
        args += self.enable_or_disable("ghost-progress")
        args += self.enable_or_disable("debug")
        args += self.enable_or_disable("lto")
        return args

    def check(self):
        # `make check` runs every transport mode on 4 ranks (minutes);
        # the demonstration is the install-time check
        make("demo")
