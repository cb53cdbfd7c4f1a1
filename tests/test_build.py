"""The two builds: the pure-Python package and the compiled one (mypyc, docs/build.md).

``scripts/test.sh`` runs the whole suite on the pure package and, with
``LAIZI_COMPILE=1``, again on the compiled build, saying which it expects in
``LAIZI_EXPECT_BUILD``; these tests check that the suite ran on that build.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import laizi
from laizi.buildinfo import COMPILED_MODULES, build, compiled_modules

ROOT = Path(__file__).resolve().parents[1]


def test_the_suite_runs_on_the_build_it_expects() -> None:
    expected = os.environ.get("LAIZI_EXPECT_BUILD")
    got = build()
    # never a mixture: one stale extension beside edited source would test neither build
    assert got != "partial", f"only {compiled_modules()} are compiled"
    if expected is not None:
        assert got == expected, f"expected the {expected} build, got {got} ({laizi.__file__})"


def test_the_compiled_modules_exist_and_leave_the_references_alone() -> None:
    assert len(set(COMPILED_MODULES)) == len(COMPILED_MODULES)
    for name in COMPILED_MODULES:
        path = ROOT / "src" / Path(*name.split(".")).with_suffix(".py")
        assert path.is_file(), name
        # the slow references the fast paths are held to stay plain Python
        assert "reference" not in name
    assert "laizi.engine.game" in COMPILED_MODULES and "laizi.tiles" in COMPILED_MODULES


def _wheel(tmp_path: Path, env: dict[str, str]) -> tuple[list[str], str]:
    """Build a wheel of the source tree (no isolation: the test environment's setuptools
    and mypy); its file names and what the build printed."""
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-v", "--no-cache-dir", "--no-deps",
         "--no-build-isolation",
         "--wheel-dir", str(tmp_path), str(ROOT)],
        env={**os.environ, **env}, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (wheel,) = tmp_path.glob("laizi-*.whl")
    with zipfile.ZipFile(wheel) as z:
        return z.namelist(), proc.stdout + proc.stderr


@pytest.mark.parametrize("env", [
    {"LAIZI_COMPILE": ""},
    # asked for the compiled build on a machine without a C compiler: the pure package
    {"LAIZI_COMPILE": "1", "CC": "/nonexistent/cc", "LDSHARED": "/nonexistent/cc -shared"},
], ids=["default", "compile-without-compiler"])
def test_the_package_builds_pure_without_a_compiler(tmp_path: Path,
                                                    env: dict[str, str]) -> None:
    names, out = _wheel(tmp_path, env)
    assert "laizi/engine/game.py" in names and "laizi/buildinfo.py" in names
    assert "laizi/server/static/index.html" in names
    # the installed app's icons and manifest (docs/hall.md, "A phone that behaves like an app")
    assert "laizi/server/static/icons/icon-512.png" in names
    assert "laizi/server/static/manifest.webmanifest" in names
    assert not [n for n in names if n.endswith((".so", ".pyd"))]
    if env["LAIZI_COMPILE"]:
        assert "no working C compiler" in out


def test_every_frozen_dataclass_of_the_compiled_modules_copies() -> None:
    """A compiled frozen dataclass cannot be copied or pickled the default way (fields
    set on a blank object): each is registered with ``laizi.copying``."""
    import copyreg
    import dataclasses
    import importlib
    import inspect

    missing = []
    for name in COMPILED_MODULES:
        module = importlib.import_module(name)
        for attr, cls in vars(module).items():
            if (inspect.isclass(cls) and cls.__module__ == name
                    and dataclasses.is_dataclass(cls)
                    and cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
                    and cls not in copyreg.dispatch_table):
                missing.append(f"{name}.{attr}")
    assert not missing


@pytest.mark.parametrize("variant", ["jingzhou", "huanghuang", "golden", "mcr", "taiwan"])
def test_a_game_and_its_result_copy_and_pickle(variant: str) -> None:
    import copy
    import pickle
    import random

    from laizi.engine import Game

    g = Game(variant, seed=11)
    rng = random.Random(3)
    copied = False
    while not g.over:
        for s in g.to_act():
            legal = g.legal_actions(s)
            g.apply(legal[rng.randrange(len(legal))])
        if not copied and len(g.log) >= 40:
            copied = True
            for twin in (copy.deepcopy(g), pickle.loads(pickle.dumps(g))):
                assert twin.log == g.log and twin.hands == g.hands
                assert twin.melds == g.melds and twin is not g
                # the copy plays on by itself
                s = twin.to_act()[0]
                twin.apply(twin.legal_actions(s)[0])
                assert len(twin.log) > len(g.log)
    assert copied
    assert pickle.loads(pickle.dumps(g.record)) == g.record
    assert copy.deepcopy(g.payments) == g.payments
