# flask-smorest ships no types. Its ``abort`` is webargs's (typed: it never returns), which
# lets mypy see that a view ends at ``abort(404, ...)``; every other name stays untyped.
from typing import Any

from webargs.flaskparser import abort as abort

def __getattr__(name: str) -> Any: ...
