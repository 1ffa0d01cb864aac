"""The Russian names of Expeditions' rule text (shared seed 004) resolve, and Russian place names generally."""

from __future__ import annotations

import pytest

from planner.errors import NotationError
from planner.expedition.notation import parse_location, parse_spot


@pytest.mark.parametrize(("name", "key"), [
    ("водопады Игуасу", "Iguazú Falls"), ("водопада Анхель", "Angel Falls"),  # as written in the seed's sentence
    ("водопад Анхель", "Angel Falls"), ("Ниагарский водопад", "Niagara Falls"), ("Байкал", "Lake Baikal"),
    ("Мачу-Пикчу", "Machu Picchu"), ("Рим", "Rome"), ("Афины", "Athens"), ("остров Пасхи", "Rapa Nui"),
])
def test_russian_location_names_resolve(name: str, key: str) -> None:
    assert parse_location(name) == key


def test_the_compass_rose_is_the_start() -> None:
    assert parse_spot("Роза ветров") == "start"


def test_a_misspelt_russian_name_gets_a_russian_hint() -> None:
    with pytest.raises(NotationError, match="did you mean 'Ниагарский водопад'"):
        parse_location("Ниагарскй водопад")
