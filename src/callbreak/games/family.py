"""Importing this module registers every game of the family (``import callbreak`` does it).

The games are imported in this order because their presets are listed in it
(``callbreak rules``, the menus), and a preset may play a game registered
before it (Batak Koz Maça plays Call Break's deal).  A new game is its module
and one more name here.
"""

from __future__ import annotations

import importlib

MODULES = ("callbreak", "batak", "snarples", "donut", "horsethief", "rook", "spades", "ohhell")
"""The games' modules in ``callbreak.games``, in listing order."""

for _module in MODULES:
    importlib.import_module(f"callbreak.games.{_module}")
