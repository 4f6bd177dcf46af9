"""The field of view pinned cell by cell: a small hand-drawn map of corners, pillars, a door and diagonal gaps, and
what libtcod's symmetric shadowcaster (through :mod:`undercroft.rules.sight`) shows from six tiles of it.

Every recording's exactness rests on the field of view (what the party has seen is part of what the bot and the
screens plan with, and the golden recordings replay through it). A tcod release that changes its shadowcasting
would first show as a desync of old recordings; this test fails on the upgrade itself, naming the tile.
(``constraints.txt`` pins tcod; this is the check to run when moving the pin.)

The adapter that loads tcod's compiled module without the rest of tcod (:mod:`undercroft.rules.libtcod`) is
tested here too: it must load the very module tcod itself uses, with the function and constant the rules call."""

from __future__ import annotations

from test_dungeon import hand_map

from undercroft.rules.sight import compute_fov

ROWS = [
    "###################",
    "#........#........#",
    "#..#..#..#........#",
    "#........+........#",
    "#..#..#..#...#....#",
    "#........#........#",
    "####.#######.######",
    "#...........#.....#",
    "#.#.#.#.#.#.#.....#",
    "#.................#",
    "###################",
]

#: (x, y, radius) -> the map as seen from there: "@" the viewer, a blank every tile not seen (radius 0: no limit)
SEEN: dict[tuple[int, int, int], list[str]] = {
    (1, 1, 0): [
        "##########         ",
        "#@.......#         ",
        "#..# .#  #         ",
        "#...               ",
        "#..#..             ",
        "#... ..            ",
        "#### ###           ",
        "                   ",
        "                   ",
        "                   ",
        "                   ",
    ],
    (5, 3, 8): [
        " #######           ",
        "   ....  #         ",
        "#. #..#..#         ",
        "#....@...+....     ",
        "#. #..#..#         ",
        "   ....  #         ",
        " ###.##            ",
        "   ..              ",
        "  #.#              ",
        "  ..               ",
        "  ##               ",
    ],
    (13, 3, 6): [
        "         ##########",
        "         #........#",
        "         #........#",
        "       ..+...@....#",
        "         #...#....#",
        "         #... ....#",
        "         ###   ####",
        "           .       ",
        "          #        ",
        "                   ",
        "                   ",
    ],
    (8, 9, 0): [
        "                   ",
        "                  #",
        "#                .#",
        "#               .  ",
        "  .           .    ",
        "   .         .     ",
        "    .##  ###.      ",
        "      .. ..        ",
        "# # # #.#.# #   ..#",
        "#.......@.........#",
        "###################",
    ],
    (1, 7, 5): [
        "                   ",
        "                   ",
        "                   ",
        "                   ",
        "                   ",
        "                   ",
        "#### #             ",
        "#@.....            ",
        "#.#.#              ",
        "#..                ",
        "###                ",
    ],
    (16, 8, 4): [
        "                   ",
        "                   ",
        "                   ",
        "                   ",
        "                   ",
        "                   ",
        "             ######",
        "             .....#",
        "            #...@.#",
        "             .....#",
        "             ######",
    ],
}


def test_the_field_of_view_is_tile_for_tile_the_pinned_one() -> None:
    lv = hand_map(ROWS)
    for (x, y, radius), want in SEEN.items():
        seen = compute_fov(lv, x, y, radius)
        got = [
            "".join("@" if (i, j) == (x, y) else (c if seen[j, i] else " ") for i, c in enumerate(row))
            for j, row in enumerate(ROWS)
        ]
        wrong = [(i, j) for j in range(len(ROWS)) for i in range(len(ROWS[0])) if got[j][i] != want[j][i]]
        assert not wrong, f"from {(x, y)} radius {radius}: tiles {wrong[:8]} differ:\n" + "\n".join(got)


def test_the_adapter_loads_the_module_tcod_itself_uses() -> None:
    import tcod.cffi
    import tcod.constants

    from undercroft.rules import libtcod

    assert libtcod.lib is tcod.cffi.lib and libtcod.ffi is tcod.cffi.ffi
    assert libtcod.FOV_SYMMETRIC_SHADOWCAST == tcod.constants.FOV_SYMMETRIC_SHADOWCAST
    assert callable(libtcod.lib.TCOD_map_compute_fov)
