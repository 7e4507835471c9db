"""A progressive tournament's results as text: standings (RULES-family 11.8) and each
round's tables. Plain formatting of the results JSON with no imports, so that both
``cinch tournament`` and ``cinch remote`` (a client of the SDK only) print it the same."""

from __future__ import annotations

from typing import Any


def print_progressive(results: dict[str, Any]) -> None:
    """A progressive tournament's standings (RULES-family 11.8) and rounds; it is not rated."""
    print("Standings (rounds won, then net points, then the lower table in the last round; not rated)")
    print(f"  {'#':>2} {'entrant':16} {'won':>4} {'of':>4} {'net':>6} {'last table':>11}")
    for rank, row in enumerate(results["standings"], 1):
        print(f"  {rank:>2} {row['bot']:16} {row['match_wins']:>4} {row['matches']:>4} {row['total']:>+6} "
              f"{row['last_table'] if row['last_table'] is not None else '-':>11}")
    for rd in results["rounds"]:
        print(f"\nRound {rd['round']} (boards {rd['first']}-{rd['last']})")
        for tb in rd["tables"]:
            seats = tb["seats"]
            print(f"  table {tb['table']}: {seats['N']} & {seats['S']} {tb['ns']:+d}  v  "
                  f"{seats['E']} & {seats['W']} {tb['ew']:+d}  -> {tb['winner'] or 'playing'}")
