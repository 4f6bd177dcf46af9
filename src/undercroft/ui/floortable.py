"""The monster lists of docs/PLAYING.md (*The floors*), made from the rules data.

Each list stands between ``<!-- monsters:RULESET -->`` and ``<!-- /monsters -->``: a table of the ruleset's
floors and the creatures that live on each (its resident table), wander it (its wandering table) and wait there (its
unique and guardians, and how often a monster found comes from deeper down: its ``out_of_depth``), each with its
letter on the map, the likeliest first (the cells of its table it holds)::

    python -m undercroft.ui.floortable            # print every list
    python -m undercroft.ui.floortable --check    # exit 1 if docs/PLAYING.md is out of date
    python -m undercroft.ui.floortable --write    # rewrite the lists in docs/PLAYING.md
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Sequence

from undercroft.content import Content, load_content
from undercroft.paths import data_dir
from undercroft.ui import keytable

PLAYING = keytable.PLAYING
_BLOCK = re.compile(r"(<!-- monsters:(?P<ruleset>[a-z_]+) -->\n)(?P<body>.*?)(<!-- /monsters -->)", re.S)


def _names(content: Content, counts: Counter[str]) -> str:
    """The monsters of a table, the likeliest first (ties by name): "Kobold (`k`), Giant Rat (`r`)"."""
    order = sorted(counts, key=lambda m: (-counts[m], content.monsters[m].name))
    return ", ".join(f"{content.monsters[m].name} (`{content.monsters[m].glyph}`)" for m in order)


def _waiting(content: Content, monster: str) -> str:
    """A named creature, its glyph and its prize: "**The Hanged Knight** (`K`, holds the Runed Blade)"."""
    mon = content.monsters[monster]
    prize = " and ".join(f"the {content.items[i].name}" for i in mon.spoils)
    return f"**{mon.name}** (`{mon.glyph}`" + (f", holds {prize}" if prize else "") + ")"


def markdown_table(content: Content, ruleset: str) -> str:
    """The floors of ``ruleset`` and their creatures, as a Markdown table."""
    rs = content.rulesets[ruleset]
    rows = ["| floor | lives there | wanders there | waits there |", "| --- | --- | --- | --- |"]
    for i, lv in enumerate(rs.levels):
        tables = [Counter(c.monster for row in content.encounters[t] for c in row) for t in (lv.resident, lv.wandering)]
        waiting = [*([lv.unique] if lv.unique else []), *lv.guardians]
        waits = ", ".join(_waiting(content, m) for m in waiting) or "-"
        ood = lv.out_of_depth
        if ood is not None:  # (ours: now and then a monster from deeper down)
            wanderers = f", wanderers `{ood.wandering}`" if ood.wandering else ""
            waits += f"; {ood.max} in {ood.die} from deeper down (`{ood.table}`{wanderers}), x{ood.hoard} hoard"
        rows.append(f"| {i + 1}: {lv.name} | {_names(content, tables[0])} | {_names(content, tables[1])} | {waits} |")
    return "\n".join(rows)


def update(text: str, content: Content) -> str:
    """``text`` with every monster list made anew from ``content`` (an unknown ruleset is a ValueError)."""

    def table(m: re.Match[str]) -> str:
        ruleset = m.group("ruleset")
        if ruleset not in content.rulesets:
            raise ValueError(f"PLAYING.md names an unknown ruleset: {ruleset}")
        return f"{m.group(1)}{markdown_table(content, ruleset)}\n{m.group(4)}"

    return _BLOCK.sub(table, text)


def rulesets_in(text: str) -> list[str]:
    return [m.group("ruleset") for m in _BLOCK.finditer(text)]


def main(argv: Sequence[str] | None = None) -> int:
    content = load_content(data_dir())

    def show() -> None:
        for ruleset in content.rulesets:
            print(f"## {ruleset}\n\n{markdown_table(content, ruleset)}\n")

    return keytable.regenerate(
        argv, "undercroft.ui.floortable", "monster lists", lambda text: update(text, content), show
    )


if __name__ == "__main__":
    sys.exit(main())
