"""Ignore rules as git applies them: each disagreement with git found once, and a differential
test against the git binary on generated trees.

Answers written here are git's (2.52+). The git on a machine may be older: before 2.52
``foo**/bar`` wrongly matched ``foobar`` (git cut the literal prefix off before matching);
the differential test leaves such patterns out when the installed git has that bug.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from explorer.engine.batch.skips import SkipReason
from explorer.workspace.gitignore import IgnoreFile, IgnoreRules, compile_pattern, split_ignore_lines
from explorer.workspace.walk import Skipped, WalkedFile, WalkOptions, walk
from explorer.workspace.wildmatch import PATHNAME, literal_prefix_length, wildmatch

GIT = shutil.which("git")
needs_git = pytest.mark.skipif(GIT is None, reason="the git binary is not installed: no oracle to compare with")


def _git_version() -> tuple[int, ...]:
    if GIT is None:
        return (0,)
    out = subprocess.run([GIT, "--version"], capture_output=True, text=True).stdout
    found = re.search(r"(\d+)\.(\d+)", out)
    return tuple(int(x) for x in found.groups()) if found else (0,)


GIT_HAS_PREFIX_STARSTAR_BUG = _git_version() < (2, 52)


def file_ignores(data: bytes, paths: list[tuple[bytes, bool]]) -> list[bool]:
    """Which of ``(rel, is_dir)`` one ignore file's bytes ignore (last match wins)."""
    rules = IgnoreFile.parse(data, "/base")
    return [bool(rules.decide_rel(rel, rel.rpartition(b"/")[2], is_dir)) for rel, is_dir in paths]


def ignored(data: bytes, rel: bytes, is_dir: bool = False) -> bool:
    return file_ignores(data, [(rel, is_dir)])[0]


def make(root: Path, rel: str | bytes, content: bytes = b"") -> None:
    path = Path(os.fsdecode(os.path.join(os.fsencode(root), os.fsencode(rel))))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)


def git_check_ignore(root: Path, rels: list[bytes]) -> set[bytes]:
    assert GIT is not None
    out = subprocess.run(
        [GIT, "-C", str(root), "-c", "core.quotePath=false", "check-ignore", "--no-index", "-z", "--stdin"],
        input=b"\0".join(rels) + b"\0", capture_output=True,
    )
    assert out.returncode in (0, 1), out.stderr
    return set(out.stdout.split(b"\0")) - {b""}


def git_init(root: Path) -> None:
    assert GIT is not None
    subprocess.run([GIT, "init", "-q", str(root)], check=True)


# -- 1. a bad class matches nothing; the walk goes on -----------------------------------

def test_reversed_range_matches_nothing_and_the_walk_goes_on(tmp_path) -> None:
    make(tmp_path, ".gitignore", b"[z-a]\n*.log\n")
    for name in ("a.py", "z.py", "x.log", "m"):
        make(tmp_path, name, b"x = 1\n")
    records = list(walk(tmp_path, WalkOptions(all_languages=True)))
    taken = sorted(r.rel for r in records if isinstance(r, WalkedFile))
    assert taken == [".gitignore", "a.py", "m", "z.py"]
    assert {r.rel: r.reason for r in records if isinstance(r, Skipped)} == {"x.log": SkipReason.GITIGNORED}


# -- 2, 3, 9. how lines are cut --------------------------------------------------------

@pytest.mark.parametrize("data, ignored_names, kept_names", [
    # GitHub's macOS template: "Icon" then two CRs: git drops one, the name ends in CR.
    (b"Icon\r\r\n", [b"Icon\r"], [b"Icon"]),
    (b"a\x0bb\n", [b"a\x0bb"], [b"a", b"b"]),
    (b"a\x0cb\n", [b"a\x0cb"], [b"a", b"b"]),
    (b"a\x1cb\x1dc\x1ed\n", [b"a\x1cb\x1dc\x1ed"], [b"a", b"d"]),
    ("a\x85b\n".encode(), ["a\x85b".encode()], [b"a", b"b"]),
    ("a\u2028b\n".encode(), ["a\u2028b".encode()], [b"a", b"b"]),
    (b"\xef\xbb\xbfbom.txt\n", [b"bom.txt"], []),  # a BOM at the start is skipped
    (b"x\n\xef\xbb\xbfy\n", [b"x", b"\xef\xbb\xbfy"], [b"y"]),  # only at the start
    (b"abc\0def\n", [b"abc"], [b"abcdef", b"def"]),  # a NUL ends the line
    (b"last", [b"last"], []),  # no final newline
    (b"crlf\r\n", [b"crlf"], [b"crlf\r"]),
])
def test_lines_split_only_on_newline(data: bytes, ignored_names: list[bytes], kept_names: list[bytes]) -> None:
    for name in ignored_names:
        assert ignored(data, name), name
    for name in kept_names:
        assert not ignored(data, name), name


@pytest.mark.parametrize("source", [".gitignore", ".git/info/exclude"])
def test_bom_is_skipped_in_gitignore_and_info_exclude(tmp_path, source: str) -> None:
    (tmp_path / ".git" / "info").mkdir(parents=True)
    make(tmp_path, source, b"\xef\xbb\xbfsecret.txt\n")
    make(tmp_path, "secret.txt")
    assert IgnoreRules(tmp_path).is_ignored(tmp_path / "secret.txt")


# -- 4. trailing spaces and backslashes ---------------------------------------------------

def test_escaped_backslash_then_space_is_trimmed() -> None:
    assert split_ignore_lines(b"sp3\\\\ \n") == [b"sp3\\\\"]
    assert ignored(b"sp3\\\\ \n", b"sp3\\")
    assert not ignored(b"sp3\\\\ \n", b"sp3\\ ")
    assert ignored(b"sp1\\ \n", b"sp1 ")  # an escaped space stays
    assert ignored(b"sp2\\  \n", b"sp2 ")  # only the escaped one


def test_trailing_backslash_never_matches() -> None:
    for name in (b"g", b"g\\", b"g\\\\"):
        assert not ignored(b"g\\\n", name)


# -- 5, 6, 7. wildmatch's rules -------------------------------------------------------------

@pytest.mark.parametrize("line, rel, is_dir, expected", [
    (b"x[", b"x[", False, False),  # unclosed class: no match
    (b"a[]b", b"a]b", False, False),
    (b"a[]b", b"a[]b", False, False),
    (b"a[/]b", b"a/b", False, False),  # a class never matches "/" in a path
    (b"a[]]b", b"a]b", False, True),
    (b"w[[:alpha:]]", b"wx", False, True),
    (b"w[[:alpha:]]", b"w1", False, False),
    (b"d[[:digit:][:upper:]]", b"dQ", False, True),
    (b"s[[:space:]]", b"s\x0b", False, False),  # git's "space" is \t \n \r and space
    (b"u[[:nope:]]", b"ux", False, False),  # unknown class: the whole pattern fails
    (b"m/***/n", b"m/n", False, True),
    (b"m/***/n", b"m/x/y/n", False, True),
    (b"m/***/n", b"mx/n", False, False),
    (b"//c", b"c", False, False),
    (b"//c", b"x/c", False, False),
    (b"d//", b"d", True, False),
    (b"n\\/o", b"n/o", False, True),
    (b"n\\/o", b"x/n/o", False, False),  # the escaped slash still anchors the pattern
    (b"foo**/bar", b"foobar", False, False),  # git 2.52+ (older gits: ignored)
    (b"foo**/bar", b"foo/bar", False, True),
    (b"a/**", b"a", True, False),
    (b"**/x", b"x", False, True),
])
def test_wildmatch_rules(line: bytes, rel: bytes, is_dir: bool, expected: bool) -> None:
    assert ignored(line + b"\n", rel, is_dir) is expected


# -- 8. bytes, not characters -------------------------------------------------------------

def test_names_are_matched_as_bytes() -> None:
    cafe = "café".encode()
    cafu = "cafü".encode()
    assert not ignored(b"caf?\n", cafu)  # "ü" is two bytes
    assert ignored(b"caf??\n", cafu)
    assert not ignored("x[é]y\n".encode(), "xéy".encode())  # a class matches one byte
    assert ignored("x[é]y\n".encode(), b"x\xc3y")
    assert ignored(b"caf\xe9\n", b"caf\xe9")  # invalid UTF-8 on both sides
    assert not ignored(b"caf\xe9\n", cafe)


@pytest.mark.skipif(os.name != "posix", reason="names with invalid UTF-8 need a POSIX file system")
def test_walk_matches_names_with_invalid_utf8(tmp_path) -> None:
    make(tmp_path, ".gitignore", b"caf\xe9.py\n")
    make(tmp_path, b"caf\xe9.py", b"x = 1\n")
    make(tmp_path, b"caf\xe8.py", b"x = 1\n")
    taken = {os.fsencode(r.rel) for r in walk(tmp_path) if isinstance(r, WalkedFile)}
    assert taken == {b".gitignore", b"caf\xe8.py"}


# -- 10 and the hangs: what is read ------------------------------------------------------

@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks")
def test_gitignore_that_is_a_symlink_is_not_followed(tmp_path) -> None:
    make(tmp_path, "real-rules", b"*.py\n")
    os.symlink(tmp_path / "real-rules", tmp_path / ".gitignore")
    make(tmp_path, "a.py")
    rules = IgnoreRules(tmp_path)
    assert not rules.is_ignored(tmp_path / "a.py")
    assert any("symbolic link" in p for p in rules.problems)


@pytest.mark.skipif(not hasattr(os, "mkfifo") or not os.path.exists("/dev/zero"), reason="needs FIFOs and /dev/zero")
def test_special_ignore_files_never_hang_or_flood(tmp_path) -> None:
    (tmp_path / ".git" / "info").mkdir(parents=True)
    os.mkfifo(tmp_path / ".git" / "info" / "exclude")
    os.mkfifo(tmp_path / ".gitignore")
    sub = tmp_path / "sub"
    sub.mkdir()
    os.symlink("/dev/zero", sub / ".gitignore")
    make(tmp_path, "sub/a.py", b"x = 1\n")
    taken = [r.rel for r in walk(tmp_path) if isinstance(r, WalkedFile)]
    assert taken == ["sub/a.py"]
    rules = IgnoreRules(tmp_path)
    rules.is_ignored(sub / "a.py")
    assert len(rules.problems) == 3  # info/exclude, .gitignore (FIFOs) and the link


def test_stars_take_time_linear_in_the_name() -> None:
    # Exponential backtracking would not finish; git's abort returns stop it at once.
    name = b"a" * 43
    assert not ignored(b"*a" * 12 + b"b\n", name)
    assert ignored(b"*a" * 12 + b"\n", name)
    assert not wildmatch(b"*a" * 40 + b"*b", b"a" * 2000, PATHNAME)
    assert wildmatch(b"*" * 5000 + b"a", b"a")  # no recursion limit to hit


# -- 11. configuration: ignorecase, excludesFile, worktrees --------------------------------

def _isolate_home(monkeypatch, tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    return home


def test_core_ignorecase_true_matches_either_case(tmp_path, monkeypatch) -> None:
    _isolate_home(monkeypatch, tmp_path)
    repo = tmp_path / "repo"
    make(repo, ".git/config", b"[core]\n\tignorecase = true\n")
    make(repo, ".gitignore", b"*.LOG\nBuild/\nREADME\n")
    for rel in ("a.log", "build/x.py", "readme", "keep.py"):
        make(repo, rel)
    rules = IgnoreRules(repo)
    assert rules.ignore_case
    assert rules.is_ignored(repo / "a.log")
    assert rules.is_ignored(repo / "build" / "x.py")
    assert rules.is_ignored(repo / "readme")
    assert not rules.is_ignored(repo / "keep.py")
    make(repo, ".git/config", b"[core]\n\tignorecase = false\n")
    assert not IgnoreRules(repo).is_ignored(repo / "a.log")


def test_core_excludes_file_and_its_default(tmp_path, monkeypatch) -> None:
    home = _isolate_home(monkeypatch, tmp_path)
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    make(repo, "a.swp")
    make(repo, "b.bak")
    make(home, ".config/git/ignore", b"*.swp\n")  # used when core.excludesFile is unset
    assert IgnoreRules(repo).is_ignored(repo / "a.swp")
    make(home, ".gitconfig", b'[core]\n\texcludesFile = "~/my ignores"  # comment\n')
    make(home, "my ignores", b"*.bak\n")
    rules = IgnoreRules(repo)
    assert rules.is_ignored(repo / "b.bak")
    assert not rules.is_ignored(repo / "a.swp")
    # info/exclude beats core.excludesFile; a .gitignore beats both
    make(repo, ".git/info/exclude", b"!b.bak\n")
    assert not IgnoreRules(repo).is_ignored(repo / "b.bak")


@needs_git
def test_info_exclude_of_linked_worktree_and_submodule_style_gitdir(tmp_path, monkeypatch) -> None:
    _isolate_home(monkeypatch, tmp_path)
    assert GIT is not None
    main = tmp_path / "main"
    git_init(main)
    make(main, "tracked.txt", b"x\n")
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}
    subprocess.run([GIT, "-C", str(main), "add", "."], check=True, env=env)
    subprocess.run([GIT, "-C", str(main), "commit", "-qm", "x"], check=True, env=env)
    linked = tmp_path / "linked"
    subprocess.run([GIT, "-C", str(main), "worktree", "add", "-q", str(linked)], check=True, env=env)
    make(main, ".git/info/exclude", b"local-only.txt\n")
    make(linked, "local-only.txt")
    make(linked, "other.txt")
    rules = IgnoreRules(linked)
    assert rules.is_ignored(linked / "local-only.txt")
    assert not rules.is_ignored(linked / "other.txt")
    assert git_check_ignore(linked, [b"local-only.txt", b"other.txt"]) == {b"local-only.txt"}


def test_nested_repository_starts_with_its_own_rules(tmp_path, monkeypatch) -> None:
    _isolate_home(monkeypatch, tmp_path)
    make(tmp_path, ".git/HEAD", b"ref: refs/heads/main\n")
    make(tmp_path, ".gitignore", b"*.gen\n")
    gitdir = tmp_path / "modules" / "sub"
    make(gitdir, "info/exclude", b"private.txt\n")
    make(tmp_path, "sub/.git", f"gitdir: {gitdir}\n".encode())  # as a submodule has
    for rel in ("a.gen", "sub/b.gen", "sub/private.txt", "private.txt"):
        make(tmp_path, rel)
    rules = IgnoreRules(tmp_path)
    assert rules.is_ignored(tmp_path / "a.gen")
    assert not rules.is_ignored(tmp_path / "sub" / "b.gen")  # the outer .gitignore stops at sub/
    assert rules.is_ignored(tmp_path / "sub" / "private.txt")
    assert not rules.is_ignored(tmp_path / "private.txt")


# -- compile_pattern keeps its single-line contract ------------------------------------------

def test_compile_pattern_accepts_text_and_bytes() -> None:
    pattern = compile_pattern("*.py\n")
    assert pattern is not None and pattern.matches("a/b.py", False)
    raw = compile_pattern(b"caf\xe9")
    assert raw is not None and raw.matches(b"caf\xe9", False)


# -- differential test against git --------------------------------------------------------

TREE_NAMES = ["a", "b", "ab", "a.b", "[a]", "a b", "A", "x*", "ä", "a\\b"]
SEGMENTS = ["a", "b", "ab", "a.b", "A", "*", "?", "[ab]", "[!a]", "[a-b]", "[[:alpha:]]", "**", "a*", "*b",
            "\\[a]", "a\\ ", "ä", "*.b", "[z-a]", "x\\*", "[", "a**", "**b"]


def _random_tree(rng: random.Random) -> list[str]:
    paths: set[str] = set()
    for _ in range(14):
        depth = rng.randint(1, 3)
        paths.add("/".join(rng.choice(TREE_NAMES) for _ in range(depth)))
    # A name cannot be both a file and a directory.
    dirs = {p.rsplit("/", 1)[0] for p in paths if "/" in p}
    return sorted(p for p in paths if p not in dirs and not any(d.startswith(p + "/") for d in dirs))


def _random_line(rng: random.Random) -> str:
    body = "/".join(rng.choice(SEGMENTS) for _ in range(rng.randint(1, 3)))
    return ("!" if rng.random() < 0.25 else "") + ("/" if rng.random() < 0.2 else "") + body + (
        "/" if rng.random() < 0.2 else "") + (" " if rng.random() < 0.1 else "")


def _hits_old_git_bug(line: str) -> bool:
    """Patterns whose answer changed in git 2.52 (see the module docstring)."""
    pattern = line.lstrip("!").rstrip(" ").rstrip("/").encode()
    if b"/" not in pattern:
        return False
    if pattern.startswith(b"/"):
        pattern = pattern[1:]
    n = literal_prefix_length(pattern)
    return n > 0 and pattern[n:n + 2] == b"**" and pattern[n - 1:n] != b"/"


@needs_git
def test_random_ignore_files_agree_with_git(tmp_path) -> None:
    rng = random.Random(12)
    trials = 0
    for trial in range(150):
        root = tmp_path / f"t{trial}"
        git_init(root)
        if trial % 4 == 3:
            subprocess.run([GIT or "git", "-C", str(root), "config", "core.ignorecase", "true"], check=True)
        files = _random_tree(rng)
        for rel in files:
            make(root, rel)
        dirs = sorted({"/".join(p.split("/")[:i]) for p in files for i in range(1, p.count("/") + 1)})
        ignore_dirs = [""] + rng.sample(dirs, min(len(dirs), 2))
        for directory in ignore_dirs:
            lines = [_random_line(rng) for _ in range(rng.randint(1, 5))]
            if GIT_HAS_PREFIX_STARSTAR_BUG:
                lines = [line for line in lines if not _hits_old_git_bug(line)]
            make(root, f"{directory}/.gitignore" if directory else ".gitignore", "\n".join(lines).encode() + b"\n")
        everything = sorted(set(files) | set(dirs))
        by_git = git_check_ignore(root, [p.encode() for p in everything])
        rules = IgnoreRules(root)
        ours = {p.encode() for p in everything if rules.is_ignored(root / p)}
        assert ours == by_git, (trial, {d: (root / d / ".gitignore").read_text() for d in ignore_dirs})
        if trial % 5 == 0:  # the walk itself lists what git lists
            listed = subprocess.run([GIT or "git", "-C", str(root), "ls-files", "-z", "--others", "--exclude-standard"],
                                    capture_output=True, check=True).stdout
            taken = {os.fsencode(r.rel) for r in walk(root, WalkOptions(all_languages=True))
                     if isinstance(r, WalkedFile)}
            assert taken == set(listed.split(b"\0")) - {b""}, trial
        trials += 1
    assert trials == 150


def test_deeper_path_patterns_stay_in_their_directory_even_with_glob_characters(tmp_path) -> None:
    # The chain of ignore files is matched as one list; a deeper file's path patterns carry
    # its directory, whose glob characters must stay literal.
    make(tmp_path, ".gitignore", b"!keep/me\n")
    make(tmp_path, "[ab]*/.gitignore", b"/x\ny/z\nkeep/\n")
    for rel in ("[ab]*/x", "[ab]*/y/z", "[ab]*/keep/me", "a/x", "b1/y/z", "x"):
        make(tmp_path, rel)
    rules = IgnoreRules(tmp_path)
    assert rules.is_ignored(tmp_path / "[ab]*" / "x")
    assert rules.is_ignored(tmp_path / "[ab]*" / "y" / "z")
    assert rules.is_ignored(tmp_path / "[ab]*" / "keep" / "me")  # inside an ignored directory
    assert not rules.is_ignored(tmp_path / "a" / "x")
    assert not rules.is_ignored(tmp_path / "b1" / "y" / "z")
    assert not rules.is_ignored(tmp_path / "x")
    if GIT is not None:
        git_init(tmp_path)
        rels = [b"[ab]*/x", b"[ab]*/y/z", b"[ab]*/keep/me", b"a/x", b"b1/y/z", b"x"]
        assert git_check_ignore(tmp_path, rels) == {b"[ab]*/x", b"[ab]*/y/z", b"[ab]*/keep/me"}
