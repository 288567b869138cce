"""Chunking options: one vocabulary shared by the API, the CLI, the settings file and the TUI."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .tokens import TokenCounter

SIZE_UNITS = ("nws", "chars", "lines", "tokens")
STRATEGIES = ("ast", "lines")
CONTEXT_MODES = ("none", "minimal", "full")
SIBLING_DETAILS = ("none", "names", "signatures")
#: What ``max_size`` binds: the chunk's ``text``, or its ``contextualized_text`` (header +
#: overlap + code, what a pipeline embeds); ``auto`` is ``embedded`` for tokens, else ``text``.
FITS = ("auto", "text", "embedded")


@dataclass(frozen=True, slots=True)
class ChunkOptions:
    max_size: int = 1500
    size_unit: str = "nws"
    overlap_lines: int = 0
    language: str | None = None
    strategy: str = "ast"
    context_mode: str = "full"
    sibling_detail: str = "signatures"
    filter_imports: bool = False
    max_siblings: int = 3
    #: Raise UnsupportedLanguageError for a file with no grammar instead of chunking it by lines.
    strict: bool = False
    #: The tokenizer tokens are counted with: an encoding name or a tokenizer.json path
    #: (see engine/tokens.py). Needed by size_unit="tokens"; with another unit, chunks also
    #: report their token counts.
    tokenizer: str | None = None
    fit: str = "auto"

    def __post_init__(self) -> None:
        _check_int("max_size", self.max_size, minimum=1)
        _check_int("overlap_lines", self.overlap_lines, minimum=0)
        _check_int("max_siblings", self.max_siblings, minimum=0)
        _check_choice("size_unit", self.size_unit, SIZE_UNITS)
        _check_choice("strategy", self.strategy, STRATEGIES)
        _check_choice("context_mode", self.context_mode, CONTEXT_MODES)
        _check_choice("sibling_detail", self.sibling_detail, SIBLING_DETAILS)
        _check_bool("filter_imports", self.filter_imports)
        _check_bool("strict", self.strict)
        _check_choice("fit", self.fit, FITS)
        if self.tokenizer is not None:
            from .tokens import get_counter

            get_counter(self.tokenizer)  # a bad name or file is reported now, before any work
        elif self.size_unit == "tokens":
            from .tokens import ENCODINGS, TokenizerError

            raise TokenizerError(
                "size_unit 'tokens' needs a tokenizer: set tokenizer to an encoding name "
                f"({', '.join(ENCODINGS)}) or to the path of the model's tokenizer.json"
            )
        if self.language is not None:
            from .languages import resolve_language

            object.__setattr__(self, "language", resolve_language(self.language))

    @classmethod
    def build(cls, base: ChunkOptions | None = None, **overrides: Any) -> ChunkOptions:
        """Options from a base and keyword overrides; unknown names raise ValueError.

        Results are remembered: a batch builds the same options once per file."""
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
        return replace(base or cls(), **overrides)

    @property
    def fit_embedded(self) -> bool:
        """Whether ``max_size`` binds the contextualized text (see ``FITS``)."""
        return self.fit == "embedded" or (self.fit == "auto" and self.size_unit == "tokens")

    @property
    def counter(self) -> TokenCounter | None:
        """The token counter of ``tokenizer`` (None without one); loaded once per name."""
        if self.tokenizer is None:
            return None
        from .tokens import get_counter

        return get_counter(self.tokenizer)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_BUILT: dict[tuple, ChunkOptions] = {}


def _check_int(name: str, value: Any, *, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, not {value!r}")


def _check_bool(name: str, value: Any) -> None:
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be true or false, not {value!r}")


def _check_choice(name: str, value: Any, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(choices)}, not {value!r}")
