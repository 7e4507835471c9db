"""``cinch remote``'s own help: what it says of the server's choices comes from the one
declaration of them, not from a copy that falls behind (it once offered two rulesets)."""

from __future__ import annotations

import pytest

from server.cli import main
from server.engine import GAMES


def test_remote_tournament_create_names_every_ruleset(capsys) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["remote", "tournament", "create", "--help"])
    assert exited.value.code == 0
    shown = " ".join(capsys.readouterr().out.split())  # argparse wraps the help
    for name in GAMES:
        assert name in shown, name
