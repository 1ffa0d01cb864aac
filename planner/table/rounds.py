"""The changes of a round's drawing and planning phases: counters taken, placed, kept, and what is known of the
opponents.

Read and applied as :mod:`planner.table.changes` does the others (this module holds their bodies, so that one
stays about the board and the hand): every problem of a change's shape at once, then a pure function of the
position, validated by the caller with :meth:`Position.problems`. The opponents are edited through the position
file's own reader (:func:`position_from_mapping`), so an opponent typed on the page is read exactly as one in a
file, and its problems name the same fields (``opponent[2].visited``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from planner.common.forms import Form
from planner.common.problems import Problems
from planner.elfenland.counts import count
from planner.elfenland.keep import keep_cards
from planner.elfenland.local_names import transport_word
from planner.elfenland.notation import parse_cards, parse_connection, parse_counter, parse_transport
from planner.elfenland.position import Hand, Opponent, Position, Tile
from planner.elfenland.position_file import OPPONENT_KEYS, position_from_mapping, position_to_mapping
from planner.elfenland.rules import KEEP_LIMIT, MAX_PLAYERS, MIN_PLAYERS, Transport
from planner.table import PHASES
from planner.table.change import Change, refusal
from planner.table.texts import tt, tt_mark

__all__ = ["DISPLAY_CHOICES", "PILES", "ROUND_OPS", "apply_round_change", "read_round_change"]

PILES = ("supply", "display", "seen")
"""The counters off the board that the page edits: mine, the face-up ones, and others I can see."""
DISPLAY_CHOICES = ("keep", "new")
"""What a new round does with the face-up display: editions differ (docs/RULES.md)."""
PILE_EMPTY = {
    "supply": tt_mark("your supply holds no {counter} counter to take away"),
    "display": tt_mark("the display holds no {counter} counter to take away"),
    "seen": tt_mark("no {counter} counter is among the counters seen to take away"),
}
"""What a pile says when a counter it does not hold is taken from it (the table domain, said on use)."""
BY_ME = 0
"""``by`` of a placement of mine (opponents are 1, 2, ... as in ``opponent[1]``)."""

ROUND_OPS: dict[str, tuple[str, ...]] = {
    "phase": ("phase",),
    "counter": ("pile", "counter", "delta"),
    "pile": ("pile", "counters"),
    "take": ("counter", "source"),
    "place": ("road", "counter", "obstacle", "by"),
    "my_obstacle": ("held",),
    "opponent": ("index", "remove", *OPPONENT_KEYS),
    "players": ("players",),
    "new_round": ("keep", "cards", "display"),
}
"""The round's operations and the keys each takes besides ``op``."""


# -- reading ----------------------------------------------------------------------------------------------------
def read_round_change(op: str, form: Form, problems: Problems) -> dict[str, Any]:
    """The checked fields of a round op's change (problems noted in ``problems``, which the caller raises)."""
    fields: dict[str, Any] = {}
    if op == "phase":
        phase = form.text("phase", required=tt("one of {names}", names=", ".join(PHASES)))
        if phase is not None and phase not in PHASES:
            problems.add("bad-phase", "phase", phase, tt("unknown phase {phase}; the phases are {phases}",
                                                         phase=repr(phase), phases=", ".join(PHASES)))
        fields["text"] = phase
    elif op in ("counter", "pile"):
        pile = form.text("pile", required=tt("one of {names}", names=", ".join(PILES)))
        if pile is not None and pile not in PILES:
            problems.add("bad-pile", "pile", pile, tt("unknown pile {pile}; the piles are {piles}", pile=repr(pile),
                                                      piles=", ".join(PILES)))
        fields["pile"] = pile
        if op == "counter":
            fields["counter"] = _transport(form, problems, "counter")
            fields["delta"] = form.integer("delta", low=-8, high=8) or 0
        else:
            fields["hand"] = _counts(form, problems, "counters", required=tt(
                "the counters, e.g. {example} or {none}", example='"PUTTD"', none='"-"'))
    elif op == "take":
        fields["counter"] = _transport(form, problems, "counter")
        source = form.text("source") or "display"
        if source not in ("display", "blind"):
            problems.add("bad-source", "source", source, tt("a counter is taken from the {display} or {blind}, not "
                                                            "{source}", display="display", blind="blind",
                                                            source=repr(source)))
        fields["text"] = source
    elif op == "place":
        _read_placement(form, problems, fields)
    elif op == "my_obstacle":
        held = form.boolean("held")
        if held is None and not problems:
            problems.add("missing-key", "held", None, tt("{key} is needed: {true} while you still hold your obstacle",
                                                         key="held", true="true"))
        fields["obstacle"] = bool(held)
    elif op == "opponent":
        fields["index"] = form.integer("index", low=1, high=MAX_PLAYERS - 1)
        fields["remove"] = bool(form.boolean("remove"))
        fields["opponent"] = {key: value for key, value in form.data.items() if key in OPPONENT_KEYS}
        if fields["index"] is None and not form.has("index") and not form.has("name"):
            problems.add("missing-key", "name", None, tt("a new opponent needs a name (or give the {index} of one)",
                                                         index="index"))
    elif op == "players":
        if not form.has("players"):
            problems.add("missing-key", "players", None, tt("{key} is needed: {low}..{high}, or {null} when unknown",
                                                            key="players", low=MIN_PLAYERS, high=MAX_PLAYERS,
                                                            null="null"))
        fields["count"] = form.integer("players", low=MIN_PLAYERS, high=MAX_PLAYERS)
    elif op == "new_round":
        _read_new_round(form, problems, fields)
    return fields


def _transport(form: Form, problems: Problems, key: str) -> Transport | None:
    text = form.text(key, required=tt("the counter's letter, e.g. {example}", example="D"))
    return None if text is None else problems.attempt(key, parse_transport, text, where=key)


def _counts(form: Form, problems: Problems, key: str, *, required: str | None = None) -> Hand | None:
    """The counters or cards under ``key`` (``-`` or an empty text: none, as :func:`parse_cards` reads them);
    None when the key is missing or does not parse."""
    text = form.text(key, required=required, empty=True)
    counts = None if text is None else problems.attempt(key, parse_cards, text, where=key)
    return None if counts is None else Hand.from_counts(counts)


def _read_placement(form: Form, problems: Problems, fields: dict[str, Any]) -> None:
    road = form.text("road", required=tt("the road's id, e.g. {example}", example="DAG-KIH:f"))
    if road is not None:
        connection = problems.attempt("road", parse_connection, road, where="road")
        fields["road"] = connection.id if connection else None
    obstacle = bool(form.boolean("obstacle"))
    text = form.text("counter")
    if text is not None:
        parsed = problems.attempt("counter", parse_counter, text, where="counter")
        if parsed is not None:
            fields["counter"], with_obstacle = parsed
            obstacle = obstacle or with_obstacle
    if obstacle and fields.get("counter") is not None:
        problems.add("counter-and-obstacle", "counter", text, tt("place a counter or your obstacle, one at a time"))
    elif not obstacle and text is None and not problems:
        problems.add("missing-key", "counter", None, tt("the counter to place, e.g. {example}, or {obstacle}",
                                                        example='"E"', obstacle='"obstacle": true'))
    fields["obstacle"] = obstacle
    by = form.data.get("by", "me")
    if by == "me":
        fields["index"] = BY_ME
    elif isinstance(by, int) and not isinstance(by, bool) and 1 <= by <= MAX_PLAYERS - 1:
        fields["index"] = by
    else:
        problems.add("bad-by", "by", by, tt("{key} is {me} or the number of an opponent ({low}..{high}), got "
                                            "{value}", key="by", me='"me"', low=1, high=MAX_PLAYERS - 1,
                                            value=repr(by)))


def _read_new_round(form: Form, problems: Problems, fields: dict[str, Any]) -> None:
    keep = form.data.get("keep")
    fields["keep"] = keep is not None
    if keep is not None:
        text = form.text("keep")
        if text is not None and text.strip() != "-":
            fields["counter"] = problems.attempt("keep", parse_transport, text, where="keep")
    fields["hand"] = _counts(form, problems, "cards")
    display = form.text("display") or "keep"
    if display not in DISPLAY_CHOICES:
        problems.add("bad-display", "display", display, tt("{key} is {keep} or {new}: the face-up counters stay, or "
                                                           "five new ones are turned up", key="display",
                                                           keep=repr(DISPLAY_CHOICES[0]), new=repr(DISPLAY_CHOICES[1])))
    fields["text"] = display


# -- applying ---------------------------------------------------------------------------------------------------
def apply_round_change(position: Position, change: Change) -> Position:
    """The position after a round op's change (not yet validated; ``phase`` is the table's, not the position's).

    Raises:
        IllegalPositionError: a change that cannot be made at all: a counter taken that is not there, a placement
            on a road already holding one, an opponent who is not there, a new round after the last.
    """
    op = change.op
    if op == "counter":
        assert change.pile is not None and change.counter is not None
        counts = getattr(position, change.pile).as_dict()
        counts[change.counter] += change.delta
        if counts[change.counter] < 0:
            raise refusal("no-counter", change.pile, change.counter.letter, tt(
                PILE_EMPTY[change.pile], counter=transport_word(change.counter)))
        return position.replace(**{change.pile: Hand.from_counts(counts)})
    if op == "pile":
        assert change.pile is not None and change.hand is not None
        return position.replace(**{change.pile: change.hand})
    if op == "take":
        return _take(position, change)
    if op == "place":
        return _place(position, change)
    if op == "my_obstacle":
        return position.replace(obstacle=change.obstacle)
    if op == "opponent":
        return _edit_opponent(position, change)
    if op == "players":
        return position.replace(players=change.count)
    if op == "new_round":
        return _new_round(position, change)
    raise ValueError(f"{op!r} is not a change of the round")


def _take(position: Position, change: Change) -> Position:
    """My supply gains the counter; taken from the display, the display loses it (its new one is typed after)."""
    counter = change.counter
    assert counter is not None
    display = position.display
    if change.text == "display":
        if not display[counter]:
            raise refusal("not-in-display", "display", counter.letter, tt(
                "the display shows no {counter} counter: tap one that lies face up, or add the counter you drew "
                "blind to your supply", counter=transport_word(counter)))
        display = display.without(Hand.of([counter]))
    return position.replace(supply=position.supply + Hand.of([counter]), display=display)


def _place(position: Position, change: Change) -> Position:
    """A counter (or an obstacle) placed by me or an opponent: the board gains it, its owner's hand loses it."""
    road, index = change.road, change.index
    assert road is not None and index is not None
    tiles = position.tile_map()
    if index > len(position.opponents):
        raise refusal("no-opponent", "by", index, tt("there is no opponent {index} (opponents known: {known})",
                                                     index=index, known=len(position.opponents)))
    owner = position.opponents[index - 1] if index else None
    if change.obstacle:
        tile = tiles.get(road)
        if tile is None or tile.transport is None or tile.obstacle:
            taken = tile is not None and tile.obstacle
            raise refusal("obstacle-road", "road", road, tt(
                "an obstacle goes on a road holding a counter and no obstacle; {road} holds an obstacle already",
                road=road) if taken else tt(
                "an obstacle goes on a road holding a counter and no obstacle; {road} holds none", road=road))
        held = position.obstacle if owner is None else owner.obstacle
        if not held:
            raise refusal("no-obstacle", "obstacle" if owner is None else f"opponent[{index}].obstacle", road,
                          tt("you placed your obstacle of the game already") if owner is None else
                          tt("{name} placed their obstacle of the game already", name=owner.name))
        tiles[road] = Tile(road, tile.transport, True)
        if owner is None:
            return position.replace(tiles=tuple(tiles.values()), obstacle=False)
        return _with_opponent(position.replace(tiles=tuple(tiles.values())), index, replace(owner, obstacle=False))
    counter = change.counter
    assert counter is not None
    if road in tiles:
        there = tiles[road].transport
        raise refusal("road-taken", "road", road, tt(
            "{road} holds a {counter} counter already: a counter goes only on an empty road", road=road,
            counter=transport_word(there)) if there else tt(
            "{road} holds a counter already: a counter goes only on an empty road", road=road))
    tiles[road] = Tile(road, counter)
    board = position.replace(tiles=tuple(tiles.values()))
    if owner is None:
        if not position.supply[counter]:
            raise refusal("no-counter", "supply", counter.letter, tt(
                "your supply holds no {counter} counter: add it to the supply first, or say whose counter it is",
                counter=transport_word(counter)))
        return board.replace(supply=position.supply.without(Hand.of([counter])))
    if owner.counters[counter]:  # a face-up counter of theirs, else one of their face-down ones
        changed = replace(owner, counters=owner.counters.without(Hand.of([counter])))
    elif owner.secret:
        changed = replace(owner, secret=owner.secret - 1)
    else:
        raise refusal("no-counter", f"opponent[{index}].counters", counter.letter, tt(
            "{name} holds no {counter} counter face up and no face-down one", name=owner.name,
            counter=transport_word(counter)))
    return _with_opponent(board, index, changed)


def _with_opponent(position: Position, index: int, opponent: Opponent) -> Position:
    opponents = list(position.opponents)
    opponents[index - 1] = opponent
    return position.replace(opponents=tuple(opponents))


def _edit_opponent(position: Position, change: Change) -> Position:
    """Add, change or remove an opponent, read by the position file's reader (the same keys, the same problems)."""
    data = position_to_mapping(position)
    tables: list[dict[str, Any]] = data.setdefault("opponent", [])
    index = change.index
    if index is not None and index > len(tables):
        raise refusal("no-opponent", "index", index, tt("there is no opponent {index} (opponents known: {known})",
                                                        index=index, known=len(tables)))
    if change.remove:
        if index is None:
            raise refusal("missing-key", "index", None, tt("say which opponent to remove ({key})", key="index"))
        del tables[index - 1]
    elif index is None:
        tables.append(dict(change.opponent or {}))
    else:
        old = position.opponents[index - 1]
        table = tables[index - 1]
        # The file's table leaves the boot's town out of the visited ones: moving the boot must not drop it.
        table["visited"] = sorted(position.board.towns[t].name for t in old.visited)
        table.update(change.opponent or {})
    if not tables:
        del data["opponent"]
    return position_from_mapping(data).replace(expect=position.expect)


def _new_round(position: Position, change: Change) -> Position:
    """The next round as the rules begin it (docs/RULES.md): the counters leave the board (back to the stack, so
    the counters seen go too), I keep at most one unplaced counter and at most 4 cards (the planner's best 4
    unless the change names them), the display stays or is turned up anew; an opponent holding more than one
    unplaced counter keeps one I cannot know, counted as face down. The boot, the towns and the rules stay."""
    if position.round >= position.rules.rounds:
        raise refusal("last-round", "round", position.round, tt(
            "round {round} is the last of the game (rounds: {rounds})", round=position.round,
            rounds=position.rules.rounds))
    supply = position.supply
    if change.keep:
        if change.counter is not None and not supply[change.counter]:
            raise refusal("no-counter", "keep", change.counter.letter, tt(
                "your supply holds no {counter} counter to keep", counter=transport_word(change.counter)))
        supply = Hand.of([change.counter]) if change.counter is not None else Hand()
    elif len(supply) > 1:
        raise refusal("choose-counter", "keep", str(supply), tt(
            "your supply holds {counters} and a player keeps at most one: say which ({which}) or none ({none})",
            counters=count(len(supply), "counter"), which='"keep": "D"', none='"keep": "-"'))
    cards = change.hand if change.hand is not None else keep_cards(position.hand)
    if not position.hand.contains(cards):
        raise refusal("no-card", "cards", str(cards), tt("the hand {hand} does not hold {cards}",
                                                         hand=str(position.hand or "-"), cards=str(cards)))
    if len(cards) > KEEP_LIMIT:
        raise refusal("too-many-cards", "cards", str(cards), tt("a player keeps at most {limit}, not {given}",
                                                                limit=count(KEEP_LIMIT, "card"), given=len(cards)))
    opponents = tuple(o if len(o.counters) + o.secret <= 1 else replace(o, counters=Hand(), secret=1)
                      for o in position.opponents)
    return position.replace(tiles=(), round=position.round + 1, hand=cards, supply=supply,
                            display=position.display if change.text == "keep" else Hand(), seen=Hand(),
                            opponents=opponents)
