"""The advice's sentences, in one place: plain ``str`` from the pure-data advice, for the terminal, the JSON and the
table page alike (no markup: the renderers add the styling).

Each sentence is one template with named placeholders, filled by :func:`say`, which looks the template up whole
in the language's catalogue (:mod:`planner.common.i18n`) without any sentence being cut into pieces; counts go
through the plural messages of :func:`~planner.elfenland.explain.count`, names through
:mod:`planner.elfenland.local_names`. A template chosen at run time is marked with ``N_`` for the extraction.

Sign convention, the same in every table and on the page: what a change does to a plan, signed. A loss of towns
is negative (``−1 town``), extra cards are positive (``+2 cards``, ``−1 card`` for cards saved); a change that
alters neither is ``nothing``. The JSON keeps its documented keys (``towns_lost``, ``extra_cards``: positive
losses, named so).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from planner.common.i18n import N_, format_list, format_number, say
from planner.elfenland.explain import count, count_as, count_part, verdict
from planner.elfenland.local_names import cards_words, town_word, transport_word
from planner.elfenland.plan import Plan
from planner.elfenland.position import Position
from planner.elfenland.rules import Transport

if TYPE_CHECKING:  # the advice modules load only with the commands that give advice
    from planner.elfenland.advice.drawing import DrawAdvice
    from planner.elfenland.advice.keeping import KeepAdvice
    from planner.elfenland.advice.obstacle import ObstacleAdvice, OpponentOutlook
    from planner.elfenland.advice.placing import PlaceAdvice

__all__ = ["MINUS", "about", "about_change", "amount", "change", "count", "draw_full", "draw_verdict",
           "keep_verdict", "obstacle_reason", "obstacle_verdict", "opponent_heading", "pass_gains_nothing",
           "pass_reason", "passing_free", "place_verdict", "plan_change", "road_name", "route_verdict", "say",
           "signed", "spread", "tied", "worst_reply"]

MINUS = "\N{MINUS SIGN}"


# -- numbers ----------------------------------------------------------------------------------------------------
def amount(value: float, noun: str) -> str:
    """``1 town``, ``3 towns``, ``0.85 towns``: :func:`~planner.elfenland.explain.count` for whole numbers, two
    decimals otherwise."""
    if value == round(value):
        return count(round(value), noun)
    return count_part(value, noun)


def signed(value: float, noun: str) -> str:
    """``+2 cards``, ``−1 town``, ``−0.85 towns`` (a true minus sign)."""
    text = amount(abs(value), noun)
    return ("+" if value > 0 else MINUS if value < 0 else "") + text


def change(towns: float, cards: float) -> str:
    """What a change does to a plan, as plans are compared (towns first, then cards): the towns when it changes
    them (``−1 town``), else the cards (``+2 cards``), else ``nothing``. ``towns`` and ``cards`` are the plan's
    afterwards less before."""
    if towns:
        return signed(towns, "town")
    return signed(cards, "card") if cards else say("nothing")


def spread(value: float, error: float, noun: str) -> str:
    """An expected change with its standard error: ``−0.85 ± 0.10 towns``."""
    sign = "+" if value > 0 else MINUS if value < 0 else ""
    return sign + count_as(f"{format_number(abs(value), '.2f')} ± {format_number(error, '.2f')}", noun)


def _whole(value: float) -> bool:
    return abs(value - round(value)) < 0.005


_LESS_THAN_HALF = {"town": N_("less than half a town ({value:.2f} on average)"),
                   "card": N_("less than half a card ({value:.2f} on average)")}


def about(value: float, noun: str) -> str:
    """An average in the game's whole towns and cards: ``2 towns``, ``about 2 towns (2.4 on average)``, ``less
    than half a town (0.17 on average)``; the table says it so, as a player counts."""
    if _whole(value):
        return count(round(value), noun)
    if round(value) == 0 and noun in _LESS_THAN_HALF:
        return say(_LESS_THAN_HALF[noun], value=value)
    return say("about {whole} ({value:.1f} on average)", whole=count(round(value), noun), value=value)


def about_change(value: float, noun: str) -> str:
    """:func:`about` for a signed change: ``−1 town``, ``about −2 towns (−2.4 on average)``, ``almost nothing
    (−0.17 towns on average)``, ``nothing``."""
    sign = "+" if value > 0 else MINUS if value < 0 else ""
    if _whole(value):
        return signed(round(value), noun) if round(value) else say("nothing")
    if round(value) == 0:
        return say("almost nothing ({amount} on average)", amount=sign + count_part(abs(value), noun))
    return say("about {sign}{whole} ({sign}{value:.1f} on average)", sign=sign, whole=count(round(abs(value)), noun),
               value=abs(value))


def tied(names: list[str]) -> str:
    """``pig, dragon and blind are equally good`` (two or more names)."""
    return say("{names} are equally good", names=format_list(names))


def road_name(position: Position, road: str) -> str:
    """``Lapphalya–Virst`` for ``LAP-VIR:p``."""
    c = position.board.connections[road]
    return f"{town_word(position.board, c.a)}–{town_word(position.board, c.b)}"


def _title(transport: Transport | None) -> str:
    return transport_word(transport)


# -- the route --------------------------------------------------------------------------------------------------
def route_verdict(plan: Plan) -> str:
    """The route in one line (:func:`~planner.elfenland.explain.verdict`), ``stay: ...`` when it has no step."""
    return verdict(plan) if plan.steps else say("stay: {verdict}", verdict=verdict(plan))


# -- placing ----------------------------------------------------------------------------------------------------
def place_verdict(advice: PlaceAdvice) -> str:
    """``place now: your elfcycle on Dag'Amura–Kihromah``, or ``pass this turn`` (:func:`pass_reason` says why)."""
    placement = advice.now.placement
    if placement is None:
        return say("pass this turn")
    return say("place now: your {counter} on {road}", counter=_title(placement.transport),
               road=road_name(advice.position, placement.road))


def pass_reason(advice: PlaceAdvice) -> str | None:
    """Why the advice is to pass (None when it is to place)."""
    if advice.now.placement is not None:
        return None
    if not advice.joint.plan.placements:
        return say("no counter of the plan needs placing")
    return say("placing now would invite a worse reply")


def worst_reply(advice: PlaceAdvice) -> str:
    """``after the worst reply your plan still takes 2 towns for 3 cards``."""
    score, cards = advice.now.worst
    return say("after the worst reply your plan still takes {towns} for {cards}", towns=count(score, "town"),
               cards=count(-cards, "card paid"))


def passing_free() -> str:
    """Said when passing is as good as the placement advised."""
    return say("passing costs nothing this turn: the worst reply leaves you the same")


def pass_gains_nothing() -> str:
    """The plan phase's verdict when the placement advised is worth no more than passing."""
    return say("pass \N{EM DASH} placing now gains nothing")


def plan_change(before: tuple[int, int], after: tuple[int, int]) -> str:
    """:func:`change` between two plan values ``(score, -cards spent)``."""
    return change(after[0] - before[0], before[1] - after[1])


# -- drawing ----------------------------------------------------------------------------------------------------
def draw_verdict(advice: DrawAdvice) -> str:
    """``draw the face-up unicorn: 2 towns for 3 cards (now 1 town for 3 cards)``, or ``draw blind: ...``."""
    best, now = advice.best, advice.now
    template = (N_("draw the face-up {counter}: {towns} for {cards} (now {now_towns} for {now_cards})")
                if best.counter else N_("draw blind: {towns} for {cards} (now {now_towns} for {now_cards})"))
    return say(template, counter=_title(best.counter), towns=amount(best.score, "town"),
               cards=amount(best.cards, "card paid"), now_towns=count(now.score, "town"),
               now_cards=count(now.cards_spent, "card paid"))


def draw_full(position: Position) -> str:
    """Said when the supply is full: nothing is left to draw."""
    return say("your supply holds {counters}, the most a player holds: nothing left to draw",
               counters=count(len(position.supply), "counter"))


# -- the obstacle -----------------------------------------------------------------------------------------------
def obstacle_verdict(advice: ObstacleAdvice) -> str:
    """``obstacle on Al'Baran–Throtmanni against Anna``, or ``hold the obstacle``."""
    if advice.hold or advice.effect is None or advice.target is None:
        return say("hold the obstacle")
    return say("obstacle on {road} against {opponent}", road=road_name(advice.position, advice.effect.road),
               opponent=advice.target.opponent.name)


def obstacle_reason(advice: ObstacleAdvice) -> str:
    """Why the obstacle goes there, or why it is held (:attr:`ObstacleAdvice.why`)."""
    effect, target = advice.effect, advice.target
    if effect is None or target is None:
        return say("no road holds a counter without an obstacle: there is nowhere to put it yet")
    name = target.opponent.name
    if advice.why == "costs-me":
        return say("every obstacle that hurts {opponent} costs your own plan as much: hold it", opponent=name)
    if advice.why == "too-little":
        return say("the best road takes only {towns} from {opponent} on average: hold the obstacle for a later "
                   "round", towns=amount(effect.towns, "town"), opponent=name)
    return say("{opponent} leads with {points}; an obstacle on {road} takes {towns:.2f} ± {error:.2f} towns from "
               "them", opponent=name, points=count(target.opponent.points, "point"),
               road=road_name(advice.position, effect.road), towns=effect.towns, error=effect.towns_error)


def opponent_heading(outlook: OpponentOutlook) -> str:
    """``Anna (14 points, 200 sampled hands, 3.20 towns on average)``."""
    return say("{opponent} ({points}, {samples}, {towns} on average)", opponent=outlook.opponent.name,
               points=count(outlook.opponent.points, "point"), samples=count(outlook.samples, "sampled hand"),
               towns=amount(outlook.towns, "town"))


# -- keeping ----------------------------------------------------------------------------------------------------
def keep_verdict(position: Position, keep: KeepAdvice, *, whole: bool = False) -> str:
    """``end in Yttar, keep dragon raft and no counter (next round's best plan: 3.2 ± 0.4 towns over 30
    samples)``; with ``whole``, as the table says it: ``(next round's best plan: about 3 towns (3.2 on average)
    over 30 samples)``."""
    best = keep.best
    values = {"town": town_word(position.board, best.end), "cards": cards_words(best.cards) or say("no cards"),
              "counter": say("your {counter} counter", counter=transport_word(best.counter)) if best.counter
              else say("no counter"),
              "samples": count(keep.samples, "sample")}
    if whole:
        return say("end in {town}, keep {cards} and {counter} (next round's best plan: {towns} over {samples})",
                   towns=about(best.score, "town"), **values)
    return say("end in {town}, keep {cards} and {counter} (next round's best plan: {score:.1f} ± {error:.1f} towns "
               "over {samples})", score=best.score, error=best.error, **values)
