"""How the store keeps its big values: a board record or a par room as zlib-compressed JSON.

A two-room board record is about 3.6 KB of JSON (every action of both hands) and the
store keeps one per board pair for ever: a league of a million board pairs would hold
3.6 GB in Redis. zlib at its default level makes it about 0.7 KB (5 times smaller) for
some 30 us a record each way. zlib rather than zstd or lz4: it is in Python's standard
library (no dependency for every worker, server and restore tool), and at these sizes
zstd without a trained dictionary gains little; a dictionary would have to be kept, in
every version, for as long as any record made with it.

Values are told apart by their first byte: JSON objects start with ``{`` and a zlib
stream with ``x`` (0x78), so records stored before compression (plain JSON) read as
they always did, and nothing else is needed to migrate.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

_ZLIB = 0x78  # the first byte of a zlib stream with the default 32 KB window (RFC 1950)


def pack(value: Any) -> bytes:
    """``value`` as compact JSON, compressed."""
    return zlib.compress(json.dumps(value, separators=(",", ":")).encode("utf-8"))


def unpack(raw: bytes | str) -> Any:
    """A value stored by ``pack``, or as plain JSON (before records were compressed). The
    store's client answers bytes; redis-py types a reply ``bytes | str``, and text is JSON."""
    return json.loads(unpacked_text(raw))


def unpacked_text(raw: bytes | str) -> bytes | str:
    """The JSON text of a value stored by ``pack`` (or as plain JSON), not parsed: a look
    at it costs a twentieth of parsing a board record."""
    if isinstance(raw, bytes) and raw[:1] == bytes([_ZLIB]):
        return zlib.decompress(raw)
    return raw
