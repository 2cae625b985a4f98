"""Slot admission rules, alone: a component type's `admits` condition (self = the receiver, it = the item
offered), read by `admits(R, X)`, and changed by other rules through the attributes it reads.

The fixture pack tests/fixtures/packs/sockets: a red and a blue socket; a Ruby, a Sapphire and a Prism
(clear: any socket; placing it opens the socket to every colour).
"""

from __future__ import annotations

from pathlib import Path

from engine.compile.loading import load_pack
from engine.play.match import Match
from engine.runtime.context import Ctx

PACK = Path(__file__).parent / "fixtures" / "packs" / "sockets"


def _session() -> Match:
    return Match(load_pack(str(PACK)), 1, 1, {})


def test_a_socket_takes_only_what_its_rule_admits() -> None:
    session = _session()
    game = session.game
    ctx = Ctx(game, 0)
    red, blue = game.instance("red_socket", None), game.instance("blue_socket", None)
    ruby, sapphire = game.instance("ruby", 0), game.instance("sapphire", 0)
    assert game.admits(ctx, red, ruby) and not game.admits(ctx, red, sapphire)
    assert game.admits(ctx, blue, sapphire) and not game.admits(ctx, blue, ruby)
    assert game.admits(ctx, ruby, red)                      # a type without a rule takes anything


def test_the_rule_reads_attributes_other_items_change() -> None:
    session = _session()
    assert session.decision is not None and session.decision.labels == ["Ruby", "Sapphire", "Prism", "done"]
    session.apply_label("Prism")
    assert session.decision.labels == ["Red socket", "Blue socket"]
    session.apply_label("Red socket")                      # the Prism opens the red socket
    session.apply_label("Sapphire")
    assert session.decision.labels == ["Red socket", "Blue socket"]    # blue goes into the open red one too
    session.apply_label("Red socket")                      # now the red socket is full
    assert session.done or session.decision.labels == ["done"]   # the Ruby fits neither socket


def test_a_full_socket_takes_nothing() -> None:
    session = _session()
    session.apply_label("Ruby")                            # only the red socket takes it: no question
    session.apply_label("Sapphire")
    game = session.game
    assert game.instance("red_socket", None).attrs["full"] and game.instance("blue_socket", None).attrs["full"]
    assert (session.decision is not None and session.decision.labels == ["done"]) or session.done
