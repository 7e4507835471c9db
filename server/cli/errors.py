"""The one exception type the CLI turns into a clean message and exit status 2."""


class UsageError(Exception):
    """Something the user asked for that cannot be done; the message says why."""
