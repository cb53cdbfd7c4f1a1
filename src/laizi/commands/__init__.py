"""Sub-commands of ``laizi``: one module each, each exposing ``register(subparsers)``.

A command sets ``func`` on its parser (``parser.set_defaults(func=run)``); ``run(args)``
returns the exit status. User errors print one line to stderr and return 2.
"""

from __future__ import annotations

import argparse
from typing import TypeAlias

__all__ = ["Subparsers"]

Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
"""What ``register`` adds its command to (``ArgumentParser.add_subparsers()``)."""
