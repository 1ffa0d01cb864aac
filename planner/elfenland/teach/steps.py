"""Why each step of a route is paid the way it is: plain records with the facts behind each sentence.

Every sentence comes from a fact recorded beside it (the counter's price, the matching cards in hand, the other
steps that need them, the river's direction, the ways on from a dead end), so a test can check the fact against
an independent computation and the text cannot claim more than the facts.
"""

from __future__ import annotations

import enum
from dataclasses import replace

from planner.common.i18n import N_, gettext, ngettext, say
from planner.common.values import frozen
from planner.elfenland.cards import packed, pay
from planner.elfenland.local_names import terrain_word, transport_word
from planner.elfenland.plan import Pay, Plan, Step
from planner.elfenland.position import Hand, Position
from planner.elfenland.rules import Transport, raft_cost
from planner.elfenland.teach.ways import tile_costs, ways_out
from planner.elfenland.teach.words import a_counter, cards, count, joined, listing, town

__all__ = ["Reason", "StepNote", "payable_ways", "step_notes"]


class Reason(enum.StrEnum):
    """What a step's note says, for programs (the web page highlights by these)."""

    COUNTER = "counter"
    """Paid with the counter's matching cards: cheaper than any caravan."""
    OBSTACLE = "obstacle"
    """An obstacle on the road asks one card more."""
    CARAVAN_ONLY = "caravan-only-way"
    """A caravan, because the hand holds too few matching cards at that moment."""
    CARAVAN_SAVES = "caravan-saves-matching-cards"
    """A caravan, although the matching cards are in hand: other steps of the route need them."""
    CARAVAN_DEARER = "caravan-dearer"
    """A caravan where the counter's matching cards would have done, for fewer cards (a mistake)."""
    DOWNSTREAM = "downstream"
    UPSTREAM = "upstream"
    FERRY = "ferry"
    NEW_TOWN = "new-town"
    CAPITAL = "capital"
    """Elvenhold: no marker, only a way through."""
    COLLECTED = "collected-before"
    """A town collected before this move: only a way through."""
    BACKTRACK = "backtrack"
    """Back to a town this route has already stood in."""
    DEAD_END = "dead-end"
    """Back from a town whose only way on, for the cards left, is back."""
    END = "end"
    HOME = "home"
    """The last round: the end town's distance from home costs points."""


@frozen
class StepNote:
    """One step, why it is paid that way, and the facts behind every sentence."""

    number: int
    step: Step
    reasons: tuple[Reason, ...]
    text: tuple[str, ...]
    """The sentences, in order (plain text, no markup)."""
    held: Hand
    """The cards in hand just before the step."""
    counter: Transport | None = None
    """The counter on the road (None on water)."""
    obstacle: bool = False
    counter_cost: int | None = None
    """Matching cards the counter asks, the obstacle's included (roads only)."""
    caravan_cost: int | None = None
    """Cards a caravan takes on this road (roads only)."""
    others: tuple[int, ...] = ()
    """For a caravan that saves matching cards: the other steps paying that counter's transport."""
    needed: int = 0
    """For such a caravan: the matching cards the route's other counter steps pay in all."""
    saved: int = 0
    """For a dearer caravan: cards the counter's matching cards would have saved."""
    rafts: int | None = None
    """Rafts a water step takes."""
    beside: str | None = None
    """The other connection between the same two towns (a road beside a river, or the river beside a road)."""
    ways_on: tuple[str, ...] = ()
    """For a dead end: the towns the cards left could pay to go on to (only the one the step goes back to)."""
    home_distance: int | None = None
    """The last step of a last-round route with a home-town card: links from the end town to home."""


def payable_ways(position: Position, town: str, hand: Hand) -> list[tuple[str, str, Pay]]:
    """Every step out of ``town`` that ``hand`` could pay right now: (to, connection, how)."""
    cards = packed(hand.counts, len(hand))
    return [(way.to, way.connection, way.pay) for way in ways_out(position)[town]
            if any(True for _ in pay(way, cards, strict=position.rules.strict))]


def step_notes(plan: Plan) -> list[StepNote]:
    """Why each step of ``plan`` is paid the way it is, with the facts behind each sentence."""
    position = plan.position
    notes = []
    hand = position.hand
    been = {position.at}
    collected = set(position.visited)
    for index, step in enumerate(plan.steps):
        note = _pay_note(plan, index, hand)
        reasons, text = list(note.reasons), list(note.text)
        ways_on: tuple[str, ...] = ()
        home_distance: int | None = None
        board = position.board
        name = town(step.to)
        if step.to not in collected and board.towns[step.to].has_marker:
            reasons.append(Reason.NEW_TOWN)
            text.append(say("Collects {town}'s marker.", town=name))
        elif board.towns[step.to].capital:
            reasons.append(Reason.CAPITAL)
            text.append(say("{town} has no marker: only a way through.", town=name))
        elif step.to not in been:
            reasons.append(Reason.COLLECTED)
            text.append(say("{town} was collected before this move: only a way through.", town=name))
        if step.to in been:
            reasons.append(Reason.BACKTRACK)
            previous = plan.steps[index - 1] if index else None
            onward = tuple(sorted({to for to, _, _ in payable_ways(position, step.frm, hand)}))
            if previous is not None and previous.frm == step.to and onward == (step.to,):
                reasons.append(Reason.DEAD_END)
                ways_on = onward
                text.append(say("Back to {town}: {dead_end} is a dead end for the cards left, the only way on is "
                                "back.", town=name, dead_end=town(step.frm)))
            else:
                text.append(say("Back to {town}, where this route has been before.", town=name))
        hand = hand.without(step.cards)
        been.add(step.to)
        collected.add(step.to)
        if index == len(plan.steps) - 1:
            reasons.append(Reason.END)
            if position.scores_home and position.home is not None:
                distance = home_distance = plan.outcome.home_penalty
                reasons.append(Reason.HOME)
                text.append(say("The move ends here, at home ({home}): no points off.", home=town(position.home))
                            if not distance else
                            say("The move ends here, {links} from home ({home}): {points} off.",
                                links=count(distance, "link"), home=town(position.home),
                                points=count(distance, "point")))
            else:
                text.append(gettext("The move ends here."))
        notes.append(replace(note, number=index + 1, reasons=tuple(reasons), text=tuple(text), ways_on=ways_on,
                             home_distance=home_distance))
    return notes


def _pay_note(plan: Plan, index: int, held: Hand) -> StepNote:
    """The payment part of step ``index``'s note, with the cards ``held`` just before it."""
    position = plan.position
    step = plan.steps[index]
    connection = position.board.connections[step.connection]
    beside = next((c.id for c in position.board.between(step.frm, step.to) if c.id != connection.id), None)
    if not connection.is_road:
        way = connection.way(step.frm) or ""
        rafts = raft_cost(connection, step.frm)
        reason = {"downstream": Reason.DOWNSTREAM, "upstream": Reason.UPSTREAM}.get(way, Reason.FERRY)
        what = gettext(_CURRENTS[way]) if way in _CURRENTS else say("the ferry across {lake}", lake=connection.lake)
        said = [say("{rafts}: {what}.", rafts=count(rafts, "raft"), what=what)]
        if beside is not None:
            said.append(_beside_road(position, beside))
        return StepNote(0, step, (reason,), tuple(said), held, rafts=rafts, beside=beside)
    tile = position.tile_map()[connection.id]
    assert tile.transport is not None
    transport = tile.transport
    cost, caravan = tile_costs(position, tile)
    counter = say("{counter} counter on this {terrain} road", counter=a_counter(transport),
                  terrain=terrain_word(connection.terrain))
    others: tuple[int, ...] = ()
    needed = saved = 0
    reasons: list[Reason] = []
    text: list[str] = []
    if step.pay is Pay.COUNTER:
        reasons.append(Reason.COUNTER)
        text.append(say("{cards} for {counter}; a caravan would take {caravan}.",
                        cards=cards(cost, transport).capitalize(), counter=counter, caravan=count(caravan, "card")))
    elif held[transport] < cost:
        reasons.append(Reason.CARAVAN_ONLY)
        text.append(say("A caravan of {caravan} ({paid}) for {counter}: the counter asks {cost} and the hand holds "
                        "{held}, so a caravan is the only way.", caravan=count(caravan, "card"),
                        paid=joined(step.cards), counter=counter, cost=cards(cost, transport),
                        held=held[transport] or gettext("none")))
    else:
        others, needed = _other_counter_steps(plan, index, transport)
        # Paying the counter here instead is legal exactly when the hand holds this counter's cards and those of
        # the route's other steps of that transport (order does not matter: no card is drawn during a move).
        if position.hand[transport] < cost + needed:
            reasons.append(Reason.CARAVAN_SAVES)
            steps_text = ngettext("step {numbers}", "steps {numbers}", len(others)).format(
                numbers=listing([str(n) for n in others]))
            text.append(say("A caravan of {caravan} ({paid}) for {counter}, although the hand holds {held}: the "
                            "route's other {transport} steps ({steps}) need {needed}, and the hand has {all} in all.",
                            caravan=count(caravan, "card"), paid=joined(step.cards), counter=counter,
                            held=cards(held[transport], transport), transport=transport_word(transport),
                            steps=steps_text, needed=cards(needed, transport), all=position.hand[transport]))
        else:
            reasons.append(Reason.CARAVAN_DEARER)
            others, needed, saved = (), 0, caravan - cost
            text.append(say("A caravan of {caravan} where {cost} would do: the counter's cards would save {saved}.",
                            caravan=count(caravan, "card"), cost=cards(cost, transport), saved=count(saved, "card")))
    if tile.obstacle:
        reasons.append(Reason.OBSTACLE)
        text.append(say("The obstacle on this road asks one card more ({cost} + 1 matching, or {caravan} for a "
                        "caravan).", cost=cost - 1, caravan=caravan))
    if beside is not None:
        other = position.board.connections[beside]
        rafts = raft_cost(other, step.frm)
        short = say("; the hand holds {held}", held=held[Transport.RAFT] or gettext("none")) \
            if held[Transport.RAFT] < rafts else ""
        way = other.way(step.frm) or ""
        text.append(say(_BESIDE[other.kind], rafts=count(rafts, "raft"), way=gettext(_WAYS.get(way, way)),
                        short=short))
    return StepNote(0, step, tuple(reasons), tuple(text), held, counter=transport, obstacle=tile.obstacle,
                    counter_cost=cost, caravan_cost=caravan, others=others, needed=needed, saved=saved, beside=beside)


def _other_counter_steps(plan: Plan, index: int, transport: Transport) -> tuple[tuple[int, ...], int]:
    """The numbers of the route's other steps paying ``transport``'s matching cards, and how many they pay."""
    numbers, needed = [], 0
    for number, step in enumerate(plan.steps, 1):
        if number - 1 != index and step.pay is not Pay.CARAVAN and step.cards[transport]:
            numbers.append(number)
            needed += step.cards[transport]
    return tuple(numbers), needed


def _beside_road(position: Position, road: str) -> str:
    tile = position.tile_map().get(road)
    if tile is None or tile.transport is None:
        return gettext("The road beside it holds no counter.")
    cost, caravan = tile_costs(position, tile)
    return say("The road beside it holds {counter} counter: {cost} or a caravan of {caravan}.",
               counter=a_counter(tile.transport), cost=cards(cost, tile.transport), caravan=count(caravan, "card"))


_CURRENTS = {"downstream": N_("downstream, with the current"), "upstream": N_("upstream, against the current")}
_WAYS = {"downstream": N_("downstream"), "upstream": N_("upstream"), "lake": N_("lake")}
_BESIDE = {"river": N_("The river beside it would take {rafts} ({way}){short}."),
           "lake": N_("The lake beside it would take {rafts} ({way}){short}."),
           "road": N_("The road beside it would take {rafts} ({way}){short}.")}
