"""``tuolaji rules [PROFILE]``: list the rule profiles, or one profile's options and ladders."""

from __future__ import annotations

import argparse

from tuolaji.scorer.formats import ladder_names, unit_ladder
from tuolaji.scorer.profiles import PROFILE_NOTES, PROFILES, RulesError

LADDER_SHAPES = [(2, 1), (3, 1), (4, 1), (2, 2), (2, 3), (3, 2), (3, 3), (4, 2)]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("profile", nargs="?", metavar="PROFILE", help="a profile name (all profiles when omitted)")


def describe(name: str) -> str:
    """One profile's options and its follow ladders, as text."""
    opts = PROFILES[name]
    lines = [f"{name}: {PROFILE_NOTES[name]}"]
    for key, value in opts.as_dict().items():
        if key == "ladders":
            continue
        lines.append(f"  {key:<25} {value}")
    players = opts.players
    lines.append("  " + "  ".join(
        f"[{n} players: T {opts.threshold_for(n)} / s {opts.step_for(n)}, kitty {opts.kitty_size_for(n)}, "
        f"hand {opts.hand_size_for(n)}]" for n in players))
    lines.append("  ladders:")
    for shape in LADDER_SHAPES:
        if shape[0] > opts.decks:
            continue
        names = ladder_names(unit_ladder(shape, opts))
        lines.append(f"    {names[0]:<8} {' › '.join(names)}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    if args.profile is None:
        for name in PROFILES:
            print(f"{name:<18} {PROFILE_NOTES[name]}")
        return 0
    if args.profile not in PROFILES:
        raise RulesError(f'unknown profile "{args.profile}" (one of {", ".join(PROFILES)})')
    print(describe(args.profile))
    return 0
