"""The registry of tournament formats and match kinds: the one place that maps a name to its object.

Outside this package no code tests a format's or a kind's name; it asks ``format_of`` a
tournament's format and ``kind_of`` a match's kind, and reads their attributes.
"""

from __future__ import annotations

from typing import Any

from server.arena.formats.base import Format, MatchKind, SpecError
from server.arena.formats.blind import BLIND, BLIND_KIND
from server.arena.formats.pair import FIELD, GAUNTLET, PAIR, ROUND_ROBIN
from server.arena.formats.progressive import PROGRESSIVE, TABLE

FORMATS: dict[str, Format] = {f.name: f for f in (ROUND_ROBIN, GAUNTLET, BLIND, PROGRESSIVE)}
KINDS: dict[str, MatchKind] = {k.name: k for k in (PAIR, FIELD, BLIND_KIND, TABLE)}


def format_named(name: Any) -> Format:
    """The format of a request's ``format`` field, or the SpecError a user sees."""
    if not isinstance(name, str) or name not in FORMATS:
        raise SpecError(f"format must be one of {', '.join(FORMATS)}, not {name!r}")
    return FORMATS[name]


def format_of(spec: dict[str, Any]) -> Format:
    """A stored or validated tournament's format."""
    return FORMATS[spec["format"]]


def kind_of(match: dict[str, Any]) -> MatchKind:
    """A stored match's (or comparison's) kind: a two-room pair unless it says otherwise."""
    return KINDS[match.get("kind", PAIR.name)]


__all__ = ["FORMATS", "KINDS", "Format", "MatchKind", "SpecError", "format_named", "format_of", "kind_of"]
