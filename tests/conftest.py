"""Shared fixtures and helpers of the test suite.

The page's own requests carry the table token (the page has it in a ``<meta>``; its forms in
a hidden field). :class:`PageClient` is Flask's test client acting as that page: it sends the
app's token with every request. Every ``app.test_client()`` is one (see
:func:`_page_clients`); :func:`anonymous` makes one that is a stranger (no token).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from web.security import TOKEN_HEADER


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
def app(tmp_path: Path) -> Flask:
    """The application on an empty data folder of its own."""
    from web import create_app

    return create_app({"DATA_DIR": str(tmp_path), "TESTING": True})


@pytest.fixture()
def client(app: Flask) -> FlaskClient:
    return app.test_client()
