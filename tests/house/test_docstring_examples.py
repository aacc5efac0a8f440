"""Every docstring example of the project is a test: the modules are found by tests/conftest.py
(every module of the project's packages, and every helper of the tests, whose source holds
``>>>``), none listed by hand."""

from __future__ import annotations

import doctest
import sys

import pytest

from tests.conftest import import_or_skip_extra, modules_with_examples


def test_docstring_examples(module_with_examples: str) -> None:
    module = import_or_skip_extra(module_with_examples)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    if result.attempted == 0:
        pytest.skip(f"{module_with_examples}: every example is marked +SKIP (they need files or models)")


def test_the_collector_finds_the_modules_with_examples() -> None:
    names = modules_with_examples()
    assert {"tuolaji.scorer.audit", "tuolaji.scorer.zuihe", "tuolaji.vision.detector", "tuolaji.vision.grouping",
            "tuolaji.web", "tuolaji.cli", "tests.conftest", "tests.browser.records"} <= set(names)
    assert "tuolaji.vision.cards_json" not in names  # no examples: not a case


def test_a_module_needing_the_train_extra_is_skipped_where_it_is_absent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)  # `import torch` now fails as if torch were not installed
    monkeypatch.delitem(sys.modules, "tuolaji.training.classifier_model", raising=False)
    with pytest.raises(pytest.skip.Exception, match="needs torch"):
        import_or_skip_extra("tuolaji.training.classifier_model")


def test_any_other_missing_module_fails() -> None:
    with pytest.raises(ModuleNotFoundError):
        import_or_skip_extra("tuolaji.scorer.no_such_module")
