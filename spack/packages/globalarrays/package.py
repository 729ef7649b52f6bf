# Global Arrays on libarmci: Spack's builtin recipe, plus armci=libarmci,
# which builds GA with --with-armci on the libarmci install (the way GA's
# users select an external ARMCI).
#   spack install globalarrays armci=libarmci ^libarmci
from spack.package import *

try:  # Spack 1.x
    from spack_repo.builtin.packages.globalarrays.package import Globalarrays as BuiltinGA
except ImportError:  # Spack 0.x
    from spack.pkg.builtin.globalarrays import Globalarrays as BuiltinGA


class Globalarrays(BuiltinGA):
    variant(
        "armci",
        values=("mpi-ts", "mpi-pr", "mpi3", "openib", "ofi", "libarmci"),
        default="mpi-ts",
        description="ARMCI runtime (libarmci: the external libarmci package)",
    )
    depends_on("libarmci", when="armci=libarmci")

    def configure_args(self):
        args = [a for a in super().configure_args() if a != "--with-libarmci"]
        if self.spec.satisfies("armci=libarmci"):
            args.append("--with-armci={0}".format(self.spec["libarmci"].prefix))
        return args
