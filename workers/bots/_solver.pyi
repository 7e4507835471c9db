"""The compiled solver's interface (``_solver.c``, built by setup.py as ``workers.bots._solver``).

Hands and masks are the search layout's 64-bit masks (``search_bot.Layout``): four blocks of
16 bits, one per effective suit, in strength order.
"""

from collections.abc import Sequence
from typing import final

@final
class Context:
    """A solver context for one trump layout (a capsule: opaque, freed with its last reference)."""

def new(points: Sequence[int], trump: int, counting: int, nct: int, /) -> Context:
    """A context for ``trump`` (0..3): ``points`` of each of the 64 layout bits, the counting
    cards' mask and the non-counting trumps' mask (the extras a player may spare)."""

def search(
    ctx: Context,
    north: int,
    east: int,
    south: int,
    west: int,
    leader: int,
    played: int,
    lead_block: int,
    best_seat: int,
    best_key: int,
    trick_points: int,
    trick_mask: int,
    remaining: int,
    first: bool,
    alpha: int,
    beta: int,
    limit: int,
    /,
) -> int | None:
    """The points NS takes from this position on, by exact alpha-beta within ``[alpha, beta]``;
    None once the context has searched ``limit`` nodes."""

def nodes(ctx: Context, /) -> int:
    """Nodes the context has searched so far."""
