"""English for the terminal: one name per person, verbs that agree with it, plurals.

The person at the terminal is called ``you`` everywhere (``you win``, ``your kong``), every
other person by their name at the table (``bot 2 wins``, ``bot 2's kong``). The variants'
own texts (``describe``, the settlement reasons) are shared with ``laizi score``, which
knows only seat numbers (``seat 1 wins``, ``1号位翻倍``); :func:`name_seats` puts the
people's names in their place for the screen.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["ME", "capitalise", "name_seats", "plural", "possessive", "says"]

ME = "you"
"""The name of the person at the terminal."""

_IRREGULAR = {"have": "has", "be": "is", "do": "does", "go": "goes"}


def _third_person(verb: str) -> str:
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith(("s", "sh", "ch", "x", "z")):
        return verb + "es"
    if verb.endswith("y") and verb[-2:-1] not in ("a", "e", "i", "o", "u"):
        return verb[:-1] + "ies"
    return verb + "s"


def says(name: str, verb: str) -> str:
    """``name`` and ``verb`` agreeing: ``you win``, ``bot 1 wins``; ``verb`` is the base
    form (``win``, ``pay``, ``take``, ``set aside``: only the first word is conjugated)."""
    if name == ME:
        return f"{name} {verb}"
    head, _, rest = verb.partition(" ")
    return f"{name} {_third_person(head)}" + (f" {rest}" if rest else "")


def possessive(name: str) -> str:
    """``your``, ``bot 1's``."""
    return "your" if name == ME else f"{name}'s"


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``1 concealed tile``, ``13 concealed tiles``, ``1 time``, ``2 times``."""
    if count == 1:
        return f"{count} {noun}"
    return f"{count} {many if many is not None else noun + 's'}"


def capitalise(text: str) -> str:
    """A sentence that starts with ``you`` starts with ``You``; other names are left as
    they are (``bot 1`` stays the name it is everywhere)."""
    if text.startswith((f"{ME} ", f"{ME}:", "your ")):
        return text[:1].upper() + text[1:]
    return text


_SEAT_EN = re.compile(r"\bseat (\d+)('s)?(?: (wins|receives|pays|takes|draws|is)\b)?")
_SEAT_ZH = re.compile(r"(\d+)号位")


def name_seats(text: str, names: Sequence[str]) -> str:
    """A variant's text about seats (``seat 1 wins``, ``on seat 2's discard``,
    ``0号位翻倍``) with the people's names (``you win``, ``on bot 2's discard``,
    ``you 翻倍``). Seat numbers out of range are left as they are."""

    def english(m: re.Match[str]) -> str:
        s = int(m.group(1))
        if s >= len(names):
            return m.group(0)
        name = names[s]
        if m.group(2):
            return possessive(name)
        verb = m.group(3)
        if verb is None:
            return name
        base = {"wins": "win", "receives": "receive", "pays": "pay", "takes": "take",
                "draws": "draw", "is": "be"}[verb]
        return says(name, base) if base != "be" else f"{name} {'are' if name == ME else 'is'}"

    def chinese(m: re.Match[str]) -> str:
        s = int(m.group(1))
        if s >= len(names):
            return m.group(0)
        # A name put into Chinese text is set off by spaces, except at the ends, next to
        # a space or before a colon or a comma.
        before, after = m.string[:m.start()], m.string[m.end():]
        left = "" if not before or before[-1] in " (（" else " "
        right = "" if not after or after[0] in " :：,，)）" else " "
        return f"{left}{names[s]}{right}"

    lines = []
    for line in text.split("\n"):
        indent = line[:len(line) - len(line.lstrip(" "))]
        body = _SEAT_EN.sub(english, line.lstrip(" "))
        if re.match(r"you (win|pay|take)\b", body):
            # The same subject's second verb: "seat 0 wins …, receives 16".
            body = re.sub(r", (receive|pay)s\b", r", \1", body)
        lines.append(indent + _SEAT_ZH.sub(chinese, body))
    return "\n".join(lines)
