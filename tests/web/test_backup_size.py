"""Issue 45, item 5: what the store keeps, the import and the audit take back. A session over the
4 MiB a request or a file is read at by default (the store keeps records to 16 MiB) exports, imports
(as JSON and as a zip) and audits; an export past a backup's limit leaves out its oldest history
entries and says so."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from tuolaji import cli
from tuolaji.scorer import safejson
from tuolaji.web import create_app, get_table
from tuolaji.web.api import backup_text

from .test_large_records import legal_record

SIZE = 5 * 1024 * 1024


@pytest.fixture(scope="module")
def five_mib() -> dict[str, Any]:
    record = legal_record(1000, SIZE)
    assert len(json.dumps(record, ensure_ascii=False).encode()) > safejson.MAX_BYTES
    return record


@pytest.mark.slow
def test_a_session_of_5_mib_exports_imports_and_audits(tmp_path: Path, five_mib: dict[str, Any], capsys) -> None:  # type: ignore[no-untyped-def]
    app = create_app({"DATA_DIR": str(tmp_path / "data"), "TESTING": True, "RESUME_LATEST": False})
    session_id = get_table(app).store.create(five_mib, name="周五", source="page")
    client = app.test_client()
    export = client.get(f"/api/sessions/{session_id}/export")
    assert export.status_code == 200 and len(export.data) > safejson.MAX_BYTES
    assert "X-Tuolaji-History-Trimmed" not in export.headers
    answer = client.post("/api/sessions/import", data=export.data, content_type="application/json")
    assert answer.status_code == 201, answer.get_json()
    assert get_table(app).store.get(answer.get_json()["id"]).record == five_mib
    upload = {"file": (io.BytesIO(export.data), "backup.json")}
    answer = client.post("/api/sessions/import", data=upload, content_type="multipart/form-data")
    assert answer.status_code == 201, answer.get_json()
    archive = client.get(f"/api/sessions/{session_id}/export.zip")
    answer = client.post("/api/sessions/import.zip", data=archive.data, content_type="application/zip")
    assert answer.status_code == 201, answer.get_json()
    assert get_table(app).store.get(answer.get_json()["id"]).record == five_mib
    path = tmp_path / "backup.json"
    path.write_bytes(export.data)
    assert cli.main(["audit", str(path)]) == 0
    capsys.readouterr()


def test_an_export_past_the_limit_leaves_out_its_oldest_history(monkeypatch: pytest.MonkeyPatch) -> None:
    record = {"format": "tuolaji-record/1", "rules": "standard-2deck", "players": ["东", "南", "西", "北"],
              "deals": [], "history": [{"n": n, "pad": "x" * 1000} for n in range(100)]}
    monkeypatch.setattr(safejson, "MAX_BYTES", 10_000)
    monkeypatch.setattr(safejson, "MAX_RECORD_BYTES", 50_000)
    text, trimmed = backup_text(record)
    back = json.loads(text)
    assert len(text.encode()) <= 50_000 and trimmed == back["x-history-trimmed"] > 0
    assert back["history"] == record["history"][trimmed:]  # the newest kept (what undo reads first)
    assert backup_text(record | {"history": record["history"][:5]})[1] == 0
