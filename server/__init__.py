"""The Cinch arena server: the rules engine, deal sets, and (later) the REST API."""
