"""``tuolaji rules [PROFILE] [--set OPTION=VALUE …] [--house]``: list the rule profiles, or one profile's
options and ladders (with house rules set on it); ``--house`` lists the house rules a game may set."""

from __future__ import annotations

import argparse
import json
from typing import Any

from tuolaji.scorer.formats import ladder_names, unit_ladder
from tuolaji.scorer.profiles import (
    HOUSE_RULES,
    PROFILE_NOTES,
    PROFILES,
    Options,
    RulesError,
    house_rule_words,
    resolve_rules,
)

LADDER_SHAPES = [(2, 1), (3, 1), (4, 1), (2, 2), (2, 3), (3, 2), (3, 3), (4, 2)]
_INT_OPTIONS = ("decks", "max_levels", "threshold", "step", "kitty_size", "throw_penalty_points")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("profile", nargs="?", metavar="PROFILE", help="a profile name (all profiles when omitted)")
    parser.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE", dest="house",
                        help="a house rule on the profile, as a record's rules would set it "
                             "(twos_trump=true, must_defend=5,10,K, max_levels=2, jack_hook=2, reinforce=true …)")
    parser.add_argument("--house", action="store_true", dest="list_house",
                        help="list the house rules a game may set on its profile, with what each means")


def option_value(name: str, text: str) -> Any:
    """A ``--set`` value as the record's ``rules`` would hold it.

    >>> option_value("must_defend", "5,10,K"), option_value("max_levels", "2"), option_value("jack_hook", "2")
    (['5', '10', 'K'], 2, '2')
    >>> option_value("twos_trump", "true"), option_value("players", "5,6"), option_value("jack_hook", "null")
    (True, [5, 6], None)
    """
    if text in ("true", "false", "null") or text.startswith(("[", "{")):
        try:
            return json.loads(text)
        except ValueError:
            return text
    if name in _INT_OPTIONS and text.lstrip("-").isdigit():
        return int(text)
    if name == "players":
        return [int(p) if p.strip().isdigit() else p for p in text.split(",")]
    if name == "must_defend":
        return [r.strip() for r in text.split(",") if r.strip()]
    return text


def describe(name: str, opts: Options | None = None) -> str:
    """One profile's options (``opts``: with house rules set on it) and its follow ladders, as text."""
    opts = opts if opts is not None else PROFILES[name]
    lines = [f"{name}: {PROFILE_NOTES[name]}"]
    for key, value in opts.as_dict().items():
        if key == "ladders":
            continue
        lines.append(f"  {key:<25} {value}")
    players = opts.players
    lines.append("  " + "  ".join(
        f"[{n} players: T {opts.threshold_for(n)} / s {opts.step_for(n)}, kitty {opts.kitty_size_for(n)}, "
        f"hand {opts.hand_size_for(n)}]" for n in players))
    house = house_rule_words(opts)
    if house:
        lines.append("  house rules:")
        lines.extend(f"    {words}" for words in house)
    lines.append("  ladders:")
    for shape in LADDER_SHAPES:
        if shape[0] > opts.decks:
            continue
        names = ladder_names(unit_ladder(shape, opts))
        lines.append(f"    {names[0]:<8} {' › '.join(names)}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    if args.list_house:
        print('House rules (a record\'s rules: {"profile": PROFILE, OPTION: VALUE, …}; '
              "tuolaji rules PROFILE --set OPTION=VALUE):")
        for option, words in HOUSE_RULES.items():
            print(f"  {option:<20} {words}")
        return 0
    if args.profile is None:
        if args.house:
            raise RulesError("rules.profile_unknown", where="--set", profile=None)
        for name in PROFILES:
            print(f"{name:<18} {PROFILE_NOTES[name]}")
        return 0
    if args.profile not in PROFILES:
        raise RulesError("rules.profile_unknown", where="rules", profile=args.profile)
    rules: dict[str, Any] = {"profile": args.profile}
    for item in args.house:
        option, sep, text = item.partition("=")
        if not sep or option.strip() == "profile":
            raise RulesError("rules.option_unknown", where="--set", option=item)
        rules[option.strip()] = option_value(option.strip(), text.strip())
    print(describe(args.profile, resolve_rules(rules, "--set") if args.house else None))
    return 0
