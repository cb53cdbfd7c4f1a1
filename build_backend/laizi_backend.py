"""laizi's build backend: setuptools' own, with mypy added to the build requirements
when ``LAIZI_COMPILE=1`` asks for the compiled build (``setup.py``), and editable builds
marked so that they stay pure. Everything else is setuptools unchanged."""

from __future__ import annotations

import os
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (build_sdist, build_wheel, ... as they are)

MYPYC = "mypy>=1.11"


def _compiling() -> bool:
    return os.environ.get("LAIZI_COMPILE", "").strip().lower() in {"1", "true", "yes", "on"}


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    extra = [MYPYC] if _compiling() else []
    # setuptools runs setup.py to list its requirements; mypy is not installed yet
    os.environ["LAIZI_LISTING_REQUIREMENTS"] = "1"
    try:
        return [*_setuptools.get_requires_for_build_wheel(config_settings), *extra]
    finally:
        del os.environ["LAIZI_LISTING_REQUIREMENTS"]


def get_requires_for_build_editable(
    config_settings: dict[str, Any] | None = None,
) -> list[str]:
    os.environ["LAIZI_EDITABLE"] = "1"
    return list(_setuptools.get_requires_for_build_editable(config_settings))


def prepare_metadata_for_build_editable(
    metadata_directory: str, config_settings: dict[str, Any] | None = None,
) -> str:
    os.environ["LAIZI_EDITABLE"] = "1"
    return str(_setuptools.prepare_metadata_for_build_editable(metadata_directory,
                                                               config_settings))


def build_editable(wheel_directory: str, config_settings: dict[str, Any] | None = None,
                   metadata_directory: str | None = None) -> str:
    os.environ["LAIZI_EDITABLE"] = "1"
    return str(_setuptools.build_editable(wheel_directory, config_settings,
                                          metadata_directory))
