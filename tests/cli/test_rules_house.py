"""``tuolaji rules`` and the house rules of issue 30, item 6 (2 常主, 必打级, 最多升几级, 勾J, 保放): ``--house``
lists them with their words, ``--set`` shows a profile with them set, as a record's ``rules`` would."""

from __future__ import annotations

import pytest

from tuolaji import cli


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_rules_house_lists_each_house_rule_with_its_words(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["rules", "--house"], capsys)
    assert code == 0
    rows = {line.split()[0]: line for line in out.splitlines()[1:]}
    assert "2 常主" in rows["twos_trump"] and "every 2 is a trump" in rows["twos_trump"]
    assert "必打级" in rows["must_defend"] and "cannot jump over" in rows["must_defend"]
    assert "最多升几级" in rows["max_levels"]
    assert "勾J" in rows["jack_hook"] and "last trick with Js" in rows["jack_hook"]
    assert "保放" in rows["reinforce"] and "keeps the bid on a tie" in rows["reinforce"]
    assert {"kitty_multiplier", "throw_penalty", "first_dealer", "dealer_stays"} <= set(rows)


def test_rules_profile_with_house_rules_set(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["rules", "standard-2deck", "--set", "twos_trump=true", "--set", "must_defend=5,10,K",
                            "--set", "max_levels=2", "--set", "jack_hook=2", "--set", "reinforce=true"], capsys)
    assert code == 0
    rows = {line.split()[0]: line.split(None, 1)[1] for line in out.splitlines()
            if line.startswith("  ") and not line.startswith("   ") and len(line.split()) >= 2}
    assert rows["twos_trump"] == "True" and rows["must_defend"] == "['5', '10', 'K']"
    assert rows["max_levels"] == "2" and rows["jack_hook"] == "2" and rows["reinforce"] == "True"
    house = out.split("  house rules:\n", 1)[1].split("  ladders:", 1)[0]
    assert house.splitlines() == [
        "    2 常主: every 2 is a trump",
        "    必打级: 5, 10, K cannot be jumped over",
        "    最多升 2 级: at most 2 levels a deal",
        "    勾J: at level J, the defenders winning the last trick with Js send the dealer's side back to 2",
        "    保放: an overcalled bidder who shows more of his suit keeps the bid on a tie",
    ]
    # a profile alone says no house rule
    code, out, _ = run_cli(["rules", "standard-2deck"], capsys)
    assert code == 0 and "house rules:" not in out and "  jack_hook                 None" in out


@pytest.mark.parametrize(("setting", "said"), [
    ("jack_hook=Q", "--set.jack_hook: expected a level below J"),
    ("max_levels=0", "--set.max_levels: expected a positive integer"),
    ("must_defend=5,X", "--set.must_defend: expected a list of ranks"),
    ("bogus=1", "--set: unknown option 'bogus'"),
    ("twos_trump", "--set: unknown option 'twos_trump'"),
])
def test_rules_refuses_a_bad_house_rule(setting: str, said: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(["rules", "standard-2deck", "--set", setting], capsys)
    assert code == 2 and said in err and err.strip().count("\n") == 0
