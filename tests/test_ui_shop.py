"""The merchant's screen and the inventory's things, drawn offscreen."""

from __future__ import annotations

import pytest
from engine_helpers import NOTHING, clear_unique, content, make_game, script, walk_to
from tcod.event import KeySym
from ui_helpers import Driver, click_text, panel_text, press, screen

from undercroft.rules.actions import Descend
from undercroft.rules.dice import ScriptedDice
from undercroft.rules.types import Mode
from undercroft.ui.scenes import SceneStack, game_stack
from undercroft.ui.scenes.help import HelpScene
from undercroft.ui.scenes.shop import ShopScene
from undercroft.ui.session import Session


def at_the_merchant(gold: int = 100) -> tuple[Session, Driver]:
    game = clear_unique(make_game("undercroft", 1, ScriptedDice(), gold=gold))  # (the Leech-Mother is on the way)
    walk_to(game, game.state.level.map.stairs)
    game.step(Descend())
    script(game).push(NOTHING)  # the room arrived in: its monster check (000), once the merchant is left
    session = Session(content(), game)
    return session, Driver(SceneStack(game_stack(session)))


def test_the_merchant_shows_the_wares_with_prices_and_sells_one() -> None:
    session, stack = at_the_merchant()
    text = screen(stack)
    assert "The merchant" in text and "You have 100 gold." in text
    assert "! Healing Potion" in text and "50 g" in text and "[ Leather Armour" in text
    press(stack, KeySym.RETURN)  # the first ware: a healing potion, 50 of 100 gold: asked first
    assert "The Healing Potion costs 50 gold" in screen(stack) and "Buy it (50 gold left)" in screen(stack)
    assert session.game.state.items["healing_potion"] == 2
    press(stack, KeySym.RETURN)  # "Buy it (50 gold left)"
    assert session.game.state.items["healing_potion"] == 3 and "You have 50 gold." in screen(stack)
    assert "You buy the Healing Potion for 50 gold (50 left)." in screen(stack)
    press(stack, KeySym.ESCAPE)
    assert session.game.mode == Mode.EXPLORE and "The merchant" not in screen(stack)


def test_a_ware_of_a_third_of_the_purse_or_less_is_bought_at_once_a_dearer_one_asks() -> None:
    session, stack = at_the_merchant(gold=150)
    st = session.game.state
    press(stack, KeySym.RETURN)  # 50 of 150: a third, not more: bought at once
    assert st.items["healing_potion"] == 3 and st.gold == 100
    press(stack, KeySym.RETURN)  # 50 of 100: asked; Esc keeps the gold
    text = screen(stack)
    assert "Buy?" in text and "> Buy it (50 gold left)" in text and "[]" not in text  # (no key: no brackets)
    press(stack, KeySym.ESCAPE)
    assert st.gold == 100 and "Buy?" not in screen(stack)
    press(stack, KeySym.RETURN)
    press(stack, KeySym.DOWN, KeySym.RETURN)  # "Keep the gold"
    assert st.gold == 100 and st.items["healing_potion"] == 3
    press(stack, KeySym.RETURN)
    press(stack, KeySym.RETURN)  # "Buy it (50 gold left)"
    assert st.gold == 50 and st.items["healing_potion"] == 4


def test_a_ware_sold_out_stays_on_the_list_and_says_so() -> None:
    """Played: with the potions sold out, the list moved up under the cursor and Enter bought the Rations."""
    session, stack = at_the_merchant(gold=1000)
    st = session.game.state
    had = st.wares["healing_potion"]
    for _ in range(had):
        press(stack, KeySym.RETURN)  # (each at most a third of the purse: bought at once)
    assert st.items["healing_potion"] == 2 + had and st.wares["healing_potion"] == 0
    text = screen(stack)
    assert "> ! Healing Potion            sold" in text and "The merchant has none left." in panel_text(text, session)
    press(stack, KeySym.RETURN)
    assert (
        "The merchant has no Healing Potion left." in panel_text(screen(stack), session) and st.items["rations"] == 1
    )  # (its own)


def test_a_sold_out_ware_dearer_than_a_third_says_sold_out_and_asks_nothing() -> None:
    """The play test's Elixir, sold: Enter offered "Buy it (383 gold left)", which then said the merchant had none."""
    session, stack = at_the_merchant(gold=1000)
    st = session.game.state
    for _ in range(st.wares["healing_potion"]):
        press(stack, KeySym.RETURN)
    st.gold = 100  # the potion's 50 is more than a third of it: a ware in stock would ask first
    press(stack, KeySym.RETURN)
    text = screen(stack)
    assert "Buy?" not in text and "Buy it" not in text
    assert "The merchant has no Healing Potion left." in " ".join(panel_text(text, session).split())
    assert st.gold == 100


def test_a_ware_too_dear_says_why_and_a_click_buys() -> None:
    session, stack = at_the_merchant(gold=25)
    press(stack, KeySym.RETURN)
    said = " ".join(panel_text(screen(stack), session).split())
    assert "Not now: You have too little gold for the Healing Potion." in said
    click_text(stack, "Rations")  # 10 of 25 gold: more than a third, asked first
    click_text(stack, "Buy it (15 gold left)")
    assert session.game.state.items["rations"] == 2 and session.game.state.gold == 15


@pytest.mark.clause("001-end-2")
def test_armour_bought_that_is_plainly_better_goes_on_mail_waits_for_the_use_list() -> None:
    session, stack = at_the_merchant(gold=500)
    st = session.game.state
    wares = [w for w in st.wares]  # (the list's order: the merchant's stock)
    for _ in range(wares.index("leather_armour")):
        press(stack, KeySym.DOWN)
    press(stack, KeySym.RETURN)  # leather armour: +1 defense, no speed lost, so it goes on at once
    assert st.party[0].armour == "leather_armour" and "leather_armour" not in st.items
    assert "You put on the Leather Armour: defense 13, speed 90 ft a round." in " ".join(screen(stack).split())
    assert "[ Leather Armour (same)" in screen(stack)
    for _ in range(wares.index("mail_shirt") - wares.index("leather_armour")):
        press(stack, KeySym.DOWN)
    press(stack, KeySym.RETURN)  # the mail shirt: defense for speed, the player's choice: into the pack
    assert st.party[0].armour == "leather_armour" and st.items["mail_shirt"] == 1
    press(stack, KeySym.I)
    assert "Short Sword: +3 to hit, damage 6; Leather Armour" in screen(stack)
    press(stack, KeySym.U)  # use what? the potions, then the mail
    assert "Use what?" in screen(stack) and "Mail Shirt x1" in screen(stack)
    # (found in play: the list offered the healing potions at full hit points, and the engine then refused)
    assert "Healing Potion x2 (not hurt)" in screen(stack) and "Mail Shirt x1 (" not in screen(stack)
    press(stack, KeySym.DOWN)
    press(stack, KeySym.RETURN)
    assert st.party[0].armour == "mail_shirt" and st.items["leather_armour"] == 1
    press(stack, KeySym.I)
    assert "Short Sword: +3 to hit, damage 6; Mail Shirt" in screen(stack)
    assert "defense 14, speed 75 ft" in screen(stack)


def test_each_ware_is_compared_with_what_is_wielded_or_worn() -> None:
    session, stack = at_the_merchant(gold=500)
    text = screen(stack)
    # the short sword in hand (+0 to hit, +3 damage), no armour: leather is better, mail mixed (more defense,
    # less speed), a spear the same
    assert "[ Leather Armour (better)" in text and "[ Mail Shirt (mixed)" in text and "/ Spear (mixed)" in text
    assert "You carry 2 of these, 2 healing potions in all." in " ".join(panel_text(text, session).split())
    scene = stack.top
    assert isinstance(scene, ShopScene)
    wares = scene.wares()  # (what this merchant has: some wares come only now and then)
    for _ in range(wares.index("spear")):
        press(stack, KeySym.DOWN)  # the spear
    said = " ".join(panel_text(screen(stack), session).split())
    assert "Against the Short Sword: +1 to hit, -1 damage." in said
    for _ in range(wares.index("mail_shirt") - wares.index("spear")):
        press(stack, KeySym.DOWN)  # the mail shirt (past the lantern and the chart, when it has them)
    said = " ".join(panel_text(screen(stack), session).split())
    assert "Against no armour: +2 defense, 15 ft a round slower." in said
    session.game.state.party[0].armour = "mail_shirt"  # (as if worn)
    text = screen(stack)
    assert "[ Leather Armour (mixed)" in text and "[ Mail Shirt (same)" in text  # (-1 defense, quicker)
    said = " ".join(panel_text(text, session).split())
    assert "Against the Mail Shirt: +0 defense, as quick." in said


def test_heavier_armour_with_more_defense_is_mixed_not_better() -> None:
    """Found in play on floor 7: Plate Armour was listed "(better)" beside the Runed Mail worn, for +1 defense and
    45 ft a round slower, the speed a chase turns on."""
    from undercroft.ui.scenes.shop import compare

    game = make_game("undercroft")
    st = game.state
    st.party[0].armour = "runed_mail"
    word, said = compare(game.content, st, True, "plate_armour")
    assert word == "mixed" and said == "Against the Runed Mail: +1 defense, 45 ft a round slower."
    assert compare(game.content, st, True, "mail_shirt")[0] == "worse"
    st.party[0].armour = "leather_armour"
    assert compare(game.content, st, True, "runed_mail")[0] == "better"


def test_the_help_tells_the_level_cap() -> None:
    text = " ".join(" ".join(row[1].split()) for row in HelpScene().lines(100))
    assert "The status bar" in text and "Lv3 of 15 the undercroft: your level and the highest there is" in text


def test_an_elixir_carried_counts_against_its_limit_in_the_shop() -> None:
    """Played: a third Elixir of Life was bought at 300 gold with two carried and the limit then 6 (3 each): no use.
    The limit is 12 now: the fifth is of no use with four carried."""
    from undercroft.ui.scenes.shop import compare

    game = make_game("undercroft")
    st = game.state
    assert compare(game.content, st, True, "elixir_of_life")[0] == ""
    st.items["elixir_of_life"] = 1
    word, said = compare(game.content, st, True, "elixir_of_life")
    assert word == "" and "9 more maximum HP once the 1 you carry is drunk" in said
    st.items["elixir_of_life"] = 4
    assert compare(game.content, st, True, "elixir_of_life")[0] == "no use"


def test_a_chart_bought_is_read_from_the_pack_and_the_stairs_come_on_the_map() -> None:
    session, stack = at_the_merchant(gold=500)
    st = session.game.state
    for _ in range(list(st.wares).index("delvers_chart")):
        press(stack, KeySym.DOWN)
    said = " ".join(panel_text(screen(stack), session).split())
    assert "Read (Use) on a floor where you have not found the stairs" in said
    press(stack, KeySym.RETURN)  # 100 of 500: bought at once
    assert st.items["delvers_chart"] == 1
    press(stack, KeySym.ESCAPE)
    x, y = st.level.map.stairs
    assert session.game.mode == Mode.EXPLORE and not st.level.explored[y, x]
    assert "!1  ,1  ?1" in screen(stack)  # the status bar keeps it in mind (glyphs only, at 80 columns)
    press(stack, KeySym.I, KeySym.U)
    text = screen(stack)
    assert "Use what?" in text and "Delver's Chart x1" in text and "Delver's Chart x1 (" not in text
    press(stack, KeySym.RETURN)  # (the list is by id: the chart first)
    text = screen(stack)
    assert "You read the Delver's Chart: the way down is on your map (> to go)." in text
    assert st.level.explored[y, x] and "delvers_chart" not in [i for i, n in st.items.items() if n]


def test_a_short_list_counts_the_wares_hidden_above_and_below_where_they_are() -> None:
    """Play test: "... 3 more (the walking keys)" was printed under the list when the hidden wares were above the
    cursor. At 80x24 each hidden part is counted on its own side of the list, whatever ware is chosen."""
    import re

    session, stack = at_the_merchant()
    small = Driver(stack.stack, size=(80, 24))
    n = len(session.game.state.wares)
    seen_above = False
    for _ in range(n):
        panel = [row.split("│")[1] for row in screen(small).splitlines() if row.count("│") >= 2]
        listed = [i for i, row in enumerate(panel) if re.search(r"(\d+ g|sold) $", row)]
        above = [(i, int(m[1])) for i, row in enumerate(panel) if (m := re.search(r"\.\.\. (\d+) more above", row))]
        below = [(i, int(m[1])) for i, row in enumerate(panel) if (m := re.search(r"\.\.\. (\d+) more below", row))]
        assert all(i < listed[0] for i, _ in above) and all(i > listed[-1] for i, _ in below)
        assert len(listed) + sum(k for _, k in above) + sum(k for _, k in below) == n
        assert any(">" in panel[i] for i in listed)  # the chosen ware is always shown
        seen_above |= bool(above)
        press(small, KeySym.DOWN)
    assert seen_above  # (the list is cut at 80x24)
