"""The duplicate match runner: seating, scoring from the record alone, broken bots."""

from server.engine import generate_board, make_ruleset, replay
from workers.bots import RandomBot, make_bot
from workers.match import net, pair_score, play_board_pair, play_match

AM62 = make_ruleset("american62")


class Seated:
    """Wraps a bot and remembers which seats it was asked to decide for."""

    def __init__(self, bot):
        self.bot, self.seats = bot, set()

    def decide(self, observation):
        self.seats.add(observation["seat"])
        return self.bot.decide(observation)


def test_rooms_swap_the_partnerships_on_the_same_cards():
    x, y = Seated(RandomBot(1)), Seated(RandomBot(2))
    record = play_board_pair(AM62, generate_board("m", 1), 1, x, y)
    room1, room2 = record["rooms"]
    assert room1["replay"]["board"] == room2["replay"]["board"]
    assert x.seats == {"N", "S", "E", "W"} and y.seats == {"N", "S", "E", "W"}
    # in room 1 every N/S action was X's: check through a fresh seating
    x1, y1 = Seated(RandomBot(1)), Seated(RandomBot(2))
    from workers.match import play_room
    play_room(AM62, generate_board("m", 1), x1, y1)
    assert x1.seats <= {"N", "S"} and y1.seats <= {"E", "W"}


def test_score_is_recomputable_from_the_record_alone():
    for n in range(1, 30):
        record = play_board_pair(AM62, generate_board("m", n), n, make_bot("rule", 1), make_bot("random", 1))
        rooms = record["rooms"]
        for room in rooms:
            audit = replay(room["replay"])
            assert audit["complete"] and audit["delta"] == room["delta"] and audit["points"] == room["points"]
        expect = (net(rooms[0]["delta"], "NS")) + (net(rooms[1]["delta"], "EW"))
        assert record["score"] == pair_score(rooms) == expect


def test_net_is_score_change_minus_the_others():
    assert net({"NS": -10, "EW": 5}, "NS") == -15
    assert net({"NS": -10, "EW": 5}, "EW") == 15


def test_same_bot_in_both_seats_scores_zero_on_every_board():
    """Duplicate cancels the cards: a bot against an identical copy nets 0 on each pair."""
    records = play_match(AM62, [(n, generate_board("mirror", n)) for n in range(1, 40)],
                         make_bot("rule", 3), make_bot("rule", 3))
    assert all(r["score"] == 0 for r in records)


class Broken:
    def decide(self, observation):
        raise RuntimeError("segfault in my bot")


class Cheater:
    def decide(self, observation):
        return {"type": "play", "card": "AS"} if observation["phase"] == "play" else {"type": "pass"}


def test_broken_or_illegal_bots_get_the_default_action_and_a_recorded_fault():
    for bad in (Broken(), Cheater()):
        record = play_board_pair(AM62, generate_board("m", 3), 3, bad, RandomBot(1))
        faults = record["rooms"][0]["faults"] + record["rooms"][1]["faults"]
        assert faults and all(f["seat"] for f in faults)
        for room in record["rooms"]:
            assert replay(room["replay"])["complete"]
