"""``cinch bot new`` (and ``cinch-bot new``): a bot for every ruleset, its generated test
passing offline, one of them compared in the arena; existing files never overwritten.

The scaffold's table of decisions (``sdk.scaffold.DECISIONS``: the SDK cannot ask the
engine) is checked against what the engine asks in random games of every ruleset.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import sdk
from sdk import scaffold
from sdk.cli import main as cinch_bot
from server.arena.duplicate import units_of
from server.cli import main as cinch
from server.engine import make_ruleset
from server.engine.games import GAMES
from workers.trial import play_offline

ROOT = Path(__file__).resolve().parents[2]

# the table shapes where a ruleset asks more (seven_up's bunch needs two players and the option)
SHAPES = {
    "seven_up": [{}, {"players": 2, "two_player_bunch": True}, {"players": 3}],
    "all_fives": [{}, {"players": 2, "two_player_bunch": True}],
    "auction_cinch": [{}, {"players": 6}],
    "pedro": [{}, {"players": 7}],
}


class Recorder(sdk.Bot):
    """Random play, noting every decision it is asked."""

    def __init__(self):
        self.asked = set()

    def act(self, obs):
        self.asked.add(obs.decision)
        return obs.random_action(self.rng)


def test_the_scaffold_knows_every_ruleset_and_every_decision_it_asks():
    assert set(scaffold.RULESETS) == set(GAMES) == set(scaffold.UNITS)
    assert scaffold.UNITS == {g: len(units_of(make_ruleset(g))[0]) for g in GAMES}
    assert {p.stem for p in (ROOT / "docs" / "rules").glob("*.md")} >= set(GAMES)
    for ruleset in GAMES:
        asked = set()
        for options in SHAPES.get(ruleset, [{}]):
            recorder = Recorder()
            assert (
                play_offline(
                    recorder, ruleset, boards=40 if options.get("two_player_bunch") else 8, options=options
                ).faults
                == []
            )
            asked |= recorder.asked
        assert asked == set(scaffold.DECISIONS[ruleset]), ruleset


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_a_new_bot_answers_every_decision_legally_in_every_table_shape(tmp_path, ruleset, capsys):
    assert cinch(["bot", "new", "my_bot", "--ruleset", ruleset, "--dir", str(tmp_path)]) == 0
    assert "wrote" in capsys.readouterr().out
    bot = sdk.load_bot(f"{tmp_path / 'my_bot.py'}:MyBot")
    assert type(bot).__name__ == "MyBot" and isinstance(bot, sdk.Bot)
    for name in scaffold.DECISIONS[ruleset]:
        assert name in type(bot).__dict__, f"{ruleset}: no {name} method"
    for options in SHAPES.get(ruleset, [{}]):
        trial = play_offline(bot, ruleset, boards=6, options=options)
        assert trial.decisions > 0 and trial.faults == [], (options, trial.faults[:3])


def test_existing_files_are_never_overwritten(tmp_path, capsys):
    assert cinch_bot(["new", "my_bot", "--dir", str(tmp_path)]) == 0
    (tmp_path / "my_bot.py").write_text("mine\n")
    (tmp_path / "test_my_bot.py").unlink()
    assert cinch_bot(["new", "my_bot", "--dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "my_bot.py exists; nothing was written" in err and "Traceback" not in err
    assert (tmp_path / "my_bot.py").read_text() == "mine\n" and not (tmp_path / "test_my_bot.py").exists()
    assert cinch(["bot", "new", "my_bot", "--dir", str(tmp_path)]) == 2


@pytest.mark.parametrize("name", ["my-bot", "1bot", "class"])
def test_a_name_that_is_not_a_module_is_refused(tmp_path, name, capsys):
    assert cinch_bot(["new", name, "--dir", str(tmp_path)]) == 2
    assert "is not a Python module name" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


def test_an_unknown_ruleset_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit:
        cinch_bot(["new", "my_bot", "--ruleset", "bridge", "--dir", str(tmp_path)])
    assert exit.value.code == 2 and "invalid choice: 'bridge'" in capsys.readouterr().err


@pytest.mark.e2e
def test_the_generated_tests_pass_and_a_new_bot_plays_in_the_arena(tmp_path):
    """Every ruleset's generated test file, run by pytest as its author would; then
    ``cinch compare`` plays one of the bots against rule through the workers."""
    for ruleset in scaffold.RULESETS:
        assert cinch_bot(["new", f"bot_{ruleset}", "--ruleset", ruleset, "--dir", str(tmp_path)]) == 0
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "CINCH_ADMIN_TOKEN", "PYTEST_ADDOPTS")}
    env["CINCH_HOME"] = str(tmp_path / "home")
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", "."],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert tests.returncode == 0, tests.stdout[-3000:] + tests.stderr[-2000:]
    assert f"{len(scaffold.RULESETS)} passed" in tests.stdout, tests.stdout[-2000:]
    compare = subprocess.run(
        [
            sys.executable,
            "-m",
            "server.cli",
            "compare",
            "bot_american62.py:BotAmerican62",
            "rule",
            "--boards",
            "2",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=240,
        env=env,
    )
    assert compare.returncode == 0, compare.stderr[-3000:]
    assert "bot_american62:BotAmerican62" in compare.stdout and "Traceback" not in compare.stderr, compare.stdout
