"""Hypothesis strategies that build *legal* Elfenland positions (and routes on them) from the board data.

Everything is derived from the board and the rule tables, never from hand-written lists, so a data change is
picked up automatically:

- counters only on roads whose terrain the transport can travel, at most one per road, at most 8 per transport;
- obstacles only on roads holding a counter, at most 6;
- hands of 0..12 cards, never more of a type than the deck holds;
- random collected towns, round 1..rules.rounds, home None or a town with a home-town card;
- every rule option of :class:`~planner.elfenland.rules.Rules`.

:func:`routes` walks the boot from a position's town, mostly paying what the rules ask (so many routes are
legal) and sometimes paying something else (so the verifier's refusals are exercised too).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import fields

from hypothesis import settings
from hypothesis import strategies as st

from planner.elfenland.board import Connection, load_board
from planner.elfenland.plan import Pay, Step
from planner.elfenland.position import Hand, Opponent, Position, Tile
from planner.elfenland.rules import (
    COUNTER_TRANSPORTS,
    COUNTERS,
    DECK,
    OBSTACLES,
    RULE_OPTIONS,
    TRANSPORTS,
    Rules,
    Transport,
    can_carry,
    counter_cost,
    raft_cost,
)

BOARD = load_board()
TOWNS: tuple[str, ...] = tuple(sorted(BOARD.towns))
HOME_TOWNS: tuple[str, ...] = tuple(sorted(c for c, t in BOARD.towns.items() if t.home_card))
ROADS = tuple(BOARD.roads)
MAX_HAND = 12

def any_rules() -> st.SearchStrategy[Rules]:
    """Any valid combination of rule options (every value of every option in the rules' own table)."""
    return st.fixed_dictionaries({f.name: st.sampled_from(RULE_OPTIONS[f.name].values) for f in fields(Rules)}
                                 ).map(lambda kw: Rules(**kw))


def examples(ci: int) -> int:
    """``ci`` examples under the CI profile (150 by default), proportionally fewer under the quick one (30), so
    the long sweeps stay long where CI runs them and the default lane stays quick."""
    return max(5, ci * settings().max_examples // 150)



def cards(max_size: int = MAX_HAND, *, min_size: int = 0) -> st.SearchStrategy[Hand]:
    """Hands of ``min_size``..``max_size`` cards within the deck limits."""
    return (
        st.lists(st.sampled_from(TRANSPORTS), min_size=min_size, max_size=max_size)
        .map(Hand.of)
        .filter(lambda h: all(h[t] <= DECK[t] for t in TRANSPORTS))
    )


def any_cards(max_size: int = 5) -> st.SearchStrategy[Hand]:
    """Any small bunch of cards (not necessarily in anybody's hand)."""
    return st.lists(st.sampled_from(TRANSPORTS), max_size=max_size).map(Hand.of)


@st.composite
def tiles(draw: st.DrawFn, max_tiles: int = len(ROADS), *, min_tiles: int = 0) -> tuple[Tile, ...]:
    """Counters on distinct roads whose terrain they can travel, with at most 6 obstacles on them."""
    roads = draw(st.lists(st.sampled_from(ROADS), unique_by=lambda c: c.id, min_size=min_tiles, max_size=max_tiles))
    used: Counter[Transport] = Counter()
    placed: list[tuple[str, Transport]] = []
    for road in roads:
        options = [t for t in COUNTER_TRANSPORTS if can_carry(t, road.terrain) and used[t] < COUNTERS[t]]
        if not options:
            continue
        transport = draw(st.sampled_from(options))
        used[transport] += 1
        placed.append((road.id, transport))
    flags = draw(st.lists(st.booleans(), min_size=len(placed), max_size=len(placed)))
    obstacles = set([i for i, flag in enumerate(flags) if flag][:OBSTACLES])
    return tuple(Tile(road, transport, i in obstacles) for i, (road, transport) in enumerate(placed))


@st.composite
def positions(
    draw: st.DrawFn,
    rules: st.SearchStrategy[Rules] | None = None,
    *,
    min_tiles: int = 0,
    max_tiles: int = len(ROADS),
    min_cards: int = 0,
    max_cards: int = MAX_HAND,
    at: st.SearchStrategy[str] | None = None,
    round_keys: bool = True,
) -> Position:
    """Legal positions; ``rules`` defaults to any rule options. With ``round_keys`` some also carry the keys of the
    drawing and planning phases (supply, display, seen, players, opponents)."""
    chosen = draw(rules if rules is not None else any_rules())
    position = Position(
        at=draw(at if at is not None else st.sampled_from(TOWNS)),
        hand=draw(cards(max_cards, min_size=min_cards)),
        tiles=draw(tiles(max_tiles, min_tiles=min_tiles)),
        visited=draw(st.frozensets(st.sampled_from(TOWNS))),
        home=draw(st.none() | st.sampled_from(HOME_TOWNS)),
        round=draw(st.integers(1, chosen.rounds)),
        rules=chosen,
    )
    return draw(round_keys_of(position)) if round_keys and draw(st.booleans()) else position


def _some_counters(draw: st.DrawFn, stock: Counter[Transport], most: int) -> Hand:
    """Up to ``most`` counters taken from ``stock`` (which they leave)."""
    taken: list[Transport] = []
    for _ in range(draw(st.integers(0, most))):
        left = [t for t in COUNTER_TRANSPORTS if stock[t] > 0]
        if not left:
            break
        transport = draw(st.sampled_from(left))
        stock[transport] -= 1
        taken.append(transport)
    return Hand.of(taken)


NAMES = st.text(st.characters(exclude_categories=["Cs"]), min_size=1, max_size=8).filter(str.strip)


@st.composite
def round_keys_of(draw: st.DrawFn, position: Position) -> Position:
    """``position`` with legal drawing-and-planning keys: no counter type over the 8 the game has."""
    stock = Counter({t: COUNTERS[t] - sum(tile.transport is t for tile in position.tiles) for t in COUNTER_TRANSPORTS})
    supply = _some_counters(draw, stock, 5)
    display = _some_counters(draw, stock, 5)
    seen = _some_counters(draw, stock, 2)
    opponents = []
    for name in draw(st.lists(NAMES, max_size=3, unique=True)):
        counters = _some_counters(draw, stock, 3)
        opponents.append(Opponent(name=name, at=draw(st.sampled_from(TOWNS)),
                                  visited=draw(st.frozensets(st.sampled_from(TOWNS), max_size=6)),
                                  counters=counters, secret=draw(st.integers(0, 5 - len(counters))),
                                  obstacle=draw(st.booleans()), points=draw(st.integers(0, 20))))
    held = int(draw(st.booleans())) + sum(o.obstacle for o in opponents)
    placed = sum(t.obstacle for t in position.tiles)
    fewest = max(2, len(opponents) + 1, placed + held)
    players = draw(st.none() | st.integers(fewest, 6)) if fewest <= 6 else None
    return position.replace(supply=supply, display=display, seen=seen, opponents=tuple(opponents),
                            obstacle=bool(held - sum(o.obstacle for o in opponents)), players=players)


def _prices(position: Position, connection: Connection, here: str) -> list[tuple[Pay, Hand | int]]:
    """The legal ways to pay a connection from ``here``: exact cards, or a caravan's card count."""
    if not connection.is_road:
        return [(Pay.RAFT, Hand.from_counts({Transport.RAFT: raft_cost(connection, here)}))]
    tile = position.tile_map().get(connection.id)
    if tile is None or tile.transport is None:
        return []
    cost = counter_cost(tile.transport, connection.terrain, obstacle=tile.obstacle)
    assert cost is not None
    return [
        (Pay.COUNTER, Hand.from_counts({tile.transport: cost})),
        (Pay.CARAVAN, position.rules.caravan_cost(cost, obstacle=tile.obstacle)),
    ]


def _affordable(price: Hand | int, left: Hand) -> bool:
    return left.contains(price) if isinstance(price, Hand) else len(left) >= price


@st.composite
def routes(draw: st.DrawFn, position: Position, max_steps: int = 8) -> tuple[Step, ...]:
    """A walk of up to ``max_steps`` steps from ``position.at`` along real connections.

    Three routes in four are honest: each step follows a connection the cards left can pay and pays one legal
    price for it (the counter's matching cards, a caravan from the cards still in hand, or the rafts the water
    asks), and the walk stops where nothing is affordable. In the other routes any step may pay random cards,
    pay the wrong way or take a road without a counter, so illegal routes come out too.
    """
    board = position.board
    here = position.at
    left = position.hand
    steps: list[Step] = []
    honest = draw(st.integers(0, 3)) > 0
    # Half the walks ask for three steps or more: hypothesis favours small integers, and long walks matter most.
    for _ in range(draw(st.integers(0, min(2, max_steps)) | st.integers(min(3, max_steps), max_steps))):
        links = board.links(here)
        options = [
            (c, pay, price)
            for c in links
            for pay, price in _prices(position, c, here)
            if _affordable(price, left)
            and not (
                pay is Pay.CARAVAN
                and position.rules.strict
                and any(p is Pay.COUNTER and _affordable(q, left) for p, q in _prices(position, c, here))
            )
        ]
        if honest and not options:
            break
        if options and (honest or draw(st.booleans())):
            connection, pay, price = draw(st.sampled_from(options))
            paid = price if isinstance(price, Hand) else Hand.of(draw(st.permutations(left.cards()))[:price])
        else:
            connection = draw(st.sampled_from(links))
            pay = draw(st.sampled_from(Pay))
            paid = draw(any_cards())
        if left.contains(paid):
            left = left.without(paid)
        to = connection.other(here)
        steps.append(Step(here, to, connection.id, pay, paid))
        here = to
    return tuple(steps)


def playable_positions(rules: st.SearchStrategy[Rules] | None = None) -> st.SearchStrategy[Position]:
    """Legal positions with at least 20 counters and 8 cards (a busy mid-game board), so routes go somewhere."""
    return positions(rules, min_tiles=20, min_cards=8)


@st.composite
def positions_and_routes(draw: st.DrawFn, max_steps: int = 8) -> tuple[Position, tuple[Step, ...]]:
    """A legal position (playable three times in four, else any) and a random route on it (see :func:`routes`)."""
    position = draw(playable_positions() if draw(st.integers(0, 3)) else positions())
    return position, draw(routes(position, max_steps))


def _detour_shapes() -> list[tuple[Transport, str, str, tuple[str, ...]]]:
    """Every (transport, S, Y, roads) where S, Y, X are pairwise joined by roads, X-Z1, Z1-Z2, Z2-Z3 are roads (all
    towns distinct), and the transport costs 1 card on each road but X-Z1, where it costs 2. The roads are S-X,
    S-Y, Y-X, X-Z1, Z1-Z2, Z2-Z3."""
    shapes: list[tuple[Transport, str, str, tuple[str, ...]]] = []

    def costs(transport: Transport, road: Connection) -> int | None:
        return counter_cost(transport, road.terrain) if road.is_road else None

    for transport in COUNTER_TRANSPORTS:
        for sx in ROADS:
            for s, x in ((sx.a, sx.b), (sx.b, sx.a)):
                for sy in BOARD.links(s):
                    y = sy.other(s)
                    yx = BOARD.road(y, x)
                    if y == x or yx is None or any(costs(transport, r) != 1 for r in (sx, sy, yx)):
                        continue
                    for xz in BOARD.links(x):
                        z1 = xz.other(x)
                        if z1 in (s, y) or costs(transport, xz) != 2:
                            continue
                        for z12 in BOARD.links(z1):
                            z2 = z12.other(z1)
                            if z2 in (s, y, x) or costs(transport, z12) != 1:
                                continue
                            for z23 in BOARD.links(z2):
                                if z23.other(z2) not in (s, y, x, z1) and costs(transport, z23) == 1:
                                    shapes.append((transport, s, y, (sx.id, sy.id, yx.id, xz.id, z12.id, z23.id)))
    return shapes


DETOURS = _detour_shapes()


@st.composite
def strict_caravan_traps(draw: st.DrawFn) -> Position:
    """Positions built so that the strict caravan rule can make a bigger hand do less.

    The boot can reach X directly or by a detour through a visited town (one more card); from X a road of
    cost 2 with an obstacle (3 matching cards, or a caravan) leads on, then two roads of cost 1, all holding
    counters of one transport.
    Whether the hand at X may caravan the dear road depends on how many matching cards it holds: a smaller hand
    (after the detour) may caravan it and keep its matching cards for the two roads after it. A search that lets
    the bigger hand at X rule out the smaller one (plain state dominance) misses those routes.
    """
    transport, s, y, roads = draw(st.sampled_from(DETOURS))
    tiles = tuple(Tile(road, transport, obstacle=i == 3) for i, road in enumerate(roads))
    others = [t for t in TRANSPORTS if t is not transport]
    matching = draw(st.sampled_from([4, 3, 5, 2]))  # 4: the direct way leaves exactly the obstacle road's price
    hand = Hand.of([transport] * matching + draw(st.lists(st.sampled_from(others), min_size=3, max_size=5)))
    rules = Rules(caravan_when="strict", caravan=draw(st.sampled_from(tuple(RULE_OPTIONS["caravan"].values))))
    return Position(at=s, hand=hand, tiles=tiles, visited=frozenset({y}), rules=rules).check()
