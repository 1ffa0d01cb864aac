"""The turn engine: the legal actions of a turn, their effects and their points — the executable spec.

:func:`verify` replays a turn (a list of :class:`~planner.expedition.notation.Action`) on a position, independently
of any solver, and returns its :class:`Outcome` (my points, the opponents' known points, tickets spent and won,
arrows placed, what happened), or raises :class:`IllegalActionError` naming the first illegal action and why.
:func:`legal_actions` lists what may be done next, which the tests' plain enumeration and the random play use.

The rules are EXPEDITION.md's "A turn", with the rule options of :class:`~planner.expedition.rules.Rules`:

- an arrow's role follows from the state: a pending restart must be placed first (its colour, from a visited spot);
  else an arrow pays a pending blue-square bonus; else it is the turn's mandatory arrow; after that, further arrows
  need a ticket (``ticket yellow ...``), as do removing a last arrow and exchanging a card;
- a ticket spent while blue arrows are pending declines them (unless ``ticket_timing = "anytime"``);
- the turn may end once the mandatory arrow is placed (or none is possible) and no restart is pending.

The state knows each player's hand as far as I do: my whole hand, and for an opponent the cards their tokens mark
(assumed still in hand) plus a number of unknown cards. A simulation that knows every hand and the deck's order
(the random play) uses the same engine with nothing unknown.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import replace

from planner.common.i18n import N_, gettext, say
from planner.common.values import frozen
from planner.errors import IllegalStepError, NotationError
from planner.expedition.board import SpotKind, load_board
from planner.expedition.notation import Action, ActionKind, parse_action, split_actions
from planner.expedition.position import Expedition, Mode, Position
from planner.expedition.rules import COLOURS, TICKETS_PER_TURN, TOKENS, Colour, Rules

__all__ = ["Event", "IllegalActionError", "Outcome", "Seat", "TurnState", "begin", "end_problem", "legal_actions",
           "legal_arrows", "play", "replay", "verify"]


def _colour(colour: object) -> str:
    """A colour as the text says it (the catalogue's words of :data:`planner.expedition.render.COLOUR_WORDS`)."""
    return gettext(str(colour))


class IllegalActionError(IllegalStepError):
    """An action of a turn that cannot be played; ``index`` is 0-based (``len(actions)`` for the end of the turn)."""

    def __init__(self, index: int, message: str) -> None:
        super().__init__(index, message)
        self.args = (say("action {n}: {reason}", n=index + 1, reason=message),)

    def __str__(self) -> str:
        return say("action {n}: {reason}", n=self.index + 1, reason=self.reason)


class _Illegal(Exception):
    """Why one action is illegal (turned into :class:`IllegalActionError` with its index)."""


@frozen
class Seat:
    """A player as the turn sees them.

    Attributes:
        name: the player's name.
        hand: the cards known to be in hand (for an opponent: the cards their tokens mark, assumed still held).
        hidden: cards in hand that are not known.
        scored: cards face up in front of the player.
        tokens: locations where the player's tokens still lie.
        tickets: tickets held.
    """

    name: str
    hand: frozenset[str]
    hidden: int
    scored: frozenset[str]
    tokens: frozenset[str]
    tickets: int

    @property
    def score(self) -> int:
        """The score if the game ended now (EXPEDITION.md "End and scoring")."""
        return len(self.scored) + (TOKENS - len(self.tokens)) - len(self.hand) - self.hidden - len(self.tokens)


@frozen
class Event:
    """Something an action caused: ``card`` (a player scores a card), ``token`` (recovers a token), ``common``
    (I claim a common objective), ``reveal`` (its replacement), ``ticket`` (a red star), ``bonus`` (a blue
    square's arrow), ``loop``, ``restart-lost``, ``declined`` (pending arrows given up)."""

    kind: str
    spot: str | None = None
    player: str | None = None
    colour: Colour | None = None


@frozen
class TurnState:
    """The table during my turn, and what the turn has done so far."""

    expeditions: tuple[Expedition, ...]
    seats: tuple[Seat, ...]
    active: int
    """Index of the player whose turn it is (me) in ``seats``."""
    common: frozenset[str]
    deck: tuple[str, ...] | None
    """The deck top first when known (a simulation), else None: a claimed objective's replacement is unknown."""
    deck_size: int
    rules: Rules
    mandatory: bool = False
    """Whether the turn's mandatory arrow is placed."""
    restart: Colour | None = None
    """The colour whose restart arrow must come next."""
    blue: int = 0
    """Blue-square arrows pending."""
    spent: int = 0
    """Tickets spent this turn."""
    actions: tuple[Action, ...] = ()
    events: tuple[Event, ...] = ()

    @property
    def me(self) -> Seat:
        """The active player."""
        return self.seats[self.active]

    def expedition(self, colour: Colour) -> Expedition:
        """One colour's expedition."""
        return self.expeditions[COLOURS.index(colour)]


def begin(position: Position) -> TurnState:
    """The state at the start of my turn in ``position``."""
    seats = []
    for player in position.seats:
        held = position.held(player)
        seats.append(Seat(player.name, held, player.hand_size - len(held), frozenset(player.scored),
                          frozenset(player.tokens), player.tickets))
    active = next(i for i, s in enumerate(seats) if s.name == position.me)
    return TurnState(position.expeditions, tuple(seats), active, frozenset(position.common), None,
                     max(position.deck, 0), position.rules)


# -- arrows ---------------------------------------------------------------------------------------------------
def legal_arrows(state: TurnState, colours: Iterable[Colour] = COLOURS) -> list[tuple[Colour, str, str]]:
    """Every arrow ``(colour, from, to)`` the rules allow now for those colours (ignoring whose turn role it is)."""
    board = load_board()
    found = []
    for colour in colours:
        expedition = state.expedition(colour)
        if expedition.arrows_left <= 0:
            continue
        used = expedition.used
        for frm in sorted(expedition.origins(), key=lambda s: board.spots[s].index):
            for to, _ in board.links_of(frm):
                if frozenset((frm, to)) not in used:
                    found.append((colour, frm, to))
    return found


def _arrow_possible(state: TurnState, colours: Iterable[Colour] = COLOURS) -> bool:
    return bool(legal_arrows(state, colours))


def _check_arrow(state: TurnState, colour: Colour, frm: str, to: str) -> None:
    board = load_board()
    expedition = state.expedition(colour)
    if expedition.arrows_left <= 0:
        raise _Illegal(say("no {colour} arrows are left", colour=_colour(colour)))
    origins = expedition.origins()
    if frm not in origins:
        if expedition.mode is Mode.HEAD:
            raise _Illegal(say("{colour} leaves from its head {head}, not from {frm}", colour=_colour(colour),
                               head=expedition.head, frm=frm))
        if expedition.mode is Mode.UNSTARTED:
            raise _Illegal(say("{colour} has not started: its first arrow leaves from the start, not from {frm}",
                               colour=_colour(colour), frm=frm))
        raise _Illegal(say("{colour} has not visited {frm}; a looped expedition leaves from a spot it has visited",
                           colour=_colour(colour), frm=frm))
    if board.link(frm, to) is None:
        raise _Illegal(say("no link from {frm} to {to}", frm=frm, to=to))
    if frozenset((frm, to)) in expedition.used:
        raise _Illegal(say("{colour} has used the link {frm}–{to} already; a colour never uses a link twice",
                           colour=_colour(colour), frm=frm, to=to))


def _with(state: TurnState, colour: Colour, expedition: Expedition) -> TurnState:
    expeditions = tuple(expedition if c is colour else e for c, e in zip(COLOURS, state.expeditions, strict=True))
    return replace(state, expeditions=expeditions)


def _arrive(state: TurnState, spot: str) -> TurnState:
    """The effect of the spot an arrow points to (or that a removed arrow left from)."""
    board = load_board()
    kind = board.kind(spot)
    events = list(state.events)
    if kind is SpotKind.BLUE:
        if any(e.arrows_left > 0 for e in state.expeditions):
            events.append(Event("bonus", spot))
            return replace(state, blue=state.blue + 1, events=tuple(events))
        return state
    if kind is SpotKind.RED:
        events.append(Event("ticket", spot, state.me.name))
        return replace(state, seats=_seats_with(state, tickets=state.me.tickets + 1), events=tuple(events))
    if kind is not SpotKind.GREEN:
        return state
    seats = list(state.seats)
    for i, seat in enumerate(seats):
        has_card = spot in seat.hand
        if has_card:
            seat = replace(seat, hand=seat.hand - {spot}, scored=seat.scored | {spot})
            events.append(Event("card", spot, seat.name))
        if spot in seat.tokens and (has_card or state.rules.orphans_recover):
            seat = replace(seat, tokens=seat.tokens - {spot})
            events.append(Event("token", spot, seat.name))
        seats[i] = seat
    common, deck, deck_size = state.common, state.deck, state.deck_size
    if spot in common:
        me = seats[state.active]
        seats[state.active] = replace(me, scored=me.scored | {spot})
        common = common - {spot}
        events.append(Event("common", spot, me.name))
        if deck_size > 0:
            deck_size -= 1
            if deck is not None:
                common = common | {deck[0]}
                events.append(Event("reveal", deck[0]))
                deck = deck[1:]
    return replace(state, seats=tuple(seats), common=common, deck=deck, deck_size=deck_size, events=tuple(events))


def _seats_with(state: TurnState, **changes: object) -> tuple[Seat, ...]:
    """The seats with the active player's fields changed."""
    return tuple(replace(s, **changes) if i == state.active else s for i, s in enumerate(state.seats))  # type: ignore[arg-type]


def _after_loop(state: TurnState, colour: Colour) -> TurnState:
    """A restart is due for ``colour``: pending if one is possible, else lost (the expedition stays looped)."""
    if _arrow_possible(state, (colour,)):
        return replace(state, restart=colour)
    return replace(state, events=(*state.events, Event("restart-lost", colour=colour)))


def _place(state: TurnState, colour: Colour, frm: str, to: str) -> TurnState:
    expedition = state.expedition(colour)
    closes_loop = to in expedition.visited
    state = _with(state, colour, expedition.with_arrow(frm, to))
    state = _arrive(state, to)
    if closes_loop:
        state = replace(state, events=(*state.events, Event("loop", to, colour=colour)))
        state = _after_loop(state, colour)
    return state


# -- tickets ----------------------------------------------------------------------------------------------------
def _ticket_problem(state: TurnState) -> str | None:
    if state.restart is not None:
        return say("a {colour} restart is pending: place it before spending a ticket", colour=_colour(state.restart))
    if state.me.tickets <= 0:
        return gettext("you have no ticket left")
    if state.spent >= TICKETS_PER_TURN:
        return say("a turn spends at most {n} tickets", n=TICKETS_PER_TURN)
    if state.blue and state.rules.blue_mandatory and not state.rules.tickets_anytime and _arrow_possible(state):
        return gettext("a blue square's arrow is pending and must be placed first (blue_bonus = mandatory)")
    return None


def _spend(state: TurnState) -> TurnState:
    state = replace(state, seats=_seats_with(state, tickets=state.me.tickets - 1), spent=state.spent + 1)
    if state.blue and not state.rules.tickets_anytime:
        state = replace(state, blue=0, events=(*state.events, Event("declined")))
    return state


def _check_removable(state: TurnState, colour: Colour) -> None:
    mode = state.expedition(colour).mode
    if mode is not Mode.HEAD:
        message = N_("{colour} has no arrow: only a last arrow with a free head can be removed") \
            if mode is Mode.UNSTARTED else N_("{colour} has no free head (its last arrow closed a loop): only a last "
                                              "arrow with a free head can be removed")
        raise _Illegal(say(message, colour=_colour(colour)))


def _remove(state: TurnState, colour: Colour) -> TurnState:
    expedition = state.expedition(colour)
    frm = expedition.arrows[-1][0]
    shorter = expedition.without_last()
    state = _with(state, colour, shorter)
    state = _arrive(state, frm)
    if shorter.mode is Mode.LOOPED:  # the removed arrow was a restart: the expedition restarts at once
        state = _after_loop(state, colour)
    return state


def _exchange(state: TurnState, card: str, keep: str | None) -> TurnState:
    me = state.me
    if card not in me.hand:
        raise _Illegal(say("{card} is not in your hand", card=card))
    if state.deck_size <= 0:
        raise _Illegal(gettext("the deck is empty: there is nothing to draw"))
    deck = state.deck
    if deck is not None:
        drawn = deck[:2]
        if keep is None or keep not in (card, *drawn):
            raise _Illegal(say("keep {card} or one of the cards drawn ({drawn})", card=card, drawn=", ".join(drawn)))
        back = tuple(c for c in (card, *drawn) if c != keep)
        deck = deck[len(drawn):] + back
    elif keep is not None and keep != card:
        seen = set(state.common) | {c for s in state.seats for c in (*s.hand, *s.scored)}
        if keep in seen:
            raise _Illegal(say("{card} cannot be drawn: its card is known to be elsewhere", card=keep))
    hand, hidden = me.hand - {card}, me.hidden
    if keep is None:
        hidden += 1
    else:
        hand = hand | {keep}
    return replace(state, seats=_seats_with(state, hand=hand, hidden=hidden), deck=deck)


# -- one action, the end, the whole turn ------------------------------------------------------------------------
def play(state: TurnState, action: Action) -> TurnState:
    """The state after one action.

    Raises:
        IllegalActionError: the action is illegal now (index: the number of actions played before it).
    """
    try:
        return _play(state, action)
    except _Illegal as illegal:
        raise IllegalActionError(len(state.actions), str(illegal)) from None


def _play(state: TurnState, action: Action) -> TurnState:
    if action.kind is not ActionKind.ARROW and not action.ticket:
        raise _Illegal(say("{kind} needs a ticket: write 'ticket {action}'", kind=action.kind, action=action))
    if action.ticket:
        problem = _ticket_problem(state)
        if problem:
            raise _Illegal(problem)
    if action.kind is ActionKind.ARROW:
        colour, frm, to = action.colour, action.frm, action.to
        assert colour is not None and frm is not None and to is not None  # built by Action.arrow
        if state.restart is not None and colour is not state.restart:
            raise _Illegal(say("a {colour} restart is pending: the next arrow is {colour}'s, from a spot it has "
                               "visited", colour=_colour(state.restart)))
        _check_arrow(state, colour, frm, to)
        if action.ticket:
            state = _spend(state)
        elif state.restart is not None:
            state = replace(state, restart=None)
        elif state.blue:
            state = replace(state, blue=state.blue - 1)
        elif not state.mandatory:
            state = replace(state, mandatory=True)
        else:
            raise _Illegal(say("the turn's arrow is placed and no bonus arrow is pending: another arrow needs a "
                               "ticket (write 'ticket {action}')", action=action))
        state = _place(state, colour, frm, to)
    elif action.kind is ActionKind.REMOVE:
        assert action.colour is not None
        _check_removable(state, action.colour)
        state = _remove(_spend(state), action.colour)
    else:
        assert action.card is not None
        state = _exchange(_spend(state), action.card, action.keep)
    return replace(state, actions=(*state.actions, action))


def end_problem(state: TurnState) -> str | None:
    """Why the turn may not end now, or None when it may."""
    if state.restart is not None and not (state.rules.restart_optional and state.mandatory):
        return say("a {colour} restart is pending: place it from a spot {colour} has visited",
                   colour=_colour(state.restart))
    if state.restart is None and state.blue and state.rules.blue_mandatory and _arrow_possible(state):
        return gettext("a blue square's arrow is pending and must be placed (blue_bonus = mandatory)")
    if not state.mandatory and _arrow_possible(state):
        return gettext("the turn's mandatory arrow is missing")
    return None


def legal_actions(state: TurnState, *, exchanges: bool = False) -> list[Action]:
    """Every action legal now (exchanges only when asked: they score nothing at once). Ending the turn is legal when
    :func:`end_problem` is None."""
    if state.restart is not None:
        return [Action.arrow(c, f, t) for c, f, t in legal_arrows(state, (state.restart,))]
    found = []
    if state.blue or not state.mandatory:
        found += [Action.arrow(c, f, t) for c, f, t in legal_arrows(state)]
    if _ticket_problem(state) is None:
        found += [Action.arrow(c, f, t, ticket=True) for c, f, t in legal_arrows(state)]
        found += [Action.remove(c) for c in COLOURS if state.expedition(c).mode is Mode.HEAD]
        if exchanges and state.deck_size > 0:
            found += [Action.exchange(card) for card in sorted(state.me.hand)]
    return found


@frozen
class Outcome:
    """What a legal turn achieves."""

    points: int
    """My points: the change of my score as if the game ended now."""
    opponents: dict[str, int]
    """Each opponent's known points (cards their tokens mark reached, tokens recovered)."""
    tickets_spent: int
    tickets_won: int
    arrows: int
    """Arrows placed (mandatory, bonus, restart and ticket arrows); removals are not counted."""
    state: TurnState

    @property
    def opponents_points(self) -> int:
        """The opponents' known points together."""
        return sum(self.opponents.values())

    @property
    def events(self) -> tuple[Event, ...]:
        """What happened, in order."""
        return self.state.events


def outcome(start: TurnState, end: TurnState) -> Outcome:
    """The outcome of the turn that led from ``start`` to ``end``."""
    others = {s.name: e.score - s.score for i, (s, e) in enumerate(zip(start.seats, end.seats, strict=True))
              if i != start.active}
    arrows = sum(1 for a in end.actions if a.kind is ActionKind.ARROW)
    won = end.me.tickets - start.me.tickets + end.spent
    return Outcome(end.me.score - start.me.score, others, end.spent, won, arrows, end)


def verify(position: Position, actions: Iterable[Action]) -> Outcome:
    """Replay a whole turn on ``position`` and say what it scores.

    Raises:
        IllegalActionError: at the first illegal action, or (index = the number of actions) when the turn may not
            end there.
    """
    start = begin(position)
    state = start
    for action in actions:
        state = play(state, action)
    return _finish(start, state)


def _finish(start: TurnState, state: TurnState) -> Outcome:
    problem = end_problem(state)
    if problem:
        raise IllegalActionError(len(state.actions), say("the turn cannot end here: {problem}", problem=problem))
    return outcome(start, state)


def _origin(state: TurnState, colour: Colour) -> str | None:
    expedition = state.expedition(colour)
    if expedition.mode is Mode.LOOPED:
        return None
    return next(iter(expedition.origins()))


def replay(position: Position, text: str) -> Outcome:
    """Parse a turn's text against the evolving state (an arrow without a start leaves from the head) and verify it.

    Raises:
        IllegalActionError: an action that does not parse or is illegal (its number and text quoted), or a turn that
            may not end where the text ends.
    """
    start = begin(position)
    state = start
    for index, piece in enumerate(split_actions(text)):
        try:
            action = parse_action(piece, origin=functools.partial(_origin, state), where=f"{piece!r}")
        except NotationError as error:
            raise IllegalActionError(index, str(error)) from None
        try:
            state = _play(state, action)
        except _Illegal as illegal:
            raise IllegalActionError(index, f"{piece!r}: {illegal}") from None
    return _finish(start, state)
