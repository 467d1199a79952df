"""The Bot interface and the registry every face uses to find bots by name.

A bot sees only an ``Observation`` (docs/design.md's first wall) and answers one of
``observation.legal``.  A spec such as ``"expert:budget_ms=300"`` names a bot
and its options, so the CLI, the arena and the servers share one syntax.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import math
import typing
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from callbreak.engine import Action, Observation
from callbreak.rules import Rules

CALLS = "calls"
"""The policy (``Game.policy``) of the call games, which every bot plays but a learned
policy (it plays the one game it was trained for); a game's record names the policy that
plays it, and the other policies are the heuristic's."""


@runtime_checkable
class Bot(Protocol):
    """Anything with a name that turns an observation into one of its legal actions."""

    name: str

    def act(self, observation: Observation) -> Action:
        """Choose one of ``observation.legal``; it is this bot's seat's turn."""
        ...


def warm_up(bot: Bot) -> None:
    """Let ``bot`` do its one-off preparation now, off any decision's clock.

    A bot may define ``warm_up()`` (the expert compiles its search there);
    the arena calls this before each game's first timed decision, so a
    budget measures thinking, not compiling.  Bots without one need nothing.
    """
    prepare = getattr(bot, "warm_up", None)
    if callable(prepare):
        prepare()


BotFactory = Callable[..., Bot]
_REGISTRY: dict[str, tuple[BotFactory, str]] = {}


_NOT_IN_A_NAME = frozenset(":,=#/ \t\n")
"""Characters a bot's name cannot hold: a spec splits on ``:`` ``,`` ``=``, and the arena reads
a seat with ``/`` or ``#`` as a remote bot's address (``http://host:port#budget_ms=...``), so
such a name could be registered but never made."""


def _origin(factory: object) -> str:
    """Where ``factory`` comes from, ``module.qualname``, for a message that names it."""
    qualname = getattr(factory, "__qualname__", None) or type(factory).__qualname__
    return f"{_module(factory)}.{qualname}"


def _module(factory: object) -> str | None:
    """The module ``factory`` was defined in (None for one that does not say, a partial)."""
    module = getattr(factory, "__module__", None)
    return module if isinstance(module, str) else None


def register_bot(name: str, help: str) -> Callable[[BotFactory], BotFactory]:
    """Register a bot factory under ``name`` (called with ``seed=`` and the spec's options).

    A name that no spec could reach (empty, or holding ``:`` ``,`` ``=`` ``/`` ``#`` or a
    space) is refused here, as is a factory that cannot be called, rather than at the first
    ``make_bot``; so is a name already taken by a bot of another module (``heuristic``): a
    silent replacement would change what every table, arena and pool seating that name
    plays.  A module registering the name again (reloaded, a notebook cell run twice)
    replaces its own bot."""
    if not isinstance(name, str) or not name or _NOT_IN_A_NAME & set(name):
        raise ValueError(
            f"register_bot({name!r}): a bot's name is one word without spaces, ':', ',', '=', "
            "'/' or '#' (a spec is name:key=value,...), such as 'my-bot'"
        )
    if not isinstance(help, str):
        raise TypeError(f"register_bot({name!r}, help=...): help is a line of text on the bot")

    def decorate(factory: BotFactory) -> BotFactory:
        if not callable(factory):
            raise TypeError(
                f"register_bot({name!r}) registers a class or a function that makes the bot, "
                f"not {type(factory).__name__} {factory!r}"
            )
        taken = _REGISTRY.get(name)
        if taken is not None and _module(taken[0]) != _module(factory):
            raise ValueError(
                f"bot name {name!r} is taken by {_origin(taken[0])}: register "
                f"{_origin(factory)} under another name"
            )
        _REGISTRY[name] = (factory, help)
        return factory

    return decorate


def available_bots() -> dict[str, str]:
    """Registered bot names and a line on each."""
    return {name: help for name, (_, help) in sorted(_REGISTRY.items())}


RIVALRY = (
    "is the weight of the others' mean points against the seat's own: 0 (its own points "
    "only) or more"
)
"""What every searching bot's ``rivalry`` is, for the message that refuses one (a negative
weight would score the others' points as the seat's own gain: no strategy, only a typo)."""


def check_number(
    name: str, value: float, what: str, *, least: float | None = None, above: float | None = None
) -> None:
    """Refuse option ``name`` unless ``value`` is a finite number, at least ``least`` and more
    than ``above`` where given: ``ValueError("{name} {what}, not {value!r}")``.

    A bot made in Python skips ``make_bot``'s checks, and many options are read only in the
    middle of a game, where a bad one stops a long run.  The range is tested as "not inside
    it": nan fails every comparison, so a test for "outside it" would let nan through."""
    inside = (
        math.isfinite(value)
        and (least is None or value >= least)
        and (above is None or value > above)
    )
    if not inside:
        raise ValueError(f"{name} {what}, not {value!r}")


def _parse_value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _split_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"name:key=value,..."`` → name and each option's text as written: ``make_bot``
    converts the text by the option's type, so a path such as ``1`` stays text."""
    name, _, rest = spec.partition(":")
    options: dict[str, str] = {}
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise ValueError(f"bad bot option {item!r} in {spec!r}: write key=value")
        options[key.strip()] = value.strip()
    return name.strip(), options


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"name:key=value,key=value"`` → name and options.

    >>> parse_spec("expert:budget_ms=300,seed=2")
    ('expert', {'budget_ms': 300, 'seed': 2})
    """
    name, options = _split_spec(spec)
    return name, {key: _parse_value(value) for key, value in options.items()}


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """A bot from a spec such as ``random`` or ``random:seed=3``; unknown names list the known."""
    name, texts = _split_spec(spec)
    try:
        factory, _ = _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise ValueError(
            f"unknown bot {name!r}: choose one of {known} (a bot of your own is known once "
            "the module that registers it is imported: arena and serve-bot take --import MODULE)"
        ) from None
    if not _takes_seed(factory):
        raise ValueError(
            f"bot {name!r} cannot be made: {getattr(factory, '__qualname__', factory)} takes "
            "no seed; register_bot calls its factory with seed= (a number, or None) and the "
            "spec's options, so give it a parameter seed: int | None = None"
        )
    _check_names(name, factory, texts)
    options = {key: _option_value(name, factory, key, text) for key, text in texts.items()}
    options.setdefault("seed", seed)
    try:
        bot = factory(**options)
    except TypeError as error:
        raise ValueError(f"bad options for bot {name!r}: {error}") from None
    if not callable(getattr(bot, "act", None)):
        # Found here, where the bot is made, not as an AttributeError at its first decision
        # in the middle of a run.
        raise ValueError(
            f"bot {name!r} cannot be made: its factory {_origin(factory)} returned "
            f"{type(bot).__name__} {bot!r:.60}, which has no act(observation) method"
        )
    return bot


def _check_names(name: str, factory: BotFactory, options: dict[str, str]) -> None:
    """Refuse an option the factory does not take, listing those it does: Python's own
    "unexpected keyword argument" names neither the bot nor the choices.  A factory that
    takes any keyword (the expert's, checked by its config) is left to check its own."""
    known = _parameters(factory)
    if known is None:
        return
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise ValueError(
            f"bad options for bot {name!r}: it has no option {', '.join(unknown)}; "
            f"choose from {', '.join(sorted(known))}"
        )


_SWITCHES = {"1": True, "0": False, "true": True, "false": False}
"""What a spec may write for an option hinted ``bool``."""


def _option_value(name: str, factory: BotFactory, key: str, text: str) -> Any:
    """The spec's text for option ``key`` as the value the factory takes, by its hints.

    A word where a number belongs is refused here, before the bot exists: many options are
    read only in the middle of a game (the expert's ``worlds`` at its first card), where it
    would stop a long run with a traceback.  So is ``nan`` or ``inf``, which would pass
    every range check written as a comparison.  An option that takes text keeps it as
    written (``rl:path=1`` is the file ``1``); one that takes a number or text (the
    expert's ``models``, ``0/1`` or ``1``) is parsed as before and checked by the bot.
    """
    kinds = _option_kinds(factory).get(key, ())
    value = _parse_value(text)
    if not kinds or Any in kinds or ({int, float} & set(kinds) and str in kinds):
        return value
    if str in kinds:
        return text
    if bool in kinds and not {int, float} & set(kinds):
        switch = _SWITCHES.get(text.lower())
        if switch is None:
            raise ValueError(
                f"bad options for bot {name!r}: {key} is a switch, not {text!r}: "
                f"give {key}=1 (on) or {key}=0 (off)"
            )
        return switch
    if not {int, float} & set(kinds):
        return value  # a type of the bot's own (a Path, a Literal): the bot checks it
    whole = float not in kinds
    example = _option_defaults(factory).get(key)
    if isinstance(example, bool) or not isinstance(example, int | float):
        example = 1
    such_as = f"such as {key}={example}"
    if isinstance(value, str):
        kind = "a whole number" if whole else "a number"
        raise ValueError(
            f"bad options for bot {name!r}: {key} takes a number, not {text!r}: "
            f"give {kind}, {such_as}"
        )
    if whole and isinstance(value, float):
        raise ValueError(
            f"bad options for bot {name!r}: {key} takes a whole number, not {text}: "
            f"give one {such_as}"
        )
    if not math.isfinite(value):
        raise ValueError(
            f"bad options for bot {name!r}: {key} takes a finite number, not {text}: "
            f"give one {such_as}"
        )
    return value


@functools.cache
def _takes_seed(factory: BotFactory) -> bool:
    """Whether ``factory`` accepts the ``seed=`` keyword that ``make_bot`` always passes (a
    signature that cannot be read is taken to accept it).  Cached, as ``_option_kinds``."""
    try:
        parameters = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return True
    return any(
        p.kind is p.VAR_KEYWORD or (p.name == "seed" and p.kind is not p.POSITIONAL_ONLY)
        for p in parameters
    )


@functools.cache
def _parameters(factory: BotFactory) -> tuple[str, ...] | None:
    """The keywords ``factory`` takes; None where it takes any (``**options``) or its
    signature cannot be read, so nothing is refused for want of knowing.  Cached, as
    ``_option_kinds``."""
    try:
        parameters = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind is p.VAR_KEYWORD for p in parameters):
        return None
    return tuple(p.name for p in parameters if p.kind is not p.POSITIONAL_ONLY)


@functools.cache
def _option_defaults(factory: BotFactory) -> dict[str, Any]:
    """Each option's default, from the signature and a config dataclass (``option_type``):
    the example an error message gives.  Cached, as ``_option_kinds``."""
    defaults: dict[str, Any] = {}
    option_type = getattr(factory, "option_type", None)
    if dataclasses.is_dataclass(option_type):
        for field in dataclasses.fields(option_type):
            if field.default is not dataclasses.MISSING:
                defaults[field.name] = field.default
    try:
        parameters = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return defaults
    for p in parameters:
        if p.default is not p.empty:
            defaults.setdefault(p.name, p.default)
    return defaults


@functools.cache
def _option_kinds(factory: BotFactory) -> dict[str, tuple[type, ...]]:
    """Each keyword's accepted types (None left out), from the factory's hints; for a class,
    from every ``__init__`` up its ancestry, since a subclass may pass options on.  Cached:
    ``serve-bot`` makes a bot for every request."""
    if isinstance(factory, type):
        sources = [vars(c)["__init__"] for c in factory.__mro__ if "__init__" in vars(c)]
    else:
        sources = [factory]
    option_type = getattr(factory, "option_type", None)
    if option_type is not None:  # options gathered in a config dataclass (the expert's)
        sources.append(option_type)
    kinds: dict[str, tuple[type, ...]] = {}
    for source in sources:
        try:
            hints = typing.get_type_hints(source)
        except (NameError, TypeError):
            continue  # hints that cannot be resolved check nothing
        for key, hint in hints.items():
            if key != "return" and key not in kinds:
                union = typing.get_args(hint) or (hint,)
                kinds[key] = tuple(a for a in union if a is not type(None))
    return kinds


def refusal(spec: str, rules: Rules) -> str | None:
    """Why the bot ``spec`` cannot play ``rules``' game, in its own words; None if it can
    (a spec that names no bot, or bad options, raises ``ValueError`` as ``make_bot`` does).

    A bot that knows which games it plays says so by a ``refuses(rules)`` method (the
    expert: none, so a table does not wait a whole search for the answer).  Any other bot
    is asked the first decision of a deal, in every game, Call Break's family too (a
    policy trained on Call Break cannot call in Spades), so that a bot that cannot play
    is found before a long run or a match relies on it, not at its first turn, where an
    arena would count a bot error at every decision.  Its ``ValueError`` is its refusal;
    any other error is named, as a bot that fails there fails at every turn.
    """
    from callbreak.engine import Deal

    deal = Deal(rules, seed=0)
    seat = deal.to_act
    if seat is None:
        return None
    bot = make_bot(spec, seed=0)  # a bad spec is an error of its own, not a refusal
    knows = getattr(bot, "refuses", None)
    if callable(knows):
        answer = knows(rules)
        return None if answer is None else str(answer)
    try:
        bot.act(deal.observation(seat))
    except ValueError as error:
        return str(error)
    except Exception as error:  # any failure here is the answer asked for
        return f"its first decision failed ({type(error).__name__}: {error})"
    return None
