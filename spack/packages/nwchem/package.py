# NWChem on libarmci: Spack's builtin recipe, plus armci=libarmci, which
# builds NWChem (and the GA inside it) with ARMCI_NETWORK=ARMCI and
# EXTERNAL_ARMCI_PATH at the libarmci install.
#   spack install nwchem armci=libarmci ^libarmci
#   spack install nwchem armci=libarmci ^libarmci+ghost-progress
from spack.package import *

try:  # Spack 1.x
    from spack_repo.builtin.packages.nwchem.package import Nwchem as BuiltinNwchem
except ImportError:  # Spack 0.x
    from spack.pkg.builtin.nwchem import Nwchem as BuiltinNwchem


class Nwchem(BuiltinNwchem):
    variant(
        "armci",
        values=("mpi-ts", "mpi-pr", "armcimpi", "mpi3", "openib", "ofi", "libarmci"),
        default="mpi-ts",
        description="ARMCI runtime (libarmci: the external libarmci package)",
    )
    depends_on("libarmci", when="armci=libarmci")

    def setup_build_environment(self, env):
        super().setup_build_environment(env)
        # the builtin install passes no ARMCI_NETWORK for a value it does
        # not know, so NWChem's makefiles read these from the environment
        if self.spec.satisfies("armci=libarmci"):
            env.set("ARMCI_NETWORK", "ARMCI")
            env.set("EXTERNAL_ARMCI_PATH", self.spec["libarmci"].prefix)
