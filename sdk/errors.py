"""The SDK's exceptions: an API error carries the server's problem body."""

from __future__ import annotations

from typing import Any


class SdkError(Exception):
    """Base class of everything the SDK raises on purpose."""


class ApiError(SdkError):
    """The server answered with an error (``application/problem+json``, RFC 9457).

    ``status`` is the HTTP status; ``title``, ``detail`` and ``errors`` (field name ->
    messages, for invalid input) come from the problem body when there is one;
    ``retry_after`` is the ``Retry-After`` header in seconds (503 and 429), or None.
    """

    def __init__(
        self,
        status: int,
        title: str = "",
        detail: str = "",
        errors: dict[str, Any] | None = None,
        type: str = "about:blank",
        method: str = "",
        url: str = "",
        retry_after: float | None = None,
    ):
        self.status, self.title, self.detail = status, title, detail
        self.errors, self.type, self.method, self.url = errors or {}, type, method, url
        self.retry_after = retry_after
        super().__init__(str(self))

    def __str__(self) -> str:
        text = f"{self.status} {self.title}".strip()
        if self.detail:
            text += f": {self.detail}"
        return text

    def __reduce__(self) -> tuple[type[ApiError], tuple[Any, ...]]:  # picklable (keyword arguments are not by default)
        return (
            type(self),
            (self.status, self.title, self.detail, self.errors, self.type, self.method, self.url, self.retry_after),
        )

    @classmethod
    def from_response(cls, response: Any) -> ApiError:
        """Build from a ``requests`` response, problem body or not."""
        body: Any = None
        try:
            body = response.json()
        except ValueError:
            pass
        method = getattr(response.request, "method", "") if response.request is not None else ""
        retry_after = _seconds(response.headers.get("Retry-After"))
        if isinstance(body, dict):
            return cls(
                response.status_code,
                str(body.get("title") or response.reason or ""),
                str(body.get("detail") or ""),
                body.get("errors") if isinstance(body.get("errors"), dict) else None,
                str(body.get("type") or "about:blank"),
                method,
                response.url,
                retry_after,
            )
        text = (response.text or "").strip()
        return cls(
            response.status_code,
            response.reason or "",
            text[:300],
            None,
            "about:blank",
            method,
            response.url,
            retry_after,
        )

    @property
    def retryable(self) -> bool:
        """A server-side or gateway failure worth retrying (for idempotent calls)."""
        return self.status >= 500 or self.status == 429


def _seconds(value: str | None) -> float | None:
    """A ``Retry-After`` in seconds; None if absent or an HTTP date (the arena sends seconds)."""
    try:
        return max(0.0, float(value)) if value else None
    except ValueError:
        return None


class NetworkError(SdkError):
    """The server could not be reached (connection refused or reset, timeout), after retries."""

    def __init__(self, message: str, method: str = "", url: str = ""):
        self.method, self.url = method, url
        super().__init__(message)

    def __reduce__(self) -> tuple[type[NetworkError], tuple[Any, ...]]:
        return (type(self), (self.args[0], self.method, self.url))
