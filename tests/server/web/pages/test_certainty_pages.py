"""How sure each figure is, on the pages that show it: a tournament's standings rows carry
their mean's 95% interval (the API's ``ci_low``/``ci_high``, the SDK's ``Standing``), drawn
with two decimals; in-process, a small round robin really played."""

from __future__ import annotations

import re

from support.pagecheck import html
from support.seeded import play_out

from sdk.models import Results
from server.arena.live import live_scores
from server.arena.stats import summarize
from server.arena.store import Store
from server.web.api.schemas import ResultsSchema
from workers.driver import start


def test_standings_rows_show_their_mean_with_its_pooled_95_percent_interval(client, store: Store, queue):
    tid = start(store, queue, {"bots": ["random", "rule", "search"], "boards": 2, "chunk": 2}, "test")
    play_out(store, queue, tid)
    res = client.get(f"/api/v1/tournaments/{tid}/results").get_json()
    assert ResultsSchema().validate(res) == {}
    pooled: dict[str, list[float]] = {}
    for mid in store.match_ids(tid):  # X's scores as they are, Y's mirrored
        match, scores = store.match(mid), live_scores(store, mid)
        pooled.setdefault(match["x"], []).extend(scores)
        pooled.setdefault(match["y"], []).extend(-s for s in scores)
    for row in res["standings"]:
        expected = summarize(pooled[row["bot"]])
        assert row["boards"] == expected.boards == 4
        assert (row["ci_low"], row["ci_high"]) == (expected.ci_low, expected.ci_high)
        assert row["ci_low"] <= row["mean"] <= row["ci_high"]
    sdk = Results.parse(res)
    assert [(s.bot, s.ci_low, s.ci_high) for s in sdk.standings] == [
        (r["bot"], r["ci_low"], r["ci_high"]) for r in res["standings"]
    ]

    page = html(client.get(f"/tournaments/{tid}"))
    table = page[page.index('<table id="standings"') : page.index("</table>", page.index('<table id="standings"'))]
    assert "<th>95% interval</th>" in table
    shown = re.findall(
        r'<tr data-bot="([^"]+)">.*?data-mean="([-\d.]+)">([^<]+)</td>\s*'
        r'<td class="ci" data-low="([-\d.]+)" data-high="([-\d.]+)">([^<]*)</td>',
        table,
        re.S,
    )
    assert [s[0] for s in shown] == [r["bot"] for r in res["standings"]]
    for (bot, mean, mean_text, low, high, text), row in zip(shown, res["standings"], strict=True):
        assert bot == row["bot"]
        assert (float(mean), float(low), float(high)) == (row["mean"], row["ci_low"], row["ci_high"])
        assert mean_text == f"{row['mean'] + 0.0:+.2f}", "two decimals, not three"
        assert text == f"[{row['ci_low'] + 0.0:+.2f}, {row['ci_high'] + 0.0:+.2f}]"
