"""Scoring a hand and deciding a game, for every scoring scheme a ruleset may name.

Kept apart from the hand's state machine because the schemes are where the sources
disagree most (docs/rules/american62.md, docs/rules/foster51.md, and Foster's VARIATIONS); each scheme is a
small pure function of (who declared, the contract, the points taken).
"""

from __future__ import annotations

from server.engine.rulesets import SCORING_AMERICAN, SCORING_DIFFERENCE, SCORING_EIGHT_POINT, SCORING_SET_BACK, Ruleset

# sixty_three's option value for american62's rule (docs/rules/sixty_three.md#scoring): its own name on the
# wire, the same scheme here. Not Foster's "set_back", which scores a made bid by difference.
SCORING_SETBACK = "setback"


def made_contract(contract: int | None, declarer_points: int) -> bool:
    """A hand without a contract (foster51, all passed) counts as made."""
    return contract is None or declarer_points >= contract


def hand_delta(rules: Ruleset, declarer_side: int, contract: int | None, points: tuple[int, int]) -> tuple[int, int]:
    """Score change per side (NS, EW) for a complete hand."""
    bidders, defenders = points[declarer_side], points[1 - declarer_side]
    made = made_contract(contract, bidders)
    bid = 0 if contract is None else contract  # a hand without a contract is made
    scheme = rules.scoring
    if scheme == SCORING_AMERICAN or scheme == SCORING_SETBACK:
        gain_b, gain_d = (bidders if made else -bid), defenders
    elif scheme == SCORING_EIGHT_POINT:
        if not made:
            gain_b, gain_d = 0, bid + defenders
        elif bidders == defenders:
            gain_b = gain_d = 0
        else:
            gain_b, gain_d = (bidders if bidders >= 8 else 0), defenders
    elif made:  # difference and set_back agree when the contract is made
        diff = bidders - defenders
        gain_b, gain_d = max(diff, 0), max(-diff, 0)
    elif scheme == SCORING_DIFFERENCE:
        gain_b, gain_d = 0, bid + defenders
    elif scheme == SCORING_SET_BACK:
        gain_b, gain_d = -bid, defenders
    else:  # pragma: no cover - make_ruleset refuses unknown schemes
        raise ValueError(f"unknown scoring {scheme!r}")
    return (gain_b, gain_d) if declarer_side == 0 else (gain_d, gain_b)


def game_winner(
    rules: Ruleset, after: tuple[int, int], declarer_side: int, made: bool, bidder_goes_out: bool
) -> int | None:
    """The side (0 = NS, 1 = EW) that has won the game after a hand, or None to play on.

    american62: bidders who make their bid in a bidder-goes-out hand win outright;
    otherwise the one side at or above the target wins, and if both are, nobody does
    yet (the next hand is bidder-goes-out, see ``bidder_goes_out_next``). In the
    foster51 family only one side scores per hand except under eight-point scoring;
    if both reach the target together the declaring side counts out first.
    """
    if bidder_goes_out and made:
        return declarer_side
    reached = [after[s] >= rules.target for s in (0, 1)]
    if reached[0] and reached[1]:
        return None if rules.bidder_goes_out else declarer_side
    if reached[0] or reached[1]:
        return 0 if reached[0] else 1
    return None


def bidder_goes_out_next(rules: Ruleset, scores: tuple[int, int]) -> bool:
    """Whether the next hand is bidder-goes-out: both sides at 55 or more (american62).

    This one test also covers the two follow-up cases of docs/rules/american62.md#game (both sides reaching 62 on
    one hand, and a scored hand leaving both at 62 or more), since 62 is above 55.
    """
    return rules.bidder_goes_out and min(scores) >= rules.target - 7
