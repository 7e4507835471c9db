"""``benchmarks/noise.py``'s two claims that its figures rest on, on a small scale: the
control variate leaves the play alone and its term has mean zero, and a room's play
does not depend on the other room's seed (so the seed-per-room scores are exact)."""

from statistics import fmean, stdev

from support.benchmarks import load

from server.arena.duplicate import play_sides
from server.engine import DONE, PLAY, generate_board, make_ruleset, new_hand, observation
from workers.bots import make_bot

RULES = make_ruleset("american62")
SEED = "noise-test"


def test_the_control_variate_does_not_change_the_play_and_rooms_do_not_share_a_seed():
    bench = load("noise")
    deal = generate_board(SEED, 1)
    plain = bench.play_pair(RULES, deal, f"{SEED}/A", 0)
    watched = bench.play_pair(RULES, deal, f"{SEED}/A", 2)
    assert watched["nets"] == plain["nets"] and len(watched["terms"]) == 2
    alone = play_sides(RULES, deal, make_bot("rule", f"{SEED}/A"), make_bot("search", f"{SEED}/A"))
    assert plain["nets"][1] == int(-alone["result"]["delta"]["NS"] + alone["result"]["delta"]["EW"])


def a_decision_with_a_choice() -> dict:
    """The search bot's first play decision on a board where two of its seeds disagree."""
    for n in range(1, 40):
        hand = new_hand(RULES, generate_board(SEED, n))
        bots = [make_bot("search", SEED), make_bot("rule", SEED)]
        while hand.phase != DONE:
            seat = hand.seats[hand.to_act]
            view = observation(hand, seat)
            bot = bots[hand.to_act % 2]
            if hand.to_act % 2 == 0 and hand.phase == PLAY and len(view["legal"]) > 1:
                cards = {make_bot("search", f"{SEED}/{k}").decide(view)["card"] for k in range(6)}
                if len(cards) > 1:
                    return view
            hand.apply(bot.decide(view))
    raise AssertionError("no decision where the seeds disagree")


def test_the_control_variate_term_has_mean_zero_on_a_decision_the_seed_decides():
    bench = load("noise")
    view = a_decision_with_a_choice()
    terms = []
    for k in range(120):
        bot = bench.Corrected(f"{SEED}/trial/{k}", 2)
        bot.decide(view)
        terms.append(bot.term)
    assert stdev(terms) > 0
    assert abs(fmean(terms)) <= 3 * stdev(terms) / len(terms) ** 0.5, (fmean(terms), stdev(terms))
