"""docs/observations.md is what the code declares: every game's observation fields (the API's
schemas), the SDK's decision methods and observation helpers; it cannot drift."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_observation_reference_is_generated_from_the_code():
    spec = importlib.util.spec_from_file_location("reference_docs", ROOT / "tools" / "reference_docs.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    made = tool.markdown()
    assert (ROOT / "docs" / "observations.md").read_text() == made, (
        "run: python tools/reference_docs.py > docs/observations.md"
    )
    for decision in ("sale", "widow", "call", "beg"):
        assert f"`Bot.{decision}(obs)`" in made
    assert "## auction_cinch" in made and "`makers`" in made
