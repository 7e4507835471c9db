"""Every ruleset's options as people read them, generated from the games' declarations
(``server.engine.rulesets.Option``): the CLI's ``--options`` help and docs/rules/options.md.

    python -m server.engine.options_doc > docs/rules/options.md
"""

from __future__ import annotations

import json

from server.engine.games import GAMES


def one_line() -> str:
    """Every ruleset's option names, for an argparse help text."""
    parts = []
    for name, spec in GAMES.items():
        keys = (["players"] if len(spec.players) > 1 else []) + list(spec.options)
        parts.append(f"{name}: {', '.join(keys) if keys else 'none'}")
    return "ruleset options as a JSON object, e.g. '{\"players\": 5}'. By ruleset: " + "; ".join(parts)


def markdown() -> str:
    """The options page of the rules docs: one table per ruleset."""
    lines = [
        "# Ruleset options",
        "",
        "Generated from the games' own declarations (`python -m server.engine.options_doc`); a test",
        "checks that this page is what the code declares. Give options as a JSON object",
        "(`--options '{\"players\": 5}'`, or `options` in the API); only those that differ from the",
        "default need be given.",
        "",
    ]
    for name, spec in GAMES.items():
        lines += [f"## {name}", ""]
        if len(spec.players) == 1 and not spec.options:
            lines += ["No options.", ""]
            continue
        lines += ["| option | values | default | what it does |", "| --- | --- | --- | --- |"]
        if len(spec.players) > 1:
            sizes = ", ".join(map(str, spec.players))
            lines.append(f"| `players` | {sizes} | {spec.default.players} | players at the table |")
        for key, option in spec.options.items():
            default = json.dumps(getattr(spec.default, key))
            lines.append(f"| `{key}` | {option.domain()} | `{default}` | {option.why} |")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown(), end="")
