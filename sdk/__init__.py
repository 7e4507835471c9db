"""The thin Python SDK for bot authors (requests and the standard library only)."""
