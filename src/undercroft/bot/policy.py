"""The reference player's choice of an action, mode by mode (:class:`Bot`).

It reads what a player reads: the party, the panels (the odds, ``Game.legal``, the doors) and of the level only what
the screens have shown (:class:`~undercroft.rules.view.View`: the floor seen, the groups it knows of); never the
game's random streams (its own tie-breaks come from the stream ``"bot"`` of its seed). It proposes actions in order
of preference; :meth:`Bot.choose` returns the first one the engine would take now (``Game.legal``) that has not
been refused at this turn. docs/BALANCE.md describes it as a player would:

* **explore**: drink when hurt, rest off exhaustion and wounds where nothing stands, pick up the items it has seen,
  walk over the floor seen to the nearest floor seen beside the unseen (around monsters and around rooms it fled
  from), and on to that tile even once all round it has come into view, though not into another segment (it
  chooses again where a walk ends: :mod:`undercroft.bot.planning`); go down when the level is explored, or
  (:data:`~undercroft.bot.planning.STOCKED`) as soon as the stairs are seen with two potions in hand, resting whole
  on the stairs first; on the last level it makes for the way out as soon as it is seen;
* **a meeting**: each way through is valued as the chance to come through it (:mod:`undercroft.bot.meeting`) and
  the best is taken. A friendly reaction is let play out by waiting; a quiet group (at peace, holding its ground,
  passive) is walked past. After running twice from a group on its only way on (or :data:`MAX_FLEES` times from
  one group), it stops running from it, drinks if hurt, and talks, bribes or fights;
* **running**: through the open door (``Game.exits()``) that best gets away (:meth:`Walker.run`): not into a
  segment holding another hostile group or one it fled from, not a door the group stands nearer than the party, a
  segment already visited before one not yet entered (no resident to raise), then the one nearest its goal, then
  the one farthest from the group; the way it came in is plain ``Run()``;
* **combat**: drink when low, burn oil on a hard foe, leave when running is clearly the better chance
  (:data:`~undercroft.bot.meeting.LEAVE_MARGIN`; to come back rested), or just the better one where a run costs
  nothing (:func:`~undercroft.bot.meeting.free_run`: the foe keeps its wounds, and it runs again from one it has
  wounded since it last ran), else strike the weakest;
* **pursuit**: drop food for an unintelligent pursuer, treasure for an intelligent one, burn oil at one that fears
  fire, then keep running (or turn and fight when its odds are good or it is too tired to run);
* **a group that goes its way** (a wanderer leaving after a peaceful or friendly reaction): it is let go, unless
  it carries treasure, the fight odds it showed were at least :data:`PURSUE_ODDS`, the party is not hurt and the
  chase catches it for sure. In the chase the bot runs on while that still holds, else it waits (lets it go);
* **never stuck**: a group in the way that lets the party be is attacked after :data:`MAX_REENGAGE` steps spent
  going back at it; a hostile group that plugs the only door is stepped into; a meeting that goes nowhere is ended
  after :data:`MAX_MEETING` decisions.

The fight odds are the game's own: the win of :func:`undercroft.sim.odds.fight_odds`, as the encounter and fight
panels show it (exact for one character, and for a party of two; simulated for a larger party or a group with two
wounded), asked only where a decision turns on it; where there are none it counts on nothing (0).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator

from undercroft.bot import kit
from undercroft.bot.meeting import (
    GIVE_UP,
    LEAVE_MARGIN,
    Met,
    best,
    bribe_offer,
    fight_win,
    free_run,
    leaves,
    pays,
    values,
)
from undercroft.bot.planning import MAX_LEVEL_MOVES, Point, Walker, count
from undercroft.rules.actions import (
    Action,
    Attack,
    Bribe,
    Buy,
    Descend,
    Drink,
    DropFood,
    DropTreasure,
    Fight,
    LeaveShop,
    Move,
    Pursue,
    Rest,
    Run,
    Talk,
    ThrowOil,
    Use,
    Wait,
)
from undercroft.rules.game import Game
from undercroft.rules.rng import Stream, parse_seed
from undercroft.rules.state import Group
from undercroft.rules.types import Behaviour, Mode, Origin, Side
from undercroft.sim.chances import catches, escape_chance, left_behind
from undercroft.sim.odds import attack_target

HURT = 0.5  # drink outside a fight at or below this fraction of max HP
REST_UNTIL = 0.9  # rest while exploring when below this fraction of max HP
LOW = 0.4  # drink in a fight at or below this fraction
FIGHT_ODDS = 0.8  # fight when the estimated chance to win is at least this
SURE_WIN = 0.95  # with growth, a fight the panel gives this or more is fought, not run from nor talked away
MAX_WAITS = 3  # waits on one monster before doing something else
FLEES_ON_THE_WAY = 2  # runs from a group standing on the only way on before it stops running from it
MAX_FLEES = 4  # runs from one group on a level before it stops running from it at all
PURSUE_ODDS = FIGHT_ODDS  # go after a group that goes its way only with the odds it would fight at
MAX_REST_BEFORE = 20  # rests on the stairs, at most, to go down whole
MAX_MEETING = 60  # decisions in meetings with one group before it runs (or fights) to end them
MAX_REENGAGE = 40  # steps going back at a group in the way that lets the party be, before it attacks it
KEEP_GOLD = 60  # in the shop: gold kept after the potions when it buys armour or a weapon (a bribe, a purse to drop)
SHOP_POTIONS = 3  # in the shop: buy healing potions (the cheapest) until it carries this many
FLEET_BELOW = 0.5  # drink a potion of fleetness before a run whose chance to get away is below this
READY = 0.75  # drink before a hard fight it cannot leave when at or below this fraction of max HP
# In a plan's options: run through the door Walker.run picks, worked out only if Bot.choose gets to it (most plans
# that offer a run offer a step or a fight first, which is taken). Never given to the engine.
_BEST_RUN = Run(door=-2)


def _has(game: Game, kind: str) -> bool:
    return count(game, kind) > 0


def spares_a_drink(game: Game, g: Group) -> bool:
    """Whether a drink in front of ``g`` is safe: a drink in a meeting is answered as a wait is, so only where the
    group cannot attack on the round (:meth:`Game.wait_outcome`; outside a meeting, always)."""
    o = game.wait_outcome(g)
    return o is None or o.attacks == 0


def _step(st_pos: Point, step: Point) -> Move:
    """The move from ``st_pos`` onto the next tile ``step``."""
    return Move(step[0] - st_pos[0], step[1] - st_pos[1])


class Bot:
    """Plays one game: ``choose()`` the next action, ``refused(action)`` when the engine said no.

    Its thresholds are class attributes, which a policy of its own (:class:`undercroft.bot.novice.Novice`) sets
    otherwise."""

    name = "careful"
    hurt = HURT  # drink outside a fight at or below this fraction of max HP
    low = LOW  # drink in a fight at or below this fraction

    def __init__(self, game: Game, seed: int | str, *, max_level_moves: int = MAX_LEVEL_MOVES) -> None:
        self.game = game
        self.walk = Walker(game, Stream(parse_seed(seed), "bot"), max_level_moves)
        self.stuck = 0  # consecutive choices with nothing useful to do
        self.met: dict[int, Met] = {}  # group id -> what it remembers of the group
        self._depth = -1
        self._refused: set[Action] = set()  # actions the engine refused at this turn
        self._refused_turn = -1
        self._rested = 0  # rests on the stairs of this level before going down
        self._reengaged = 0  # steps on this level spent going back at a group in the way that lets the party be
        self._kit_key: object = None  # what _kit read when it last chose, and what it chose
        self._kit_out: list[Action] = []
        self._plans: dict[str, Callable[[], list[Action]]] = {
            Mode.EXPLORE: self._explore,
            Mode.ENCOUNTER: self._encounter,
            Mode.COMBAT: self._combat,
            Mode.CHASE: self._pursuit,
            Mode.SHOP: self._shop,
        }

    # --- the interface ------------------------------------------------------------------------------------

    def choose(self) -> Action:
        st = self.game.state
        if st.turn != self._refused_turn:
            self._refused.clear()
            self._refused_turn = st.turn
        if st.depth != self._depth:
            self._new_level()
        plan = self._plans.get(st.mode)
        options = plan() if plan is not None else []
        refused = self._refused
        for a in options:  # (the plan's own first: the fallbacks are made only when none of them is taken)
            if a is _BEST_RUN:
                a = self.walk.run()
            if (not refused or a not in refused) and self.game.legal(a):
                if isinstance(a, Move):
                    self.walk.taken(a)
                return a
        for a in self._fallbacks(st.mode):
            if a not in refused and self.game.legal(a):
                return a  # (never a step)
        return Rest()

    def _new_level(self) -> None:
        self._depth = self.game.state.depth
        self.walk.new_level()
        for m in self.met.values():
            m.fled, m.hp, m.committed = 0, -1, False
        self._reengaged = 0
        self._rested = 0

    def _fallbacks(self, mode: Mode) -> Iterator[Action]:
        """After the plan's options: fight, strike, run, wait, rest, each made only when the one before it was not
        taken (the strike's target and the door to run through are worked out only then)."""
        yield Fight()
        yield Attack(self._weakest())
        yield self.walk.run() if mode in (Mode.ENCOUNTER, Mode.COMBAT) else Run()  # through the door it picks
        yield Wait()
        yield Rest()

    def refused(self, action: Action) -> None:
        """The engine refused ``action`` at this turn: do not propose it again until the turn changes (a step
        refused stays out of the walks for a while: :meth:`Walker.refused`)."""
        self._refused.add(action)
        self.walk.refused(action)

    # --- explore -------------------------------------------------------------------------------------------

    def _explore(self) -> list[Action]:
        g = self.game
        st = g.state
        out: list[Action] = []
        if st.fled and g.legal(Pursue()) and self._should_pursue(st.fled):
            return [Pursue()]  # (any other action lets it go)
        # (HURT is below REST_UNTIL: no one at or below REST_UNTIL, no one hurt either; most steps ask only that)
        sore = self._hurt(REST_UNTIL) is not None
        hurt = self._hurt(self.hurt) if sore else None
        if hurt is not None and _has(g, "potion"):
            out.append(Drink(hurt))
        out += self._kit()
        if g.tired():
            out.append(Rest())
        if sore and g.rules.time.rest_heal and not self._groups_here():
            out.append(Rest())  # rest wounds off where nothing is in sight (a wanderer may still come)
        step = self.walk.next_step()
        if self.walk.kind == "reengage" and g.nearest_here() is not None and g.legal(Fight()):
            # Back at a group that stands in the only way on, and it lets the party be: clear the way.
            self._reengaged += 1
            if self._reengaged > MAX_REENGAGE:
                self.stuck = 0
                out.append(Fight())
        if step is not None:
            self.stuck = 0
            out.append(_step(st.pos, step))
        elif st.level.map.stairs == st.pos and self.walk.kind == "stairs":
            self.stuck = 0
            if (
                g.rules.time.rest_heal
                and self._hurt(1.0 - 1e-9) is not None
                and not self._groups_here()
                and not g.rs.levels[st.depth].final
                and self._rested < MAX_REST_BEFORE
            ):
                self._rested += 1
                out.append(Rest())  # whole before going down
            out.append(Descend())
        else:
            self.stuck += 1
            out.append(Rest())
        return out

    # --- the shop --------------------------------------------------------------------------------------------

    def _shop(self) -> list[Action]:
        """Buy healing potions (the cheapest) until it carries :data:`SHOP_POTIONS`, then the armour or weapon that
        best beats its kit (:func:`undercroft.bot.kit.upgrade`) keeping :data:`KEEP_GOLD`, then one potion of
        fleetness, then an elixir (``vigour``) keeping :data:`KEEP_GOLD`; put on and drink what it bought; leave."""
        g = self.game
        out: list[Action] = []
        if count(g, "potion") < SHOP_POTIONS:
            potion = kit.cheapest_healing(g)
            if potion is not None:
                out.append(Buy(potion))
        better = kit.upgrade(g, KEEP_GOLD)
        if better is not None:
            out.append(Buy(better))
        fleet = kit.cheapest(g, lambda i: g.content.items[i].effect == "fleetness")
        if fleet is not None and kit.fleetness(g) is None:
            out.append(Buy(fleet))
        elixir = kit.vigour(g, KEEP_GOLD)
        if elixir is not None:
            out.append(Buy(elixir))
        out += self._kit()
        out.append(LeaveShop())
        return out

    def _kit(self) -> list[Action]:
        """Put on (``Use``) the armour or take up the weapon in the pack that beats what someone wears or wields;
        drink an elixir carried (it is for good), the first living character."""
        st = self.game.state
        # (what it reads: the pack and what each character wields and wears; asked at every step, it rarely changes)
        key = (tuple(st.items.items()), tuple((m.hp > 0, m.wielded, m.weapon, m.armour) for m in st.party))
        if key != self._kit_key:
            use = kit.better_in_pack(self.game)
            elixir = kit.vigour_in_pack(self.game)
            first = next((i for i, m in enumerate(st.party) if m.alive), 0)
            out: list[Action] = [] if use is None else [Use(*use)]
            self._kit_key, self._kit_out = key, out + ([] if elixir is None else [Use(elixir, first)])
        return list(self._kit_out)

    def _groups_here(self) -> bool:
        """Whether a group it knows of stands in the party's segment."""
        seg = self.game.state.segment
        return any(g.segment == seg for g in self.walk.view.groups())

    def _hurt(self, frac: float) -> int | None:
        """The index of the most hurt living member at or below ``frac`` of max HP, if any."""
        st = self.game.state
        worst = None
        for i, m in enumerate(st.party):
            if m.alive and m.hp <= frac * m.max_hp and (worst is None or m.hp < st.party[worst].hp):
                worst = i
        return worst

    def _should_pursue(self, gid: int) -> bool:
        """Whether to go after the group ``gid`` that has just gone its way (see the module docstring)."""
        game = self.game
        try:
            g = game.state.group(gid)
        except KeyError:
            return False
        met = self.met.get(gid)
        shown = None if met is None else met.win
        if g.treasure <= 0 or shown is None or shown < PURSUE_ODDS or self._hurt(REST_UNTIL) is not None:
            return False
        return catches(game)

    # --- encounter ---------------------------------------------------------------------------------------

    def _encounter(self) -> list[Action]:
        st = self.game.state
        g = st.front_group()
        if g is None:
            return []
        if st.level.map.stairs == st.pos and self.walk.kind == "stairs" and self.game.legal(Descend()):
            return [Descend()]  # on the stairs it was making for, and the group lets it go down
        met = self.met.setdefault(g.id, Met())
        win = met.win = fight_win(self.game)
        plan = self._meet(g, win)
        if plan and isinstance(plan[0], Move) and st.pos not in met.been:
            met.been.add(st.pos)
            return plan  # walking on past it, somewhere it has not been in this meeting: progress
        met.long += 1
        if met.long > MAX_MEETING:  # a meeting that goes nowhere: end it
            met.long = 0
            met.been = set()
            return [_BEST_RUN, Fight()]
        return plan

    def _meet(self, g: Group, win: float) -> list[Action]:
        """What to do about a group in sight (``win``: the fight odds' win)."""
        game = self.game
        mon = game.monster_of(g)
        out: list[Action] = []
        hurt = self._hurt(self.hurt)
        if hurt is not None and _has(game, "potion") and spares_a_drink(game, g):
            out.append(Drink(hurt))
        # Peaceful, holding its ground, or passive: it starts nothing (a passive one strikes once at whoever walks
        # past it, which costs less than fighting a crowd of them). A kneeler rises once the party is inside: it
        # is met like any other monster.
        quiet = g.peaceful or Behaviour.HOLDS_GROUND in mon.behaviours or Behaviour.PASSIVE in mon.behaviours
        if quiet and win < 0.9:
            if pays(game, g):
                out.append(Talk())  # a peddler's pack, a sellsword at peace
            return self._pass_by(g, win, out)
        met = self.met[g.id]
        if (
            g.reaction_result in ("peaceful", "friendly")
            and g.origin != Origin.GUARDIAN
            and met.waits < MAX_WAITS
            and g.risen
            and Behaviour.PASSIVE not in mon.behaviours
            and win < 0.9
        ):
            met.waits += 1
            out.append(Wait())  # a friendly monster given a moment goes its way (or lets the party be)
        if pays(game, g):
            out.append(Talk())  # talk that pays: a hireling, the way down, a merchant's pack
        return out + self._choose_a_way(g, win)

    def _pass_by(self, g: Group, win: float, out: list[Action]) -> list[Action]:
        """A quiet group (it does not start anything): walk on, unless it stands in the only way on (the plan is to
        go back at a monster in the way: this is the meeting it went for); else fight it unless the fight is
        hopeless, or run."""
        step = self.walk.next_step()
        if step is not None and self.walk.kind != "reengage":
            out.append(_step(self.game.state.pos, step))
            out.append(_BEST_RUN)  # (if the step is not taken; choose asks whether running is legal then)
            return out
        met = self.met[g.id]
        if win >= GIVE_UP or met.fled >= FLEES_ON_THE_WAY or not self.game.proc.running:
            met.committed = True
            out.append(Fight())
        if self.game.legal(Run()):  # not where the rules have no running, nor when too exhausted to run
            self._flee(g)
            out.append(_BEST_RUN)
        return out

    def _choose_a_way(self, g: Group, win: float) -> list[Action]:
        """The careful choice: each way of meeting ``g`` valued as the chance to come through
        (:func:`undercroft.bot.meeting.values`), the best taken; a fight is always the last option."""
        game = self.game
        st = game.state
        ways = values(game, g, win)
        met = self.met[g.id]
        walk = self.walk
        forced = walk.forced and (g.segment in walk.avoid or st.segment in walk.avoid)  # the only way on
        if (forced and met.fled >= FLEES_ON_THE_WAY) or met.fled >= MAX_FLEES or not game.proc.running or met.committed:
            ways.pop("run", None)  # (the citadel has no running: talk, bribe or fight to the death)
            if "talk" not in ways and "bribe" not in ways:
                met.committed = True  # no more running from it (or none in these rules): a fight to the death
        way = best(ways)
        if game.rs.growth and win >= SURE_WIN and way in ("run", "talk"):
            way = "fight"  # a sure fight is fought where victories bring renown: worth more than a sure escape
        out: list[Action] = []
        low = self._hurt(READY) if way == "fight" and _has(game, "potion") else None
        if low is not None and win < FIGHT_ODDS:
            out.append(Drink(low))  # a hard fight it cannot leave: drink first
        if way == "talk":
            out.append(Talk())  # a failed talk only lets a round pass
        elif way == "bribe":
            offer = bribe_offer(game, g)
            if offer is not None:
                out.append(Bribe(offer))  # refused, it attacks first
        elif way == "run":
            self._flee(g)
            out += self._fleet(escape_chance(game, g))
            out.append(_BEST_RUN)
        out.append(Fight())
        return out

    def _fleet(self, escape: float) -> list[Action]:
        """Drink a potion of fleetness before a run it would otherwise lose (:data:`FLEET_BELOW`), when it carries
        one and none is working yet."""
        potion = kit.fleetness(self.game) if escape < FLEET_BELOW else None
        return [] if potion is None else [Use(potion)]

    def _flee(self, g: Group) -> None:
        met = self.met.setdefault(g.id, Met())
        met.fled += 1
        met.hp = sum(g.hp)
        self.walk.flee(g.segment)

    # --- combat --------------------------------------------------------------------------------------------

    def _weakest(self) -> int:
        """The creature to strike: the weakest living one, as the odds assume (0 when there is none)."""
        g = self.game.state.front_group()
        target = -1 if g is None else attack_target(g)
        return max(target, 0)

    def _combat(self) -> list[Action]:
        game = self.game
        g = game.state.front_group()
        if g is None:
            return []
        out: list[Action] = []
        low = self._hurt(self.low)
        win = functools.cache(functools.partial(fight_win, game))  # (asked only where a decision turns on it)
        if low is not None and _has(game, "potion"):
            out.append(Drink(low))
        met = self.met.setdefault(g.id, Met())
        if (self.walk.forced and met.fled >= FLEES_ON_THE_WAY) or met.fled >= MAX_FLEES:
            met.committed = True  # it stands on the only way on (or keeps coming): no more running from it
        tired = game.tired()
        can_run = game.legal(Run())  # not where the rules have no running, nor with every way out blocked
        escape = functools.cache(functools.partial(escape_chance, game, g))
        # A run that costs nothing (001) from a foe that keeps its wounds: back rested, and again while it wounds it
        # (``committed`` stops runs that get nowhere, not these).
        free = free_run(game, g)
        wounded = free and sum(g.hp) < met.hp  # it lost hit points since the party last ran from it
        ok = (not met.committed or wounded) and can_run and not tired and win() < FIGHT_ODDS
        # (a sure escape is worth ``again``: no more than the fight's win and the margin, no run can beat staying,
        # and its chase is not played out)
        again = left_behind(game, g).again() if ok else 0.0
        margin = 0.0 if free else LEAVE_MARGIN
        if ok and again + 1e-9 > win() + margin and leaves(escape(), win(), again, margin):
            self._flee(g)  # (to come back rested, or to go round it)
            out += self._fleet(escape())
            out.append(_BEST_RUN)
        target = self._weakest()
        if _has(game, "oil") and win() < 0.6:
            out.append(ThrowOil(target))
        out.append(Attack(target))
        return out

    def _drink(self) -> list[Action]:
        """The other policies' drink (novice, greedy): the lowest of those below ``hurt`` of their HP, if there is a
        potion (the careful bot drinks by its own plan)."""
        st = self.game.state
        low = [i for i, m in enumerate(st.party) if m.alive and m.hp < self.hurt * m.max_hp]
        if not low or count(self.game, "potion") == 0:
            return []
        return [Drink(min(low, key=lambda i: st.party[i].hp))]

    # --- pursuit -------------------------------------------------------------------------------------------

    def _pursuit(self) -> list[Action]:
        game = self.game
        st = game.state
        g = st.front_group()
        if g is None:
            return []
        p = st.pursuit
        win = functools.cache(functools.partial(fight_win, game))  # (asked only where a decision turns on it)
        if p is not None and p.chaser == Side.PARTY:  # the party gives chase: run on (Run) or let it go (Wait)
            on = not game.tired() and catches(game) and win() >= PURSUE_ODDS
            return [Run()] if on else [Wait()]
        mon = game.monster_of(g)
        out: list[Action] = []
        hurt = self._hurt(self.hurt)
        if hurt is not None and _has(game, "potion"):
            out.append(Drink(hurt))
        submerged = Behaviour.SUBMERGED in mon.behaviours
        if not submerged and not mon.intelligent and _has(game, "food"):
            out.append(DropFood())
        if not submerged and mon.intelligent and (st.gold > 0 or _has(game, "treasure")):  # a gem goes first
            out.append(DropTreasure())
        if mon.self_preservation and _has(game, "oil"):
            out.append(ThrowOil())
        if game.tired() or win() >= FIGHT_ODDS:
            out.append(Fight())
        out.append(Run())
        return out
