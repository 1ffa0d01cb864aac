"""Expeditions and positions as value objects: what is on the table at the start of my turn, and whether it is legal.

An :class:`Expedition` is one colour's arrows as a list of **legs** (the path split where a loop restarted it); a
:class:`Position` adds the players, my hand, the tokens, the common objectives, tickets and rule options.
``Position.problems()`` checks every rule of EXPEDITION.md ("Validation", rules 2 and 4–7) and returns all the
problems at once; the file reader (:mod:`planner.expedition.position_file`) adds the syntax and name problems.

The one-line notation (``str(position)``, :meth:`Position.from_str`) has fields separated by `` | ``::

    Ann,Ben*,Cleo | Uluru,Timbuktu,... | start>Athens>Gizeh | start>blue:Start-E>...>start/Zagorsk>Sakha | - |
    Ann: 11/Persepolis,Lake Baikal/Putorana Plateau/4 | Ben: Kush,Sakha,.../Kush,Sakha/Zagorsk/2 | ... [| rules]

players in turn order with ``*`` after me; the common objectives; the yellow, blue and red paths (spots joined by
``>``, legs by ``/``, ``-`` when not started); one field per player in turn order, ``name: hand/tokens/scored/
tickets`` (my hand as cards, the others' as a number); optionally the rule options that differ from the defaults.
Parsing forgives what the position file forgives (names, aliases, ``red SE``); output is canonical, so
``Position.from_str(str(p)) == p``.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import field

from planner.common.i18n import format_list, gettext, say
from planner.common.problems import Problem, Problems
from planner.common.values import frozen
from planner.errors import IllegalPositionError, NotationError
from planner.expedition.board import NEAR_START, START, Board, load_board
from planner.expedition.notation import parse_location, parse_spot
from planner.expedition.rules import ARROWS, CARDS, COLOURS, COMMONS, PLAYERS, TOKENS, Colour, Rules, dealt

MAX_COUNT = 999
"""The largest count (tickets, hand size, turn) a position may give; more is a typing slip."""

__all__ = ["MAX_COUNT", "Expedition", "Mode", "Player", "Position", "parse_path", "path_text"]

NAME_FORBIDDEN = "|:,*/"
"""Characters a player's name may not hold: the notation's separators."""


class Mode(enum.Enum):
    """Where an expedition's next arrow may leave from."""

    UNSTARTED = "unstarted"
    """No arrow yet: from the start."""
    HEAD = "head"
    """The last arrow's tip was a new spot (a free arrowhead): from there."""
    LOOPED = "looped"
    """The last arrow closed a loop and no restart followed: from any spot the expedition has visited."""

    def __str__(self) -> str:
        return self.value


def _sorted_cards(cards: Iterable[str]) -> tuple[str, ...]:
    board = load_board()
    return tuple(sorted(cards, key=lambda c: board.spots[c].index if c in board.spots else len(board.spots)))


@frozen
class Expedition:
    """One colour's arrows, as legs of spot keys (``()`` when not started).

    The first leg starts at the start; each later leg starts at a spot visited before it (a restart after a loop).
    An expedition built here is not checked; :meth:`problems` says what is wrong with it.
    """

    colour: Colour
    legs: tuple[tuple[str, ...], ...] = ()

    def __post_init__(self) -> None:
        legs = tuple(tuple(leg) for leg in self.legs)
        if legs == ((START,),):
            legs = ()
        object.__setattr__(self, "legs", legs)

    @property
    def arrows(self) -> tuple[tuple[str, str], ...]:
        """Every arrow ``(from, to)`` in placement order."""
        return tuple((leg[i], leg[i + 1]) for leg in self.legs for i in range(len(leg) - 1))

    @property
    def restart_arrows(self) -> frozenset[int]:
        """Indices (in :attr:`arrows`) of the arrows that begin a later leg: the restarts."""
        found, count = set(), 0
        for number, leg in enumerate(self.legs):
            if number:
                found.add(count)
            count += len(leg) - 1
        return frozenset(found)

    @property
    def used(self) -> frozenset[frozenset[str]]:
        """The links this colour has used (an arrow never reuses one)."""
        return frozenset(frozenset(arrow) for arrow in self.arrows)

    @property
    def visited(self) -> frozenset[str]:
        """The start and every arrow's tip."""
        return frozenset({START, *(to for _, to in self.arrows)})

    @property
    def arrows_left(self) -> int:
        """Arrows of this colour still in the supply."""
        return ARROWS - len(self.arrows)

    @property
    def mode(self) -> Mode:
        """Unstarted, a free head, or looped (derived from the path)."""
        arrows = self.arrows
        if not arrows:
            return Mode.UNSTARTED
        tip = arrows[-1][1]
        before = {START, *(to for _, to in arrows[:-1])}
        return Mode.LOOPED if tip in before else Mode.HEAD

    @property
    def head(self) -> str | None:
        """The free arrowhead, or None (unstarted or looped)."""
        return self.arrows[-1][1] if self.mode is Mode.HEAD else None

    def origins(self) -> frozenset[str]:
        """Where the next arrow may leave from: the start, the head, or any visited spot when looped."""
        mode = self.mode
        if mode is Mode.UNSTARTED:
            return frozenset({START})
        if mode is Mode.HEAD:
            return frozenset({self.arrows[-1][1]})
        return self.visited

    def with_arrow(self, frm: str, to: str, *, restart: bool = False) -> Expedition:
        """The expedition after an arrow: it extends the last leg from a free head, or starts a new leg (a restart,
        or any arrow of a looped expedition). Not checked: the turn engine checks."""
        if not self.legs:
            return Expedition(self.colour, ((frm, to),))
        if restart or self.mode is Mode.LOOPED or frm != self.legs[-1][-1]:
            return Expedition(self.colour, (*self.legs, (frm, to)))
        return Expedition(self.colour, (*self.legs[:-1], (*self.legs[-1], to)))

    def without_last(self) -> Expedition:
        """The expedition with its last arrow removed (a leg left without arrows disappears)."""
        if not self.legs:
            return self
        last = self.legs[-1][:-1]
        return Expedition(self.colour, (*self.legs[:-1], last) if len(last) > 1 else self.legs[:-1])

    def problems(self, board: Board | None = None, *, where: str | None = None) -> list[Problem]:
        """What breaks rule 7 of the validation: links, reuse, new spots inside legs, restarts, the arrow count."""
        board = board or load_board()
        field_name = where or f"expedition.{self.colour}.path"
        colour = gettext(str(self.colour))  # the colour as render.COLOUR_WORDS marks it
        found = Problems()
        visited = {START}
        used: set[frozenset[str]] = set()
        for number, leg in enumerate(self.legs):
            label = say("leg {n}", n=number + 1) if len(self.legs) > 1 else gettext("the path")
            if not leg:
                found.add("empty-leg", field_name, "[]", say(
                    "{colour}: {label} is empty; a leg lists its spots from the one it leaves (write path = [] when "
                    "not started)", colour=colour, label=label))
                continue
            if number == 0 and leg[0] != START:
                found.add("path-start", field_name, leg[0], say(
                    "{colour}: {label} must start at 'start', not {spot!r}", colour=colour, label=label, spot=leg[0]))
            if number and leg[0] not in visited:
                found.add("restart-unvisited", field_name, leg[0], say(
                    "{colour}: {label} restarts at {spot!r}, which {colour} has not visited", colour=colour,
                    label=label, spot=leg[0]))
            if len(leg) < 2:
                found.add("empty-leg", field_name, leg[0], say("{colour}: {label} has no arrow", colour=colour,
                                                                 label=label))
            for i in range(len(leg) - 1):
                frm, to = leg[i], leg[i + 1]
                pair = frozenset((frm, to))
                if board.link(frm, to) is None:
                    found.add("not-linked", field_name, f"{frm}>{to}", say(
                        "{colour}: no link from {frm} to {to}", colour=colour, frm=frm, to=to))
                elif pair in used:
                    found.add("link-reused", field_name, f"{frm}>{to}", say(
                        "{colour}: the link {frm}–{to} carries a {colour} arrow already; a colour never uses a link "
                        "twice", colour=colour, frm=frm, to=to))
                last_of_leg = i == len(leg) - 2
                if to in visited and not last_of_leg:
                    found.add("loop-inside-leg", field_name, to, say(
                        "{colour}: the arrow {frm}>{to} closes a loop ({to} was visited) but {label} goes on; start a "
                        "new leg after a loop", colour=colour, frm=frm, to=to, label=label))
                if last_of_leg and number < len(self.legs) - 1 and to not in visited:
                    found.add("leg-not-looped", field_name, to, say(
                        "{colour}: {label} ends at {to}, a new spot, yet another leg follows; a leg ends only where a "
                        "loop closes", colour=colour, label=label, to=to))
                used.add(pair)
                visited.add(to)
        if len(self.arrows) > ARROWS:
            found.add("too-many-arrows", field_name, len(self.arrows), say(
                "{colour} has {n} arrows; a colour has only {most}", colour=colour, n=len(self.arrows), most=ARROWS))
        return found.found


@frozen
class Player:
    """One player's public state (and, for me, my hand).

    Attributes:
        name: as in ``players``.
        hand: my cards in canonical (map) order; None for an opponent, whose hand is secret.
        hand_size: cards in hand (for me, ``len(hand)``).
        tokens: locations where this player's tokens still lie on the map.
        scored: cards face up in front of the player (own cards reached, common objectives claimed).
        tickets: tickets held.
    """

    name: str
    hand: tuple[str, ...] | None = None
    hand_size: int = 0
    tokens: tuple[str, ...] = ()
    scored: tuple[str, ...] = ()
    tickets: int = 3

    def __post_init__(self) -> None:
        if self.hand is not None:
            object.__setattr__(self, "hand", _sorted_cards(self.hand))
            object.__setattr__(self, "hand_size", len(self.hand))
        object.__setattr__(self, "tokens", _sorted_cards(self.tokens))
        object.__setattr__(self, "scored", _sorted_cards(self.scored))

    @property
    def score(self) -> int:
        """The score if the game ended now: +1 a card in front and a token recovered, −1 a card in hand and a token
        on the map."""
        return len(self.scored) + (TOKENS - len(self.tokens)) - self.hand_size - len(self.tokens)


@frozen
class Position:
    """A snapshot at the start of my turn.

    ``title``, ``notes`` and ``turn`` are informational and left out of equality and of the notation.
    """

    players: tuple[str, ...]
    me: str
    common: tuple[str, ...]
    expeditions: tuple[Expedition, ...]
    seats: tuple[Player, ...]
    """One :class:`Player` per name of ``players``, in turn order."""
    rules: Rules = Rules()
    title: str | None = field(default=None, compare=False)
    notes: str | None = field(default=None, compare=False)
    turn: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "common", _sorted_cards(self.common))
        by_colour = {e.colour: e for e in self.expeditions}
        object.__setattr__(self, "expeditions", tuple(by_colour.get(c, Expedition(c)) for c in COLOURS))
        order = {name: i for i, name in enumerate(self.players)}
        object.__setattr__(self, "seats", tuple(sorted(self.seats, key=lambda s: order.get(s.name, len(order)))))

    # -- derived -------------------------------------------------------------------------------------------------
    @property
    def board(self) -> Board:
        """The map."""
        return load_board()

    def expedition(self, colour: Colour) -> Expedition:
        """One colour's expedition."""
        return self.expeditions[COLOURS.index(colour)]

    def seat(self, name: str) -> Player:
        """One player's state.

        Raises:
            KeyError: no such player.
        """
        for seat in self.seats:
            if seat.name == name:
                return seat
        raise KeyError(name)

    @property
    def mine(self) -> Player:
        """My state (hand included); an empty one in a position that lacks my table (which is a problem)."""
        try:
            return self.seat(self.me)
        except KeyError:
            return Player(self.me, ())

    @property
    def hand(self) -> tuple[str, ...]:
        """My cards."""
        return self.mine.hand or ()

    @property
    def opponents(self) -> tuple[Player, ...]:
        """The other players, in turn order after me."""
        i = self.players.index(self.me) if self.me in self.players else 0
        order = self.players[i + 1:] + self.players[:i]
        return tuple(s for name in order for s in self.seats if s.name == name)

    @property
    def dealt(self) -> int:
        """Cards dealt to each player at the start."""
        return dealt(len(self.players))

    @property
    def deck(self) -> int:
        """Cards left in the deck: 80 − all hands − the common objectives − every scored card."""
        return CARDS - sum(s.hand_size for s in self.seats) - len(self.common) - sum(len(s.scored) for s in self.seats)

    def seen(self) -> frozenset[str]:
        """Cards whose place I know: my hand, the common objectives, every scored card."""
        return frozenset(self.hand) | frozenset(self.common) | frozenset(c for s in self.seats for c in s.scored)

    def held(self, seat: Player) -> frozenset[str]:
        """The cards known (or, for an opponent, assumed) to be in ``seat``'s hand: my hand, or an opponent's token
        locations whose card is not seen elsewhere."""
        if seat.hand is not None:
            return frozenset(seat.hand)
        return frozenset(seat.tokens) - self.seen()

    # -- validation ------------------------------------------------------------------------------------------
    def problems(self, *, counts: bool = True) -> list[Problem]:
        """Every rule problem of the position (EXPEDITION.md "Validation" 2 and 4–7), all at once.

        ``counts`` = False skips the card-count rules (6), for a file whose lists held names that did not parse.
        """
        board = self.board
        found = Problems()
        self._player_problems(found)
        self._card_problems(found, board)
        if counts:
            self._count_problems(found)
        for expedition in self.expeditions:
            found.extend(expedition.problems(board))
        return found.found

    def _player_problems(self, found: Problems) -> None:
        if not PLAYERS[0] <= len(self.players) <= PLAYERS[1]:
            found.add("player-count", "players", len(self.players), say(
                "{n} players; the game takes {low} to {high}", n=len(self.players), low=PLAYERS[0], high=PLAYERS[1]))
        for name in {n for n in self.players if self.players.count(n) > 1}:
            found.add("player-twice", "players", name, say("player {name!r} is listed twice in players",
                                                                    name=name))
        for name in self.players:
            bad = sorted({ch for ch in name if ch in NAME_FORBIDDEN})
            if bad or not name.strip() or name != name.strip():
                found.add("player-name", "players", name, say(
                    "player name {name!r} may not be empty, start or end with a space, or hold any of {signs}",
                    name=name, signs=" ".join(NAME_FORBIDDEN)))
        if self.me not in self.players:
            found.add("me-not-player", "me", self.me, say(
                "me = {me!r} is not one of the players ({players})", me=self.me, players=", ".join(self.players)))
        names = [s.name for s in self.seats]
        for name in self.players:
            if name not in names:
                found.add("missing-player", f"player.{name}", name, say("missing table [player.{name}]",
                                                                                   name=name))
        for seat in self.seats:
            if seat.name not in self.players:
                found.add("unknown-player", f"player.{seat.name}", seat.name, say(
                    "[player.{name}] is not one of the players ({players})", name=seat.name,
                    players=", ".join(self.players)))

    def _card_problems(self, found: Problems, board: Board) -> None:
        places: dict[str, list[str]] = {}
        for card in self.hand:
            places.setdefault(card, []).append(say("{name}'s hand", name=self.me))
        for card in self.common:
            places.setdefault(card, []).append(gettext("the common objectives"))
        for seat in self.seats:
            for card in seat.scored:
                places.setdefault(card, []).append(say("{name}'s scored cards", name=seat.name))
        for card, where in places.items():
            if len(where) > 1:
                found.add("card-twice", "cards", card, say(
                    "card {card!r} appears more than once: in {places}; there is one card per location", card=card,
                    places=format_list(where)))
        hand = set(self.hand)
        owner: dict[str, str] = {}
        for seat in self.seats:
            field_name = f"player.{seat.name}.tokens"
            if len(seat.tokens) > TOKENS:
                found.add("too-many-tokens", field_name, len(seat.tokens), say(
                    "{name} has {n} tokens on the map; a player has only {most}", name=seat.name, n=len(seat.tokens),
                    most=TOKENS))
            for token in seat.tokens:
                if token in owner:
                    found.add("token-twice", field_name, token, say(
                        "{spot} holds tokens of {first} and {second}; one token per location", spot=token,
                        first=owner[token], second=seat.name))
                owner.setdefault(token, seat.name)
                if token in board.near_start:
                    found.add("token-near-start", field_name, token, say(
                        "{name}'s token on {spot}: no token within {n} links of the start", name=seat.name, spot=token,
                        n=NEAR_START))
                if seat.name != self.me and token in hand:
                    found.add("token-on-my-card", field_name, token, say(
                        "{name}'s token lies on {spot}, whose card is in {me}'s hand; a token marks a card of its "
                        "owner", name=seat.name, spot=token, me=self.me))

    def _count_problems(self, found: Problems) -> None:
        dealt_now = self.dealt
        for seat in self.seats:
            field_name = f"player.{seat.name}.{'hand' if seat.hand is not None else 'hand_size'}"
            if seat.hand_size > dealt_now:
                found.add("hand-too-big", field_name, seat.hand_size, say(
                    "{name} holds {n} cards; with {players} players each is dealt {dealt}", name=seat.name,
                    n=seat.hand_size, players=len(self.players), dealt=dealt_now))
            if seat.hand_size + len(seat.scored) < dealt_now:
                found.add("cards-missing", field_name, seat.hand_size, say(
                    "{name} has {n} cards in hand and {scored} scored: fewer than the {dealt} dealt (cards leave the "
                    "hand only when scored)", name=seat.name, n=seat.hand_size, scored=len(seat.scored),
                    dealt=dealt_now))
            if seat.tickets < 0:
                found.add("bad-tickets", f"player.{seat.name}.tickets", seat.tickets, say("{name} has {n} tickets",
                                                                                    name=seat.name, n=seat.tickets))
        deck = self.deck
        if deck < 0:
            found.add("too-many-cards", "cards", CARDS - deck, say(
                "the position accounts for {n} cards; there are only {most}", n=CARDS - deck, most=CARDS))
        if len(self.common) > COMMONS:
            found.add("too-many-commons", "common", len(self.common), say(
                "{n} common objectives; at most {most} are open", n=len(self.common), most=COMMONS))
        elif len(self.common) < COMMONS and deck > 0:
            found.add("too-few-commons", "common", len(self.common), say(
                "only {n} common objectives while {deck} cards are left in the deck; a claimed objective is replaced "
                "at once", n=len(self.common), deck=deck))

    def warnings(self) -> list[Problem]:
        """Legal but worth a look: my token on a card not in my hand (it stays there for good under the default
        rules), a token on a card its owner has already scored."""
        found = Problems()
        hand = set(self.hand)
        for seat in self.seats:
            for token in seat.tokens:
                if seat.name == self.me and token not in hand:
                    found.add("orphan-token", f"player.{seat.name}.tokens", token, say(
                        "your token on {spot} marks no card in your hand (exchanged away?): it stays there and costs "
                        "1", spot=token))
                if token in seat.scored:
                    found.add("token-on-scored", f"player.{seat.name}.tokens", token, say(
                        "{name}'s token lies on {spot}, a card {name} has scored: that arrival recovered the token",
                        name=seat.name, spot=token))
        return found.found

    def check(self) -> Position:
        """The position itself, once it has no problems.

        Raises:
            IllegalPositionError: every problem.
        """
        problems = self.problems()
        if problems:
            raise IllegalPositionError(problems)
        return self

    # -- notation ------------------------------------------------------------------------------------------------
    def __str__(self) -> str:
        fields_ = [",".join(f"{p}*" if p == self.me else p for p in self.players), ",".join(self.common) or "-"]
        fields_ += [path_text(e) for e in self.expeditions]
        for name in self.players:
            try:
                seat = self.seat(name)
            except KeyError:
                continue
            hand = (",".join(seat.hand) or "-") if seat.hand is not None else str(seat.hand_size)
            fields_.append(f"{name}: {hand}/{','.join(seat.tokens) or '-'}/{','.join(seat.scored) or '-'}/"
                           f"{seat.tickets}")
        if str(self.rules):
            fields_.append(str(self.rules))
        return " | ".join(fields_)

    def __repr__(self) -> str:
        return f"Position.from_str({str(self)!r})"

    @classmethod
    def from_str(cls, text: str) -> Position:
        """A position from its one-line notation (lenient: names, aliases, ``red SE``, spaces).

        Raises:
            NotationError: a field that does not parse.
            IllegalPositionError: the position breaks a rule (every problem).
        """
        parts = [p.strip() for p in text.split("|")]
        if len(parts) < 5:
            raise NotationError(say("a position has at least 5 fields separated by '|' (players, common, yellow, "
                                    "blue, red, then one per player), got {n}", n=len(parts)), kind="bad-notation",
                                value=text)
        players_text = [p.strip() for p in parts[0].split(",") if p.strip()]
        players = tuple(p.rstrip("*").strip() for p in players_text)
        marked = [p.rstrip("*").strip() for p in players_text if p.endswith("*")]
        if len(marked) != 1:
            raise NotationError(say("mark exactly one player as me with '*' (e.g. 'Ann,Ben*,Cleo')"),
                                kind="bad-notation", value=parts[0])
        common = tuple(parse_location(c, where="common") for c in _items(parts[1]))
        expeditions = tuple(Expedition(colour, parse_path(_legs_of(parts[2 + i]), where=f"{colour} path"))
                            for i, colour in enumerate(COLOURS))
        rest = parts[5:]
        rules = Rules()
        if rest and ":" not in rest[-1]:
            rules = Rules.from_str(rest.pop())
        seats = tuple(_seat_from_str(p, me=marked[0]) for p in rest)
        position = cls(players, marked[0], common, expeditions, seats, rules)
        return position.check()


def _items(text: str) -> list[str]:
    return [] if text.strip() in ("", "-") else [t.strip() for t in text.split(",") if t.strip()]


def _legs_of(text: str) -> list[list[str]]:
    if text.strip() in ("", "-"):
        return []
    return [[s.strip() for s in leg.split(">")] for leg in text.split("/")]


def _seat_from_str(text: str, *, me: str) -> Player:
    name, colon, rest = text.partition(":")
    pieces = rest.split("/")
    if not colon or len(pieces) != 4:
        raise NotationError(say("player field {text!r} must look like 'Ann: 11/tokens/scored/tickets'", text=text),
                            kind="bad-notation", value=text)
    name = name.strip()
    hand_text, tokens, scored, tickets = (p.strip() for p in pieces)
    count = _count(tickets, say("tickets in {name}'s field", name=name))
    token_keys = tuple(parse_location(t, where=say("{name}'s field tokens", name=name)) for t in _items(tokens))
    scored_keys = tuple(parse_location(t, where=say("{name}'s field scored", name=name)) for t in _items(scored))
    if name == me:
        hand = tuple(parse_location(c, where=say("{name}'s field hand", name=name)) for c in _items(hand_text))
        return Player(name, hand, len(hand), token_keys, scored_keys, count)
    if not (hand_text.isascii() and hand_text.isdigit()):
        raise NotationError(say("{name}'s hand is secret: give its size, not {text!r}", name=name, text=hand_text),
                            kind="bad-notation", value=hand_text)
    return Player(name, None, _count(hand_text, say("{name}'s hand size", name=name)), token_keys, scored_keys, count)


def _clip(text: str) -> str:
    return text if len(text) <= 20 else text[:20] + "…"


def _count(text: str, what: str) -> int:
    """A whole number of at most :data:`MAX_COUNT`, in ASCII digits (``'²'.isdigit()`` is true, and a number of
    thousands of digits would fail in ``int`` with Python's own wording)."""
    if not (text.isascii() and text.isdigit()):
        raise NotationError(say("{what} must be a whole number, not {text!r}", what=what, text=_clip(text)),
                            kind="bad-notation", value=_clip(text))
    if len(text.lstrip("0")) > len(str(MAX_COUNT)) or int(text) > MAX_COUNT:
        raise NotationError(say("{what} must be at most {most}, not {text!r}", what=what, most=MAX_COUNT,
                                text=_clip(text)), kind="bad-notation", value=_clip(text))
    return int(text)


def parse_path(legs: list[list[str]], *, where: str) -> tuple[tuple[str, ...], ...]:
    """Spot keys of a path given as legs of names; relative names resolve against the previous spot of the leg.

    Raises:
        NotationError: the first name that does not resolve (a relative name opening a leg included).
    """
    resolved = []
    for number, leg in enumerate(legs, 1):
        keys: list[str] = []
        for text in leg:
            keys.append(parse_spot(text, after=keys[-1] if keys else None, where=f"{where}, leg {number}"
                                   if len(legs) > 1 else where))
        resolved.append(tuple(keys))
    return tuple(resolved)


def path_text(expedition: Expedition) -> str:
    """The path in the notation: ``start>Athens>Gizeh/Gizeh>Petra``, ``-`` when not started."""
    return "/".join(">".join(leg) for leg in expedition.legs) or "-"
