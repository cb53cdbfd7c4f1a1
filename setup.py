"""Build script: the pure-Python package, or with ``LAIZI_COMPILE=1`` the compiled build.

The compiled build compiles the hot modules (``laizi.buildinfo.COMPILED_MODULES``) with
mypyc into C extensions that sit beside their Python source. It needs a C compiler and
Python's headers; when the machine has none, the build says so and makes the pure
package, which works the same (only slower). Editable installs are always pure. See
docs/build.md.
"""

from __future__ import annotations

import os
import runpy
import sys
import tempfile
from pathlib import Path
from typing import Any

from setuptools import Distribution, Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


def compile_requested() -> bool:
    """``LAIZI_COMPILE`` asks for the compiled build (1, true, yes or on)."""
    return os.environ.get("LAIZI_COMPILE", "").strip().lower() in {"1", "true", "yes", "on"}


def why_no_compiler() -> str | None:
    """``None`` when a C extension builds here, else what went wrong: a probe extension
    including ``Python.h`` is compiled and linked in a scratch directory."""
    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp, "laizi_probe.c")
        probe.write_text("#include <Python.h>\nint laizi_probe(void) { return 0; }\n")
        dist = Distribution({"ext_modules": [Extension("laizi_probe", [str(probe)])]})
        cmd = dist.get_command_obj("build_ext")
        cmd.build_lib = cmd.build_temp = tmp  # type: ignore[attr-defined]
        try:
            cmd.ensure_finalized()
            cmd.run()
        except Exception as exc:  # any failure of the tool chain means: no compiler
            return f"{type(exc).__name__}: {exc}"
    return None


class ParallelBuildExt(build_ext):
    """``build_ext`` on every core: the compiled build is one extension per module."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1


class CleanBuildPy(build_py):
    """``build_py`` that first removes the compiled modules an earlier build left in the
    build directory: setuptools packs everything there, so a pure build after a compiled
    one, or a module taken off the compiled list, would otherwise ship stale extensions.
    ``build_ext`` (run after) puts back the ones this build compiles."""

    def run(self) -> None:
        for pattern in ("*.so", "*.pyd"):
            for stale in Path(self.build_lib, "laizi").rglob(pattern):
                stale.unlink()
        super().run()


def compiled_extensions() -> list[Any]:
    if not compile_requested() or os.environ.get("LAIZI_LISTING_REQUIREMENTS") == "1":
        return []
    if os.environ.get("LAIZI_EDITABLE") == "1":
        print("laizi: LAIZI_COMPILE is ignored by an editable install (the compiled "
              "modules would shadow the source you edit); building the pure package",
              file=sys.stderr)
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("laizi: LAIZI_COMPILE=1 but mypy (mypyc) is not installed; building the "
              "pure-Python package", file=sys.stderr)
        return []
    why = why_no_compiler()
    if why is not None:
        print(f"laizi: LAIZI_COMPILE=1 but no working C compiler ({why}); building the "
              "pure-Python package", file=sys.stderr)
        return []

    names = runpy.run_path(str(HERE / "src" / "laizi" / "buildinfo.py"))["COMPILED_MODULES"]
    paths = [str(Path("src", *name.split("."))) + ".py" for name in names]
    return list(mypycify(paths, opt_level="3", separate=True))


setup(ext_modules=compiled_extensions(),
      cmdclass={"build_ext": ParallelBuildExt, "build_py": CleanBuildPy})
