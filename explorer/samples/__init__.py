"""Sample source files shipped with the package, one per language, for teaching.

Every sample is the same small warehouse module written in its language, so the
cases it shows line up across languages. At the default limit (1500 nws) and at a
small one (500) each sample makes the chunker:

* keep a **small class** whole (``small_class``);
* **descend** into a function too big for one chunk (``oversized_function``);
* cut a **huge comment** or docstring at line boundaries (``huge_comment``);
* cut a **minified line** (a one-line data string) at characters (``minified_line``);
* keep a **comment** (or attribute) with the definition below it (``kept_together``).

``Sample.cases`` maps each case to the node kind that shows it in that language, so
a caller (the teach mode, the tests) can find the step where it happens.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

#: The cases every sample shows, in the order they appear in the files.
CASES = ("huge_comment", "minified_line", "small_class", "kept_together", "oversized_function")

_DESCRIPTION = "{lang}: {cls} kept whole with its {lead}; {function} descended into; {comment} cut at lines; {blob} cut at characters"

#: name -> (language, case -> node kind, wording for the description). Knowledge per
#: language lives here as data.
_SAMPLES: dict[str, tuple[str, dict[str, str], dict[str, str]]] = {
    "inventory.py": (
        "python",
        {"huge_comment": "string_content", "minified_line": "string_content", "small_class": "class_definition",
         "kept_together": "comment", "oversized_function": "function_definition"},
        {"lang": "Python", "cls": "a dataclass", "lead": "comment and decorator",
         "function": "an oversized report function", "comment": "a long module docstring",
         "blob": "a minified JSON line"},
    ),
    "inventory.ts": (
        "typescript",
        {"huge_comment": "comment", "minified_line": "string_fragment", "small_class": "class_declaration",
         "kept_together": "comment", "oversized_function": "function_declaration"},
        {"lang": "TypeScript", "cls": "a small class", "lead": "JSDoc comment",
         "function": "an oversized report function", "comment": "a long block comment",
         "blob": "a minified JSON line"},
    ),
    "inventory.js": (
        "javascript",
        {"huge_comment": "comment", "minified_line": "string_fragment", "small_class": "class_declaration",
         "kept_together": "comment", "oversized_function": "function_declaration"},
        {"lang": "JavaScript", "cls": "a small class", "lead": "JSDoc comment",
         "function": "an oversized report function", "comment": "a long block comment",
         "blob": "a minified JSON line"},
    ),
    "inventory.rs": (
        "rust",
        {"huge_comment": "block_comment", "minified_line": "string_content", "small_class": "struct_item",
         "kept_together": "attribute_item", "oversized_function": "function_item"},
        {"lang": "Rust", "cls": "a struct", "lead": "doc comments and #[derive]",
         "function": "an oversized report function", "comment": "a long block comment",
         "blob": "a minified JSON raw string"},
    ),
    "inventory.go": (
        "go",
        {"huge_comment": "comment", "minified_line": "raw_string_literal_content", "small_class": "type_declaration",
         "kept_together": "comment", "oversized_function": "function_declaration"},
        {"lang": "Go", "cls": "a struct type", "lead": "doc comment",
         "function": "an oversized report function", "comment": "a long package comment",
         "blob": "a minified JSON raw string"},
    ),
    "Inventory.java": (
        "java",
        {"huge_comment": "block_comment", "minified_line": "string_fragment", "small_class": "record_declaration",
         "kept_together": "block_comment", "oversized_function": "method_declaration"},
        {"lang": "Java", "cls": "a record", "lead": "Javadoc comment",
         "function": "an oversized report method", "comment": "a long block comment",
         "blob": "a one-line base64 string"},
    ),
    "inventory.c": (
        "c",
        {"huge_comment": "comment", "minified_line": "string_content", "small_class": "struct_specifier",
         "kept_together": "comment", "oversized_function": "function_definition"},
        {"lang": "C", "cls": "a struct", "lead": "comment",
         "function": "an oversized report function", "comment": "a long block comment",
         "blob": "a one-line base64 string"},
    ),
    "inventory.cpp": (
        "cpp",
        {"huge_comment": "comment", "minified_line": "string_content", "small_class": "class_specifier",
         "kept_together": "comment", "oversized_function": "function_definition"},
        {"lang": "C++", "cls": "a small class", "lead": "doc comments",
         "function": "an oversized report function", "comment": "a long block comment",
         "blob": "a one-line base64 string"},
    ),
}


@dataclass(frozen=True, slots=True)
class Sample:
    name: str  # file name, e.g. "inventory.py"
    language: str
    path: Path
    description: str
    cases: dict[str, str] = field(default_factory=dict)  # case -> node kind that shows it

    def read_bytes(self) -> bytes:
        return self.path.read_bytes()


def samples_dir() -> Path:
    """The directory holding the sample files (package data)."""
    # Installed normally (or editable) the package is a directory, so the Traversable is a Path.
    return Path(str(resources.files(__name__) / "files"))


def list_samples() -> list[Sample]:
    """Every shipped sample, in a stable order (by language name)."""
    root = samples_dir()
    found = [
        Sample(name, language, root / name, _DESCRIPTION.format(**words), dict(cases))
        for name, (language, cases, words) in _SAMPLES.items()
    ]
    return sorted(found, key=lambda s: s.language)


def get_sample(language_or_name: str) -> Sample:
    """The sample for a language (``"rust"``) or with a file name (``"inventory.rs"``)."""
    for sample in list_samples():
        if language_or_name in (sample.language, sample.name):
            return sample
    known = ", ".join(s.language for s in list_samples())
    raise KeyError(f"no sample for {language_or_name!r}; samples exist for {known}")
