"""Playing a table: one whole game of the table's ruleset, at its table size, with dealer
rotation (the first dealer is the first seat: N, or P1), seat by seat.

Each finished hand is appended to the table's record in Redis as a checkpoint, so a job
retried after a crash replays the finished hands through the engine to rebuild the game
and goes on from the next hand. While the game runs only a public view of the hand in
progress is published; the full record is served once the game is over: each hand's
record (``server.engine.record.hand_record``, scores before the hand) with its number,
the public view of its end, and its luck of the deal and of the draw
(``workers.luck.hand_luck``: a table has no duplicate partner to cancel either), which
tells from the stock what the public view does not, so it is served with the record and
never before. A human seat (``server.arena.humans``) is a remote seat like a bot's, with
the person's time per decision and no bank.
"""

from __future__ import annotations

from redis.exceptions import RedisError
from rq import get_current_job

from server import logs
from server.arena.duplicate import fault_logged
from server.arena.humans import seat_limits
from server.arena.store import Store
from server.engine import (
    DONE,
    Game,
    game_spec,
    generate_board,
    make_ruleset,
    observation,
    seats_for,
)
from server.engine.playout import default_action
from server.engine.record import hand_record
from workers.jobs import agent_for
from workers.luck import hand_luck

MAX_HANDS = 200  # random players can drift below zero forever in american62 (set-back games alike)


def play_table(prefix: str, tid: str) -> None:
    job = get_current_job()
    if job is None:
        raise RuntimeError("play_table runs as an RQ job")
    with logs.context(table=tid, job=job.id):
        play_table_with(Store(job.connection, prefix), tid)


def play_table_with(store: Store, tid: str) -> None:
    """Play the table's game to its end; an error the game cannot play through (a bot's
    own errors are faults, played through with the default action) fails the table, so
    that it does not read "running" forever, and is raised on to the job's log. Losing
    Redis is not such an error: the game goes on from its checkpoints when the job runs
    again."""
    table = store.table(tid)
    if table["status"] in ("finished", "failed"):
        return
    try:
        _play(store, tid, table)
    except RedisError:
        raise  # Redis went away: the job is lost, not the game; it resumes from its checkpoints
    except Exception as exc:
        store.fail_table(tid, type(exc).__name__)
        raise


def _play(store: Store, tid: str, table: dict) -> None:
    rules = make_ruleset(table["ruleset"], table["options"])
    seats = seats_for(rules.players)
    deck = game_spec(rules).deck  # snoozer's 53 cards, else 52
    game = Game(rules, lambda n: generate_board(table["deal_seed"], n, seats, deck), first_dealer=seats[0])
    for record in store.table_hands(tid):  # resume: replay what is already recorded
        hand = game.new_hand()
        for action in record["actions"]:
            hand.apply(action)
        game.finish_hand(hand)
    context = {"id": tid, "seed": table["seed"], "limits": table["limits"]}
    people = table.get("humans", {})  # a person's seat: a remote seat with the person's time
    agents = {
        seat: agent_for(
            store, bot, {**context, "limits": seat_limits(table["limits"], people[seat])} if seat in people else context
        )
        for seat, bot in table["seats"].items()
    }
    while game.winner is None and game.hands_played < MAX_HANDS:
        hand = game.new_hand()
        faults = []
        while hand.phase != DONE:
            seat = hand.seat_to_act()
            view = observation(hand, seat)
            try:
                hand.apply(agents[seat].decide(view))
            except Exception as exc:  # a timeout or a broken bot: default action, recorded
                faults.append({"seat": seat, "index": len(hand.actions), "error": str(exc)[:200]})
                hand.apply(default_action(view["legal"]))
                fault_logged(seat, len(hand.actions) - 1, exc)
            store.set_table_live(tid, {"hand": game.hands_played + 1, "view": observation(hand, None)})
        game.finish_hand(hand)
        record = {
            **hand_record(hand, faults),
            "number": game.hands_played,
            "public": observation(hand, None),
            "luck": hand_luck(rules, hand.board, hand.actions),
        }
        store.append_table_hand(tid, game.hands_played, record)
    store.set_table_live(tid, None)
    store.finish_table(tid, game.winner, dict(zip(game.sides, game.scores)))
