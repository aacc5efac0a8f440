"""Shared fixtures and helpers of the test suite, and the collector of the project's docstring examples.

Docstring examples: every module of the project's packages (and every helper module of the
tests) whose source holds one (``>>>``) is a case of :func:`tests.house.test_docstring_examples.test_docstring_examples` (see
:func:`modules_with_examples`, :func:`pytest_generate_tests`): no list is kept by hand.

The page's own requests carry the table token (the page has it in a ``<meta>``; its forms in
a hidden field). :class:`PageClient` is Flask's test client acting as that page: it sends the
app's token with every request. Every ``app.test_client()`` is one (see
:func:`_page_clients`); :func:`anonymous` makes one that is a stranger (no token).
"""

from __future__ import annotations

import importlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tuolaji.web.security import TOKEN_HEADER


class PageClient(FlaskClient):
    """Flask's test client, sending the table token as the page's script does."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        token = self.application.config.get("WRITE_TOKEN")
        if token:
            self.environ_base["HTTP_" + TOKEN_HEADER.upper().replace("-", "_")] = token


def anonymous(app: Flask) -> FlaskClient:
    """A client without the table token (another site's page, a phone that did not scan the code)."""
    client = FlaskClient(app, app.response_class, use_cookies=True)
    return client


@pytest.fixture(autouse=True)
def _page_clients(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(Flask, "test_client_class", PageClient)
    yield


@pytest.fixture()
def app(tmp_path: Path) -> Iterator[Flask]:
    """The application on an empty data folder of its own; a camera preview a test left open (its
    assertions failed before it closed it) is closed after it, so no reading thread outlives the test."""
    from tuolaji.web import create_app

    application = create_app({"DATA_DIR": str(tmp_path), "TESTING": True})
    yield application
    desk = application.extensions.get("tuolaji.camera")
    if desk is not None:
        desk.close()


@pytest.fixture()
def client(app: Flask) -> FlaskClient:
    return app.test_client()


# --- docstring examples -----------------------------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent

PROJECT_PACKAGES = ("scorer", "session", "vision", "web", "club", "datasets", "training", "cli", "tuolaji", "models")
"""The packages whose modules' docstring examples are tests (the layers of docs/ARCHITECTURE.md)."""

OPTIONAL_EXTRAS = frozenset({"torch", "torchvision", "ultralytics", "onnx", "yaml"})
"""Third-party modules of the ``train`` extra: a module that needs one is skipped where it is absent."""


def modules_with_examples(root: Path = ROOT) -> list[str]:
    """Every module of the project's packages whose source holds a docstring example, by name;
    then the test suite's own helpers with examples (``tests/**/*.py`` but the ``test_*`` files)."""
    names = []
    helpers = sorted(p for p in (root / "tests").rglob("*.py") if not p.name.startswith("test_") and "data" not in p.relative_to(root).parts)
    for path in [p for package in PROJECT_PACKAGES for p in sorted((root / package).rglob("*.py"))] + helpers:
        if ">>>" in path.read_text(encoding="utf-8"):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[0] in PROJECT_PACKAGES and parts[0] != "tuolaji":
                parts.insert(0, "tuolaji")  # every folder of the project installs under the one name
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def import_or_skip_extra(name: str) -> ModuleType:
    """Import module ``name``; skip the test when it needs an absent optional extra (torch...), and
    let any other missing module fail it."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if (exc.name or "").partition(".")[0] in OPTIONAL_EXTRAS:
            pytest.skip(f"{name} needs {exc.name} (the project's 'train' extra)")
        raise


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test asking for ``module_with_examples`` runs once per module with examples."""
    if "module_with_examples" in metafunc.fixturenames:
        names = modules_with_examples()
        metafunc.parametrize("module_with_examples", names, ids=names)


# --- shared records and set-ups ---------------------------------------------------------------

TABLE_SETUP: dict[str, Any] = {"players": ["东", "南", "西", "北"], "profile": "standard-2deck", "trump": "H", "dealer": 0}
"""The page's set-up of a four-player table (``POST /api/setup``); tests add what they need with ``|``."""


def deal_record(rules: Any, tricks: list[tuple], *, level: str = "2", trump: str = "S", dealer: int = 0,
                players: int = 4, **deal: Any) -> dict[str, Any]:
    """A one-deal record from compact tricks: ``(leader, ["AH", "3D 4D", ...])`` or
    ``(leader, plays, "attempted throw")``; a play "" is no cards. Players are p0, p1, ...;
    ``deal`` adds fields to the deal (hands, kitty, bids...).

    >>> deal_record("standard-2deck", [(0, ["AH", "3D", "4H", "6H"])])["deals"][0]["tricks"]
    [{'leader': 0, 'plays': [['AH'], ['3D'], ['4H'], ['6H']]}]
    """
    out = []
    for t in tricks:
        trick: dict[str, Any] = {"leader": t[0], "plays": [p.split() if p else [] for p in t[1]]}
        if len(t) > 2:
            trick["attempt"] = t[2].split()
        out.append(trick)
    return {"format": "tuolaji-record/1", "rules": rules, "players": [f"p{i}" for i in range(players)],
            "deals": [{"level": level, "trump": trump, "dealer": dealer, "tricks": out, **deal}]}


@pytest.fixture(scope="session")
def shipped_reader() -> Any:
    """The shipped card reader (``models/``), loaded once for the session."""
    from tuolaji.vision.detector import CardReader

    return CardReader.load()


@pytest.fixture(scope="session")
def shipped_test_set_evaluation(shipped_reader: Any) -> Any:
    """The shipped reader's figures on ``tests/data/detector`` (training.evaluate), measured once for
    the session (they take the longest of the reader's tests)."""
    from tuolaji.training.evaluate import evaluate, samples_from_folder

    return evaluate(shipped_reader, samples_from_folder(ROOT / "tests" / "data" / "detector"), progress=False)


_MARKED_BY_FOLDER = {"browser": "browser", "club": "slow", "training": "slow"}
"""Every test of a folder carries its mark: the browser tests need chromium, the club's start a
PostgreSQL server, the training ones train (the quick subset, ``-m "not slow and not browser"``,
leaves them out)."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    tests = Path(__file__).resolve().parent
    for item in items:
        try:
            folder = Path(str(item.fspath)).resolve().relative_to(tests).parts[0]
        except (ValueError, IndexError):
            continue
        mark = _MARKED_BY_FOLDER.get(folder)
        if mark is not None and item.get_closest_marker(mark) is None:
            item.add_marker(getattr(pytest.mark, mark))


# --- the browser: one Chromium for the whole run (tests/browser, tests/club) ------------------------

CHROMIUM = os.environ.get("TUOLAJI_CHROMIUM", "/usr/bin/chromium")
# attacker.test and rebind.test resolve to this machine: another site's page, and one that re-points its name here
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--host-resolver-rules=MAP attacker.test 127.0.0.1, MAP rebind.test 127.0.0.1"]


@pytest.fixture(scope="session")
def browser_context() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        message = f"{CHROMIUM} is not installed (scripts/setup.sh dev installs Debian's chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)  # CI must run the browser tests, never skip them
        pytest.skip(message)
    from playwright import sync_api
    user_data = tempfile.mkdtemp(prefix="tuolaji-chromium-")
    with sync_api.sync_playwright() as playwright:
        RUNNING["playwright"] = playwright
        context = playwright.chromium.launch_persistent_context(
            user_data, executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS,
            viewport={"width": 1440, "height": 1000}, locale="zh-CN")
        context.set_default_timeout(15_000)
        yield context
        context.close()
    shutil.rmtree(user_data, ignore_errors=True)


RUNNING: dict[str, Any] = {}
"""The session's Playwright, once ``browser_context`` started it (for :func:`other_device`)."""


@pytest.fixture()
def other_device(browser_context) -> Iterator[Any]:
    """A page in a second browser context of its own (its cookies, storage and script apart): another
    phone at the same table. Started only by the tests that need one."""
    browser = RUNNING["playwright"].chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    context = browser.new_context(viewport={"width": 1440, "height": 1000}, locale="zh-CN")
    context.set_default_timeout(15_000)
    other = context.new_page()
    errors: list[str] = []
    other.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield other
    finally:
        context.close()
        browser.close()
    assert errors == [], errors


@pytest.fixture()
def page(browser_context) -> Iterator[Any]:
    # Each test starts as a new visitor: the language chosen by an earlier test (a cookie every
    # test server on 127.0.0.1 shares) must not carry over.
    browser_context.clear_cookies()
    page = browser_context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    page.close()
    assert errors == [], errors
