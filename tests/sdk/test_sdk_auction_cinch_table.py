"""Two remote SDK bots play a whole auction_cinch (Razzle-dazzle) table at five, end to end.

The real API server (gunicorn), real RQ worker processes and two ``sdk.Runner``s, each
serving its own registered ``sdk.Bot`` over HTTP (P1 and P3), with the built-in bots at
P2, P4 and P5. The game must finish with a winner over the target, the bots must have been
asked the call and have seen the sides it made, every hand of the record must replay to
its stored result, and the engine's ``Game`` run over the record must give the final scores.
"""

import threading

import pytest

import sdk
from sdk import cards as C
from server.engine import Board, Game, generate_board, make_ruleset, replay, seats_for

pytestmark = pytest.mark.e2e


class CallerBot(sdk.Bot):
    """Bids as high as it may, keeps trumps in the draw, calls the highest trump it lacks,
    plays its lowest card; notes what it sees at every decision."""

    def __init__(self, seed):
        super().__init__(seed=seed)
        self.seen = []
        self.lock = threading.Lock()

    def act(self, obs):
        with self.lock:
            self.seen.append(
                {
                    "seat": obs.seat,
                    "decision": obs.decision,
                    "makers": obs.makers,
                    "partner": obs.partner,
                    "allies": obs.allies,
                    "side": obs.side,
                }
            )
        return super().act(obs)

    def bid(self, obs):
        return max(obs.legal_bids, default=None)  # declare whenever it can: the call is what is tested

    def trump(self, obs):
        return max("CDHS", key=lambda s: (len(C.trumps_in(obs.hand, s)), s))

    def discard(self, obs):
        return [c for c in obs.hand if not obs.is_trump(c)]

    def call(self, obs):
        lacking = [c for c in C.all_trumps(obs.trump) if c not in obs.seen_cards]
        return lacking[0] if lacking else obs.hand[0]

    def play(self, obs):
        return min(obs.legal_cards, key=C.rank_index)


def test_two_remote_sdk_bots_play_a_five_player_auction_cinch_table(server, rq_workers, admin):
    options = {"players": 5, "target": 31}
    clients, bots, runners = {}, {}, {}
    for seat in ("P1", "P3"):
        clients[seat] = sdk.Client(server.url, token=admin.register_bot(f"sdk-razzle-{seat.lower()}").token)
        bots[seat] = CallerBot(seed=seat)
    tid = clients["P1"].create_table(
        {"P2": "rule", "P4": "random", "P5": "search"}, ruleset="auction_cinch", options=options
    )
    assert admin.table(tid).open_seats == ["P1", "P3"]
    for seat in ("P1", "P3"):
        runners[seat] = sdk.Runner(bots[seat], clients[seat], wait=5).start()
        assert clients[seat].join_table(tid, seat).seats[seat] == f"sdk-razzle-{seat.lower()}"
    final = admin.wait_for_table(tid, poll=0.2, timeout=600)
    for runner in runners.values():
        runner.stop()
        runner.join(timeout=10)

    rules = make_ruleset("auction_cinch", options)
    seats = seats_for(5)
    assert final.winner in seats and final.scores[final.winner] >= rules.target
    for seat, bot in bots.items():
        stats = runners[seat].stats
        assert stats["answered"] > 0 and not stats["bot_errors"] and not stats["illegal"]
        assert {s["seat"] for s in bot.seen} == {seat} and all(s["side"] == seat for s in bot.seen)
        assert {"bid", "discard", "play"} <= {s["decision"] for s in bot.seen}
        for s in bot.seen:
            if s["decision"] == "play":  # the call has made the sides
                mine = seat in s["makers"]
                assert set(s["allies"]) == {x for x in seats if x != seat and (x in s["makers"]) == mine}
            if s["decision"] in ("bid", "discard", "call"):
                assert s["makers"] is None and s["allies"] == ()
    assert any(s["decision"] == "call" for bot in bots.values() for s in bot.seen)

    record = admin.table_record(tid)
    assert record.winner == final.winner and len(record.hands) == final.hands_played >= 1
    game = Game(rules, lambda n: Board.from_dict(record.hands[n - 1]["board"], seats), first_dealer="P1")
    for n, h in enumerate(record.hands, 1):
        assert h["board"] == generate_board(final.deal_seed, n, seats).to_dict()
        assert h["faults"] == [] and h["options"] == rules.options() == {"target": 31}  # 5 players: the default
        assert any(a["type"] == "call" for a in h["actions"])
        assert replay(h)["delta"] == h["result"]["delta"]
        hand = game.new_hand()
        assert hand.side_dict(hand.scores) == h["scores"]
        for action in h["actions"]:
            hand.apply(action)
        game.finish_hand(hand)
    assert game.winner == final.winner and dict(zip(game.sides, game.scores)) == final.scores
