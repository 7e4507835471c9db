"""Test helpers, imported as ``support.NAME`` (``tests/`` is on the path through the root conftest)."""
