"""Build the C-speed core: every .pyx below solitaire_solver/ becomes one extension module
(solitaire_solver/games/pyramid/_core.pyx -> solitaire_solver.games.pyramid._core).

The small C library in csrc/ (bitboards, the transposition table, Python's random in C) is compiled
once, into the static library ss_csrc that setuptools links into every extension.
"""

import glob
import os
import sys

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

C_SOURCES = sorted(glob.glob("csrc/*.c"))
C_HEADERS = sorted(glob.glob("csrc/*.h"))
# SOLITAIRE_SOLVER_OPT replaces -O3: .ci/sanitize builds with "-O1 -g" (its sanitizer flags come in
# through CFLAGS and LDFLAGS, which setuptools adds to every compile and link, but before these).
OPT = os.environ.get("SOLITAIRE_SOLVER_OPT", "-O3").split()
compile_args = [] if sys.platform == "win32" else [*OPT, "-std=c99"]


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
    compile_args.append("-mpopcnt")

ss_csrc = ("ss_csrc", {
    "sources": C_SOURCES,
    "include_dirs": ["csrc"],
    # A static library linked into shared objects: position-independent code.
    "cflags": compile_args + ([] if sys.platform == "win32" else ["-fPIC"]),
    "obj_deps": {"": C_HEADERS},  # a changed header rebuilds every object
})

# Development aid: SOLITAIRE_SOLVER_BUILD_ONLY=engine._engine,games.slots._core builds just those.
only = [m for m in os.environ.get("SOLITAIRE_SOLVER_BUILD_ONLY", "").split(",") if m]
pyx_files = sorted(glob.glob("solitaire_solver/**/*.pyx", recursive=True))
# Python modules compiled as they are (Cython's pure-Python mode), where a call's own Python is
# most of its time: the module stays the source, and the package runs it as Python where no
# compiler built it. solver.py holds the one path of every solve call (docs/architecture.md).
compiled_py = ["solitaire_solver/solver.py", "solitaire_solver/result.py"]


def module_of(pyx: str) -> str:
    return os.path.splitext(pyx)[0].replace(os.sep, ".").replace("/", ".")


if only:
    pyx_files = [p for p in pyx_files if module_of(p).split(".", 1)[1] in only]

extensions = [
    Extension(
        module_of(pyx),
        sources=[pyx],
        include_dirs=["csrc"],
        extra_compile_args=compile_args,
        # Relinked when the library's code changes (the inline functions of the headers are
        # compiled into the extension itself).
        depends=C_SOURCES + C_HEADERS,
    )
    for pyx in pyx_files + [p for p in compiled_py
                            if not only or module_of(p).split(".", 1)[1] in only]
]



class build_ext_after_csrc(build_ext):
    """build_ext that builds ss_csrc first: `build` (pip) does, `setup.py build_ext` alone not."""

    def run(self):
        self.run_command("build_clib")
        super().run()


setup(
    cmdclass={"build_ext": build_ext_after_csrc},
    libraries=[ss_csrc],
    ext_modules=cythonize(
        extensions,
        language_level="3",
        compiler_directives={"boundscheck": False, "wraparound": False, "cdivision": True},
    ),
)
