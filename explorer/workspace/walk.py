"""Walking a codebase: which files get chunked, and why the others do not.

One set of rules (:class:`WalkRules`) serves the headless walk and the TUI's
file tree, so both agree on what belongs to the codebase. Directories are
walked with an explicit stack, in sorted order. Symbolic links that stay inside
the root are followed (each directory walked once, loops reported); links that
lead outside it are skipped unless ``follow_symlinks`` is set, since git lists a
link as one entry and a link to ``/usr`` would pull in a whole system.
"""

from __future__ import annotations

import operator
import os
import re
import stat
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from ..engine.batch.skips import SkipReason, count_reasons
from ..engine.files import check_size
from ..engine.languages import detect_language, language_from_name
from .gitignore import EntryMatcher, IgnoreFile, IgnoreRules, compile_glob, fs_bytes, is_within

#: Directory names skipped by default: version control, dependencies, caches, build output.
DEFAULT_EXCLUDED_DIRS = frozenset({
    ".git", ".hg", ".svn", ".bzr", "_darcs", ".jj",
    "node_modules", "bower_components", ".yarn", ".pnpm-store", "site-packages", "dist-packages",
    "__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".hypothesis", ".tox", ".nox",
    ".eggs", ".venv", ".direnv",
    "build", "dist", "target", "_build", ".gradle", ".next", ".nuxt", ".svelte-kit",
    ".parcel-cache", ".turbo", ".terraform", ".idea", ".vs", "htmlcov",
})
# Not "venv": that name is also a package (the standard library's own venv module);
# environments are recognised by their marker files instead.
#: Name suffixes of directories skipped by default.
DEFAULT_EXCLUDED_DIR_SUFFIXES = (".egg-info", ".dist-info")
#: Files whose presence marks a directory as an environment rather than source.
ENVIRONMENT_MARKERS = ("pyvenv.cfg", "conda-meta")

DEFAULT_MAX_FILE_SIZE = 2 * 1024 * 1024
#: The project settings file (read by :mod:`explorer.workspace.settings`): configuration,
#: never chunked.
SETTINGS_FILE = ".chunk-explorer.toml"
_BY_NAME = operator.attrgetter("name")
_HEAD_BYTES = 256  # enough for a shebang line

@dataclass(frozen=True, slots=True)
class WalkOptions:
    """What a walk includes. ``include``/``exclude`` are gitignore-style globs over
    root-relative paths (no slash: any depth); ``exclude`` also prunes directories,
    ``include`` selects files (and admits files of unknown language)."""

    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    max_file_size: int = DEFAULT_MAX_FILE_SIZE
    gitignore: bool = True
    default_excludes: bool = True
    follow_symlinks: bool = False  # also follow links that lead outside the root
    all_languages: bool = False  # also yield files whose language is unknown

    def __post_init__(self) -> None:
        object.__setattr__(self, "include", tuple(self.include))
        object.__setattr__(self, "exclude", tuple(self.exclude))
        if isinstance(self.max_file_size, bool) or not isinstance(self.max_file_size, int) or self.max_file_size < 1:
            raise ValueError(f"max_file_size must be a positive number of bytes, not {self.max_file_size!r}")
        for glob in self.include + self.exclude:
            try:
                compile_glob(glob)
            except ValueError as exc:
                raise ValueError(f"invalid glob {glob!r}: {exc}") from None

    def to_dict(self) -> dict[str, object]:
        return {
            "include": list(self.include),
            "exclude": list(self.exclude),
            "max_file_size": self.max_file_size,
            "gitignore": self.gitignore,
            "default_excludes": self.default_excludes,
            "follow_symlinks": self.follow_symlinks,
            "all_languages": self.all_languages,
        }


@dataclass(frozen=True, slots=True)
class WalkedFile:
    """A file to chunk. ``path`` is usable with open(); ``rel`` is POSIX, relative to the root."""

    path: str
    rel: str
    size: int
    language: str | None


@dataclass(frozen=True, slots=True)
class Skipped:
    """A file or directory left out, and why."""

    path: str
    rel: str
    reason: SkipReason
    is_dir: bool = False
    detail: str = ""

    def describe(self) -> str:
        text = self.reason.wording
        return f"{text} ({self.detail})" if self.detail else text

    def to_dict(self) -> dict[str, object]:
        record: dict[str, object] = {"path": self.rel + ("/" if self.is_dir else ""), "reason": self.reason}
        if self.detail:
            record["detail"] = self.detail
        return record


def parse_size(text: str | int) -> int:
    """Bytes from ``2000``, ``512K``, ``2M``, ``1.5MB``, ``1G`` (binary multiples)."""
    if isinstance(text, int) and not isinstance(text, bool):
        if text < 1:
            raise ValueError(f"size must be positive, not {text}")
        return text
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kmg]?)(?:i?b)?\s*", str(text), re.IGNORECASE)
    if not m:
        raise ValueError(f"not a size: {text!r} (examples: 500000, 512K, 2M)")
    scale = {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3}[m.group(2).lower()]
    value = int(float(m.group(1)) * scale)
    if value < 1:
        raise ValueError(f"size must be positive, not {text!r}")
    return value


class WalkRules:
    """The decisions about one root, shared by :func:`walk` and the TUI file tree."""

    def __init__(self, root: str | os.PathLike[str], options: WalkOptions | None = None,
                 ignore_top: str | None = None):
        self.root = os.path.abspath(os.fspath(root))
        self.options = options or WalkOptions()
        self.ignore = IgnoreRules(self.root, ignore_top) if self.options.gitignore else None
        # The globs as one ignore file each: grouped for speed, the last match deciding.
        self._include = IgnoreFile(self.root, [compile_glob(g) for g in self.options.include]) \
            if self.options.include else None
        self._exclude = IgnoreFile(self.root, [compile_glob(g) for g in self.options.exclude]) \
            if self.options.exclude else None
        self.real_root = os.path.realpath(self.root)

    def rel(self, path: str | os.PathLike[str]) -> str:
        rel = os.path.relpath(os.path.abspath(os.fspath(path)), self.root)
        return "" if rel == "." else rel.replace(os.sep, "/")

    def entry_skip_reason(self, path: str, rel: str, is_dir: bool) -> SkipReason | None:
        """Why an entry does not belong to the codebase at all (hidden in the TUI tree,
        never descended into or chunked), or None. Content checks come later."""
        ignored = None
        if self.ignore is not None:
            ignored = self.ignore.entry_matcher(os.path.dirname(os.path.abspath(path)))
        is_link = os.path.islink(path)
        name = os.path.basename(path)
        reason = self._skip_reason(path, fs_bytes(rel), name, fs_bytes(name), is_dir, is_link, ignored)
        if reason is None and is_link and not self.options.follow_symlinks:
            if self.leaves_root(path):
                return SkipReason.OUTSIDE_ROOT
            if is_dir:  # the walk never enters it: its files are listed under the target's name
                return SkipReason.LINKED_DIR
        return reason

    def _skip_reason(self, path: str, rel: bytes, name: str, name_bytes: bytes, is_dir: bool,
                     is_link: bool, ignored: EntryMatcher | None) -> SkipReason | None:
        if is_dir and self.options.default_excludes:
            if name in DEFAULT_EXCLUDED_DIRS or name.endswith(DEFAULT_EXCLUDED_DIR_SUFFIXES):
                return SkipReason.EXCLUDED_DIR
            if any(os.path.exists(os.path.join(path, marker)) for marker in ENVIRONMENT_MARKERS):
                return SkipReason.ENVIRONMENT
        if rel and self._exclude is not None and self._exclude.decide_rel(rel, name_bytes, is_dir):
            return SkipReason.EXCLUDED
        # git sees a symbolic link as a link, not a directory: "build/" does not match one.
        if ignored is not None and ignored(name_bytes, is_dir and not is_link):
            return SkipReason.GITIGNORED
        return None

    def leaves_root(self, path: str) -> bool:
        """Whether a symbolic link resolves to somewhere outside the root."""
        return not is_within(os.path.realpath(path), self.real_root)

    def is_shown(self, path: str | os.PathLike[str], is_dir: bool | None = None) -> bool:
        """Whether a file-tree entry should be listed: not ignored, not excluded, and no
        ancestor below the root is. Files of unknown language or large size are shown."""
        path = os.path.abspath(os.fspath(path))
        if path == self.root or not path.startswith(self.root.rstrip(os.sep) + os.sep):
            return True
        if is_dir is None:
            is_dir = os.path.isdir(path)
        rel = self.rel(path)
        parts = rel.split("/")
        for depth in range(1, len(parts)):
            ancestor_rel = "/".join(parts[:depth])
            ancestor = os.path.join(self.root, *parts[:depth])
            if self.entry_skip_reason(ancestor, ancestor_rel, True) is not None:
                return False
        return self.entry_skip_reason(path, rel, is_dir) is None

    def file_record(self, path: str, rel: str, name: str, st: os.stat_result | None = None,
                    dir_fd: int | None = None) -> WalkedFile | Skipped:
        """The record of a regular file that passed :meth:`entry_skip_reason`: ``st`` its
        status, or None for a file its directory listing says is regular, which is then
        looked at only if ``--include`` takes it: stat-ed for its size, or, when its name
        tells no language, opened once for both its size and a shebang line (by ``name``
        in the directory open as ``dir_fd`` when given: the kernel then resolves one name,
        not the whole path)."""
        included = False
        if self._include is not None:
            included = bool(self._include.decide_rel(fs_bytes(rel), fs_bytes(name), False))
            if not included:
                return Skipped(path, rel, SkipReason.NOT_INCLUDED, False)
        language = language_from_name(name)
        head = None
        if st is None:
            where = path if dir_fd is None else name
            try:
                if language is None:
                    st, head = _open_head(where, dir_fd)
                if st is None:
                    st = os.stat(where, dir_fd=dir_fd, follow_symlinks=False)
            except OSError as exc:
                return Skipped(path, rel, SkipReason.UNREADABLE, False, exc.strerror or str(exc))
            if not stat.S_ISREG(st.st_mode):  # replaced since it was listed
                return Skipped(path, rel, SkipReason.NOT_REGULAR, False)
        size = st.st_size
        too_large = check_size(path, size, self.options.max_file_size)
        if too_large is not None:
            return Skipped(path, rel, SkipReason.TOO_LARGE, False, too_large.detail)
        if language is None:
            language = detect_language(None, _open_head(path)[1] if head is None else head)
            if language is None and not (included or self.options.all_languages):
                return Skipped(path, rel, SkipReason.UNKNOWN_LANGUAGE, False)
        return WalkedFile(path, rel, size, language)


def walk(root: str | os.PathLike[str], options: WalkOptions | None = None) -> Iterator[WalkedFile | Skipped]:
    """Files under ``root`` in sorted order, and a :class:`Skipped` record for each
    file or directory left out (the contents of a skipped directory are not listed)."""
    rules = WalkRules(root, options)
    return _walk_dir(rules, rules.root, "")


#: A directory being listed: its remaining entries, its path from the root with a final
#: "/" ("" for the root), the identities of the directories above it, its ignore matcher
#: and a descriptor of it (None if it could not be opened) to look at its files through.
_Level = tuple[Iterator[os.DirEntry[str]], str, frozenset[tuple[int, int]], EntryMatcher | None, int | None]
_DIR_FD = {os.stat, os.open} <= os.supports_dir_fd
#: Deeper directories are reached by path: a very deep tree must not use up descriptors.
_MAX_OPEN_DIRS = 64


def _walk_dir(rules: WalkRules, top: str, top_rel: str) -> Iterator[WalkedFile | Skipped]:
    """Pre-order, names sorted (the order of a file tree), with a stack of directory
    listings instead of recursion. Plain files, most entries, are decided inline from the
    types the listing holds; directories and links take the longer way."""
    top_stat = _stat(top)
    if top_stat is None:
        return
    top_id = (top_stat.st_dev, top_stat.st_ino)
    walked: set[tuple[int, int]] = {top_id}
    listing = _list(top, top_rel)
    if isinstance(listing, Skipped):
        yield listing
        return
    ignore = rules.ignore
    stack: list[_Level] = [(iter(listing), f"{top_rel}/" if top_rel else "", frozenset({top_id}),
                            ignore.entry_matcher(top) if ignore else None, _open_dir(top))]
    exclude = rules._exclude
    try:
        while stack:
            entries, prefix, ancestors, ignored, dir_fd = stack[-1]
            for entry in entries:  # left when a subdirectory is pushed, resumed when it is done
                name = entry.name
                rel = prefix + name
                try:
                    regular = entry.is_file(follow_symlinks=False)  # the common case, asked first
                    dir_or_link = not regular and (entry.is_dir(follow_symlinks=False) or entry.is_symlink())
                except OSError as exc:
                    yield Skipped(entry.path, rel, SkipReason.UNREADABLE, False, exc.strerror or str(exc))
                    continue
                if dir_or_link:
                    record, level = _directory_or_link(rules, entry, rel, ancestors, walked, ignored)
                    if record is not None:
                        yield record
                    if level is not None:
                        stack.append(level)
                        break
                    continue
                # A file: regular, or a FIFO, socket or device (left out once not ignored).
                name_bytes = fs_bytes(name)
                if name == SETTINGS_FILE:
                    yield Skipped(entry.path, rel, SkipReason.SETTINGS)
                elif exclude is not None and exclude.decide_rel(fs_bytes(rel), name_bytes, False):
                    yield Skipped(entry.path, rel, SkipReason.EXCLUDED)
                elif ignored is not None and ignored(name_bytes, False):
                    yield Skipped(entry.path, rel, SkipReason.GITIGNORED)
                elif regular:
                    yield rules.file_record(entry.path, rel, name, None, dir_fd)
                else:
                    yield Skipped(entry.path, rel, SkipReason.NOT_REGULAR)
            else:
                _close_dir(stack.pop()[4])
    finally:  # also when the caller stops early
        for level in stack:
            _close_dir(level[4])


def _directory_or_link(rules: WalkRules, entry: os.DirEntry[str], rel: str, ancestors: frozenset[tuple[int, int]],
                       walked: set[tuple[int, int]], ignored: EntryMatcher | None,
                       ) -> tuple[WalkedFile | Skipped | None, _Level | None]:
    """A directory or symbolic link entry: its record if any, and the level to push when
    it is a directory to walk. Adds walked directories to ``walked``."""
    path, name = entry.path, entry.name
    is_link = entry.is_symlink()
    st: os.stat_result | None = None
    try:
        if is_link:
            st = os.stat(path)
            is_dir = stat.S_ISDIR(st.st_mode)
        else:
            is_dir = True
    except OSError:
        return Skipped(path, rel, SkipReason.BROKEN_SYMLINK, False, _link_target(path)), None
    reason = rules._skip_reason(path, fs_bytes(rel), name, fs_bytes(name), is_dir, is_link, ignored)
    if reason is not None:
        return Skipped(path, rel, reason, is_dir), None
    follow_outside = rules.options.follow_symlinks
    if is_link and not follow_outside and rules.leaves_root(path):
        return Skipped(path, rel, SkipReason.OUTSIDE_ROOT, is_dir, f"-> {_link_target(path)}"), None
    try:
        if st is None:
            st = entry.stat(follow_symlinks=False)
    except OSError as exc:
        return Skipped(path, rel, SkipReason.UNREADABLE, is_dir, exc.strerror or str(exc)), None
    if not is_dir:
        if not stat.S_ISREG(st.st_mode):
            return Skipped(path, rel, SkipReason.NOT_REGULAR, False), None
        if name == SETTINGS_FILE:
            return Skipped(path, rel, SkipReason.SETTINGS, False), None
        return rules.file_record(path, rel, name, st), None
    identity = (st.st_dev, st.st_ino)
    if identity in ancestors:
        return Skipped(path, rel, SkipReason.SYMLINK_LOOP, True, f"-> {_link_target(path)}"), None
    if identity in walked or (is_link and not follow_outside):
        # A second way into a directory: nothing new there. Without follow_symlinks a
        # link inside the root is never entered: its target is walked under its own name
        # (or left out for its own reasons), as git does.
        return None, None
    walked.add(identity)
    listing = _list(path, rel)
    if isinstance(listing, Skipped):
        return listing, None
    ignore = rules.ignore
    dir_fd = _open_dir(path) if len(ancestors) < _MAX_OPEN_DIRS else None
    return None, (iter(listing), f"{rel}/", ancestors | {identity}, ignore.entry_matcher(path) if ignore else None,
                  dir_fd)


def _list(directory: str, rel: str) -> list[os.DirEntry[str]] | Skipped:
    try:
        with os.scandir(directory) as it:
            return sorted(it, key=_BY_NAME)
    except OSError as exc:
        return Skipped(directory, rel, SkipReason.UNREADABLE, True, exc.strerror or str(exc))


@dataclass(slots=True)
class WalkPlan:
    """What a run over several command-line paths will chunk."""

    root: str  # the directory paths in the output are relative to
    files: list[WalkedFile] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    #: Ignore files that exist but were not read (a symbolic link git does not follow, a
    #: FIFO, one too large), each with the reason: their rules did not apply.
    warnings: list[str] = field(default_factory=list)
    #: The files named on the command line (not found by walking a directory), by their
    #: ``rel`` name: one of them left out is a run that did not do what it was asked.
    named: set[str] = field(default_factory=set)

    def skipped_by_reason(self) -> dict[SkipReason, int]:
        return count_reasons(self.skipped)


def common_root(paths: Sequence[str | os.PathLike[str]]) -> str:
    """The directory output paths are relative to: a directory given alone, the
    parent of a file given alone, else the deepest directory holding them all."""
    dirs = []
    for p in paths:
        p = os.path.abspath(os.fspath(p))
        dirs.append(p if os.path.isdir(p) else os.path.dirname(p))
    if not dirs:
        return os.path.abspath(os.curdir)
    return os.path.commonpath(dirs)


def plan(paths: Iterable[str | os.PathLike[str]], options: WalkOptions | None = None,
         root: str | None = None) -> WalkPlan:
    """Expand command-line paths: directories are walked, files given by name are
    always taken (the user asked for them), duplicates dropped, order kept."""
    options = options or WalkOptions()
    names = [os.fspath(p) for p in paths]
    result = WalkPlan(root or common_root([p for p in names if os.path.exists(p)] or ["."]))
    seen: set[str] = set()
    for given in names:
        if not os.path.exists(given):
            if os.path.islink(given):
                result.named.add(given)
                result.skipped.append(Skipped(given, given, SkipReason.BROKEN_SYMLINK, False, _link_target(given)))
            else:
                result.missing.append(given)
            continue
        absolute = os.path.abspath(given)
        prefix = os.path.relpath(absolute, result.root).replace(os.sep, "/")
        if os.path.isdir(absolute):
            rules = WalkRules(absolute, options, ignore_top=result.root)
            records = _walk_dir(rules, absolute, "")
            for record in records:
                full_rel = record.rel if prefix == "." else f"{prefix}/{record.rel}"
                if isinstance(record, WalkedFile):
                    if record.path in seen:
                        continue
                    seen.add(record.path)
                    result.files.append(WalkedFile(record.path, full_rel, record.size, record.language))
                else:
                    result.skipped.append(Skipped(record.path, full_rel, record.reason, record.is_dir, record.detail))
            if rules.ignore is not None:
                result.warnings.extend(w for w in rules.ignore.problems if w not in result.warnings)
        elif absolute not in seen:
            seen.add(absolute)
            result.named.add(prefix)
            try:
                size = os.path.getsize(absolute)
            except OSError as exc:
                result.skipped.append(Skipped(given, prefix, SkipReason.UNREADABLE, False, exc.strerror or str(exc)))
                continue
            if not os.path.isfile(absolute):
                result.skipped.append(Skipped(given, prefix, SkipReason.NOT_REGULAR, False))
                continue
            if os.path.basename(absolute) == SETTINGS_FILE:
                result.skipped.append(Skipped(given, prefix, SkipReason.SETTINGS, False))
                continue
            language = detect_language(absolute) or detect_language(None, _open_head(absolute)[1])
            result.files.append(WalkedFile(absolute, prefix, size, language))
    return result



PathArg = str | os.PathLike[str]


def plan_of(paths: PathArg | Sequence[PathArg] | WalkPlan, options: WalkOptions | None = None) -> WalkPlan:
    """The files under ``paths`` (one path or several, walked with ``options``), or a
    ready ``WalkPlan`` as it is. Raises FileNotFoundError naming the paths that do not exist."""
    if isinstance(paths, WalkPlan):
        return paths
    given = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    missing = [os.fspath(p) for p in given if not os.path.exists(p)]
    if missing:
        raise FileNotFoundError(f"no such file or directory: {', '.join(missing)}")
    return plan(given, options)

def _stat(path: str) -> os.stat_result | None:
    try:
        return os.stat(path)
    except OSError:
        return None


def _open_dir(path: str) -> int | None:
    if not _DIR_FD:
        return None
    try:
        return os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:  # unreadable, replaced, or out of descriptors: files are reached by path
        return None


def _close_dir(fd: int | None) -> None:
    if fd is not None:
        os.close(fd)


def _open_head(path: str, dir_fd: int | None = None) -> tuple[os.stat_result | None, bytes]:
    """A file's status and, for a regular file, its first bytes (for shebang detection);
    ``(None, b"")`` when it cannot be opened. Never blocks: a FIFO is opened without
    waiting and not read."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags, dir_fd=dir_fd)
    except OSError:
        return None, b""
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return st, b""
        return st, os.read(fd, _HEAD_BYTES)
    except OSError:
        return None, b""
    finally:
        os.close(fd)


def _link_target(path: str) -> str:
    try:
        return os.readlink(path)
    except OSError:
        return "?"

