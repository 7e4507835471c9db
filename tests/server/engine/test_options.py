"""Options are declared once, in the games (``server.engine.rulesets.Option``): the engine's
checks, the API's option schemas and the rules page are that one declaration."""

from pathlib import Path

import pytest

from server.engine import RulesetError, make_ruleset
from server.engine.games import GAMES
from server.engine.options_doc import markdown
from server.web.api.game_schemas import OPTIONS

PAGE = Path(__file__).resolve().parents[3] / "docs" / "rules" / "options.md"


def test_the_rules_page_is_what_the_games_declare():
    assert PAGE.read_text() == markdown(), "run: python -m server.engine.options_doc > docs/rules/options.md"


@pytest.mark.parametrize("name", list(GAMES))
def test_the_api_schema_accepts_exactly_what_the_engine_accepts(name):
    spec, schema = GAMES[name], OPTIONS[name][0]()
    assert set(schema.fields) == set(spec.options) | ({"players"} if len(spec.players) > 1 else set())
    for key, option in spec.options.items():
        default = getattr(spec.default, key)
        assert make_ruleset(name, {key: default}) is not None and schema.validate({key: default}) == {}
        wrong = "x" if option.kind is not str else 7
        with pytest.raises(RulesetError, match=key):
            make_ruleset(name, {key: wrong})
        assert key in schema.validate({key: wrong})
        for bad in ([option.low - 1] if option.low is not None else []) + (
            [option.high + 1] if option.high is not None else []
        ):
            with pytest.raises(RulesetError):
                make_ruleset(name, {key: bad})
            assert key in schema.validate({key: bad})


def test_a_bool_is_no_whole_number():
    with pytest.raises(RulesetError, match="target"):
        make_ruleset("pitch", {"target": True})
