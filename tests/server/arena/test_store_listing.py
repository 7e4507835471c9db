"""The listing's indexes (``server.arena.store.listing``): filters, name search, status as
shown, cursor paging both ways, a bot's matches, leaders, and the rebuild of a store made
before the indexes."""

import pytest

from server.arena.store.listing import Query, match_score, words
from server.arena.tournaments import name_problem

LEASE = 60_000


def make(store, n, ruleset="american62", fmt="round_robin", bots=("rule", "random"), name=None):
    """``n`` tournaments stored directly (no deal set, no play): what the listing reads."""
    tids = []
    for _ in range(n):
        spec = {"ruleset": ruleset, "format": fmt, "bots": list(bots), "name": name}
        matches = [{"x": bots[0], "y": bots[1], "first": 1, "last": 2}]
        tids.append(store.create_tournament(spec, matches, "test", LEASE))
    return tids


def ids(page):
    return page.ids


def test_pages_walk_every_tournament_newest_first_and_back(store):
    made = make(store, 7)
    first = store.page(Query(), 3)
    assert first.ids == made[::-1][:3] and first.newer is None and first.older == int(made[4][1:])
    second = store.page(Query(), 3, before=first.older)
    assert second.ids == made[::-1][3:6] and second.newer == int(made[3][1:])
    third = store.page(Query(), 3, before=second.older)
    assert third.ids == [made[0]] and third.older is None
    back = store.page(Query(), 3, after=third.newer)
    assert back.ids == second.ids and back.older == second.older
    assert store.page(Query(), 3, after=back.newer).ids == first.ids


def test_filters_all_hold_and_the_smallest_index_is_walked(store):
    a = make(store, 3, ruleset="american62", bots=("rule", "random"))
    b = make(store, 2, ruleset="foster51", bots=("rule", "search"))
    c = make(store, 2, ruleset="foster51", fmt="gauntlet", bots=("random", "search"))
    assert store.page(Query(ruleset=("foster51",)), 10).ids == (b + c)[::-1]
    assert store.page(Query(bot=("rule",)), 10).ids == (a + b)[::-1]
    assert store.page(Query(bot=("rule", "search")), 10).ids == b[::-1]  # both played
    assert store.page(Query(ruleset=("foster51",), format=("gauntlet",), bot=("search",)), 10).ids == c[::-1]
    assert store.page(Query(bot=("nobody",)), 10).ids == []
    # a filter much smaller than the others still pages right
    many = make(store, 70, bots=("rule", "random"))
    page = store.page(Query(bot=("rule", "random")), 5, before=int(many[0][1:]))
    assert page.ids == a[::-1] and page.older is None and page.newer == int(a[-1][1:])


def test_name_search_by_the_beginnings_of_words(store):
    spring = make(store, 1, name="Spring Cup 2026")[0]
    winter = make(store, 1, name="winter cup")[0]
    make(store, 1)  # no name
    assert store.page(Query(words=("cup",)), 10).ids == [winter, spring]
    assert store.page(Query(words=("spr", "cup")), 10).ids == [spring]
    assert store.page(Query(words=("2026",)), 10).ids == [spring]
    assert store.page(Query(words=("pring",)), 10).ids == []  # a word's beginning, not its middle
    assert words("Spring-Cup's 2026!") == ["spring", "cup", "s", "2026"]


def test_status_as_shown_a_lapsed_lease_reads_interrupted(store):
    done, stopped, live, lapsed = make(store, 4)
    store.finish_tournament(done, {"standings": [{"bot": "rule", "mean": 1.5, "ci_low": 0.5, "ci_high": 2.5}]})
    store.stop_tournament(stopped, "cancelled")
    store.redis.delete(store.key("tournament", lapsed, "lease"))
    assert store.page(Query(status="finished"), 10).ids == [done]
    assert store.page(Query(status="cancelled"), 10).ids == [stopped]
    assert store.page(Query(status="queued"), 10).ids == [live]
    assert store.page(Query(status="interrupted"), 10).ids == [lapsed]
    store.stop_tournament(live, "interrupted")
    assert store.page(Query(status="interrupted"), 10).ids == [lapsed, live]
    assert store.page(Query(status="interrupted", bot=("rule",)), 1).ids == [lapsed]
    store.take_over(stopped, "test", LEASE)  # resumed: out of the stopped indexes
    assert store.page(Query(status="cancelled"), 10).ids == []
    assert store.page(Query(status="queued"), 10).ids == [stopped]
    assert store.leaders([done])[done]["bot"] == "rule"


def test_a_bots_matches_newest_tournament_first_in_schedule_order(store):
    spec = {"ruleset": "seven_up", "format": "round_robin", "bots": ["a", "b", "c"]}
    older = store.create_tournament(
        spec, [{"x": "a", "y": "b", "first": 1, "last": 1}, {"x": "a", "y": "c", "first": 1, "last": 1}], "test", LEASE
    )
    newer = store.create_tournament(
        spec, [{"x": "b", "y": "c", "first": 1, "last": 1}, {"x": "c", "y": "a", "first": 1, "last": 1}], "test", LEASE
    )
    assert store.bot_matches("a", 0, 10) == ([f"{newer}.m2", f"{older}.m1", f"{older}.m2"], 3)
    assert store.bot_matches("a", 1, 1) == ([f"{older}.m1"], 3)
    store.add_matches(newer, [{"id": f"{newer}.m3", "entrants": ["a#2", "b", "c", "rule#h1"], "x": "a#2", "y": "b"}])
    assert store.bot_matches("rule", 0, 10) == ([f"{newer}.m3"], 1)
    assert match_score("t3.m2") > match_score("t3.m5") > match_score("t2.m1")


def test_a_store_made_before_the_indexes_is_indexed_on_first_listing(store):
    made = make(store, 3, name="old one")
    store.finish_tournament(made[0], {"standings": [{"bot": "random", "mean": 0.25}]})
    store.stop_tournament(made[1], "failed", "boom")
    for key in store.redis.scan_iter(match=store.key("tournaments", "*")):  # as an older version left it
        if not key.decode().endswith(("tournaments", "active")):
            store.redis.delete(key)
    assert not store.index_built() and store.page(Query(), 10).ids == []
    store.ensure_index()
    assert store.index_built()
    assert store.page(Query(), 10).ids == made[::-1]
    assert store.page(Query(status="failed"), 10).ids == [made[1]]
    assert store.page(Query(status="finished", words=("old",)), 10).ids == [made[0]]
    assert store.leaders(made)[made[0]]["bot"] == "random"
    assert store.bot_matches("rule", 0, 10)[1] == 3


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("Spring Cup 2026", None),
        ("<b>é & ü</b> #3", None),
        ("", "1 to 80"),
        ("x" * 81, "1 to 80"),
        ("two\nlines", "printable"),
        ("tab\there", "printable"),
        (" padded", "space"),
        ("---", "letter or a digit"),
        (42, "text"),
    ],
)
def test_a_tournament_name_is_checked(name, problem):
    found = name_problem(name)
    assert (found is None) if problem is None else (problem in found)


def test_head_to_head_rows_are_kept_until_a_tournament_finishes_or_the_bot_gets_a_match(store):
    first, second = make(store, 2)
    version = store.h2h_version("rule")
    store.put_head_to_head_rows("rule", version, [{"opponent": "random"}])
    assert store.head_to_head_rows("rule", version) == [{"opponent": "random"}]
    store.finish_tournament(first, {"standings": []})
    assert store.h2h_version("rule") != version and store.head_to_head_rows("rule", store.h2h_version("rule")) is None
    version = store.h2h_version("rule")
    make(store, 1, bots=("rule", "search"))
    assert store.h2h_version("rule") != version and store.h2h_version("random") == version  # not its match


def test_head_to_head_rows_outlast_other_bots_tournaments_finishing(store):
    (mine,) = make(store, 1, bots=("rule", "random"))
    (theirs,) = make(store, 1, bots=("search", "random"))
    version = store.h2h_version("rule")
    store.put_head_to_head_rows("rule", version, [{"opponent": "random"}])
    store.finish_tournament(theirs, {"standings": []})
    assert store.h2h_version("rule") == version and store.head_to_head_rows("rule", version) is not None
    store.finish_tournament(mine, {"standings": []})
    assert store.h2h_version("rule") != version
