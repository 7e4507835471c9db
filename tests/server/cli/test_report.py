"""The tournament report's columns: a long name (a local bot's ``stem:Class``) widens its
column instead of pushing the figures after it out of line."""

from server.cli.report import print_results

LONG = "a_rather_long_bot_file_name:QuiteALongClassName"


def _stats(mean):
    return {"mean": mean, "ci_low": mean - 1, "ci_high": mean + 1, "boards": 4, "won": 2, "tied": 0, "lost": 2}


def test_long_names_keep_the_columns_aligned(capsys):
    standings = [
        {"bot": LONG, "mean": 1.5, "ci_low": -0.25, "ci_high": 3.25, "boards": 4, "won": 2, "tied": 0, "lost": 2}
        | {"match_wins": 0, "matches": 1},
        {"bot": "random", "mean": -1.5, "boards": 4, "won": 2, "tied": 0, "lost": 2, "match_wins": 0, "matches": 1},
    ]
    results = {
        "tournament": "t1",
        "format": "round_robin",
        "ruleset": "american62",
        "standings": standings,
        "crosstable": {LONG: {"random": _stats(1.5)}, "random": {LONG: _stats(-1.5)}},
        "matches": [],
    }
    rating = {"se": 1.0, "provisional": True, "boards": 4}
    ratings = {
        LONG: {"rating": 0.75, "low": -2.0, "high": 3.5, "matches": 1, **rating},
        "random": {"rating": -0.75, "low": -3.5, "high": 2.0, "matches": 1, **rating},
    }
    print_results(results, ratings)
    lines = capsys.readouterr().out.splitlines()
    rows = [line for line in lines if line.lstrip().startswith(("1 ", "2 "))]
    assert rows[0].index("+1.500 [  -0.25,   +3.25]") < rows[1].index("-1.500"), rows
    assert rows[0].index("      4") == rows[1].index("      4"), "the columns after the interval align"
    rated = [line for line in lines if "(1 match, 4 boards)" in line]
    assert len(rated) == 2 and rated[0].index("+0.75") == rated[1].index("-0.75"), rated
    crossed = [line for line in lines if line.startswith(f"  {LONG}") or line.startswith("  random ")]
    assert len({len(line) for line in crossed[-2:]}) == 1, crossed
