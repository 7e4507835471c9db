"""RQ jobs that play duplicate matches and tournaments, and the built-in bots."""
