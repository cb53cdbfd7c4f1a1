"""The hall's limits against a stranger on the network (issue 42, the first findings):

* a person cannot pose as a bot: a name that, once normalised (trimmed, NFKC, invisible
  and format characters and marks dropped), holds the bot's 🤖 is refused;
* a websocket frame over the hall's limit closes the socket (1009) before it is buffered;
  an HTTP body over the limit gets 413 before it is read, by its ``Content-Length`` or by
  counting a chunked one, and the hall's memory does not grow;
* a person adds at most a few entropy strings between two hands; one more is a typed
  refusal that stores nothing.

Each runs against a real ``laizi serve`` on a loopback port (SQLite in a temporary
directory), except the name checks, which are the hall's function itself.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from server_helpers import in_ci  # skips this module without the server extras (not in CI)

if not in_ci():
    pytest.importorskip("alembic")


from laizi.errors import ErrorCode, TableError
from laizi.server.hall import check_name
from server_helpers import (
    FAST,
    HTTP,
    Server,
    create_room,
    sqlite_url,
    unique,
)

MIB = 1024 * 1024


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    directory = tmp_path_factory.mktemp("limits")
    srv = Server(sqlite_url(directory / "hall.db"), directory).start()
    try:
        yield srv
        if srv.alive:
            assert srv.health()["errors"] == 0, srv.stderr()
        assert "Traceback" not in srv.stderr(), srv.stderr()
    finally:
        srv.kill()


# --------------------------------------------------------------------------- names

BOT_LOOKALIKES = [
    "🤖 7",  # the bot's own name
    " 🤖 7",  # leading space: the prefix was tested before trimming
    "  🤖 1 ",
    "🤖7",  # the robot without the space
    "🤖",
    "\ufe0f🤖 7",  # a variation selector in front
    "🤖\ufe0f 7",  # ... and behind
    "\u0301🤖 2",  # a combining mark in front
    "\u3000🤖 3",  # an ideographic space (NFKC: a space)
    "x🤖",  # the robot anywhere
    "ann 🤖",
]
"""Names that pass for a bot's once the hall normalises them (those with characters
Python does not count as printable, U+200B, NBSP, are refused anyway: see below)."""

INVISIBLE_TRICKS = ["\u200b🤖 7", "\u00a0🤖 7", "\u2060🤖 7", "\u200d🤖 7", "\U000e0061🤖 7",
                    "\u202e🤖 7", "\u200b", "\ufe0f", "\u0301\u0301"]


@pytest.mark.parametrize("name", BOT_LOOKALIKES + INVISIBLE_TRICKS,
                         ids=[ascii(n) for n in BOT_LOOKALIKES + INVISIBLE_TRICKS])
def test_no_name_passes_for_a_bot(name: str) -> None:
    with pytest.raises(TableError) as info:
        check_name(name)
    assert info.value.code == ErrorCode.MALFORMED


@pytest.mark.parametrize("name", ["ann", " ann ", "张三", "robot 7", "Ｂｏｂ", "a\u0301",
                                  "🐼 panda", "7"])
def test_ordinary_names_still_pass(name: str) -> None:
    assert check_name(name) == name.strip()


def test_the_hall_refuses_a_bot_name_on_create_and_join(server: Server) -> None:
    for name in BOT_LOOKALIKES:
        r = HTTP.post(f"{server.http}/api/rooms", json={"name": name, "settings": FAST})
        assert r.status_code == 400 and r.json()["error"]["code"] == "malformed", r.text
    room = create_room(server, unique("host"), variant="jingzhou", **FAST)
    for name in BOT_LOOKALIKES:
        r = HTTP.post(f"{server.http}/api/rooms/{room['code']}/join",
                      json={"name": name, "role": "player"})
        assert r.status_code == 400 and r.json()["error"]["code"] == "malformed", r.text
    info = HTTP.get(f"{server.http}/api/rooms/{room['code']}").json()
    assert set(info["ledger"]) == {info["host"], "🤖 1", "🤖 2"}, info  # nobody else
    assert info["seats"][1:] == ["🤖 1", "🤖 2"] and not info["waiting"], info
    assert not info["spectators"], info
