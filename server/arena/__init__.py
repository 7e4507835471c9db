"""The arena's domain: formats, duplicate logic, deal sets, statistics, ratings and the store.

Above the engine, below the runtime (``workers``) and the web and CLI (see docs/architecture.md)."""
