#!/bin/sh
# Installs what building, testing and benchmarking libarmci needs on
# Debian 12 (run as root, or with sudo).
set -e
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
    build-essential autoconf automake libtool pkg-config cmake \
    openmpi-bin libopenmpi-dev gfortran \
    mpich libmpich-dev libscalapack-mpich-dev libscalapack-openmpi-dev \
    libglobalarrays-dev libarmci-mpi-dev liblapack-dev libblas-dev \
    liblapack64-dev libblas64-dev \
    gnuplot-nox python3 valgrind clang libclang-rt-14-dev >/dev/null
