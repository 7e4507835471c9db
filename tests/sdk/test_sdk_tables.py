"""A remote SDK bot plays a whole table of seven_up with three players, end to end.

The real API server (gunicorn), real RQ worker processes and a ``sdk.Runner`` serving a
``sdk.Bot`` over HTTP at P1, with the built-in bots at P2 and P3. The game must finish,
every hand of the record must replay to its stored result, and the scores before each
hand and the final scores must be those of the engine's ``Game`` run over the record.
"""

import threading

import pytest

import sdk
from sdk import cards as C
from server.engine import Board, Game, generate_board, make_ruleset, replay, seats_for
from workers.luck import hand_luck

pytestmark = pytest.mark.e2e


class LowCardBot(sdk.Bot):
    """Stands on a turn-up it holds a card of, gives while nobody is close, plays low;
    notes who it thinks it is at every decision."""

    def __init__(self):
        super().__init__(seed=3)
        self.seen = []
        self.lock = threading.Lock()

    def act(self, obs):
        with self.lock:
            self.seen.append(
                {
                    "seat": obs.seat,
                    "seats": obs.seats,
                    "sides": obs.sides,
                    "side": obs.side,
                    "partner": obs.partner,
                    "opponents": obs.opponents,
                    "decision": obs.decision,
                }
            )
        return super().act(obs)

    def beg(self, obs):
        turned = obs["turnups"][-1][1]
        return "stand" if any(C.suit(c) == turned for c in obs.hand) else "beg"

    def give(self, obs):
        return "give" if {"type": "give"} in obs.legal and obs.their_score < 5 else "run"

    def play(self, obs):
        return min(obs.legal_cards, key=C.rank_index)


def test_a_remote_sdk_bot_plays_a_three_player_seven_up_table(server, rq_workers, admin):
    token = admin.register_bot("sdk-seven").token
    me = sdk.Client(server.url, token=token)
    tid = me.create_table({"P2": "rule", "P3": "random"}, ruleset="seven_up", options={"players": 3})
    opened = admin.table(tid)
    assert opened.status == "open" and opened.seats == {"P1": None, "P2": "rule", "P3": "random"}
    assert opened.scores == {"P1": 0, "P2": 0, "P3": 0} and opened.open_seats == ["P1"]
    bot = LowCardBot()
    runner = sdk.Runner(bot, me, wait=5).start()
    assert me.join_table(tid, "P1").seats["P1"] == "sdk-seven"
    final = me.wait_for_table(tid, poll=0.2, timeout=180)
    runner.stop()
    runner.join(timeout=10)

    rules = make_ruleset("seven_up", {"players": 3})
    seats = seats_for(3)
    assert final.winner in seats and final.scores[final.winner] >= rules.target
    assert runner.stats["answered"] > 0 and not runner.stats["bot_errors"] and not runner.stats["illegal"]
    assert {s["seat"] for s in bot.seen} == {"P1"}
    assert all(
        s["seats"] == seats
        and s["sides"] == seats
        and s["side"] == "P1"
        and s["partner"] is None
        and s["opponents"] == ("P2", "P3")
        for s in bot.seen
    )
    record = admin.table_record(tid)
    # P1 is eldest (and so begs) from the third hand on: dealer P1, P2, P3, P1 ...
    asked = {"play", "beg"} if len(record.hands) >= 3 else {"play"}
    assert asked <= {s["decision"] for s in bot.seen}
    assert record.winner == final.winner and len(record.hands) == final.hands_played >= 1
    game = Game(rules, lambda n: Board.from_dict(record.hands[n - 1]["board"], seats), first_dealer="P1")
    for n, h in enumerate(record.hands, 1):
        assert h["board"] == generate_board(final.deal_seed, n, seats).to_dict()  # dealer P1, P2, P3, P1 ...
        assert h["faults"] == [] and h["options"] == {"players": 3}
        assert replay(h)["delta"] == h["result"]["delta"]  # each hand record replays to its result
        assert h["luck"] == hand_luck(rules, Board.from_dict(h["board"], seats), h["actions"])
        hand = game.new_hand()
        assert hand.side_dict(hand.scores) == h["scores"]  # the scores before the hand
        for action in h["actions"]:
            hand.apply(action)
        game.finish_hand(hand)
    assert game.winner == final.winner and dict(zip(game.sides, game.scores)) == final.scores


def test_the_sdk_opens_a_table_with_a_persons_seat_and_its_link_plays_that_seat(server, rq_workers, admin):
    """``open_table`` answers the person's link (absolute, the token in its fragment only);
    that token plays the seat through the same decisions as a bot's, to the game's end, and
    reads nothing a bot's token could (here: the bots list), and ends with the game."""
    opened = admin.open_table({"S": {"human": "Ann"}, "N": "rule", "E": "random", "W": "random"})
    link = opened.seat_links["S"]
    assert list(opened.seat_links) == ["S"]
    page, _, token = link.partition("#")
    assert page == f"{server.url}/tables/{opened.id}/seat" and token and "?" not in link
    seat = sdk.Client(server.url, token=token)
    held = seat.human_seat(opened.id)
    assert (held.table, held.seat, held.name, held.decision_ms) == (opened.id, "S", "Ann", 60_000)
    with pytest.raises(sdk.ApiError) as refused:
        seat.me()
    assert refused.value.status == 403
    answered = 0
    while not admin.table(opened.id).has_ended:
        try:
            decision = seat.next_decision(wait=2)
        except sdk.ApiError as gone:  # the game ended after the check: its seat's token went with it
            assert gone.status == 401 and admin.table(opened.id).has_ended
            break
        if decision is None:
            continue
        assert decision.observation.seat == "S"
        assert seat.answer(decision, decision.observation.first_action())
        answered += 1
    record = admin.table_record(opened.id)
    assert record.winner is not None and answered >= 6
    assert all(h["faults"] == [] for h in record.hands)  # every one of the seat's decisions was answered in time
    assert admin.table(opened.id).seats["S"].startswith("human.")
