"""Local entrants: the loader's refusals, and a local bot's seat (``workers.local_bot``)."""

import sys

import pytest

from server.arena.registry import is_local_reference
from server.engine.hand import IllegalAction
from workers.driver import local_roster
from workers.local_bot import LocalAgent, LocalBotError, display_name, resolve

BOTS = "tests/support/local_bots.py"


@pytest.fixture(autouse=True)
def _own_sys_path(monkeypatch):
    """A file's directory goes on sys.path (for the bot's own modules): not beyond a test."""
    monkeypatch.setattr(sys, "path", list(sys.path))


def test_a_file_reference_resolves_to_its_absolute_path_and_stem_name():
    name, source = resolve(f"{BOTS}:FirstLegal")
    assert name == "local_bots:FirstLegal"
    assert source["file"].endswith("/tests/support/local_bots.py") and source["file"].startswith("/")
    assert display_name(source) == name


def test_a_module_reference_resolves_with_the_directory_it_is_imported_from():
    name, source = resolve("examples.random_bot:RandomBot")
    assert name == "random_bot:RandomBot" and source["module"] == "examples.random_bot"


@pytest.mark.parametrize(
    "reference, message",
    [
        ("tests/support/nowhere.py:Bot", "no file"),
        (f"{BOTS}:Missing", "has no 'Missing'"),
        (f"{BOTS}:NotABot", "NotABot is not a subclass of sdk.Bot"),
        ("no_such_package.mod:Bot", "cannot import no_such_package.mod"),
    ],
)
def test_the_loader_says_what_is_wrong(reference, message):
    with pytest.raises(LocalBotError, match=message):
        resolve(reference)


def test_a_syntax_error_names_the_file_and_line(tmp_path):
    (tmp_path / "broken.py").write_text("import sdk\n\nclass B(sdk.Bot):\n    def act(self obs):\n        pass\n")
    with pytest.raises(LocalBotError, match=r"syntax error in .*broken.py, line 4"):
        resolve("broken.py:B", cwd=str(tmp_path))


def test_known_names_stay_bots_and_a_class_entered_twice_is_refused(tmp_path):
    names, roster = local_roster(["rule", "search:strong", f"{BOTS}:FirstLegal"], ["rule", "search:strong"])
    assert names == ["rule", "search:strong", "local_bots:FirstLegal"]
    assert roster["local_bots:FirstLegal"]["kind"] == "local"
    (tmp_path / "local_bots.py").write_text("import sdk\n\nclass FirstLegal(sdk.Bot):\n    pass\n")
    with pytest.raises(LocalBotError, match="a bot is named twice"):
        local_roster([f"{BOTS}:FirstLegal", f"{tmp_path}/local_bots.py:FirstLegal"], [])
    assert is_local_reference("my_bot.py:MyBot") and not is_local_reference("rule")


class _Store:
    def secret(self):
        return b"s" * 32


def test_a_local_seat_checks_its_answer_like_the_api():
    _, source = resolve(f"{BOTS}:Illegal")
    agent = LocalAgent(_Store(), source)
    observation = {"seat": "N", "legal": [{"type": "pass"}]}
    with pytest.raises(IllegalAction):
        agent.decide(observation)
    _, source = resolve(f"{BOTS}:FirstLegal")
    assert LocalAgent(_Store(), source).decide(observation) == {"type": "pass"}


def test_a_tables_seats_are_made_with_no_tournament_to_ask(store):
    """A table's context has no tournament (and no local entrants): its remote seat is made
    without asking for one. Asking broke every table with a remote bot once."""
    from workers.jobs import agent_for
    from workers.remote import RemoteAgent

    context = {"id": "g1", "seed": 1, "limits": None}
    assert isinstance(agent_for(store, "someone-remote", context), RemoteAgent)
    assert not isinstance(agent_for(store, "rule", context), RemoteAgent)
