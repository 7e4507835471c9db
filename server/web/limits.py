"""Bounds on what a request may carry, checked once for every request before any view.

Python's JSON parser accepts what the rest of the arena cannot take: nesting deep enough
to raise RecursionError (in the parser, or later in whatever walks the value), integers
too long to convert (ValueError past 4,300 digits) or too large for a Lua number in
Redis, ``NaN`` and ``Infinity``, and strings with lone surrogates (which cannot be
encoded as UTF-8 for Redis) or NUL characters. Each is a 400 problem here, with a detail
naming the place, instead of a 500 somewhere deeper. The same string rule holds for
path parameters and the query string.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from flask import request
from flask.json.provider import DefaultJSONProvider
from werkzeug.exceptions import BadRequest

MAX_DEPTH = 32  # nested arrays and objects in a body
MAX_INT = 2**53  # |n| below this: exact as a double, in Lua and in JavaScript
_INT_DIGITS = len(str(MAX_INT))
_BAD_CHARS = re.compile("[\x00\ud800-\udfff]")


class InputError(BadRequest):
    """A request the arena does not take; the description says where and why."""


def _int(text: str) -> int:
    """``parse_int`` that refuses huge numbers before converting them."""
    if len(text.lstrip("-")) > _INT_DIGITS or abs(value := int(text)) >= MAX_INT:
        raise ValueError(f"an integer of {len(text.lstrip('-'))} digits is out of range (|n| must be below 2**53)")
    return value


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:20]} is out of range")
    return value


def _constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


class ArenaJSONProvider(DefaultJSONProvider):
    """Flask's JSON, but parsing refuses what the arena cannot take, as a 400 problem."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        try:
            return json.loads(s, parse_int=_int, parse_float=_float, parse_constant=_constant, **kwargs)
        except RecursionError:
            raise InputError(f"the JSON body is nested too deeply (more than {MAX_DEPTH} levels)") from None
        except ValueError as exc:  # JSONDecodeError, bad UTF-8, and the refusals above
            raise InputError(f"the body is not acceptable JSON: {exc}") from None


def _where(path: list[str | int]) -> str:
    """``["body", "options", "a", 0]`` as ``body.options.a[0]`` (names cut at 40 characters)."""
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p[:40]}" for p in path)[1:]


def check_value(value: Any, where: str = "body") -> None:
    """Raise ``InputError`` naming the first place in a parsed body (or any JSON value)
    that is nested too deeply or holds a string with a NUL or a lone surrogate."""
    stack: list[tuple[Any, list[str | int]]] = [(value, [where])]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            _check_string(item, path)
        elif isinstance(item, (dict, list)):
            if len(path) > MAX_DEPTH:
                raise InputError(f"{_where(path)}: nested deeper than {MAX_DEPTH} levels")
            if isinstance(item, dict):
                for key, child in item.items():
                    _check_string(key, path + [key])
                    stack.append((child, path + [key]))
            else:
                stack.extend((child, path + [i]) for i, child in enumerate(item))


def _check_string(text: str, path: list[str | int]) -> None:
    bad = _BAD_CHARS.search(text)
    if bad is not None:
        what = "a NUL character" if bad.group() == "\x00" else "a lone surrogate (not encodable as UTF-8)"
        raise InputError(f"{_where(path)}: the string holds {what}")


def check_request() -> None:
    """Path parameters, query string and JSON body, within bounds (``InputError`` if not).
    A body is parsed once here (with ``ArenaJSONProvider``) and cached for the views."""
    for name, value in (request.view_args or {}).items():
        if isinstance(value, str):
            _check_string(value, [f"path parameter {name}"])
    for name, value in request.args.items(multi=True):
        _check_string(name, ["query string"])
        _check_string(value, [f"query parameter {name}"])
    if request.content_length and request.is_json:
        check_value(request.get_json())
