"""The search bot against itself as it was before its speed budget (issue 12's strength bar).

    python benchmarks/search_before.py [--first 601] [--boards 400] [--seeds 1,2] [--skip-rule]

Issue 12 asks the fast search bot (a hard node budget per decision) to be no weaker
against ``rule`` than the slow one was (+7.05 [+5.80, +8.31] per board pair, american62,
boards 601-1000 of ``standard``). One number against ``rule`` moves by more than a point
with nothing but the bot's seeded tie-breaks, so this plays what settles the question:

* the bot before the budget (``BEFORE``, loaded from this repository's git history, so
  it needs a clone, not an unpacked archive) against ``rule``, for each ``--seeds`` value:
  how far its own figure moves with its tie-breaks;
* the bot now against the bot before, head to head on the same boards: a mean per
  board pair whose interval holds zero is no measurable difference in strength, and it
  is a tighter test than two separate figures against ``rule``.

One process, one core; the budgets are node counts, so the results do not depend on
the load (only the time taken does).
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bots import match  # noqa: E402  (the strength harness of benchmarks/bots.py)

from server.arena import dealsets  # noqa: E402
from server.arena.tournaments import public_deals  # noqa: E402
from server.engine import make_ruleset  # noqa: E402
from workers.bots import RuleBot, SearchBot  # noqa: E402

BEFORE = "2900d88^"  # the commit before "Search bot, honestly fast (issue 12)"
ROOT = Path(__file__).resolve().parent.parent


def load_before():
    """The search bot module as it was at ``BEFORE``, imported from a temporary file."""
    try:
        source = subprocess.run(
            ["git", "show", f"{BEFORE}:workers/bots/search_bot.py"],
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        sys.exit(f"search_before.py: cannot read the bot before the budget from git ({exc}); run it in a clone")
    source = source.replace("from .base import", "from workers.bots.base import")
    path = Path(tempfile.mkdtemp()) / "search_before_budget.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("search_before_budget", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--first", type=int, default=601)
    parser.add_argument("--boards", type=int, default=400)
    parser.add_argument("--seeds", default="1,2", help="tie-break seeds of the bot before, against rule")
    parser.add_argument("--skip-rule", action="store_true", help="only the head-to-head match")
    args = parser.parse_args()
    before = load_before()
    rules = make_ruleset("american62")
    deals = dealsets.load(public_deals(4))
    boards = [(n, deals.board(n)) for n in range(args.first, args.first + args.boards)]
    print(f"american62, {deals.name} boards {args.first}..{args.first + args.boards - 1} (X's score per board pair):")
    if not args.skip_rule:
        for seed in (int(s) for s in args.seeds.split(",")):
            match(f"before (seed {seed}) vs rule", rules, boards, before.SearchBot(seed=seed), RuleBot(seed=2))
    match("now vs before", rules, boards, SearchBot(seed=1), before.SearchBot(seed=1))


if __name__ == "__main__":
    main()
