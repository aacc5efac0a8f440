"""The fuzz suite of issue #17: every command's input reader and every endpoint, on mutated inputs.

Each cause the probe found (JSON 1,000 deep, integers of 4,300+ digits, ``[1]x999…`` ladders, lone
surrogates, non-UTF-8 bytes, ``Infinity``, a PNG claiming 60000×60000, 60 copies of a card, ids
≥ 2⁶³, a list where a name goes, ``friends: [1]``…) is tried deterministically at fixed places,
then Hypothesis draws more mutations of the stored corpus (``tests/data/fuzz``). Every input must
end in an answer or a clean refusal (exit 2 with one line, a 4xx with a message in both
languages): no traceback, no 5xx. ``bench/fuzz_bench.py`` runs 10,000 and more.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz_harness import (
    HOSTILE,
    POST_ENDPOINTS,
    URL_IDS,
    URL_TEMPLATES,
    Tally,
    Workspace,
    cli_targets,
    corpus,
    image_target,
    mutate_image,
    png,
    post_endpoint,
    run_one,
    url_endpoint,
)

SEEDS = corpus()

pytestmark = pytest.mark.slow  # the fuzz runs in CI; the quick subset leaves it out


@pytest.fixture(scope="module")
def ws() -> Iterator[Workspace]:
    workspace = Workspace()
    yield workspace
    workspace.close()


def with_value(seed: bytes, path: tuple, raw: str) -> bytes:
    """``seed`` with the value at ``path`` replaced by the raw JSON text ``raw``."""
    value = json.loads(seed)
    mark = "\u0001MARK\u0001"
    target = value
    for key in path[:-1]:
        target = target[key]
    if path:
        target[path[-1]] = mark
    else:
        value = mark
    return json.dumps(value, ensure_ascii=False).replace(json.dumps(mark), raw).encode("utf-8")


RECORD_PLACES = [(), ("players",), ("players", 0), ("rules",), ("start_levels",), ("deals",), ("deals", 0),
                 ("deals", 0, "tricks", 0, "plays", 0), ("deals", 0, "tricks", 0, "plays", 0, 0),
                 ("deals", 0, "dealer"), ("deals", 0, "level"), ("deals", 0, "trump"), ("deals", 0, "kitty"),
                 ("deals", 0, "tricks"), ("deals", 0, "tricks", 0), ("deals", 0, "tricks", 0, "leader")]
HAND_PLACES = [(), ("hand",), ("hand", 0), ("options",), ("options", "sizes"), ("flags",), ("flags", "jian"),
               ("flags", "mo"), ("melds",), ("melds", 0), ("melds", 0, "type"), ("melds", 0, "cards"), ("yun",)]


def test_every_cause_in_every_record_reader_is_refused_cleanly(ws: Workspace) -> None:
    tally = Tally()
    targets = cli_targets(ws)
    seed = SEEDS["record-single-deck.json"]
    for raw in HOSTILE:
        for place in RECORD_PLACES:
            data = with_value(seed, place, raw)
            for name in ("audit", "replay --setup", "serve --record", "render-video --record"):
                tally.add(name, targets[name](data), f"{place}={raw[:30]}")
            tally.add("import", post_endpoint(ws, "/api/sessions/import", data, "json"), f"{place}={raw[:30]}")
    for damaged in (b"\xff\xfe{}", SEEDS["record-single-deck.json"].replace("东".encode(), b"\xe4\xb8"), b"", b"\x00"):
        for name in ("audit", "serve --record"):
            tally.add(name, targets[name](damaged), repr(damaged[:10]))
    assert tally.crashes == []
    assert tally.counts["audit"]["refused"] > 0


def test_every_cause_in_the_zuihe_readers_is_refused_cleanly(ws: Workspace) -> None:
    tally = Tally()
    targets = cli_targets(ws)
    seed = SEEDS["hand-zuihe.json"]
    for raw in HOSTILE:
        for place in HAND_PLACES:
            data = with_value(seed, place, raw)
            tally.add("zuihe", targets["zuihe"](data), f"{place}={raw[:30]}")
            tally.add("zuihe web", post_endpoint(ws, "/zuihe/api/score", data, "json"), f"{place}={raw[:30]}")
    for option in ("sizes=Infinity", "sizes=1e999", "sizes=" + "9" * 5000, "sizes=-1", "patterns=\udcff"):
        tally.add("zuihe -o", run_cli_option(ws, option), option)
    assert tally.crashes == []


def run_cli_option(ws: Workspace, option: str):
    from tests.fuzz_harness import run_cli

    return run_cli(["zuihe", ws.file(SEEDS["hand-zuihe.json"]), "-o", option])


@pytest.mark.parametrize("endpoint", POST_ENDPOINTS)
def test_every_cause_in_every_body_is_a_4xx_with_a_message(ws: Workspace, endpoint: str) -> None:
    tally = Tally()
    seeds = [SEEDS[name] for name in ("body-setup.json", "body-play.json", "body-correct.json")]
    for raw in HOSTILE:
        for seed in seeds:
            for place in [()] + [(key,) for key in json.loads(seed)]:
                tally.add(endpoint, post_endpoint(ws, endpoint, with_value(seed, place, raw), "json"),
                          f"{place}={raw[:30]}")
    for how in ("text", "file"):
        tally.add(endpoint, post_endpoint(ws, endpoint, b"x" * 100, how), how)
    assert tally.crashes == []


def test_every_url_id_is_answered_without_a_5xx(ws: Workspace) -> None:
    tally = Tally()
    for template in URL_TEMPLATES:
        for ident in URL_IDS:
            tally.add(template, url_endpoint(ws, template, ident), ident)
    assert tally.crashes == []


def test_images_that_claim_a_huge_size_are_refused_before_decoding(ws: Workspace) -> None:
    from tests.fuzz_harness import Outcome

    for width, height in ((60000, 60000), (30000, 30000)):
        outcome: Outcome = image_target(ws, png(width, height, body=False))
        assert outcome.kind == "refused" and f"{width * height:,} pixels" in outcome.detail
    assert image_target(ws, png(24, 16)).kind == "ok"
    rng = random.Random(5)
    tally = Tally()
    for _ in range(40):
        data, kind = mutate_image(rng)
        tally.add("detect", image_target(ws, data), kind)
    assert tally.crashes == []


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(rnd=st.randoms(use_true_random=False))
def test_hypothesis_mutations_of_the_corpus_end_in_an_answer_or_a_clean_refusal(ws: Workspace,
                                                                                 rnd: random.Random) -> None:
    tally = Tally()
    run_one(ws, rnd, tally, SEEDS)
    assert tally.crashes == []
