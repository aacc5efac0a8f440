"""``tuolaji audit`` and ``tuolaji rules`` through the dispatcher, as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tuolaji import cli
from tuolaji.scorer import PROFILES, audit_record

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "data" / "scorer"


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_audit_json_is_exactly_the_record_md_output(capsys: pytest.CaptureFixture[str]) -> None:
    for profile in PROFILES:
        path = GOLDEN / "records" / f"{profile}-revoke.json"
        code, out, _ = run_cli(["audit", str(path), "--json"], capsys)
        assert code == 0
        assert json.loads(out) == json.loads((GOLDEN / "audits" / f"{profile}-revoke.audit.json").read_text("utf-8"))


def test_audit_table_is_readable(capsys: pytest.CaptureFixture[str]) -> None:
    path = GOLDEN / "records" / "standard-2deck-revoke.json"
    code, out, _ = run_cli(["audit", str(path)], capsys)
    assert code == 0
    audit = audit_record(json.loads(path.read_text("utf-8")))
    v = audit["deals"][0]["violations"][0]
    assert "must-follow-suit" in out and "proven" in out and v["detail"] in out
    assert "total defender points" in out and out.count("\n") > 20
    assert "trick" in out.splitlines()[1] and "winner" in out.splitlines()[1]


def test_bundled_example_audits_clean(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["audit", str(ROOT / "examples" / "demo-3deck.json")], capsys)
    assert code == 0 and "violations: none" in out


def test_malformed_record_one_line_exit_2_file_untouched(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = json.loads((ROOT / "examples" / "single-deck.json").read_text("utf-8"))
    rec["deals"][0]["tricks"][4]["plays"][2] = ["1H"]
    path = tmp_path / "bad.json"
    text = json.dumps(rec, ensure_ascii=False)
    path.write_text(text, encoding="utf-8")
    code, out, err = run_cli(["audit", str(path), "--json"], capsys)
    assert code == 2 and out == ""
    assert err.strip().count("\n") == 0
    assert 'deals[0].tricks[4].plays[2]: unknown card "1H"' in err
    assert path.read_text(encoding="utf-8") == text

    path.write_text("{not json", encoding="utf-8")
    code, _, err = run_cli(["audit", str(path)], capsys)
    assert code == 2 and "not valid JSON" in err and err.strip().count("\n") == 0

    code, _, err = run_cli(["audit", str(tmp_path / "missing.json")], capsys)
    assert code == 2 and "missing.json" in err


def test_rules_lists_profiles_and_shows_one(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["rules"], capsys)
    assert code == 0
    assert [line.split()[0] for line in out.strip().splitlines()] == list(PROFILES)
    code, out, _ = run_cli(["rules", "guangzhou-3deck"], capsys)
    assert code == 0
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines()[1:] if line.startswith("  ") and
            len(line.split()) == 2}
    assert rows["throw_penalty"] == ["points"] and rows["kitty_needs_trump"] == ["True"]
    # the options of issue 15 are listed
    assert rows["forced_unit"] == ["lowest-beaten"] and rows["titanic_beats_three_pair"] == ["True"]
    assert rows["triple_pair_tractor"] == ["False"] and rows["discard_penalty"] == ["none"]
    assert "[3,3] › [2,2][1][1] › [3][2][1]" in out
    code, _, err = run_cli(["rules", "bridge"], capsys)
    assert code == 2 and "unknown profile" in err


def test_audit_as_a_subprocess() -> None:
    proc = subprocess.run([sys.executable, "-m", "tuolaji", "audit",
                           str(ROOT / "examples" / "standard-2deck.json"), "--json"],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert len(out["deals"]) == 2 and out["deals"][0]["levels_after"] is not None
