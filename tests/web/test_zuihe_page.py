"""The 嘴和 blueprint mounted on a bare Flask app: the page, the JSON API, and a browser run."""

from __future__ import annotations

import pytest
from flask import Flask

from tuolaji.web.zuihe import zuihe_bp

WINNING = {
    "hand": ["ZH"] * 3 + ["7B"] * 3 + ["8B"] * 3 + ["9B"] * 3
            + ["2B", "3B", "4B", "5B", "6B"] * 2 + ["BA"] + ["4T", "5T", "6T", "7T"],
    "melds": [{"type": "cha", "cards": ["8W", "8W", "8W"]}],
    "yun": [],
    "flags": {"mo": True, "jian": "mian"},
}


@pytest.fixture()
def app() -> Flask:
    app = Flask(__name__)
    app.config["TESTING"] = True
    app.register_blueprint(zuihe_bp)
    return app


def test_page_lists_all_cards_and_its_assets(app: Flask) -> None:
    client = app.test_client()
    page = client.get("/zuihe/")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "嘴和计分" in html and 'id="palette"' in html
    assert '"code": "7B"' in html or '"code":"7B"' in html
    assert html.count('"code"') == 30
    assert "/zuihe/static/zuihe.js" in html and "/zuihe/static/zuihe.css" in html
    for asset in ("/zuihe/static/zuihe.js", "/zuihe/static/zuihe.css"):
        response = client.get(asset)
        assert response.status_code == 200 and len(response.data) > 500
        response.close()
    english = client.get("/zuihe/?lang=en").get_data(as_text=True)
    assert 'data-lang="en"' in english and "Zuihe scorer" in english
    client.set_cookie("lang", "en")
    assert 'data-lang="en"' in client.get("/zuihe/").get_data(as_text=True)


def test_api_scores_a_hand_like_the_cli(app: Flask) -> None:
    answer = app.test_client().post("/zuihe/api/score", json=WINNING)
    assert answer.status_code == 200
    body = answer.get_json()
    assert {k: body[k] for k in ("wins", "he", "zui")} == {"wins": True, "he": 10, "zui": 5}
    assert body["items"] == [{"name": "和数10和", "zui": 1}, {"name": "抹", "zui": 1},
                             {"name": "幺四坎", "zui": 2}, {"name": "面见", "zui": 1}]
    assert body["explain"]["zh"]["title"] == "和了 — 哈牌，10和，5嘴"
    assert body["explain"]["en"]["title"].startswith("Wins — 哈牌")
    assert [i["name"] for i in body["explain"]["en"]["items"]][1] == "抹 (won on a 叉 or 光)"
    assert body["explain"]["zh"]["groups"][0] == {"name": "叉", "cards": ["8W", "8W", "8W"], "he": 1}


def test_api_accepts_chinese_names_and_options(app: Flask) -> None:
    answer = app.test_client().post("/zuihe/api/score", json={"hand": ["红中", "发", "九条"], "options": {"sizes": "any"}})
    body = answer.get_json()
    assert answer.status_code == 200 and body["groups"] == [{"kind": "jia", "cards": ["ZH", "FA", "9T"], "he": 1}]
    assert body["wins"] is False and body["explain"]["zh"]["title"].startswith("不和")


@pytest.mark.parametrize("payload, status, error", [
    ({"hand": ["0B"]}, 400, 'hand[0]: unknown card "0B"'),
    ({"hand": ["7B"], "flags": {"tianhe": True, "dihe": True}}, 400, "flags: tianhe (天和"),
    ([1, 2, 3], 400, "request body: expected a HAND.json object"),
])
def test_api_bad_input_is_400_with_one_line(app: Flask, payload: object, status: int, error: str) -> None:
    answer = app.test_client().post("/zuihe/api/score", json=payload)
    assert answer.status_code == status
    assert answer.get_json()["error"].startswith(error)


def test_api_rejects_a_body_that_is_not_json(app: Flask) -> None:
    answer = app.test_client().post("/zuihe/api/score", data="hand", content_type="text/plain")
    assert answer.status_code == 400 and "HAND.json" in answer.get_json()["error"]


def test_every_message_key_has_its_chinese() -> None:
    from tests.scorer.test_zuihe_messages import raise_site_keys
    from tuolaji.scorer.zuihe.messages import MESSAGES_EN
    from tuolaji.web.zuihe import MESSAGES_ZH

    assert set(MESSAGES_ZH) == set(MESSAGES_EN)
    assert [site for site in raise_site_keys() if site[2] not in MESSAGES_ZH] == []
    for key, text in MESSAGES_ZH.items():
        assert text.strip() and any("\u4e00" <= ch <= "\u9fff" for ch in text), key


@pytest.mark.parametrize("payload, zh", [
    ({"hand": ["0B"]}, "手牌第1张：不认识的牌“0B”"),
    ({"hand": [], "melds": [{"type": "cha", "cards": ["5B", "5B", "6B"]}]},
     "亮出的第1组：叉是三张一样的牌，这里是：五饼、五饼、六饼"),
    ({"hand": [], "melds": [{"type": "chi", "cards": ["ZH", "9T"]}]},
     "亮出的第1组：吃的牌要成副、报或七套，这里是：红中、九条"),
    ({"hand": [], "yun": [["ZH", "FA"]]}, "云幺第1组：小云幺是红中、发财、白花、一饼、一条、一万，大云幺再加九条；这里是：红中、发财"),
    ({"hand": ["7B"], "flags": {"tianhe": True, "dihe": True}}, "天和是庄家起手就和，地和是闲家和庄家打的头一张，两个不能同时选"),
    ({"hand": ["7B"], "flags": {"mo": "yes"}}, "和牌方式里的「抹」只能是 true 或 false，不能是 'yes'"),
    ({"hand": ["3W"] * 4, "melds": [{"type": "cha", "cards": ["3W"] * 3}]}, "亮出的第1组第1张：这是第五张三万，每种牌只有四张"),
    ({"hand": ["2B"]}, "一共 1 张牌（手里 1 张、亮出 0 张、云幺 0 张），和了的牌应是 30 或 31 张"),
    ({"hand": ["2B"], "options": {"sizes": [29]}}, "一共 1 张牌（手里 1 张、亮出 0 张、云幺 0 张），和了的牌应是 29 张"),
    ([1, 2, 3], "请求内容应是一手牌（HAND.json 对象）"),
])
def test_api_error_comes_in_chinese_too(app: Flask, payload: object, zh: str) -> None:
    from tuolaji.scorer.errors import InputError
    from tuolaji.scorer.zuihe import score

    body = app.test_client().post("/zuihe/api/score", json=payload).get_json()
    assert body["message"] == {"zh": zh, "en": body["error"]}
    if isinstance(payload, dict):
        with pytest.raises(InputError) as info:
            score(payload)
        assert body["error"] == str(info.value)  # the English line is the CLI's, unchanged


def test_api_error_for_bad_json_has_chinese_from_the_app_wording(app: Flask) -> None:
    body = app.test_client().post("/zuihe/api/score", data=b"{", content_type="application/json").get_json()
    assert body["error"].startswith("request body: not valid JSON")
    assert "JSON" in body["message"]["zh"] and body["message"]["zh"] != body["error"]
