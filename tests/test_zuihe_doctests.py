"""The docstring examples of the 嘴和 modules are tests too."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["scorer.zuihe", "scorer.zuihe.cards", "scorer.zuihe.hand", "scorer.zuihe.score", "scorer.zuihe.search", "web.zuihe"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
