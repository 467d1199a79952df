"""The expert's options as one frozen value, and the named presets the arena measured.

Seventeen keywords on a constructor are hard to pass around, compare or record: an
experiment that changes one option must repeat the other sixteen.  ``ExpertConfig``
holds them all, checked once when it is made; ``replace`` derives a variant, and a
bot spec (``expert:worlds=64``) is a preset with a few fields replaced
(``ExpertConfig.from_options``).  Why each default is what it is, measured on the
arena's opponent pool, is in docs/expert-experiments.md.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from dataclasses import dataclass
from typing import Any

from callbreak.bots.base import RIVALRY, check_number
from callbreak.bots.learned import CALL_WEIGHTS, call_weight_versions

MODELS = ("heuristic", "noisy", "trumper", "ducker", "greedy")
"""The play models of the others in the card playouts, in the order of ``models``' weights."""


_MODELS_HELP = (
    f"models are up to {len(MODELS)} weights, '/'-separated, not all 0: "
    + "/".join(MODELS)
    + " (such as models=0/1, the default: every other seat the noisy heuristic)"
)
"""What ``models`` takes, for every message that refuses one."""


def _check_count(name: str, value: Any, least: int, meaning: str) -> None:
    """Refuse ``value`` unless it is a whole number of at least ``least`` (not a bool, which
    would pass for 1 or 0); ``meaning`` says what the count counts."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < least:
        raise ValueError(f"{name} is {meaning}: a whole number, at least {least}, not {value!r}")


def _weights(models: Any) -> tuple[float, ...]:
    """``models`` as given (a tuple, one number, or '/'-separated text such as ``0/1``) as
    the tuple of weights; a weight that is no number names itself and the format, where
    ``float`` would say only "could not convert string to float"."""
    if isinstance(models, str):
        items: list[Any] = models.split("/")
    elif isinstance(models, tuple | list):
        items = list(models)
    else:
        items = [models]
    weights = []
    for item in items:
        try:
            weight = float(item)
        except (TypeError, ValueError):
            raise ValueError(f"models: {item!r} is not a number; {_MODELS_HELP}") from None
        if not (math.isfinite(weight) and weight >= 0):
            raise ValueError(f"models: a weight is 0 or more, not {item!r}; {_MODELS_HELP}")
        weights.append(weight)
    if len(weights) > len(MODELS):
        raise ValueError(f"models: {len(weights)} weights given; {_MODELS_HELP}")
    if sum(weights) <= 0:
        raise ValueError(f"models: every weight is 0, so no model is drawn; {_MODELS_HELP}")
    return tuple(weights)


@dataclass(frozen=True)
class ExpertConfig:
    """Everything the expert bot can be told; every field has the measured default.

    >>> ExpertConfig().worlds, ExpertConfig(models="0.5/0.5").models
    (48, (0.5, 0.5))
    >>> PRESETS["plain"].surprise, PRESETS["plain"].deterministic
    (1.0, True)
    """

    budget_ms: int = 1000
    """Time for one decision, in milliseconds; the search stops at 85% of it."""
    worlds: int = 48
    """Sampled worlds for a card: a floor on the clock, the exact count when deterministic."""
    call_worlds: int = 64
    """Sampled worlds for a call, played out once per candidate call."""
    solve_from: int = 0
    """Tricks left from which each world is solved exactly instead of played out (0: never)."""
    call_bias: float | None = None
    """Tricks added to each playout before a call is scored (the expert plays better than
    the policy of the playouts).  None: 0.25 where overtricks are allowed, 0 in windowed
    scoring such as Call Bridge; times the playouts' share where ``call_model`` blends in
    the learned forecast, which needs no such shift."""
    call_spread: float | None = None
    """Share of each simulated trick count's weight scored a trick lower, and as much a trick
    higher (0 to 0.5).  None: 0.2 where overtricks are allowed, 0 in windowed scoring;
    times the playouts' share, as ``call_bias``."""
    rivalry: float = 1.0
    """Weight of the others' mean points against the seat's own, in the playouts."""
    call_sigma: float = 0.6
    """How far from a hand's worth the sampler expects another seat's call to stray."""
    surprise: float = 0.02
    """Weight factor of a world per card of the others' play the heuristic would not have
    chosen there (more than 0, at most 1; 1: the play says nothing about the hands)."""
    oversample: int = 16
    """Candidate worlds dealt per world kept when the play weighs the worlds (at least 1)."""
    deterministic: int = 0
    """1: fixed world counts instead of the clock, the same answers on every machine
    (a whole number, as a bot spec gives it; kept as a bool)."""
    models: tuple[float, ...] | str | float = (0.0, 1.0)
    """Weights of the others' play models in the card playouts, in the order of ``MODELS``,
    drawn per world and seat; given as a tuple or '/'-separated (``"0/1"``: every other seat
    the noisy heuristic; ``1``: the heuristic exactly).  Always a tuple once made."""
    model_noise: float = 0.2
    """How often the ``noisy`` model plays a random legal card instead of the heuristic's."""
    models_in_calls: int = 0
    """1: the call playouts draw the others' models too (else all play the heuristic);
    kept as a bool."""
    trust: float | None = 0.2
    """Prior probability, seat by seat, that another seat plays like the heuristic when the
    play weighs the worlds; 0 or None: ``surprise`` per card for every seat alike (kept as
    None)."""
    call_model: float = 0.5
    """Weight of the learned forecast of the hand's tricks (``bots.learned.callmodel``: the
    tricks the expert takes against experts, read from the hand, its place and the calls
    made before it) blended into the playouts' distribution before a call is scored (0:
    the playouts alone, 1: the forecast alone); read only in Call Break's deal, which it
    learned.  Half: it calls a little lower, which pays at a table of strong bots and costs
    a little against weaker ones (docs/expert-experiments.md)."""
    call_weights: str = CALL_WEIGHTS
    """Which shipped weights the forecast reads (``bots.learned``: the day they were
    trained): the newest, unless a frozen expert of the ladder names its own."""
    read_play: int = 0
    """1: in the games searched over engine deals (docs/bots.md, the expert in the other
    games) the others' cards and public decisions weigh the worlds by ``surprise`` and
    ``trust`` too, as the play does in the call games; 0: the hard facts alone there.  Off:
    at 100 ms a decision it showed no edge (docs/expert-experiments.md).  Kept as a bool."""
    match_odds: int = 1
    """1: in those games, inside a match, a world is worth the seat's share of the match from
    the totals the deal leaves (``bots.search.odds``); 0: its points for the deal, as on a
    deal played alone.  Kept as a bool."""
    shortlist: int = 0
    """1: where the heuristic ranks more actions than a search can weigh in the budget (Call
    Partner's discards and partner card), the search weighs its four best
    (``heuristic.shortlist``); 0: all of them.  Off by default: with it the fallbacks were
    fewer, but the points and the matches won lower on two seeds
    (docs/expert-experiments.md).  Kept as a bool."""

    def __post_init__(self) -> None:
        # Every range is written as "not (inside it)": nan fails every comparison, so a
        # check written as "outside it" would let nan through to the search.
        check_number(
            "budget_ms",
            self.budget_ms,
            "must be positive: the milliseconds of one decision (1000 by default)",
            above=0,
        )
        # A count of 0 worlds searched nothing, and the expert quietly played the
        # heuristic's moves, each counted as a fallback: refused here, not at a card.
        _check_count(
            "worlds", self.worlds, 1, "the count of worlds sampled for a card (48 by default)"
        )
        _check_count(
            "call_worlds",
            self.call_worlds,
            1,
            "the count of worlds sampled for each call tried (64 by default)",
        )
        _check_count(
            "solve_from",
            self.solve_from,
            0,
            "the tricks left from which each world is solved exactly (0, the default: never)",
        )
        if self.call_bias is not None:
            check_number(
                "call_bias",
                self.call_bias,
                "is tricks added to each playout before a call is scored: a finite number, "
                "or None for the game's default",
            )
        if self.call_spread is not None and not 0 <= self.call_spread <= 0.5:
            raise ValueError(
                "call_spread is a share of weight moved each way: 0 to 0.5, "
                f"not {self.call_spread!r}"
            )
        check_number("rivalry", self.rivalry, RIVALRY + ", 1 by default", least=0)
        check_number(
            "call_sigma",
            self.call_sigma,
            "is how far, in tricks, another seat's call may stray from its hand's worth: "
            "more than 0, 0.6 by default",
            above=0,
        )
        if not 0 < self.surprise <= 1:
            raise ValueError(
                f"surprise is a likelihood factor: more than 0, at most 1, not {self.surprise!r}"
            )
        _check_count(
            "oversample",
            self.oversample,
            1,
            "the count of candidate worlds dealt per world kept (16 by default)",
        )
        for flag in ("deterministic", "models_in_calls", "read_play", "match_odds", "shortlist"):
            value = getattr(self, flag)
            if value not in (0, 1):
                raise ValueError(f"{flag} is a switch: 0 (off) or 1 (on), not {value!r}")
        if not 0 <= self.model_noise <= 1:
            raise ValueError(f"model_noise is a probability: 0 to 1, not {self.model_noise!r}")
        if not 0 <= self.call_model <= 1:
            raise ValueError(f"call_model is a blend weight: 0 to 1, not {self.call_model!r}")
        if str(self.call_weights) not in call_weight_versions():
            shipped = ", ".join(call_weight_versions())
            raise ValueError(
                f"call_weights names shipped weights: {shipped}, not {self.call_weights!r}"
            )
        if self.trust is not None and not 0 <= self.trust <= 1:
            raise ValueError(
                f"trust is a probability: 0 to 1 (0: surprise per card alike), not {self.trust!r}"
            )
        weights = _weights(self.models)
        set_field = object.__setattr__  # frozen: normalise once, here
        set_field(self, "models", weights)
        set_field(self, "model_noise", float(self.model_noise))
        set_field(self, "call_model", float(self.call_model))
        set_field(self, "call_weights", str(self.call_weights))
        set_field(self, "deterministic", bool(self.deterministic))
        set_field(self, "models_in_calls", bool(self.models_in_calls))
        set_field(self, "read_play", bool(self.read_play))
        set_field(self, "match_odds", bool(self.match_odds))
        set_field(self, "shortlist", bool(self.shortlist))
        set_field(self, "trust", self.trust or None)

    @property
    def weights(self) -> tuple[float, ...]:
        """``models`` as the tuple it always is once made (for the type checker)."""
        assert isinstance(self.models, tuple)
        return self.models

    def replace(self, **changes: Any) -> ExpertConfig:
        """A copy with ``changes``, checked as a new config; an unknown name is a TypeError
        that lists the known ones."""
        _refuse_unknown(changes)
        return dataclasses.replace(self, **changes)

    @classmethod
    def from_options(cls, preset: str = "expert", **options: Any) -> ExpertConfig:
        """A named preset with some fields replaced: what a bot spec such as
        ``expert:preset=fixed,worlds=64`` asks for."""
        try:
            base = PRESETS[preset]
        except KeyError:
            raise ValueError(
                f"unknown expert preset {preset!r}: choose one of {', '.join(PRESETS)}"
            ) from None
        # a spec may also name its preset, so the refusal lists it among the choices
        _refuse_unknown(options, "preset (" + ", ".join(PRESETS) + "), ")
        return base.replace(**options)


def _refuse_unknown(options: dict[str, Any], also: str = "") -> None:
    """A TypeError naming the options that are no field of ``ExpertConfig``, and the choices
    (``also`` first: what the caller takes beside the fields)."""
    fields = [f.name for f in dataclasses.fields(ExpertConfig)]
    unknown = sorted(set(options) - set(fields))
    if unknown:
        raise TypeError(
            f"unknown expert option(s) {', '.join(unknown)}: choose from {also}" + ", ".join(fields)
        )


V1: dict[str, Any] = {
    "budget_ms": 1000,
    "worlds": 48,
    "call_worlds": 64,
    "solve_from": 0,
    "call_bias": None,
    "call_spread": None,
    "rivalry": 1.0,
    "call_sigma": 0.6,
    "surprise": 0.02,
    "oversample": 16,
    "deterministic": 0,
    "models": (0.0, 1.0),
    "model_noise": 0.2,
    "models_in_calls": 0,
    "trust": 0.2,
    "call_model": 0.0,
    "call_weights": "2026-11-29",
    "read_play": 0,
    "match_odds": 0,
    "shortlist": 0,
}
"""The expert of 2026-11-25, every field written out (the ``expert-v1`` bot of the ladder):
a later change of a default cannot move it, and a new field must be pinned here to the
value that keeps this expert's play (a test holds the keys to the fields)."""

V2: dict[str, Any] = V1 | {
    "match_odds": 1,
    "call_model": 0.5,
    "call_weights": "2026-11-29",
}
"""The expert of 2026-11-29 (``expert-v2``): v1 with the learned forecast blended in at half
weight, from the weights of that day, and the match odds in the searched games."""

PRESETS: dict[str, ExpertConfig] = {
    "expert": ExpertConfig(),
    "v1": ExpertConfig(**V1),
    "v2": ExpertConfig(**V2),
    "plain": ExpertConfig(
        surprise=1.0,
        call_bias=0.0,
        call_spread=0.0,
        deterministic=1,
        models=(1.0,),
        call_model=0.0,
    ),
    "fixed": ExpertConfig(deterministic=1, worlds=32, call_worlds=48),
}
"""Named configs: ``expert``, the defaults (the ``expert`` bot); ``plain``, the same search
without its model of the others (worlds weighed by the hard facts and calls only, no
``call_bias``, the others played out as the heuristic exactly, fixed world counts, calls
from the playouts alone: the ``expert-plain`` bot of the pool, kept as it was measured);
``fixed``, the defaults at the fixed world counts the experiments of
docs/expert-experiments.md ran at (reproducible, about 6 ms a card); ``v1`` and ``v2``, the
experts frozen on the ladder (``V1``, ``V2``)."""
