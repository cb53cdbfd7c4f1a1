"""The suite's one hook: every test that drives chromium (the ``chromium`` fixture of
tests/browser_helpers.py, or a module's own ``browser`` fixture) is marked ``browser``, so a
run can leave them out by marker (``-m "not browser"``): the compiled build's pass in CI
does (scripts/test.sh), since they test the JS client, which that build does not change,
and they ran on the pure build already."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives chromium (tests/browser_helpers.py)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if {"chromium", "browser"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)
