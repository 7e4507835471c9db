"""The built-in bots in widow_cinch: every action they choose is accepted by the engine's
wire layer at six seats (the search bot too), the rule bot takes the widow and reads its
partner from the sides, and in duplicate rooms the rule bot beats the random one."""

from __future__ import annotations

from server.arena.duplicate import play_boards
from server.engine import generate_board, make_ruleset, new_hand, observation, seats_for
from workers.bots import SearchBot
from workers.bots.random_bot import RandomBot
from workers.bots.rule_bot import RuleBot, allies_of, make_view, seats_after_me

RULES = make_ruleset("widow_cinch")


def play(n: int, bots) -> object:
    """A complete hand; ``apply`` raises on anything the rules refuse."""
    state = new_hand(RULES, generate_board("widow-bots", n, seats_for(6)))
    while state.phase != "done":
        seat = state.seat_to_act()
        state.apply(bots[state.seats.index(seat) % len(bots)].decide(observation(state, seat)))
    return state


def test_rule_and_random_bots_play_every_decision_legally():
    for n in range(1, 31):
        assert play(n, [RuleBot(n)]).widow_taken is True
        play(n, [RuleBot(n), RandomBot(n)])


def test_the_search_bot_plays_legally_at_six_seats():
    for n in range(1, 4):
        play(n, [SearchBot(n, samples=4), RuleBot(n), RandomBot(n)])


def test_the_rule_bot_finds_its_partner_three_seats_on_and_who_plays_after_it():
    state = play(1, [RuleBot(1)])
    assert allies_of(observation(state, "P2")) == {"P5"} and allies_of(observation(state, "P6")) == {"P3"}
    state = new_hand(RULES, generate_board("widow-bots", 2, seats_for(6)))
    rule = RuleBot(2)
    while state.phase != "play":
        state.apply(rule.decide(observation(state, state.seat_to_act())))
    state.apply(rule.decide(observation(state, state.seat_to_act())))  # the declarer leads
    view = make_view(observation(state, state.seat_to_act()))
    later = seats_after_me(view)
    assert len(later) == 4 and len(view.allies) == 1 and view.allies < set(state.seats) - {view.seat}


def test_in_duplicate_the_rule_bot_beats_random_play():
    boards = [(n, generate_board("widow-strength", n, seats_for(6))) for n in range(1, 9)]
    totals = [0.0, 0.0, 0.0]
    for record in play_boards(RULES, boards, [RuleBot(1), RandomBot(1), RandomBot(2)]):
        totals = [t + s for t, s in zip(totals, record["entrant_scores"])]
    assert abs(sum(totals)) < 1e-6 and totals[0] > max(totals[1:])
