"""The search bot: legal through the wire layer, deterministic, and blind to what it may not see.

Also checks its two building blocks against the engine: every hidden layout the sampler
draws must replay the hand so far legally (the engine's ``world_state`` builds the state
of it and replays every trick), and the exact solver must agree with a brute-force minimax
over ``HandState`` clones on small endgames. Strength is measured by
``benchmarks/bots.py``, not here: a significant duplicate result needs hundreds of
board pairs.
"""

from __future__ import annotations

import copy
from random import Random

import pytest
from support.botplay import play_hand

from server.engine import (
    DONE,
    PLAY,
    SEATS,
    Board,
    HandState,
    IllegalAction,
    generate_board,
    make_ruleset,
    new_hand,
    observation,
)
from server.engine.cards import CARD_INDEX, CARD_NAMES, mask_of, names_of
from server.engine.playout import playout, random_step
from server.engine.world import world_state as engine_world_state
from workers.bots import BUILTIN, SearchPlayBot, deal_search, family_search, make_bot, search_bot
from workers.bots.base import decision_rng
from workers.bots.deal_search import DEAL_SAMPLES, SearchBot
from workers.bots.random_bot import RandomBot
from workers.bots.rule_bot import RuleBot
from workers.bots.search_bot import (
    DEFAULT_SAMPLES,
    FAMILY_WORLDS,
    Solver,
    View,
    layout_fits,
    layout_for,
    sample_play_world,
)


def world_state(obs, hands):
    """The engine's state of a sampled layout (card masks per seat, N E S W)."""
    return engine_world_state(obs, {seat: names_of(hands[i]) for i, seat in enumerate(SEATS)})


FAST = 1  # samples: the cheapest setting (trick 1 then mostly falls back to the greedy choice)

PLAYED = pytest.mark.parametrize(
    "ruleset, options",
    [
        ("american62", None),
        ("foster51", None),
        ("blind_cinch", None),
        ("blind_cinch", {"base": "american62"}),
        ("sixty_three", None),
    ],
    ids=["american62", "foster51", "blind_cinch", "blind_cinch-american62", "sixty_three"],
)
"""The rulesets whose play the solver searches (``search_bot.PLAY_SOLVED``), both bases of Blind Cinch."""


# ---------------------------------------------------------------------- legality
@PLAYED
def test_every_action_is_accepted_over_a_hundred_hands(ruleset, options):
    rules = make_ruleset(ruleset, options)
    search = SearchBot(seed=3, samples=FAST)
    rule, rnd = RuleBot(4), RandomBot(5)
    for n in range(1, 101):
        board = generate_board("search-test", n)
        if n % 2:
            bots = {"N": search, "S": search, "E": rule, "W": rule}
        else:
            bots = {"N": rnd, "S": rnd, "E": search, "W": search}  # odd voids, draws and restocks
        state = play_hand(rules, board, bots)
        assert state.phase == DONE and len(state.tricks) == 6


@pytest.mark.parametrize(
    "options",
    [
        {"trump_discard_over_six_only": True},
        {"dealer_draws_blind": True},
        {"first_lead_trump": True, "low_to_holder": True, "min_bid": 6},
        {"scoring": "set_back"},
    ],
)
def test_legal_with_foster_options(options):
    rules = make_ruleset("foster51", options)
    search = SearchBot(seed=6, samples=FAST)
    rnd = RandomBot(7)
    for n in range(1, 13):
        bots = {s: search for s in "NESW"} if n % 2 else {"N": search, "S": search, "E": rnd, "W": rnd}
        play_hand(rules, generate_board("search-options", n), bots)


def test_default_setting_plays_legal_hands():
    """The default sample count (the one the benchmark times) on a few full hands."""
    rules = make_ruleset("american62")
    bot = SearchBot(seed=1)
    for n in range(1, 4):
        play_hand(rules, generate_board("search-default", n), {"N": bot, "S": bot, "E": RuleBot(1), "W": RuleBot(1)})


# ---------------------------------------------------------------------- the sampler and the solver
@PLAYED
def test_sampled_layouts_replay_the_hand_so_far(ruleset, options):
    """Every sampled layout: the seat's own hand, the right sizes, and the plays all legal in it."""
    rules = make_ruleset(ruleset, options)
    rng = Random(11)
    checked = restocked = 0
    for n in range(1, 41):
        state = HandState(rules, generate_board("search-sampler", n))
        bots = [RuleBot(n), RandomBot(n)]
        while state.phase != DONE:
            seat = state.seat_to_act()
            obs = observation(state, seat)
            if state.phase == PLAY:
                view = View(obs)
                view.parse_play()
                assert layout_fits(view, state.hands)  # the truth is among the layouts sampled from
                sample_rng = decision_rng(n, obs)
                for _ in range(3):
                    hands = sample_play_world(view, sample_rng)
                    assert hands is not None and layout_fits(view, hands)
                    me = SEATS.index(seat)
                    assert hands[me] == state.hands[me]
                    assert [h.bit_count() for h in hands] == [h.bit_count() for h in state.hands]
                    assert not (
                        hands[0] & hands[1]
                        | hands[0] & hands[2]
                        | hands[0] & hands[3]
                        | hands[1] & hands[2]
                        | hands[1] & hands[3]
                        | hands[2] & hands[3]
                    )
                    rebuilt = world_state(obs, hands)  # raises if a past play is illegal in it
                    assert rebuilt.to_act == state.to_act
                    assert sorted(rebuilt.legal_plays()) == sorted(state.legal_plays())
                    checked += 1
            state.apply(bots[rng.randrange(2)].decide(obs))
        restocked += state.restocks > 0
    assert checked > 500
    if ruleset == "american62" and options is None:
        assert restocked > 0  # hands where a rebuilt stock may have carried discards back


def test_the_true_layout_replays_and_scores_like_the_engine():
    rules = make_ruleset("american62")
    rng = Random(3)
    for n in range(1, 30):
        state = HandState(rules, generate_board("search-world", n))
        while state.phase != PLAY:
            random_step(state, rng)
        for _ in range(rng.randrange(0, 20)):
            random_step(state, rng)
        seat = state.seat_to_act()
        obs = observation(state, seat)
        rebuilt = world_state(obs, list(state.hands))
        assert rebuilt.taken == state.taken
        a, b = rebuilt.clone(), state.clone()
        playout(a, Random(n))
        playout(b, Random(n))
        assert a.points() == b.points() and a.delta() == b.delta()


def brute_force(state: HandState) -> int:
    """NS trick points from here with best play by both sides (extras: the lowest spare)."""
    if state.phase == DONE:
        return state.taken[0]
    results = []
    for card in state.legal_plays():
        child = state.clone()
        owed = child.extras_owed(child.to_act)
        extras = 0
        if owed:
            spare = sorted(
                (c for c in range(52) if child.extras_from(card) >> c & 1), key=lambda c: child.tables.strength[c]
            )
            extras = mask_of(spare[:owed])
        child.do_play(card, extras)
        results.append(brute_force(child))
    return max(results) if state.to_act % 2 == 0 else min(results)


@pytest.mark.parametrize("ruleset", ["american62", "foster51", "sixty_three"])
def test_solver_matches_brute_force_on_endgames(ruleset):
    rules = make_ruleset(ruleset)
    rng = Random(17)
    checked = 0
    for n in range(1, 80):
        state = HandState(rules, generate_board("search-solver", n))
        while state.phase != PLAY:
            random_step(state, rng)
        while state.phase == PLAY and sum(h.bit_count() for h in state.hands) > 11:
            random_step(state, rng)
        if state.phase != PLAY:
            continue
        lay = layout_for(state.trump, rules.low_to_holder, rules.extra_counts)
        hands = [lay.remap(h) for h in state.hands]
        trick = [(s, lay.to_new[c], lay.remap(x)) for s, c, x in state.tricks[-1].plays]
        value = Solver(lay).solve(hands, state.tricks[-1].leader, trick, len(state.tricks) == 1)
        # the solver leaves out Low where it goes to its holder: add it back as the engine counts it
        low = state.tables.low_card
        holders = [s for s in range(4) if state.hands[s] >> low & 1]
        holders += [s for s, c, _x in state.tricks[-1].plays if c == low]
        if rules.low_to_holder:
            value += sum(1 for s in holders if s % 2 == 0)
        assert value + state.taken[0] == brute_force(state.clone())
        # and the root helper the bot uses: the value after each legal card, by MTD(f)
        solver = Solver(lay)
        me = state.to_act
        for card in state.legal_plays():
            child = state.clone()
            owed = child.extras_owed(me)
            spare = sorted(
                (c for c in range(52) if child.extras_from(card) >> c & 1), key=lambda c: child.tables.strength[c]
            )
            extras = mask_of(spare[:owed]) if owed else 0
            child.do_play(card, extras)
            after = solver.after(
                hands, state.tricks[-1].leader, trick, len(state.tricks) == 1, me, lay.to_new[card], lay.remap(extras)
            )
            low_ns = sum(1 for s in holders if s % 2 == 0) if rules.low_to_holder else 0
            assert after + low_ns + state.taken[0] == brute_force(child)
        checked += 1
    assert checked > 50


# ---------------------------------------------------------------------- the work budget
def test_node_budget_bounds_every_play_decision(monkeypatch):
    """The solver nodes of one decision, counted by every solver it made, never pass
    ``NODES_PER_SAMPLE`` x samples: the worst decision's work is bounded by a count,
    whatever the machine. A budget small enough that the first tricks reach it, so the
    bound is what stops them (the default almost never binds)."""
    solvers: list[Solver] = []
    monkeypatch.setattr(search_bot, "NODES_PER_SAMPLE", 4096)

    class Counted(Solver):
        def __init__(self, lay):
            super().__init__(lay)
            solvers.append(self)

    monkeypatch.setattr(search_bot, "Solver", Counted)
    samples = 4
    budget = search_bot.NODES_PER_SAMPLE * samples
    bot = SearchBot(seed=5, samples=samples)
    rules = make_ruleset("american62")
    worst = decisions = 0
    for n in range(1, 7):
        state = HandState(rules, generate_board("search-budget", n))
        rule = RuleBot(n)
        while state.phase != DONE:
            seat = state.seat_to_act()
            obs = observation(state, seat)
            if state.phase == PLAY and seat in "NS":
                solvers.clear()
                action = bot.decide(obs)
                used = sum(s.nodes for s in solvers)
                assert used <= budget
                assert used == bot.last_nodes
                worst = max(worst, used)
                decisions += 1
            else:
                action = rule.decide(obs)
            state.apply(action)
    assert decisions > 30
    assert worst >= 0.9 * budget


# ---------------------------------------------------------------------- determinism
def decisions_of(rules, board) -> list[tuple[dict, dict]]:
    record: list = []
    bot = SearchBot(seed=8, samples=FAST)
    play_hand(rules, board, {s: bot for s in "NESW"}, record)
    return record


@pytest.mark.parametrize("ruleset", ["american62", "foster51"])
def test_same_observation_same_decision(ruleset):
    rules = make_ruleset(ruleset)
    for n in range(1, 6):
        record = decisions_of(rules, generate_board("search-determinism", n))
        for obs, action in record:
            again = SearchBot(seed=8, samples=FAST).decide(copy.deepcopy(obs))
            assert again == action
    # and the seed matters only through decision_rng: a second bot with the same seed agrees
    obs = record[0][0]
    assert SearchBot(seed=8, samples=FAST).decide(obs) == SearchBot(seed=8, samples=FAST).decide(obs)


# ---------------------------------------------------------------------- only the observation counts
def swapped(board: Board, a: str, b: str) -> Board:
    deck = list(board.deck)
    i, j = deck.index(CARD_INDEX[a]), deck.index(CARD_INDEX[b])
    deck[i], deck[j] = deck[j], deck[i]
    return Board(board.dealer, tuple(deck), board.seed)


def twin_states(rules, board, seat: str, stop_at: int):
    """Two states whose observations for ``seat`` are identical but whose hidden cards differ.

    The hand is played (rule bots) to ``seat``'s ``stop_at``-th play decision; then two
    trumps still held by two *other* players, both dealt to them and never played, swap
    places in the deck, and the same actions are replayed on the new board. Trumps are
    kept by everyone through the draw and never change a follow obligation, so the
    replay is legal (tried pair by pair until it is).
    """
    state = HandState(rules, board)
    bots = {s: RuleBot(1) for s in "NESW"}
    decisions = 0
    while state.phase != DONE:
        who = state.seat_to_act()
        if state.phase == PLAY and who == seat:
            decisions += 1
            if decisions == stop_at and len(state.legal_plays()) > 1:
                break
        state.apply(bots[who].decide(observation(state, who)))
    if state.phase == DONE:
        return None
    me = SEATS.index(seat)
    trumps = state.tables.trump_mask
    others = [s for s in range(4) if s != me]
    for x in range(3):
        for y in range(x + 1, 3):
            p, q = others[x], others[y]
            held_p = state.hands[p] & state.dealt[p] & trumps
            held_q = state.hands[q] & state.dealt[q] & trumps
            for a in (c for c in range(52) if held_p >> c & 1):
                for b in (c for c in range(52) if held_q >> c & 1):
                    twin = HandState(rules, swapped(board, CARD_NAMES[a], CARD_NAMES[b]))
                    try:
                        for action in state.actions:
                            twin.apply({k: v for k, v in action.items() if k != "seat"})
                    except IllegalAction:
                        continue
                    if twin.hands != state.hands:
                        return state, twin
    return None


@PLAYED
def test_decisions_depend_only_on_the_observation(ruleset, options):
    rules = make_ruleset(ruleset, options)
    bots = [RandomBot(2), RuleBot(2), SearchBot(seed=2, samples=4)]
    pairs = 0
    for n in range(1, 40):
        seat = "NESW"[n % 4]
        twins = twin_states(rules, generate_board("search-blind", n), seat, stop_at=1 + n % 4)
        if twins is None:
            continue
        real, twin = twins
        obs_real, obs_twin = observation(real, seat), observation(twin, seat)
        assert obs_real == obs_twin
        assert real.hands != twin.hands
        for bot in bots:
            assert bot.decide(obs_real) == bot.decide(obs_twin)
        pairs += 1
        if pairs == 8:
            break
    assert pairs >= 5


def test_bidding_decisions_ignore_the_other_hands():
    """Before any card is seen: swap two cards between two other players' deals."""
    rules = make_ruleset("american62")
    board = generate_board("search-blind-bid", 1)
    state = HandState(rules, board)
    seat = state.seat_to_act()
    me = SEATS.index(seat)
    p, q = [s for s in range(4) if s != me][:2]
    a = min(c for c in range(52) if state.hands[p] >> c & 1)
    b = min(c for c in range(52) if state.hands[q] >> c & 1)
    twin = HandState(rules, swapped(board, CARD_NAMES[a], CARD_NAMES[b]))
    assert twin.hands != state.hands
    obs, obs_twin = observation(state, seat), observation(twin, seat)
    assert obs == obs_twin
    for bot in (RandomBot(1), RuleBot(1), SearchBot(seed=1)):
        assert bot.decide(obs) == bot.decide(obs_twin)


def assert_blind(bot, rules, board, state, seat: str, a: int, b: int) -> None:
    """``bot`` decides alike at ``state`` and on the twin board where cards ``a`` and ``b``
    (both held by players other than ``seat``) swap places, the same actions replayed."""
    twin = HandState(rules, swapped(board, CARD_NAMES[a], CARD_NAMES[b]))
    for done in state.actions:
        twin.apply({k: v for k, v in done.items() if k != "seat"})
    obs, obs_twin = observation(state, seat), observation(twin, seat)
    assert twin.hands != state.hands and obs_twin == obs
    assert bot.decide(obs_twin) == bot.decide(obs)


@pytest.mark.parametrize("ruleset", ["american62", "foster51"])
def test_every_bid_and_the_trump_ignore_the_other_hands(ruleset):
    """Every turn of the auction (after others' bids and passes) and the trump choice: the
    same on a twin board where two other players hold each other's first card."""
    rules = make_ruleset(ruleset)
    bot, rule = SearchBot(seed=3, samples=FAST), RuleBot(3)
    checked = 0
    for n in range(1, 9):
        board = generate_board("search-blind-auction", n)
        state = HandState(rules, board)
        while state.phase in ("bidding", "trump"):
            seat = state.seat_to_act()
            me = SEATS.index(seat)
            p, q = [s for s in range(4) if s != me][:2]
            a = min(c for c in range(52) if state.hands[p] >> c & 1)
            b = min(c for c in range(52) if state.hands[q] >> c & 1)
            obs = observation(state, seat)
            assert_blind(bot, rules, board, state, seat, a, b)
            checked += 1
            state.apply(rule.decide(obs))
    assert checked >= 30


def test_the_fitted_foster51_bid_only_with_the_default_rules():
    """search bids foster51 by its bid-or-pass fit (unlike search-play on some turns), and
    as search-play in american62 and under foster51 options the fit was not made for."""
    differ = {}
    for name, options in (("foster51", None), ("foster51", {"low_to_holder": True}), ("american62", None)):
        rules = make_ruleset(name, options)
        search, play = SearchBot(seed=4, samples=FAST), SearchPlayBot(seed=4, samples=FAST)
        count = 0
        for n in range(1, 13):
            state = HandState(rules, generate_board("search-fitted-bid", n))
            while state.phase == "bidding":
                obs = observation(state, state.seat_to_act())
                action = search.decide(obs)
                count += action != play.decide(obs)
                state.apply(action)
        differ[(name, bool(options))] = count
    assert differ[("foster51", False)] > 0
    assert differ[("foster51", True)] == 0 and differ[("american62", False)] == 0


def test_the_searched_foster51_rob_ignores_the_other_hands():
    """The dealer's rob, searched over the others' hands: the same on a twin board where
    two other players hold each other's kept cards (the face-up discards unchanged)."""
    rules = make_ruleset("foster51")
    bot = SearchBot(seed=5, samples=FAST, deal_samples=3)
    rule = RuleBot(5)
    checked = 0
    for n in range(1, 12):
        board = generate_board("search-blind-rob", n)
        state = HandState(rules, board)
        while state.phase != "rob":
            state.apply(rule.decide(observation(state, state.seat_to_act())))
        seat = state.seat_to_act()
        me = SEATS.index(seat)
        p, q = [s for s in range(4) if s != me][:2]
        kept_p, kept_q = state.hands[p] & state.dealt[p], state.hands[q] & state.dealt[q]
        if not (kept_p and kept_q) or state.restocks:
            continue
        a, b = min(c for c in range(52) if kept_p >> c & 1), min(c for c in range(52) if kept_q >> c & 1)
        assert_blind(bot, rules, board, state, seat, a, b)
        checked += 1
    assert checked >= 5


def test_the_rungs_and_the_strong_level_by_name():
    """search-play is the play-only search, search adds the deal search, and
    search:strong is search with ten times every budget; unknown names are refused."""
    play, search, strong = make_bot("search-play", 1), make_bot("search", 1), make_bot("search:strong", 1)
    assert type(play) is SearchPlayBot and type(search) is SearchBot and type(strong) is SearchBot
    assert (search.samples, search.deal_samples) == (DEFAULT_SAMPLES, DEAL_SAMPLES)
    assert (strong.samples, strong.deal_samples) == (10 * DEFAULT_SAMPLES, 10 * DEAL_SAMPLES)
    assert "search:strong" not in BUILTIN  # a default tournament of every built-in does not pay for it
    with pytest.raises(KeyError, match="search:strong"):
        make_bot("search:weak")


def test_the_family_search_samples_three_worlds_per_sample(monkeypatch):
    """Outside the solved rulesets the play samples ``FAMILY_WORLDS`` worlds per sample (a
    world there is cheaper than a solved layout), at every level."""
    worlds = []
    monkeypatch.setattr(family_search.FamilySearch, "play", lambda self, *a: worlds.append(self.samples))
    state = new_hand(make_ruleset("pedro"), generate_board("family-worlds", 1))
    while state.phase != PLAY:
        state.apply(RuleBot(1).decide(observation(state, state.seats[state.to_act])))
    for bot in (make_bot("search-play", 1), make_bot("search", 1), make_bot("search:strong", 1)):
        bot.decide(observation(state, state.seats[state.to_act]))
    assert FAMILY_WORLDS == 3
    assert worlds == [3 * DEFAULT_SAMPLES, 3 * DEFAULT_SAMPLES, 30 * DEFAULT_SAMPLES]


def test_the_rob_search_keeps_to_its_node_budget(monkeypatch):
    """The rob stops at ``DEAL_NODES`` x layouts solver nodes; with a budget too small for
    one solve it keeps search-play's six."""
    rules = make_ruleset("foster51")
    rule = RuleBot(3)
    seen = 0
    for n in range(1, 7):
        state = HandState(rules, generate_board("deal-budget", n))
        while state.phase != "rob":
            state.apply(rule.decide(observation(state, state.seat_to_act())))
        obs = observation(state, state.seat_to_act())
        if obs["restocks"]:
            continue
        bot = SearchBot(seed=3, samples=FAST, deal_samples=4)
        bot.decide(obs)
        assert 0 < bot.last_nodes <= deal_search.DEAL_NODES * 4
        with monkeypatch.context() as m:
            m.setattr(deal_search, "DEAL_NODES", 1)
            starved = SearchBot(seed=3, samples=FAST, deal_samples=4).decide(obs)
        assert set(starved["keep"]) == set(SearchPlayBot(seed=3, samples=FAST).decide(obs)["keep"])
        seen += 1
    assert seen >= 4
