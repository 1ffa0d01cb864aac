"""Shared fixtures and the hypothesis profiles.

Profiles (pick one with the ``HYPOTHESIS_PROFILE`` environment variable, default ``dev``):

- ``dev``: random examples (30 a test unless it says), quick, with hypothesis' example database (``.hypothesis/``,
  git-ignored) so a failure found once is replayed first next time;
- ``ci``: derandomized (the same examples on every run, so CI is reproducible), more examples, no database, and
  the reproduction blob printed on failure.

Both use ``deadline=None``: solver and verifier timings vary too much between machines for per-example deadlines.

Lanes: ``python -m pytest -q -n auto`` (the README's test command) runs the quick default lane, tests marked ``slow``
skipped; ``--slow -m slow`` runs the slow lane alone (CI runs both); ``--slow`` runs every test. Under pytest-xdist
each worker loads the same profile, so the ``ci`` profile gives every worker the same examples.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from planner.elfenland.board import CAPITAL, Board, load_board
from planner.elfenland.position import Position
from planner.elfenland.rules import Rules

# Test modules import the hypothesis strategies as ``import strategies``, however pytest was started.
HELPERS = Path(__file__).parent / "helpers"
if str(HELPERS) not in sys.path:
    sys.path.insert(0, str(HELPERS))

settings.register_profile(
    "dev",
    deadline=None,
    max_examples=30,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "ci",
    deadline=None,
    max_examples=150,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", help="also run the tests marked slow (the long sweeps)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--slow"):
        return
    skip = pytest.mark.skip(reason="a slow sweep: run with --slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _private_data_directory(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test writes to the user's data directory (the trainer keeps its score there)."""
    monkeypatch.setenv("ELFENLAND_DATA_DIR", str(tmp_path_factory.mktemp("data")))


@pytest.fixture(scope="session")
def board() -> Board:
    """The Elfenland board (the shared, cached instance)."""
    return load_board()


@pytest.fixture
def rules() -> Rules:
    """The default rules (original 1998 rules)."""
    return Rules()


@pytest.fixture
def start_position() -> Position:
    """Round 1, boot in Elvenhold, no cards, no counters, nothing collected."""
    return Position(at=CAPITAL)


@pytest.fixture(autouse=True)
def _english_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests read English unless they choose a language: the machine's locale (LANG=uk_UA...) must not leak in."""
    monkeypatch.setenv("ELFENLAND_LANG", "en")
    from planner.common import i18n

    i18n.use(None)
