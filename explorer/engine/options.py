"""Chunking options: one vocabulary shared by the API, the CLI, the settings file and the TUI.

What a value may be is said once, here (:func:`check_option`, :func:`parse_option`): the
API, the CLI's flags, the settings file and the explorer's fields accept and refuse the
same values, with the same message (``max_size must be a whole number of at least 1, got 0``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Literal, get_args

from .languages import UNSAFE_GRAMMARS, resolve_language
from .sizing import SIZE_UNITS, Measure, SizeInUnit, SizeUnit, measure_for, size_in_unit, tokens_need_a_tokenizer
from .text import SourceText
from .tokens import ENCODINGS

#: How a file is cut: by its syntax tree, or by packing lines.
Strategy = Literal["ast", "lines"]
#: What each chunk's context holds (see engine/context.py).
ContextMode = Literal["none", "minimal", "full"]
#: How siblings are shown in a chunk's context.
SiblingDetail = Literal["none", "names", "signatures"]
#: What ``max_size`` binds: the chunk's ``text``, or its ``contextualized_text`` (header +
#: overlap + code, what a pipeline embeds); ``auto`` is ``embedded`` for tokens, else ``text``.
Fit = Literal["auto", "text", "embedded"]

STRATEGIES: tuple[Strategy, ...] = get_args(Strategy)
CONTEXT_MODES: tuple[ContextMode, ...] = get_args(ContextMode)
SIBLING_DETAILS: tuple[SiblingDetail, ...] = get_args(SiblingDetail)
FITS: tuple[Fit, ...] = get_args(Fit)
__all__ = [
    "CHOICES", "CONTEXT_MODES", "FITS", "MINIMUMS", "SIBLING_DETAILS", "SIZE_UNITS", "STRATEGIES", "ChunkOptions",
    "ContextMode", "Fit", "SiblingDetail", "SizeUnit", "Strategy", "check_option", "option_values",
    "options_in_unit", "parse_option",
]

#: The smallest value of each whole-number option.
MINIMUMS: dict[str, int] = {"max_size": 1, "overlap_lines": 0, "max_siblings": 0}
#: The values of each option that is a choice.
CHOICES: dict[str, tuple[str, ...]] = {
    "size_unit": SIZE_UNITS, "strategy": STRATEGIES, "context_mode": CONTEXT_MODES,
    "sibling_detail": SIBLING_DETAILS, "fit": FITS,
}
#: The options that are true or false.
SWITCHES = ("filter_imports", "strict")


@dataclass(frozen=True, slots=True)
class ChunkOptions:
    max_size: int = 1500
    size_unit: SizeUnit = "nws"
    overlap_lines: int = 0
    language: str | None = None
    strategy: Strategy = "ast"
    context_mode: ContextMode = "full"
    sibling_detail: SiblingDetail = "signatures"
    filter_imports: bool = True
    max_siblings: int = 3
    #: Raise UnsupportedLanguageError for a file with no grammar instead of chunking it by lines.
    strict: bool = False
    #: The tokenizer tokens are counted with: an encoding name or a tokenizer.json path
    #: (see engine/tokens.py). Needed by size_unit="tokens"; with another unit, chunks also
    #: report their token counts. It is loaded when the options' :attr:`measure` is first
    #: needed (:meth:`build` asks for it, so a bad name or file is reported before any work).
    tokenizer: str | None = None
    fit: Fit = "auto"
    #: Goes into every chunk id (not into how chunks are made): the same file in two
    #: repositories indexed together gets two ids when each has its own (see workspace/ids.py).
    namespace: str | None = None

    def __post_init__(self) -> None:
        for name in (*MINIMUMS, *CHOICES, *SWITCHES, "namespace"):
            check_option(name, getattr(self, name))
        if self.tokenizer is None and self.size_unit == "tokens":
            raise tokens_need_a_tokenizer()
        if self.language is not None:
            object.__setattr__(self, "language", check_option("language", self.language))

    @classmethod
    def build(cls, base: ChunkOptions | None = None, **overrides: Any) -> ChunkOptions:
        """Options from a base and keyword overrides; unknown names raise ValueError.

        The options' :attr:`measure` is built too (loading the tokenizer), so a tokenizer
        that cannot be used is reported here. Results are remembered: a batch builds the
        same options once per file."""
        try:
            # The type is part of the key: True == 1, but max_size=True is an error.
            key = (base, tuple((name, type(value), value) for name, value in sorted(overrides.items())))
            hit = _BUILT.get(key)
        except TypeError:  # an unhashable value: validation below says what is wrong
            key, hit = None, None
        if hit is not None:
            return hit
        built = cls._build(base, overrides)
        if key is not None:
            if len(_BUILT) >= 256:
                _BUILT.clear()
            _BUILT[key] = built
        return built

    @classmethod
    def _build(cls, base: ChunkOptions | None, overrides: dict[str, Any]) -> ChunkOptions:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(overrides) - known)
        if unknown:
            raise ValueError(
                f"unknown option{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}; "
                f"valid options: {', '.join(sorted(known))}"
            )
        built = replace(base or cls(), **overrides)
        built.measure  # noqa: B018  (a bad tokenizer name or file is reported now, before any work)
        return built

    @property
    def fit_embedded(self) -> bool:
        """Whether ``max_size`` binds the contextualized text (see ``FITS``)."""
        return self.fit == "embedded" or (self.fit == "auto" and self.size_unit == "tokens")

    @property
    def measure(self) -> Measure:
        """How sizes are measured under these options (the unit and the tokenizer's
        counter): one per unit and tokenizer, built on first need."""
        return measure_for(self.size_unit, self.tokenizer)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_BUILT: dict[tuple, ChunkOptions] = {}


def check_option(name: str, value: Any) -> Any:
    """``value`` as option ``name`` holds it (a language by its canonical name), or
    ValueError with the message every face shows for it."""
    if name in MINIMUMS:
        minimum = MINIMUMS[name]
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise ValueError(f"{name} must be a whole number of at least {minimum}, got {value!r}")
    elif name in CHOICES:
        if value not in CHOICES[name]:
            raise ValueError(f"{name} must be one of {', '.join(CHOICES[name])}, got {value!r}")
    elif name in SWITCHES:
        if not isinstance(value, bool):
            raise ValueError(f"{name} must be true or false, got {value!r}")
    elif name == "namespace" and value is not None:
        if not isinstance(value, str) or not value or not value.isprintable():
            raise ValueError(f"namespace must be a name of printable characters (a repository's, say), got {value!r}")
    elif name == "language" and value is not None:
        value = resolve_language(value)
        if value in UNSAFE_GRAMMARS:
            raise ValueError(f"language {value} cannot be forced: {UNSAFE_GRAMMARS[value]} (its files are chunked "
                             "by lines; strategy lines chunks any file by lines)")
    return value


def parse_option(name: str, text: str) -> Any:
    """Option ``name`` from typed text (a flag's value, an explorer field): a whole number
    read as one, then checked as :func:`check_option` checks it."""
    if name in MINIMUMS:
        stripped = text.strip()
        try:
            value: Any = int(stripped)
        except ValueError:
            value = stripped
        return check_option(name, value)
    return check_option(name, text.strip())


def option_values(name: str, text: str) -> list[Any]:
    """Several values of option ``name`` (a grid axis: the sweep's and eval's flags, the
    explorer's sweep fields), separated by commas or spaces, each read by :func:`parse_option`;
    repeated values once, in order. ValueError when one is refused or none is given."""
    parts = text.replace(",", " ").split()
    if not parts:
        raise ValueError(f"list at least one value of {name}, separated by commas")
    return list(dict.fromkeys(parse_option(name, part) for part in parts))


def options_in_unit(options: ChunkOptions, unit: SizeUnit, source: SourceText | None = None
                    ) -> tuple[ChunkOptions, SizeInUnit]:
    """``options`` sized in ``unit`` instead: the max size converted to about as much text
    (by the ratio measured on ``source``, the file at hand, else by code's typical ratio:
    :func:`~explorer.engine.sizing.size_in_unit`), and, for tokens without a tokenizer, the
    first offline encoding (a tokens unit must count with something; the user can name the
    model's own). Returns the options and how the size was converted."""
    check_option("size_unit", unit)
    tokenizer = options.tokenizer if options.tokenizer is not None or unit != "tokens" else ENCODINGS[0]
    new_measure = measure_for(unit, tokenizer)
    converted = size_in_unit(options.max_size, options.measure, new_measure, source)
    return ChunkOptions.build(options, size_unit=unit, tokenizer=tokenizer, max_size=converted.size), converted
