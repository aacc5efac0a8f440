"""``tuolaji zuihe HAND.json [--json]`` as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tuolaji import cli

ROOT = Path(__file__).resolve().parents[2]
# 幺四坎 (ZH 哈 + three 白哈) with a 白叉: 10 和; filled with 副
WINNING = {
    "hand": ["ZH"] * 3 + ["7B"] * 3 + ["8B"] * 3 + ["9B"] * 3
            + ["2B", "3B", "4B", "5B", "6B"] * 2 + ["BA"] + ["4T", "5T", "6T", "7T"],
    "melds": [{"type": "cha", "cards": ["8W", "8W", "8W"]}],
    "yun": [],
    "flags": {"tianhe": False, "dihe": False, "mo": True, "jian": "mian"},
}


def write(tmp_path: Path, obj: object, name: str = "hand.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(obj, ensure_ascii=False), encoding="utf-8")
    return str(path)


def test_json_output_has_the_issue_shape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["zuihe", write(tmp_path, WINNING), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out) == ["wins", "he", "zui", "groups", "items"]
    assert out["wins"] is True and out["he"] == 10 and out["zui"] == 5
    assert out["items"] == [{"name": "和数10和", "zui": 1}, {"name": "抹", "zui": 1},
                            {"name": "幺四坎", "zui": 2}, {"name": "面见", "zui": 1}]
    assert out["groups"][0] == {"kind": "cha", "cards": ["8W", "8W", "8W"], "he": 1}
    assert {"kind": "ha", "cards": ["ZH", "ZH", "ZH"], "he": 3} in out["groups"]
    assert sum(g["he"] for g in out["groups"]) == 10
    assert all(set(g) == {"kind", "cards", "he"} for g in out["groups"])


def test_half_zui_is_a_json_number(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hand = dict(WINNING, flags={"jian": "huang"})
    assert cli.main(["zuihe", write(tmp_path, hand), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["zui"] == 3.5


def test_default_output_is_chinese_and_itemised(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["zuihe", write(tmp_path, WINNING)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "和了 — 哈牌，10和，5嘴"
    assert "  哈  红中 红中 红中  3和" in out
    assert "  幺四坎  2" in out and "  合计 5嘴" in out
    assert cli.main(["zuihe", write(tmp_path, WINNING), "--lang", "en"]) == 0
    assert capsys.readouterr().out.startswith("Wins — 哈牌")


def test_chinese_card_names_in_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    names = {"ZH": "红中", "7B": "七饼", "8B": "八饼", "9B": "九饼", "2B": "二饼", "3B": "三饼", "4B": "四饼",
             "5B": "五饼", "6B": "六饼", "4T": "四条", "5T": "五条", "6T": "六条", "7T": "七条", "8W": "八万", "BA": "白板"}
    hand = {"hand": [names[c] for c in WINNING["hand"]],
            "melds": [{"type": "cha", "cards": ["八万"] * 3}], "flags": {"mo": True, "jian": "mian"}}
    assert cli.main(["zuihe", write(tmp_path, hand), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["zui"] == 5


def test_a_hand_that_does_not_win_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hand = {"hand": WINNING["hand"][:-4] + ["4T", "5T", "8T", "2W"], "melds": WINNING["melds"]}
    assert cli.main(["zuihe", write(tmp_path, hand), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["wins"] is False and out["zui"] == 0 and out["he"] == 10 and out["items"] == []
    assert cli.main(["zuihe", write(tmp_path, hand)]) == 0
    assert capsys.readouterr().out.startswith("不和 — 哈牌，有闲牌")


def test_options_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hand = {"hand": ["ZH", "FA", "9T"]}
    assert cli.main(["zuihe", write(tmp_path, hand), "--json", "-o", "sizes=any"]) == 0
    assert json.loads(capsys.readouterr().out)["groups"] == [{"kind": "jia", "cards": ["ZH", "FA", "9T"], "he": 1}]


@pytest.mark.parametrize("content, message", [
    ('{"hand": ["0B"]}', 'tuolaji zuihe: hand[0]: unknown card "0B"'),
    ('{"hand": [', "tuolaji zuihe: {path}: not valid JSON: Expecting value at line 1 column 11"),
    ('{"hand": ["7B"], "flags": {"tianhe": true, "dihe": true}}', "tuolaji zuihe: flags: tianhe (天和"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    assert cli.main(["zuihe", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(message.format(path=path)) and err.count("\n") == 1


def test_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["zuihe", str(tmp_path / "nope.json")]) == 2
    assert "nope.json" in capsys.readouterr().err


def test_subprocess_end_to_end(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "tuolaji", "zuihe", write(tmp_path, WINNING), "--json"],
                          cwd=ROOT, capture_output=True, text=True, encoding="utf-8", check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["zui"] == 5
    done = subprocess.run([sys.executable, "-m", "tuolaji", "zuihe", "-"], input='{"hand": ["7B"]}',
                          cwd=ROOT, capture_output=True, text=True, encoding="utf-8", check=False)
    assert done.returncode == 2
    assert done.stderr.strip() == "tuolaji zuihe: hand: 1 cards in all (hand 1 + melds 0 + yun 0); a 嘴和 winner holds 30 or 31"
