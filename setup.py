"""Build the C-speed core: every solitaire_solver/*.pyx becomes one extension module.

All modules share the small C library in csrc/ (bitboards, the transposition table).
"""

import glob
import os
import sys

from Cython.Build import cythonize
from setuptools import Extension, setup

C_SOURCES = sorted(glob.glob("csrc/*.c"))
# SOLITAIRE_SOLVER_OPT replaces -O3: .ci/sanitize builds with "-O1 -g" (its sanitizer flags come in
# through CFLAGS and LDFLAGS, which setuptools adds to every compile and link, but before these).
OPT = os.environ.get("SOLITAIRE_SOLVER_OPT", "-O3").split()
extra_compile_args = [] if sys.platform == "win32" else [*OPT, "-std=c99"]


def cpu_has_popcnt() -> bool:
    """Whether this x86-64 Linux machine counts bits in one instruction. The extension is built
    where it runs (pip install .), so using it is safe; without -mpopcnt every card count is a
    library call, about a tenth of Pyramid's search time. SOLITAIRE_SOLVER_PORTABLE=1 opts out."""
    if os.environ.get("SOLITAIRE_SOLVER_PORTABLE") or sys.platform != "linux":
        return False
    try:
        with open("/proc/cpuinfo") as f:
            return any(line.startswith("flags") and " popcnt" in line for line in f)
    except OSError:
        return False


if cpu_has_popcnt():
    extra_compile_args.append("-mpopcnt")

# Development aid: SOLITAIRE_SOLVER_BUILD_ONLY=_engine,_slots builds just those modules.
only = [m for m in os.environ.get("SOLITAIRE_SOLVER_BUILD_ONLY", "").split(",") if m]
pyx_files = sorted(glob.glob("solitaire_solver/*.pyx"))
if only:
    pyx_files = [p for p in pyx_files if os.path.splitext(os.path.basename(p))[0] in only]

extensions = [
    Extension(
        "solitaire_solver." + os.path.splitext(os.path.basename(pyx))[0],
        sources=[pyx, *C_SOURCES],
        include_dirs=["csrc"],
        extra_compile_args=extra_compile_args,
    )
    for pyx in pyx_files
]

setup(
    ext_modules=cythonize(
        extensions,
        language_level="3",
        compiler_directives={"boundscheck": False, "wraparound": False, "cdivision": True},
    ),
)
