"""Walking a codebase: what is taken, what is skipped and why."""

from __future__ import annotations

import os

import pytest

from explorer.engine.batch.skips import SkipReason
from explorer.workspace.walk import Skipped, WalkedFile, WalkOptions, WalkRules, common_root, parse_size, plan, walk


def write(path, text: str = "x = 1\n") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)


def taken(root, options: WalkOptions | None = None) -> list[str]:
    return [r.rel for r in walk(root, options) if isinstance(r, WalkedFile)]


def skipped(root, options: WalkOptions | None = None) -> dict[str, str]:
    return {r.rel: r.reason for r in walk(root, options) if isinstance(r, Skipped)}


def test_sorted_depth_first_order_with_posix_rel_paths(tmp_path) -> None:
    for rel in ("b.py", "a/z.py", "a/b/c.py", "c.go"):
        write(tmp_path / rel)
    assert taken(tmp_path) == ["a/b/c.py", "a/z.py", "b.py", "c.go"]
    files = [r for r in walk(tmp_path) if isinstance(r, WalkedFile)]
    assert [f.language for f in files] == ["python", "python", "python", "go"]
    assert all(os.path.isfile(f.path) for f in files)


def test_default_excludes_skip_vcs_dependencies_environments_and_build_output(tmp_path) -> None:
    write(tmp_path / "src" / "app.py")
    for rel in (".git/hooks/x.py", "node_modules/lib/index.js", "build/gen.py", "dist/x.js",
                "target/debug/x.rs", "src/__pycache__/app.py", "pkg.egg-info/x.py"):
        write(tmp_path / rel)
    write(tmp_path / "myenv" / "pyvenv.cfg", "home = /usr\n")
    write(tmp_path / "myenv" / "lib" / "site.py")
    write(tmp_path / "venv" / "__init__.py")  # a package named venv (as in the stdlib), not an environment
    assert taken(tmp_path) == ["src/app.py", "venv/__init__.py"]
    reasons = skipped(tmp_path)
    assert reasons["myenv"] == SkipReason.ENVIRONMENT
    for name in (".git", "node_modules", "build", "dist", "target", "src/__pycache__", "pkg.egg-info"):
        assert reasons[name] == SkipReason.EXCLUDED_DIR, name
    assert "node_modules/lib/index.js" not in reasons  # the contents of a skipped directory are not listed
    everything = taken(tmp_path, WalkOptions(default_excludes=False))
    assert "node_modules/lib/index.js" in everything and "myenv/lib/site.py" in everything


def test_gitignore_nested_and_negated(tmp_path) -> None:
    write(tmp_path / ".gitignore", "*.gen.py\nlogs/\n")
    write(tmp_path / "pkg" / ".gitignore", "!keep.gen.py\nlocal_*.py\n")
    for rel in ("a.py", "a.gen.py", "logs/x.py", "pkg/b.gen.py", "pkg/keep.gen.py", "pkg/local_x.py",
                "local_y.py", "pkg/sub/c.gen.py"):
        write(tmp_path / rel)
    # (.gitignore files are files of a known language too)
    assert taken(tmp_path) == [".gitignore", "a.py", "local_y.py", "pkg/.gitignore", "pkg/keep.gen.py"]
    reasons = skipped(tmp_path)
    assert reasons["a.gen.py"] == SkipReason.GITIGNORED
    assert reasons["logs"] == SkipReason.GITIGNORED
    assert reasons["pkg/b.gen.py"] == SkipReason.GITIGNORED
    assert reasons["pkg/local_x.py"] == SkipReason.GITIGNORED
    assert reasons["pkg/sub/c.gen.py"] == SkipReason.GITIGNORED
    assert "a.gen.py" in taken(tmp_path, WalkOptions(gitignore=False))


def test_include_and_exclude_globs(tmp_path) -> None:
    for rel in ("src/a.py", "src/b.ts", "tests/t.py", "tests/fixtures/f.py", "README.txt"):
        write(tmp_path / rel)
    assert taken(tmp_path, WalkOptions(exclude=("tests",))) == ["src/a.py", "src/b.ts"]
    assert skipped(tmp_path, WalkOptions(exclude=("tests",)))["tests"] == SkipReason.EXCLUDED
    assert taken(tmp_path, WalkOptions(include=("*.py",))) == ["src/a.py", "tests/fixtures/f.py", "tests/t.py"]
    assert skipped(tmp_path, WalkOptions(include=("*.py",)))["src/b.ts"] == SkipReason.NOT_INCLUDED
    assert taken(tmp_path, WalkOptions(include=("src/**",))) == ["src/a.py", "src/b.ts"]
    # an explicit include admits a file of unknown language; without it, it is skipped
    assert skipped(tmp_path)["README.txt"] == SkipReason.UNKNOWN_LANGUAGE
    assert taken(tmp_path, WalkOptions(include=("*.txt",))) == ["README.txt"]


def test_max_file_size(tmp_path) -> None:
    write(tmp_path / "small.py", "x = 1\n")
    write(tmp_path / "big.py", "x = 1\n" * 1000)
    result = list(walk(tmp_path, WalkOptions(max_file_size=1000)))
    big = next(r for r in result if r.rel == "big.py")
    assert isinstance(big, Skipped) and big.reason == SkipReason.TOO_LARGE
    assert "> 1000B" in big.detail
    assert taken(tmp_path, WalkOptions(max_file_size=1000)) == ["small.py"]


def test_shebang_scripts_are_recognised(tmp_path) -> None:
    write(tmp_path / "tool", "#!/usr/bin/env python3\nprint(1)\n")
    write(tmp_path / "notes", "just words\n")
    files = [r for r in walk(tmp_path) if isinstance(r, WalkedFile)]
    assert [(f.rel, f.language) for f in files] == [("tool", "python")]
    assert skipped(tmp_path)["notes"] == SkipReason.UNKNOWN_LANGUAGE


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks")
def test_symlink_loop_does_not_hang(tmp_path) -> None:
    write(tmp_path / "a" / "b" / "x.py")
    os.symlink(tmp_path / "a", tmp_path / "a" / "b" / "back")  # a/b/back -> a
    os.symlink(tmp_path, tmp_path / "a" / "root")  # a/root -> the root itself
    os.symlink(tmp_path / "a" / "b", tmp_path / "alias")  # a second way into a/b
    os.symlink(tmp_path / "missing", tmp_path / "dangling.py")
    records = list(walk(tmp_path))
    assert [r.rel for r in records if isinstance(r, WalkedFile)] == ["a/b/x.py"]
    reasons = {r.rel: r.reason for r in records if isinstance(r, Skipped)}
    assert reasons["a/b/back"] == SkipReason.SYMLINK_LOOP
    assert reasons["a/root"] == SkipReason.SYMLINK_LOOP
    assert reasons["dangling.py"] == SkipReason.BROKEN_SYMLINK


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks")
def test_links_leaving_the_root_are_not_followed_by_default(tmp_path) -> None:
    outside = tmp_path / "outside"
    write(outside / "lib.py")
    write(outside / "one.py")
    root = tmp_path / "root"
    write(root / "main.py")
    write(root / "inner" / "x.py")
    os.symlink(outside, root / "linked")
    os.symlink(outside / "one.py", root / "one_link.py")
    os.symlink(root / "inner", root / "alias")  # stays inside: walked under its own name
    assert taken(root) == ["inner/x.py", "main.py"]
    reasons = {r.rel: r for r in walk(root) if isinstance(r, Skipped)}
    assert reasons["linked"].reason == SkipReason.OUTSIDE_ROOT and reasons["linked"].is_dir
    assert reasons["one_link.py"].reason == SkipReason.OUTSIDE_ROOT
    # The file tree agrees: such links are not shown unless followed.
    assert not WalkRules(root).is_shown(root / "linked")
    assert not WalkRules(root).is_shown(root / "one_link.py")
    assert not WalkRules(root).is_shown(root / "alias")  # its files are shown under inner/, once
    assert WalkRules(root, WalkOptions(follow_symlinks=True)).is_shown(root / "linked")
    # follow_symlinks: every link is followed, each directory once (the first way in wins)
    assert taken(root, WalkOptions(follow_symlinks=True)) == [
        "alias/x.py", "linked/lib.py", "linked/one.py", "main.py", "one_link.py"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
def test_fifos_and_devices_never_block_the_walk(tmp_path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    os.mkfifo(outside / "pipe.py")
    root = tmp_path / "root"
    write(root / "a.py")
    os.mkfifo(root / "fifo.py")
    os.symlink(outside, root / "linked")
    os.symlink("/dev/zero", root / "zero.py")
    # Followed on purpose: the FIFO inside is reported, not opened.
    records = {r.rel: r for r in walk(root, WalkOptions(follow_symlinks=True))}
    assert isinstance(records["a.py"], WalkedFile)
    assert records["fifo.py"].reason == SkipReason.NOT_REGULAR
    assert records["linked/pipe.py"].reason == SkipReason.NOT_REGULAR
    assert records["zero.py"].reason == SkipReason.NOT_REGULAR


def test_walk_rules_is_shown_for_a_file_tree(tmp_path) -> None:
    write(tmp_path / ".gitignore", "secret/\n*.log\n")
    for rel in ("src/a.py", "secret/k.py", "x.log", "node_modules/m.js", "README", "big.py"):
        write(tmp_path / rel)
    rules = WalkRules(tmp_path, WalkOptions(max_file_size=1))
    assert rules.is_shown(tmp_path / "src")
    assert rules.is_shown(tmp_path / "src" / "a.py")
    assert rules.is_shown(tmp_path / "README")  # unknown language: still shown
    assert rules.is_shown(tmp_path / "big.py")  # too large to chunk: still shown
    assert not rules.is_shown(tmp_path / "secret")
    assert not rules.is_shown(tmp_path / "secret" / "k.py")
    assert not rules.is_shown(tmp_path / "x.log")
    assert not rules.is_shown(tmp_path / "node_modules")
    assert not rules.is_shown(tmp_path / "node_modules" / "m.js")
    assert rules.is_shown(tmp_path)


def test_plan_takes_named_files_and_walks_directories(tmp_path) -> None:
    write(tmp_path / "proj" / "src" / "a.py")
    write(tmp_path / "proj" / "src" / "b.py")
    write(tmp_path / "proj" / "notes.txt", "hello\n")
    write(tmp_path / "proj" / ".gitignore", "b.py\n")
    proj = tmp_path / "proj"
    result = plan([proj / "src", proj / "notes.txt", proj / "src" / "a.py", proj / "nope"])
    assert result.root == str(proj)
    # a.py once, b.py ignored by .gitignore, notes.txt taken because it was named
    assert [f.rel for f in result.files] == ["src/a.py", "notes.txt"]
    assert result.missing == [str(proj / "nope")]
    single_file = plan([proj / "src" / "b.py"])  # named: taken even though .gitignore'd
    assert single_file.root == str(proj / "src")
    assert [f.rel for f in single_file.files] == ["b.py"]


def test_common_root() -> None:
    assert common_root(["/a/b/c", "/a/b/d"]) == "/a/b"


@pytest.mark.parametrize("text, expected", [
    ("2000", 2000), ("512K", 512 * 1024), ("2M", 2 * 1024**2), ("1.5mb", int(1.5 * 1024**2)),
    ("1G", 1024**3), (300, 300),
])
def test_parse_size(text, expected) -> None:
    assert parse_size(text) == expected


@pytest.mark.parametrize("text", ["", "big", "-1", "0", "2T"])
def test_parse_size_rejects_nonsense(text) -> None:
    with pytest.raises(ValueError):
        parse_size(text)


def test_invalid_options_are_rejected() -> None:
    with pytest.raises(ValueError):
        WalkOptions(max_file_size=0)
    with pytest.raises(ValueError):
        WalkOptions(include=("",))


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks")
def test_a_link_to_a_folder_inside_the_root_is_not_shown_unless_followed(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "again").symlink_to(tmp_path / "pkg")
    assert WalkRules(tmp_path).entry_skip_reason(str(tmp_path / "again"), "again", True) == "linked-dir"
    assert WalkRules(tmp_path).is_shown(tmp_path / "pkg")
    followed = WalkRules(tmp_path, WalkOptions(follow_symlinks=True))
    assert followed.entry_skip_reason(str(tmp_path / "again"), "again", True) is None
