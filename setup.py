"""Build script: only lists the Cython extensions; metadata lives in pyproject.toml."""

import sys

from Cython.Build import cythonize
from setuptools import Extension, setup

if sys.platform == "win32":
    COMPILE_ARGS = ["/O2"]
else:
    COMPILE_ARGS = ["-O3"]

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": False,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": False,
    "embedsignature": True,
}

extensions = [
    Extension("omahacore.cards", ["src/omahacore/cards.pyx"], extra_compile_args=COMPILE_ARGS),
    Extension("omahacore.evaluator", ["src/omahacore/evaluator.pyx"], extra_compile_args=COMPILE_ARGS),
    Extension("omahacore.batch", ["src/omahacore/batch.pyx"], extra_compile_args=COMPILE_ARGS),
    Extension("omahacore.pots", ["src/omahacore/pots.pyx"], extra_compile_args=COMPILE_ARGS),
    Extension("omahacore.equity", ["src/omahacore/equity.pyx"], extra_compile_args=COMPILE_ARGS),
    Extension("omahacore.transitions", ["src/omahacore/transitions.pyx"], extra_compile_args=COMPILE_ARGS),
    Extension("omahacore.engine", ["src/omahacore/engine.pyx"], extra_compile_args=COMPILE_ARGS),
    Extension("omahacore.vector", ["src/omahacore/vector.pyx"], extra_compile_args=COMPILE_ARGS),
    Extension("omahacore.phhfast", ["src/omahacore/phhfast.pyx"], extra_compile_args=COMPILE_ARGS),
    Extension("omahacore.icm", ["src/omahacore/icm.pyx"], extra_compile_args=COMPILE_ARGS),
    Extension("omahacore.stud", ["src/omahacore/stud.pyx"], extra_compile_args=COMPILE_ARGS),
    Extension("omahacore.solver", ["src/omahacore/solver.pyx"], extra_compile_args=COMPILE_ARGS),
]

setup(ext_modules=cythonize(extensions, compiler_directives=DIRECTIVES))
