"""Rewrite the rules citations in the code so that they point into docs/rules/.

The code used to cite the rules by section number of two files that live outside the
repository (``RULES.md 4``, ``RULES-family 11.2``, ``RULES.md section 6``...). Those rules
are now stated in docs/rules/, and this script rewrites every such citation, in place, into
the page and anchor that states it: ``RULES-family 11.2`` becomes
``docs/rules/progressive.md#base``. The map below is the one source; docs/rules/sections.md
is the same map for people (``--markdown`` prints it).

Idempotent: a rewritten citation no longer matches, so running it again changes nothing.
Meant to be re-run after merging branches that moved or added modules:

    python tools/cite_rules.py            # rewrite, and list what was changed
    python tools/cite_rules.py --check    # change nothing; exit 1 if a citation is left
    python tools/cite_rules.py --markdown # print the section map as a markdown table

Every target is checked against the anchors of docs/rules/*.md before anything is written,
and the rewritten modules are passed through ``ruff format`` (a longer citation can push a
call past the line length).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "rules"
SCAN = ("server", "workers", "sdk", "tests", "tools", "benchmarks", "examples")
SUFFIXES = {".py", ".html", ".js"}
SKIP = {Path(__file__).resolve(), ROOT / "tests" / "test_docs_site.py"}  # this file and its test hold samples

# RULES.md: the two Cinch rulesets and what every ruleset shares.
RULES_MD = {
    "1": ("common.md", "", "common ground: seats, cards, Pedros, trump order, counting cards, play, bidding"),
    "2": ("common.md", "boards", "boards, dealing, the canonical generator, rebuilding the stock"),
    "3": ("american62.md", "", "ruleset american62"),
    "4": ("foster51.md", "", "ruleset foster51 and its named options"),
    "5": ("actions.md", "refusals", "what every ruleset must refuse"),
    "6": ("actions.md", "wire-format", "the wire format of an action; every decision is asked"),
    "7": ("index.md", "family", "the wider family in the sources"),
}

# RULES-family.md: the further rulesets, duplicate shapes, Progressive Cinch.
FAMILY = {
    "0": ("common.md", "family", "family conventions"),
    "F1": ("common.md", "seats", "seats, eldest, the deal passing left"),
    "F2": ("common.md", "cards", "the deck (53 with JK) and deal sets per table size and deck"),
    "F3": ("common.md", "packets", "rounds of packets; cards out of play"),
    "F4": ("common.md", "trumps", "plain, cinch and snoozer trumps"),
    "F5": ("common.md", "play", "the play of a trick"),
    "F6": ("common.md", "in-play", "in play, holder, winner"),
    "F7": ("common.md", "pips", "pips for Game"),
    "F8": ("common.md", "sides", "sides and scores"),
    "F9": ("common.md", "game-and-board", "a game and a board"),
    "F10": ("common.md", "decisions", "every decision is asked"),
    "1": ("seven_up.md", "", "ruleset seven_up"),
    "1.1": ("seven_up.md", "players", "players"),
    "1.2": ("seven_up.md", "deal", "deal and turn-up"),
    "1.3": ("seven_up.md", "turned-jack", "a turned Jack"),
    "1.4": ("seven_up.md", "begging", "begging, give"),
    "1.5": ("seven_up.md", "running", "running the cards"),
    "1.6": ("seven_up.md", "bunch", "bunching"),
    "1.7": ("seven_up.md", "two-player-bunch", "option two_player_bunch"),
    "1.8": ("seven_up.md", "discard", "discard; option keep_nine"),
    "1.9": ("seven_up.md", "play", "play"),
    "1.10": ("seven_up.md", "points", "High, Low, Jack, Game"),
    "1.11": ("seven_up.md", "game", "game end and order"),
    "1.12": ("seven_up.md", "decisions", "decisions"),
    "2": ("pitch.md", "", "ruleset pitch"),
    "2.1": ("pitch.md", "deal", "deal without turn-up"),
    "2.2": ("pitch.md", "trump", "the pitch fixes trump"),
    "2.3": ("pitch.md", "points", "a tied Game scores for nobody"),
    "2.4": ("pitch.md", "game", "game end"),
    "3": ("all_fives.md", "", "ruleset all_fives"),
    "3.1": ("all_fives.md", "pegging", "pegging"),
    "3.2": ("all_fives.md", "points", "end of the hand"),
    "3.3": ("all_fives.md", "game", "game end"),
    "4": ("auction_pitch.md", "", "ruleset auction_pitch"),
    "4.1": ("auction_pitch.md", "deal", "players and deal"),
    "4.2": ("auction_pitch.md", "auction", "auction"),
    "4.3": ("auction_pitch.md", "sale", "sell or pitch"),
    "4.4": ("auction_pitch.md", "trump", "the pitch"),
    "4.5": ("auction_pitch.md", "points", "points"),
    "4.6": ("auction_pitch.md", "scoring", "scoring, set back"),
    "4.7": ("auction_pitch.md", "game", "game end and order"),
    "4.8": ("auction_pitch.md", "decisions", "decisions"),
    "5": ("pedro.md", "", "ruleset pedro"),
    "5.1": ("pedro.md", "deal", "deal; option deal_all"),
    "5.2": ("pedro.md", "auction", "auction with raises"),
    "5.3": ("pedro.md", "points", "18 points to the winner"),
    "5.4": ("pedro.md", "game", "game end and order"),
    "5.5": ("pedro.md", "decisions", "decisions"),
    "6": ("snoozer.md", "", "ruleset snoozer"),
    "6.1": ("snoozer.md", "deck", "53 cards"),
    "6.2": ("snoozer.md", "joker", "the joker"),
    "6.3": ("snoozer.md", "points", "36 points"),
    "6.4": ("snoozer.md", "game", "bids, game end and order"),
    "6.5": ("snoozer.md", "decisions", "decisions"),
    "7": ("blind_cinch.md", "", "ruleset blind_cinch"),
    "7.1": ("blind_cinch.md", "deal", "the blind packets"),
    "7.2": ("blind_cinch.md", "auction", "auction"),
    "7.3": ("blind_cinch.md", "declarer", "declarer first, then the others"),
    "7.4": ("blind_cinch.md", "discard", "discard per base"),
    "7.5": ("blind_cinch.md", "play", "play and scoring"),
    "7.6": ("blind_cinch.md", "decisions", "decisions"),
    "8": ("sixty_three.md", "", "ruleset sixty_three"),
    "8.1": ("sixty_three.md", "players", "players, deal"),
    "8.2": ("sixty_three.md", "auction", "auction with raises"),
    "8.3": ("sixty_three.md", "draw", "trump, discard, draw"),
    "8.4": ("sixty_three.md", "points", "63 points"),
    "8.5": ("sixty_three.md", "scoring", "option scoring"),
    "8.6": ("sixty_three.md", "decisions", "decisions"),
    "9": ("widow_cinch.md", "", "ruleset widow_cinch"),
    "9.1": ("widow_cinch.md", "players", "three sides of two"),
    "9.2": ("widow_cinch.md", "deal", "deal and widow"),
    "9.3": ("widow_cinch.md", "auction", "auction"),
    "9.4": ("widow_cinch.md", "widow", "take or leave the widow"),
    "9.5": ("widow_cinch.md", "discard", "discard"),
    "9.6": ("widow_cinch.md", "play", "play"),
    "9.7": ("widow_cinch.md", "scoring", "scoring"),
    "9.8": ("widow_cinch.md", "game", "game end and order"),
    "9.9": ("widow_cinch.md", "decisions", "decisions"),
    "10": ("auction_cinch.md", "", "ruleset auction_cinch"),
    "10.1": ("auction_cinch.md", "players", "players"),
    "10.2": ("auction_cinch.md", "deal", "deal"),
    "10.3": ("auction_cinch.md", "auction", "auction and trump"),
    "10.4": ("auction_cinch.md", "draw", "draw"),
    "10.5": ("auction_cinch.md", "call", "the call"),
    "10.6": ("auction_cinch.md", "play", "play"),
    "10.7": ("auction_cinch.md", "scoring", "makers and opponents"),
    "10.8": ("auction_cinch.md", "game", "game end"),
    "10.9": ("auction_cinch.md", "decisions", "decisions"),
    "11": ("progressive.md", "", "Progressive Cinch"),
    "11.1": ("progressive.md", "field", "field"),
    "11.2": ("progressive.md", "base", "base ruleset"),
    "11.3": ("progressive.md", "rounds", "rounds"),
    "11.4": ("progressive.md", "table-result", "table result and cut"),
    "11.5": ("progressive.md", "first-seating", "first seating"),
    "11.6": ("progressive.md", "movement", "movement"),
    "11.7": ("progressive.md", "seating", "the partners divide"),
    "11.8": ("progressive.md", "standing", "standing"),
    "12": ("duplicate.md", "", "duplicate play for other shapes"),
    "12.1": ("duplicate.md", "two-sides", "two sides of two"),
    "12.2": ("duplicate.md", "single-seats", "single seats: rotations"),
    "12.3": ("duplicate.md", "three-sides", "three sides of two"),
    "12.4": ("duplicate.md", "permute", "option rooms = permute"),
    "12.5": ("duplicate.md", "net", "net against the field"),
    "13": ("actions.md", "family-actions", "the family's action objects"),
    "14": ("actions.md", "refusals", "refusals"),
    "15": ("index.md", "family", "summary table"),
    "16": ("rulings.md", "clarifications", "clarifications"),
    "16.1": ("rulings.md", "players-option", "table size and target"),
    "16.2": ("rulings.md", "game-only", "rules only in a game"),
    "16.3": ("rulings.md", "bunch-questions", "bunch questions"),
    "16.4": ("rulings.md", "no-trump-in-play", "no trump in play"),
    "16.5": ("rulings.md", "one-card-several-items", "one card, several items"),
    "16.6": ("rulings.md", "pitcher-seat", "contracts and declarers"),
    "16.7": ("rulings.md", "raises", "order of raises"),
    "16.8": ("rulings.md", "sixty-three-setback", "sixty_three with no contract; the rob"),
    "16.9": ("rulings.md", "blind-packets", "blind packets"),
    "16.10": ("rulings.md", "reshuffles", "rebuilding in the family"),
    "16.11": ("rulings.md", "call-timing", "when the call is made"),
    "16.12": ("rulings.md", "left-widow", "a left widow"),
    "16.13": ("rulings.md", "undealt-joker", "an undealt joker"),
    "16.14": ("rulings.md", "game-ties", "ties for Game"),
}

# Citations whose wording the general rule cannot read (a bare "section N", a citation of a
# whole file, a section of one file labelled with the other's name, a README section that
# moved into docs/): exact text, replaced first.
PHRASES = {
    "named variations from section 4 are": "named variations from docs/rules/foster51.md#options are",
    "(section 11's base: a 4-seat": "(docs/rules/progressive.md#base: a 4-seat",
    "as section 11 says": "as docs/rules/progressive.md says",
    "(RULES.md, RULES-family.md)": "(docs/rules/)",
    "RULES.md's two follow-up cases": "the two follow-up cases of docs/rules/american62.md#game",
    "variants of RULES-family (": "variants of the family (docs/rules/index.md#family: ",
    "(RULES-family replay contract)": "(the family's replay contract: tests/server/engine/data/family/README.md)",
    "RULES.md 2, 16.10": "docs/rules/common.md#reshuffle, docs/rules/rulings.md#reshuffles",
    'RULES.md section 1 "Play" (and RULES-family F5)': "docs/rules/common.md#play",
    'RULES.md 5\'s "clear error naming the rule"': 'the "clear error naming the rule" of docs/rules/actions.md#refusals',
    "RULES-family 9.8's order": "the order of docs/rules/widow_cinch.md#game",
    # README sections that moved into the docs pages
    "describe the resulting hand (see README)": "describe the resulting hand (see docs/writing-a-bot.md#cinch-replay-the-hand-auditor)",
    'not rated: see README, "Progressive Cinch"': "not rated: see docs/rules/progressive.md#not-rated",
    "(contract in the README)": "(contract in docs/writing-a-bot.md#cinch-replay-the-hand-auditor)",
}

REF = r"(?:F\d+|\d+(?:\.\d+)?)"
CITE = re.compile(
    r"(?P<doc>RULES\.md|RULES-family(?:\.md)?)"
    r"(?P<intro> +(?:§ ?|sections? )?)"
    rf"(?P<first>{REF})(?P<rest>(?:(?:, | and | or |-){REF})*)"
    r"(?![\w.]*\d)"
)
LIST_PART = re.compile(rf"(, | and | or |-)({REF})")


def targets(doc: str, first: str, rest: str) -> list[tuple[str, str]] | None:
    """The (page, anchor) of each section cited, or None if one is not in the map."""
    table = RULES_MD if doc == "RULES.md" else FAMILY
    refs = [first]
    for sep, ref in LIST_PART.findall(rest):
        if sep == "-":  # a range of whole sections: 3-4, 0-3
            if not (refs[-1].isdigit() and ref.isdigit()):
                return None
            refs.extend(str(n) for n in range(int(refs[-1]) + 1, int(ref) + 1))
        else:
            refs.append(ref)
    if not all(ref in table for ref in refs):
        return None
    out: list[tuple[str, str]] = []
    for ref in refs:
        page, anchor, _ = table[ref]
        if (page, anchor) not in out:
            out.append((page, anchor))
    return out


def render(found: list[tuple[str, str]]) -> str:
    """docs/rules/a.md#x, #y, docs/rules/b.md: a later anchor on the same page is written alone."""
    parts, page_before = [], None
    for page, anchor in found:
        if page == page_before and anchor:
            parts.append(f"#{anchor}")
        else:
            parts.append(f"docs/rules/{page}" + (f"#{anchor}" if anchor else ""))
        page_before = page
    return ", ".join(parts)


def rewrite(text: str) -> tuple[str, list[tuple[str, str]]]:
    """``text`` with every known citation rewritten, and the (old, new) pairs."""
    changes: list[tuple[str, str]] = []
    for old, new in PHRASES.items():
        if old in text:
            changes.extend((old, new) for _ in range(text.count(old)))
            text = text.replace(old, new)

    def one(match: re.Match[str]) -> str:
        doc = "RULES.md" if match["doc"] == "RULES.md" else "RULES-family"
        found = targets(doc, match["first"], match["rest"])
        if found is None:
            return match[0]
        new = render(found)
        changes.append((match[0], new))
        return new

    return CITE.sub(one, text), changes


def anchors(page: Path) -> set[str]:
    """The explicit ``{#id}`` anchors of a docs page."""
    return set(re.findall(r"\{#([\w-]+)\}", page.read_text(encoding="utf-8")))


def check_map() -> list[str]:
    """Every map target that docs/rules/ does not have."""
    missing = []
    for name, table in (("RULES.md", RULES_MD), ("RULES-family", FAMILY)):
        for ref, (page, anchor, _) in table.items():
            path = DOCS / page
            if not path.exists():
                missing.append(f"{name} {ref}: no page docs/rules/{page}")
            elif anchor and anchor not in anchors(path):
                missing.append(f"{name} {ref}: no anchor #{anchor} in docs/rules/{page}")
    return missing


def files() -> list[Path]:
    out = []
    for top in SCAN:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix in SUFFIXES and path.is_file() and path.resolve() not in SKIP and ".venv" not in path.parts:
                out.append(path)
    return out


def reformat(paths: list[Path]) -> None:
    """``ruff format`` the rewritten modules: a longer citation may push a call past the line length."""
    ruff = shutil.which("ruff") or shutil.which("ruff", path=str(Path(sys.executable).parent))
    if paths and ruff:
        subprocess.run([ruff, "format", "-q", *map(str, paths)], cwd=ROOT, check=False)
    elif paths:
        print("ruff not found: run `ruff format` on the rewritten files", file=sys.stderr)


LEFT = re.compile(r"RULES(?:\.md|-family)")


def markdown() -> str:
    lines = ["| section | states it | what |", "| --- | --- | --- |"]
    for name, table in (("RULES.md", RULES_MD), ("RULES-family", FAMILY)):
        for ref, (page, anchor, what) in table.items():
            link = page + (f"#{anchor}" if anchor else "")
            lines.append(f"| {name} §{ref} | [{link}]({link}) | {what} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if any citation would change")
    parser.add_argument("--markdown", action="store_true", help="print the section map as a markdown table")
    args = parser.parse_args(argv)
    if args.markdown:
        print(markdown())
        return 0
    missing = check_map()
    if missing:
        print("the section map points where docs/rules/ has nothing:", *missing, sep="\n  ", file=sys.stderr)
        return 2
    total, written = 0, []
    for path in files():
        text = path.read_text(encoding="utf-8")
        new, changes = rewrite(text)
        if not changes:
            continue
        total += len(changes)
        rel = path.relative_to(ROOT)
        for old, repl in changes:
            print(f"{rel}: {old!r} -> {repl!r}")
        if not args.check:
            path.write_text(new, encoding="utf-8")
            written.append(path)
    reformat([p for p in written if p.suffix == ".py"])
    left = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in files()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if LEFT.search(line)
    ]
    verb = "would rewrite" if args.check else "rewrote"
    print(f"{verb} {total} citation(s); {len(left)} line(s) still name RULES.md or RULES-family", file=sys.stderr)
    for line in left:
        print("  " + line, file=sys.stderr)
    return 1 if args.check and total else 0


if __name__ == "__main__":
    sys.exit(main())
