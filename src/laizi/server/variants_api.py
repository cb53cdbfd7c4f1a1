"""``GET /api/variants``: every variant with its options, defaults and descriptor.

Each entry is ``{"id", "name", "seats", "options", "fields", "describe"}``: ``options`` the
default options as JSON, ``fields`` the option names, ``describe`` what the client needs to
show the variant without branching on its id (:mod:`laizi.variants.descriptors`: the
wildcard's mark and words, the winds, the action and meld labels, horses, the
score-keeper's facts and next-dealer rule). Listed in the lobby's order.

``GET /api/bots``: the bots' strength levels a room may have, weakest first
(:func:`laizi.bots.levels.level_json`: ``{"id", "spec", "zh", "en"}``), which the lobby
lists by these names (新手 / 熟手 / 高手).
"""

from __future__ import annotations

import dataclasses
from functools import cache

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from laizi.bots.levels import level_json
from laizi.variants import get, ids
from laizi.variants.descriptors import descriptor_json

__all__ = ["routes", "variants_json"]


@cache
def variants_json() -> tuple[dict[str, object], ...]:
    """Every variant's entry (computed once: variants do not change while a hall runs)."""
    out = []
    for vid in ids():
        v = get(vid)
        out.append({"id": vid, "name": v.name, "seats": v.seats,
                    "options": v.options_to_json(v.default_options()),
                    "fields": [f.name for f in dataclasses.fields(v.options_type)],
                    "describe": descriptor_json(v)})
    return tuple(out)


async def variants(request: Request) -> Response:
    return JSONResponse(list(variants_json()))


async def bots(request: Request) -> Response:
    return JSONResponse(level_json())


def routes() -> list[Route]:
    return [Route("/api/variants", variants), Route("/api/bots", bots)]
