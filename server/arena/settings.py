"""Every time limit the arena's processes agree on, in one place.

The numbers are chosen so that a fault is repaired within a minute: a dead driver's
tournament reads as interrupted after ``LEASE_MS``, a dead worker's board is free to be
played again after ``CLAIM_MS``, and the supervisor looks every ``SUPERVISE_SECONDS``.
"""

LEASE_MS = 15_000
"""How long a tournament's driver (a ``cinch tournament`` command, or the service's
supervisor) stays its driver without renewing; renewed every ``SUPERVISE_SECONDS``."""

CLAIM_MS = 15_000
"""How long a board claimed by a job, a job's heartbeat and a worker's RQ registration
last without renewal: the time after which the board of a SIGKILLed worker is played
again."""

HEARTBEAT_SECONDS = CLAIM_MS / 3000
"""How often a running job renews its claims and heartbeat, and a worker its registration
(a third of their life)."""

SUPERVISE_SECONDS = 2.0
"""How often a supervisor checks every live tournament for boards nobody is playing."""

MAX_FAILURES = 5
"""Failed jobs in a row, with no board pair stored in between, before a tournament is
marked failed (a bug or a broken deal set, not a passing fault)."""

JOB_TIMEOUT = 24 * 3600
"""RQ's own limit for one chunk job. Generous on purpose: remote bots may take their
time, and a dead job is found by its missing heartbeat, not by this timeout."""

CLOSED_DECISION_SECONDS = 600
"""How long an answered or expired decision is remembered (its bot and status only), so
that a late or repeated answer gets 409 or 410 rather than 404. Open decisions live
until their deadline; their observations are dropped as soon as they close."""

DEFAULT_LIMITS = {"decision_ms": 5000, "bank_ms": 60000, "max_timeouts": 3}
"""A remote seat's time controls unless a tournament or table sets its own: per decision,
a bank to draw on beyond it, and the timeouts after which the seat's answers are defaulted."""

HUMAN_DECISION_MS = {"default": 60_000, "min": 10_000, "max": 600_000}
"""A person's time per decision at a human seat (``server.arena.humans``): what a table's
request may set for the seat (``decision_ms``), and its default. A person reads the table
before acting, so a bot's five seconds are far too few; ten minutes bound how long one
absent person holds the table's worker per decision. A human seat has no time bank: the
countdown the page shows is the whole time, and a decision not answered by then takes the
default action, as for a bot, with the table's ``max_timeouts`` rule after it."""

HUMAN_TOKEN_SECONDS = 3 * 24 * 3600
"""The most a human seat's token lives: it is deleted when the table's game ends, and
expires by itself after this should the game never end (a table's job runs at most a day)."""
