"""Build script: only lists the Cython extensions; metadata lives in pyproject.toml."""

import os
import subprocess
import sys
import sysconfig
import tempfile

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



def openmp_flags() -> tuple[list[str], list[str]]:
    """OpenMP for the solver's threads where the compiler has it (compile, link flags);
    without it the threads run one after another. OMAHA_NO_OPENMP=1 leaves it out."""
    if os.environ.get("OMAHA_NO_OPENMP"):
        return [], []
    if sys.platform == "win32":
        return ["/openmp"], []
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, "omp.c")
        with open(source, "w") as f:
            f.write("#include <omp.h>\nint main(void) { return omp_get_max_threads() < 1; }\n")
        try:
            done = subprocess.run(cc + ["-fopenmp", source, "-o", os.path.join(tmp, "omp")],
                                  capture_output=True, check=False)
        except OSError:
            return [], []
    return (["-fopenmp"], ["-fopenmp"]) if done.returncode == 0 else ([], [])


OPENMP_COMPILE, OPENMP_LINK = openmp_flags()

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
    Extension("omahacore.solver", ["src/omahacore/solver.pyx"],
              extra_compile_args=COMPILE_ARGS + OPENMP_COMPILE, extra_link_args=OPENMP_LINK),
]

setup(ext_modules=cythonize(extensions, compiler_directives=DIRECTIVES))
