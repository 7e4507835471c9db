"""``python -m server.cli``: the same as the ``cinch`` console script."""

import sys

from . import main

sys.exit(main())
