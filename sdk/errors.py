"""The SDK's exceptions: an API error carries the server's problem body."""

from __future__ import annotations

from typing import Any


class SdkError(Exception):
    """Base class of everything the SDK raises on purpose."""


class ApiError(SdkError):
    """The server answered with an error (``application/problem+json``, RFC 9457).

    ``status`` is the HTTP status; ``title``, ``detail`` and ``errors`` (field name ->
    messages, for invalid input) come from the problem body when there is one.
    """

    def __init__(self, status: int, title: str = "", detail: str = "", errors: dict[str, Any] | None = None,
                 type: str = "about:blank", method: str = "", url: str = ""):
        self.status, self.title, self.detail = status, title, detail
        self.errors, self.type, self.method, self.url = errors or {}, type, method, url
        super().__init__(str(self))

    def __str__(self) -> str:
        text = f"{self.status} {self.title}".strip()
        if self.detail:
            text += f": {self.detail}"
        return text

    def __reduce__(self):       # picklable (keyword arguments are not by default)
        return (type(self), (self.status, self.title, self.detail, self.errors, self.type, self.method, self.url))

    @classmethod
    def from_response(cls, response: Any) -> "ApiError":
        """Build from a ``requests`` response, problem body or not."""
        body: Any = None
        try:
            body = response.json()
        except ValueError:
            pass
        method = getattr(response.request, "method", "") if response.request is not None else ""
        if isinstance(body, dict):
            return cls(response.status_code, str(body.get("title") or response.reason or ""),
                       str(body.get("detail") or ""), body.get("errors") if isinstance(body.get("errors"), dict)
                       else None, str(body.get("type") or "about:blank"), method, response.url)
        text = (response.text or "").strip()
        return cls(response.status_code, response.reason or "", text[:300], None, "about:blank", method, response.url)

    @property
    def retryable(self) -> bool:
        """A server-side or gateway failure worth retrying (for idempotent calls)."""
        return self.status >= 500 or self.status == 429


class NetworkError(SdkError):
    """The server could not be reached (connection refused or reset, timeout), after retries."""

    def __init__(self, message: str, method: str = "", url: str = ""):
        self.method, self.url = method, url
        super().__init__(message)

    def __reduce__(self):
        return (type(self), (self.args[0], self.method, self.url))
