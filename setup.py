"""Build the C-speed core: every solitaire_solver/*.pyx becomes one extension module.

All modules share the small C library in csrc/ (bitboards, the transposition table).
"""

import glob
import os
import sys

from Cython.Build import cythonize
from setuptools import Extension, setup

C_SOURCES = sorted(glob.glob("csrc/*.c"))
extra_compile_args = [] if sys.platform == "win32" else ["-O3", "-std=c99"]

extensions = [
    Extension(
        "solitaire_solver." + os.path.splitext(os.path.basename(pyx))[0],
        sources=[pyx, *C_SOURCES],
        include_dirs=["csrc"],
        extra_compile_args=extra_compile_args,
    )
    for pyx in sorted(glob.glob("solitaire_solver/*.pyx"))
]

setup(
    ext_modules=cythonize(
        extensions,
        language_level="3",
        compiler_directives={"boundscheck": False, "wraparound": False, "cdivision": True},
    ),
)
