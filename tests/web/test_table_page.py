"""The live table page through Flask's test client: pages, card images, set-up, plays, bids,
corrections and confirmations, the kitty and the next deal."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser.records import point_correction, revoke_record
from tests.conftest import TABLE_SETUP
from tuolaji import scorer
from tuolaji.web import get_table
from tuolaji.web.cards import CARD_NAMES, card_svg
from tuolaji.web.i18n import STRINGS
from tuolaji.web.table import RecordFeed

SETUP = TABLE_SETUP | {"levels": ["2", "5", "2", "5"], "name": "周五"}


def set_up(client, **changes: Any) -> dict[str, Any]:
    response = client.post("/api/setup", json=SETUP | changes)
    assert response.status_code in (200, 201), response.get_json()
    return response.get_json()


def play(client, seat: int, *cards: str, status: int = 201) -> dict[str, Any]:
    response = client.post("/api/play", json={"seat": seat, "cards": list(cards)})
    assert response.status_code == status, response.get_json()
    return response.get_json()


def feed_record(app, record: dict[str, Any]) -> None:
    """Play a whole record into the app's current session at once."""
    table = get_table(app)
    from tuolaji.web.table import record_setup

    table.start(record_setup(record), name="fed", source="record")
    feed = RecordFeed(table, record, pace_s=0)
    feed.run()
    assert feed.error is None


# --- pages and card images ------------------------------------------------------------


def test_live_page_is_chinese_by_default_with_every_card_drawn_inline(client):
    response = client.get("/")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert '<html lang="zh-CN"' in html and "闲家得分" in html
    symbols = re.findall(r'<symbol id="card-([A-Za-z0-9]+)"', html)
    assert sorted(symbols) == sorted([*CARD_NAMES, "back"])
    assert 'href="/sessions"' in html
    # nothing fetched from elsewhere (a phone camera's address may be shown as words in the help)
    assert not re.search(r'(?:src|href|action)="(?:https?:)?//', html)


def test_english_from_the_query_is_remembered_in_a_cookie(client):
    html = client.get("/?lang=en").get_data(as_text=True)
    assert '<html lang="en"' in html and "Defenders&#39; points" in html
    assert client.get_cookie("lang").value == "en"
    assert "Defenders&#39; points" in client.get("/").get_data(as_text=True)


def test_every_word_of_the_page_exists_in_both_languages():
    for key, entry in STRINGS.items():
        assert entry.get("zh") and entry.get("en"), key
    templates = Path(__file__).resolve().parents[2] / "web" / "templates"
    static = Path(__file__).resolve().parents[2] / "web" / "static"
    script = "\n".join(path.read_text(encoding="utf-8") for path in sorted(static.glob("*.js")) if path.name != "zuihe.js")
    used = set()
    for path in templates.glob("*.html"):
        if path.name.startswith("zuihe"):
            continue
        used |= set(re.findall(r"t\('([a-z_.-]+)'", path.read_text(encoding="utf-8")))
    used |= set(re.findall(r'\bt\("([a-z_.-]+)"[,)]', script))
    from tuolaji.web.stats import STAT_KEYS

    used = {key for key in used if not key.endswith(".")}  # a key made on the page ('stats.' ~ key) ...
    used |= {f"stats.{key}" for key in STAT_KEYS}  # ... is one of these
    assert used - set(STRINGS) == set()


def test_every_rule_code_the_audit_reports_has_its_name_in_both_languages():
    """A violation's rule is drawn as ``t("rule." + code)``: a code without its name showed raw
    (``rule.bad-points``, issue 43). The codes are those the audit adds, and docs/RECORD.md lists."""
    root = Path(__file__).resolve().parents[2]
    audit = (root / "scorer" / "audit.py").read_text(encoding="utf-8")
    codes = set(re.findall(r'(?:\.add|flag)\([^"\n]*"([a-z]+(?:-[a-z]+)+)"', audit))
    documented = set(re.findall(r"^\| `([a-z-]+)` \|", (root / "docs" / "RECORD.md").read_text(encoding="utf-8"), re.M))
    assert "bad-points" in codes and len(codes) == 13
    assert codes <= documented
    for code in codes:
        assert STRINGS[f"rule.{code}"]["zh"] and STRINGS[f"rule.{code}"]["en"], code


@pytest.mark.parametrize("name", CARD_NAMES)
def test_card_images_are_svg_for_all_54_cards(client, name):
    response = client.get(f"/cards/{name}.svg")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert response.get_data(as_text=True).startswith("<svg")


def test_card_drawings_differ_and_unknown_cards_are_404(client):
    assert len({card_svg(name) for name in CARD_NAMES}) == 54
    assert client.get("/cards/1H.svg").status_code == 404
    assert client.get("/cards/back.svg").status_code == 200


def test_state_without_a_session_asks_for_a_set_up(client):
    data = client.get("/api/state").get_json()
    assert data["session"] is None and "standard-2deck" in data["profiles"]


# --- set-up ---------------------------------------------------------------------------------


def test_setup_starts_a_session_with_the_dealers_level(client):
    data = set_up(client, dealer=1)
    record = data["state"]["record"]
    assert record["players"] == SETUP["players"] and record["start_levels"] == ["2", "5", "2", "5"]
    assert record["deals"] == [{"level": "5", "trump": "H", "dealer": 1, "tricks": []}]
    assert data["session"]["name"] == "周五"
    assert data["view"]["sides"][0]["seats"] == [0, 2] and data["view"]["threshold"] == 80


def test_setup_of_friends_game_with_called_friends(client):
    data = set_up(client, profile="friends-3deck", players=list("甲乙丙丁戊"), levels=["3"] * 5, dealer=2,
                  friends=[{"card": "AS", "nth": 2}])
    deal = data["state"]["record"]["deals"][0]
    assert deal["friends"] == [{"card": "AS", "nth": 2}] and deal["level"] == "3"
    assert data["view"]["friends"] and len(data["view"]["sides"]) == 5 and data["view"]["threshold"] == 120


def test_four_player_friends_game_has_no_fixed_partners_and_calls_one_friend(client):
    data = set_up(client, profile="friends-3deck", levels=["2", "3", "4", "5"], dealer=0,
                  friends=[{"card": "AS", "nth": 1}])
    assert data["state"]["record"]["start_levels"] == ["2", "3", "4", "5"]
    assert data["view"]["friends"] and data["view"]["friends_count"] == 1
    assert set_up(client, profile="friends-3deck", players=list("甲乙丙丁戊戌"), levels=["3"] * 6)["view"]["friends_count"] == 2
    assert set_up(client)["view"]["friends_count"] == 0


@pytest.mark.parametrize(("change", "message"), [
    ({"profile": "no-such"}, "profile"),
    ({"players": ["a", "b", "c"]}, "players"),
    ({"levels": ["2", "3", "4", "5"]}, "partners"),
    ({"trump": "X"}, "trump"),
    ({"dealer": 9}, "dealer"),
])
def test_bad_setup_is_refused_with_the_field_named(client, change, message):
    response = client.post("/api/setup", json=SETUP | change)
    assert response.status_code == 400 and message in response.get_json()["error"]


def test_setup_before_any_play_replaces_the_session_and_after_plays_starts_another(client):
    first = set_up(client)["session"]["id"]
    assert set_up(client, trump="S")["session"]["id"] == first
    play(client, 0, "AH")
    second = set_up(client)["session"]["id"]
    assert second != first
    assert len(client.get("/api/sessions").get_json()["sessions"]) == 2


def test_deal_set_up_can_be_changed_until_the_first_trick(client):
    set_up(client)
    data = client.post("/api/deal", json={"trump": "NT", "dealer": 1, "level": "5"}).get_json()
    assert data["state"]["record"]["deals"][0] | {} == {"level": "5", "trump": "NT", "dealer": 1, "tricks": []}
    data = client.post("/api/deal", json={"dealer": 2}).get_json()  # the level follows the dealer
    assert data["state"]["record"]["deals"][0]["level"] == "2"
    refused = client.post("/api/deal", json={"dealer": 2, "level": "5"})  # not the dealer's level
    assert refused.status_code == 400 and "庄家 西 在打 2" in refused.get_json()["message"]["zh"]
    play(client, 2, "AS")
    assert client.post("/api/deal", json={"trump": "S"}).status_code == 400


# --- bids, plays, corrections -----------------------------------------------------------------


def test_bids_entered_by_click_follow_the_standing_bid(client):
    """The rules core's bidding state decides: a bid that does not stand is refused, the standing
    bid sets trump, dealer and level (standard-2deck: 先亮者為莊家), a bid can be taken back."""
    set_up(client, trump="NT", levels=["2"] * 4)
    data = client.post("/api/bid", json={"seat": 1, "cards": ["2S"]}).get_json()
    deal = data["state"]["record"]["deals"][0]
    assert deal["bids"] == [{"seat": 1, "cards": ["2S"]}] and deal["trump"] == "S" and deal["dealer"] == 1
    assert data["view"]["bidding"]["standing"] == {"seat": 1, "cards": ["2S"]}
    offers = data["view"]["bidding"]["offers"]
    assert ["2H"] not in offers[2] and ["2H", "2H"] in offers[2] and ["SJ"] not in offers[2]
    assert not any(len(cards) > 2 for seat in offers for cards in seat)  # two decks: no three copies
    weaker = client.post("/api/bid", json={"seat": 2, "cards": ["2H"]})
    assert weaker.status_code == 400 and "亮主不成立" in weaker.get_json()["message"]["zh"]
    assert client.post("/api/bid", json={"seat": 2, "cards": ["2H", "2H", "2H"]}).status_code == 400
    data = client.post("/api/bid", json={"seat": 2, "cards": ["BJ", "BJ"]}).get_json()
    deal = data["state"]["record"]["deals"][0]
    assert deal["trump"] == "NT" and deal["dealer"] == 1  # the first bidder deals
    assert data["state"]["audit"]["deals"][0]["violations"] == []
    data = client.post("/api/bid/withdraw", json={}).get_json()
    assert data["state"]["record"]["deals"][0]["trump"] == "S" and len(data["state"]["record"]["deals"][0]["bids"]) == 1
    assert client.post("/api/bid", json={"seat": 2, "cards": ["ZZ"]}).status_code == 400
    play(client, 1, "AS")
    assert client.post("/api/bid", json={"seat": 3, "cards": ["2S", "2S"]}).status_code == 400
    assert client.post("/api/bid/withdraw", json={}).status_code == 400


def test_a_later_deal_bids_at_the_dealer_level(client):
    set_up(client, trump="NT")  # mid-game: levels 2/5, dealer 0 at 2
    assert client.post("/api/bid", json={"seat": 1, "cards": ["5S"]}).status_code == 400  # not the deal's level
    deal = client.post("/api/bid", json={"seat": 1, "cards": ["2S"]}).get_json()["state"]["record"]["deals"][0]
    assert deal["trump"] == "S" and deal["dealer"] == 0 and deal["level"] == "2"


def test_plays_fill_the_trick_and_out_of_turn_is_refused(client):
    set_up(client)
    play(client, 0, "AS")
    data = play(client, 1, "3S")
    assert data["state"]["expected_seat"] == 2
    assert "seat 2 is to play, not seat 3" in play(client, 3, "4S", status=409)["error"]
    assert play(client, 2, "bad", status=400)["error"].startswith("card 0, 'bad'")
    play(client, 2, "10S")
    data = play(client, 3, "KS")
    trick = data["state"]["audit"]["deals"][0]["tricks"][0]
    assert trick["winner"] == 0 and trick["points"] == 20


def test_correction_changes_the_record_and_the_score(app, client):
    record, _ = revoke_record()
    feed_record(app, record)
    fix = point_correction(record)
    before = client.get("/api/state").get_json()
    total_before = before["state"]["audit"]["deals"][0]["total_defender_points"]
    response = client.post("/api/correct", json={k: fix[k] for k in ("deal", "trick", "seat", "index")} | {"card": fix["new"]})
    data = response.get_json()
    assert response.status_code == 200 and data["correction"]["old"] == fix["old"]
    trick = data["state"]["record"]["deals"][0]["tricks"][fix["trick"]]
    assert {"seat": fix["seat"], "index": 0, "old": fix["old"], "new": fix["new"], "source": "page"} in trick["corrections"]
    assert data["state"]["audit"]["deals"][0]["total_defender_points"] == total_before - fix["points"]
    stored = get_table(app).store.get(data["session"]["id"]).record
    assert stored["deals"][0]["tricks"][fix["trick"]]["corrections"]


def test_correction_of_a_card_that_is_not_there_is_404(client):
    set_up(client)
    play(client, 0, "AS")
    response = client.post("/api/correct", json={"deal": 0, "trick": 0, "seat": 2, "index": 0, "card": "3S"})
    assert response.status_code == 404
    response = client.post("/api/correct", json={"deal": 0, "trick": 0, "seat": 0, "index": 0, "card": "XX"})
    assert response.status_code == 400


def test_unconfirmed_cards_are_listed_and_confirmed_with_one_request(app, client):
    set_up(client)
    get_table(app).game.play(0, ["AS", "AS"], unconfirmed=[1], confidence=[0.99, 0.41])
    data = client.get("/api/state").get_json()
    assert data["state"]["pending"] == [{"deal": 0, "trick": 0, "seat": 0, "index": 1, "card": "AS"}]
    response = client.post("/api/confirm", json={"deal": 0, "trick": 0, "seat": 0, "index": 1})
    data = response.get_json()
    assert response.status_code == 200 and data["state"]["pending"] == []
    trick = data["state"]["record"]["deals"][0]["tricks"][0]
    assert trick["plays"][0] == ["AS", "AS"] and trick["corrections"][0]["source"] == "page-confirm"
    assert client.post("/api/confirm", json={"deal": 0, "trick": 3, "seat": 0, "index": 0}).status_code == 404


def test_revoke_is_reported_with_its_evidence(app, client):
    record, (trick, seat) = revoke_record()
    feed_record(app, record)
    violations = client.get("/api/state").get_json()["state"]["audit"]["deals"][0]["violations"]
    assert [(v["trick"], v["seat"], v["rule"], v["proven"]) for v in violations] == [
        (trick, seat, "must-follow-suit", True)]
    assert violations[0]["detail"]


def test_violation_details_come_in_chinese_and_english_with_names_and_tricks_from_one(app, client):
    record, (trick, seat) = revoke_record()
    feed_record(app, record)
    data = client.get("/api/state").get_json()
    violation = data["state"]["audit"]["deals"][0]["violations"][0]
    text = data["view"]["deals"][0]["violations"][0]
    name = record["players"][seat]
    led = violation["detail"].split(" did not follow ", 1)[1].split(":")[0]
    assert text["parsed"] is True
    assert text["zh"].startswith(f"{name} 未跟 {led}：出了 ") and "但手里有" in text["zh"] and "墩打出）" in text["zh"]
    assert text["en"].startswith(f"{name} did not follow {led}: played ")
    later = int(violation["detail"].rsplit("trick ", 1)[1].rstrip(")"))
    assert text["zh"].endswith(f"第 {later + 1} 墩打出）") and text["en"].endswith(f"played in trick {later + 1})")
    assert "seat" not in text["en"] and data["view"]["deals"][0]["penalties"] == []


def test_penalty_details_are_translated(app):
    record = scorer.random_record("guangzhou-3deck", 11, hand_size=8, attempt_chance=1.0)
    assert record["deals"][0]["tricks"][0].get("attempt")
    feed_record(app, record)
    data = app.test_client().get("/api/state").get_json()
    penalties = data["state"]["audit"]["deals"][0]["penalties"]
    texts = data["view"]["deals"][0]["penalties"]
    assert penalties and len(texts) == len(penalties)
    assert all(t["parsed"] and t["zh"].startswith("甩 ") and "张被管住 × 10 分" in t["zh"] for t in texts)


def import_and_resume(client, record: dict[str, Any]) -> dict[str, Any]:
    session_id = client.post("/api/sessions/import", json=record).get_json()["id"]
    return client.post(f"/api/sessions/{session_id}/resume").get_json()


def hand_record(tricks: list[dict[str, Any]]) -> dict[str, Any]:
    return {"format": "tuolaji-record/1", "rules": "standard-2deck", "players": ["东", "南", "西", "北"],
            "deals": [{"level": "2", "trump": "S", "dealer": 0,
                       "hands": [["AH", "AH", "7C"], ["3H", "3H", "5H"], ["4D", "5D", "6H"], ["6D", "7D", "8D"]],
                       "tricks": tricks}]}


def test_the_seat_to_play_is_told_what_it_must_play_when_the_hands_are_known(client):
    data = import_and_resume(client, hand_record([{"leader": 0, "plays": [["AH", "AH"]]}]))
    hint = data["view"]["hint"]
    assert hint["seat"] == 1 == data["state"]["expected_seat"] and hint["leading"] is False
    assert hint["rule"] == {"zh": "跟 2 张♥，须出对子", "en": "follow ♥ with 2 cards: a pair"}
    assert hint["plays"] == [["3H", "3H"]]
    assert hint["line"] == {"zh": "南 该出：跟 2 张♥，须出对子 · 只能出 ♥3 ♥3",
                            "en": "南 to play: follow ♥ with 2 cards: a pair · must play ♥3 ♥3"}
    # 西 holds one heart: it must go, with any one card more
    hint = play(client, 1, "3H", "3H")["view"]["hint"]
    assert hint["seat"] == 2 and hint["rule"]["zh"] == "须出全部 1 张♥，再任垫 1 张"
    assert sorted(map(sorted, hint["plays"])) == [["4D", "6H"], ["5D", "6H"]] and hint["line"]["en"].startswith("西 to play: play all 1 ♥ card")
    hint = play(client, 2, "6H", "4D")["view"]["hint"]
    assert hint["rule"] == {"zh": "没有♥了：任出 2 张", "en": "no ♥ left: play any 2 cards"} and len(hint["plays"]) == 3
    hint = play(client, 3, "6D", "7D")["view"]["hint"]
    assert hint["seat"] == 0 and hint["leading"] and hint["rule"] is None
    assert hint["line"] == {"zh": "东 首出 · 只能出 ♣7", "en": "东 to lead · must play ♣7"}


def test_no_hint_without_hands_or_once_the_deal_is_over(app, client):
    record = hand_record([{"leader": 0, "plays": [["AH", "AH"]]}])
    del record["deals"][0]["hands"]
    assert import_and_resume(client, record)["view"]["hint"] is None
    record = scorer.random_record("standard-2deck", 4, hand_size=3)
    assert import_and_resume(client, record)["view"]["hint"] is None  # complete
    record["deals"][0]["tricks"] = record["deals"][0]["tricks"][:1]
    record["deals"][0].pop("complete")
    hint = import_and_resume(client, record)["view"]["hint"]
    assert hint is not None and hint["leading"] and hint["seat"] == scorer.next_leader(record)


def test_a_replayed_record_keeps_its_hands_so_the_page_can_hint(app, client):
    record = scorer.random_record("standard-2deck", 8, hand_size=5)
    table = get_table(app)
    from tuolaji.web.table import record_setup

    table.start(record_setup(record), name="fed", source="record")
    feed = RecordFeed(table, record, pace_s=0, on_play=lambda n: feed.stop(0) if n == 6 else None)
    feed.run()
    data = client.get("/api/state").get_json()
    assert data["state"]["record"]["deals"][0]["hands"] == record["deals"][0]["hands"]
    hint = data["view"]["hint"]
    assert hint["seat"] == data["state"]["expected_seat"] and hint["rule"]["zh"] and hint["rule"]["en"]


def test_kitty_and_next_deal(app, client):
    record, _ = revoke_record()
    kitty = record["deals"][0].pop("kitty")
    feed_record(app, record)
    data = client.post("/api/kitty", json={"cards": " ".join(kitty)}).get_json()
    deal_audit = data["state"]["audit"]["deals"][0]
    assert data["state"]["record"]["deals"][0]["kitty"] == kitty
    assert deal_audit["kitty_points"] == sum({"5": 5, "10": 10, "K": 10}.get(c[:-1], 0) for c in kitty)
    response = client.post("/api/next-deal", json={"trump": "D"})
    data = response.get_json()
    assert response.status_code == 201 and data["deal"] == 1
    new_deal = data["state"]["record"]["deals"][1]
    assert new_deal["dealer"] == deal_audit["next_dealer"]
    assert new_deal["level"] == deal_audit["levels_after"][deal_audit["next_dealer"]] and new_deal["trump"] == "D"
    assert len(data["view"]["level_history"]) == 2 and data["view"]["levels_chart"].count("<polyline") == 2
    assert client.post("/api/next-deal", json={}).status_code == 400  # the new deal has not been played


def test_api_errors_are_json_with_a_message(client):
    assert client.post("/api/play", json={"seat": 0, "cards": ["AS"]}).status_code == 409  # no session
    set_up(client)
    response = client.post("/api/play", data="not json", content_type="application/json")
    assert response.status_code == 400 and "not valid JSON" in response.get_json()["error"]
    assert client.post("/api/play", json={"seat": "x", "cards": ["AS"]}).status_code == 400


def test_errors_a_person_can_cause_come_in_both_languages(client):
    answer = client.post("/api/play", json={"seat": 0, "cards": ["AS"]}).get_json()
    assert answer["message"]["zh"] == "还没有牌局：请先设置牌桌，或继续一局" and answer["error"].startswith("no table")
    set_up(client)
    play(client, 0, "AS")
    answer = play(client, 2, "3S", status=409)
    assert answer["error"] == "trick 0: seat 1 is to play, not seat 2"
    assert answer["message"] == {"zh": "第 1 墩：该 南 出牌，不是 西", "en": "trick 1: 南 is to play, not 西"}
    answer = play(client, 1, "1X", status=400)
    assert answer["message"]["zh"] == "第 1 张「1X」不是牌：可写 黑桃A、红桃10、方块Q、梅花2、大王、小王，或 AS、10H、BJ"
    assert answer["error"] == "card 0, '1X', is not a card: write 黑桃A, 红桃10, 大王, or AS, 10H, BJ"
    answer = client.post("/api/setup", json=SETUP | {"players": ["a", "b", "c"]}).get_json()
    assert answer["message"]["zh"] == "两副牌·标准 要 4 人玩，现在是 3 人"
    answer = client.post("/api/sessions/1/rename", json={"name": " "}).get_json()
    assert answer["message"] == {"zh": "请填写名称", "en": "the name is empty"}
    answer = client.post("/api/bid", json={"seat": "x", "cards": ["2S"]}).get_json()  # the page never sends it
    assert answer["message"] == {"zh": "座位：应是整数", "en": "seat: expected a whole number"}


def test_record_feed_plays_a_record_and_resumes_where_it_stopped(app):
    record = scorer.random_record("standard-2deck", 3, hand_size=4)
    table = get_table(app)
    from tuolaji.web.table import record_setup

    table.start(record_setup(record), name="fed", source="record")
    seen = []
    table.bus.subscribe(lambda event: seen.append(type(event).__name__))
    first = RecordFeed(table, record, pace_s=0, on_play=lambda n: first.stop(0) if n == 5 else None)
    first.run()
    assert sum(len(t["plays"]) for t in table.game.snapshot()["deals"][0]["tricks"]) == 5
    RecordFeed(table, record, pace_s=0).run()
    final = table.game.snapshot()["deals"][0]
    assert [t["plays"] for t in final["tricks"]] == [t["plays"] for t in record["deals"][0]["tricks"]]
    assert final["kitty"] == record["deals"][0]["kitty"] and final["complete"] is True
    assert "DealComplete" in seen and seen.count("PlaySettled") == 16


def test_the_zuihe_scorer_is_registered_and_linked(app, client):
    assert app.config["ZUIHE"] is True
    assert 'href="/zuihe/"' in client.get("/").get_data(as_text=True)
    assert client.get("/zuihe/").status_code == 200


def test_friends_game_shows_the_friend_once_the_called_card_is_played(client):
    set_up(client, profile="friends-3deck", players=list("甲乙丙丁戊"), levels=["3"] * 5, dealer=0,
           friends=[{"card": "AS", "nth": 1}])
    for seat, card in enumerate(["3S", "4S"]):
        data = play(client, seat, card)
    assert data["view"]["deals"][0]["friends"] == [{"card": "AS", "nth": 1, "seat": None, "played": False}]
    for seat, card in [(2, "AS"), (3, "5S"), (4, "6S")]:
        data = play(client, seat, card)
    assert data["view"]["deals"][0]["friends"][0]["seat"] == 2
    assert data["view"]["deals"][0]["dealer_side"] == [0, 2]
