"""planner.common.names: the forgiving lookup both games use for what players type (towns, cards, spots)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from planner.common.names import Names, did_you_mean, key_values, normalize
from planner.errors import AmbiguousNameError, NotationError

# A small made-up table, so that every expected answer can be read off it by hand.
TOWNS = Names(
    "town",
    {"ERG": ["Erg'Eren", "ERG"], "ELV": ["Elvenhold", "ELV", "capital"], "BEA": ["Beata", "BEA"],
     "BEB": ["Beabin", "BEB"]},
    {"ERG": "Erg'Eren", "ELV": "Elvenhold", "BEA": "Beata", "BEB": "Beabin"},
)


@pytest.mark.parametrize(("typed", "plain"), [
    ("Erg'Erén", "ergeren"),
    ("  Mah'Davikia ", "mahdavikia"),
    ("jxa-vir_f.", "jxavirf"),
    ("ÉLVENHOLD", "elvenhold"),
    ("Ma’h", "mah"),  # a typographic apostrophe
])
def test_normalize_drops_case_accents_and_punctuation(typed: str, plain: str) -> None:
    assert normalize(typed) == plain


@pytest.mark.parametrize("typed", ["Erg'Eren", "ergeren", "ERG", "erg eren", "Erg’Erén", "erg-e"])
def test_find_forgives_case_accents_apostrophes_and_unique_prefixes(typed: str) -> None:
    assert TOWNS.find(typed) == "ERG"


def test_find_takes_aliases() -> None:
    assert TOWNS.find("Capital") == "ELV"


def test_an_exact_name_wins_over_the_names_it_is_a_prefix_of() -> None:
    exact = Names("card", {"R": ["raft"], "RR": ["raftsman"]}, {"R": "raft", "RR": "raftsman"})
    assert exact.find("raft") == "R"  # "raft" also starts "raftsman", but it is a name itself
    assert exact.find("rafts") == "RR"


def test_a_shared_prefix_is_ambiguous_and_lists_every_key() -> None:
    with pytest.raises(AmbiguousNameError, match=r"ambiguous town 'be' in --at: could be Beabin, Beata") as error:
        TOWNS.find("be", where="--at")
    assert error.value.kind == "ambiguous-town" and error.value.value == "be"
    # An ambiguous name is a notation error too: callers that catch NotationError also catch this one.
    assert isinstance(error.value, NotationError)


def test_an_unknown_name_gets_the_close_ones_as_a_hint() -> None:
    with pytest.raises(NotationError, match=r"unknown town 'Elvenhld'; did you mean 'Elvenhold'\?") as error:
        TOWNS.find("Elvenhld")
    assert error.value.kind == "unknown-town" and error.value.value == "Elvenhld"


def test_an_unknown_name_far_from_every_name_gets_no_hint() -> None:
    with pytest.raises(NotationError) as error:
        TOWNS.find("Atlantis")
    assert str(error.value) == "unknown town 'Atlantis'"


def test_an_empty_name_is_its_own_problem() -> None:
    for typed in ("", "  ", "'-"):
        with pytest.raises(NotationError, match="empty town name in hand") as error:
            TOWNS.find(typed, where="hand")
        assert error.value.kind == "empty-town"


def test_a_huge_unknown_name_is_shortened_in_the_message() -> None:
    typed = "x" * 500
    with pytest.raises(NotationError) as error:
        TOWNS.find(typed)
    assert str(error.value) == f"unknown town '{'x' * 37}...'" and error.value.value == typed


def test_without_prefixes_only_whole_names_match() -> None:
    strict = Names("key", {"caravan": ["caravan"]}, {"caravan": "caravan"}, prefixes=False)
    assert strict.find("Caravan") == "caravan"
    assert strict.candidates("car") == set()


def test_candidates_are_every_key_a_text_may_mean() -> None:
    assert TOWNS.candidates("be") == {"BEA", "BEB"}
    assert TOWNS.candidates("") == set()


def test_did_you_mean_compares_normalised_and_names_each_close_choice_once() -> None:
    # difflib's ratio 2*M/T: "caravn" against "caravan" 12/13, "caravanwhen" 12/17 (both above 0.6), "rounds" far below.
    assert did_you_mean("caravn", ["caravan", "caravan_when", "rounds"]) == (
        "; did you mean 'caravan' or 'caravan_when'?")
    assert did_you_mean("HOME_VARIANT", ["home_variant", "rounds"]) == "; did you mean 'home_variant'?"
    assert did_you_mean("zzz", ["caravan", "rounds"]) == ""


def test_did_you_mean_lists_several_in_order() -> None:
    assert did_you_mean("roud", ["rounds", "round"]) == "; did you mean 'round' or 'rounds'?"


def test_key_values_splits_items_and_skips_empty_ones() -> None:
    assert key_values("caravan=scaled,,rounds=3,", example="key=value") == [
        ("caravan", "scaled", "caravan=scaled"), ("rounds", "3", "rounds=3")]
    assert key_values("note=a=b", example="key=value") == [("note", "a=b", "note=a=b")]


def test_key_values_names_an_item_without_equals() -> None:
    with pytest.raises(NotationError, match="item 'scaled' must look like caravan=scaled") as error:
        key_values("rounds=3,scaled", example="caravan=scaled", kind="bad-rule")
    assert error.value.kind == "bad-rule" and error.value.value == "scaled"


def _normalize_by_pattern(text: str) -> str:
    """``normalize`` as it was written with a regular expression: the oracle for the string methods now used."""
    import re
    import unicodedata

    ignored = re.compile(r"[\s'’‘`´_\-.]")
    if text.isascii():
        return ignored.sub("", text).casefold()
    decomposed = unicodedata.normalize("NFKD", text)
    return ignored.sub("", "".join(ch for ch in decomposed if not unicodedata.combining(ch))).casefold()


def test_normalize_drops_what_the_pattern_dropped_for_every_character() -> None:
    plain = normalize.__wrapped__  # past the cache
    for code in range(0x10000):  # the basic plane holds every white space and every mark dropped
        ch = chr(code)
        if 0xD800 <= code < 0xE000:
            continue
        assert plain(f"a{ch}b") == _normalize_by_pattern(f"a{ch}b"), hex(code)


@given(st.text(alphabet=st.sampled_from("aAéÉ \t\n\u00a0\u2003'’‘`´_-.xÿĳ\u0301Ü"), max_size=12))
def test_normalize_is_the_pattern_on_mixed_text(text: str) -> None:
    assert normalize(text) == _normalize_by_pattern(text)
