"""The docstring examples of every scorer module are tests too."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["cards", "order", "profiles", "formats", "follow", "state", "record", "audit", "scoring", "bidding", "tracker",
           "violations", "violation_text", "seats"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"scorer.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"scorer.{name} has no examples"
    assert result.failed == 0
