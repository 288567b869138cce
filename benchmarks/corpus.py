"""Build a corpus of real code from what is installed on this machine.

    python benchmarks/corpus.py [--out DIR] [--cap-mb 3] [--force]

The Python standard library is always there; other languages are taken from
wherever they exist: node's global modules (JavaScript, TypeScript), a Go root,
the Rust sources of rustup/cargo, a JDK's ``src.zip`` (Java), ``/usr/include``
(C, and the extension-less libstdc++ headers as C++). On Debian,
``apt-get install golang-src rust-src`` adds the Go and Rust standard libraries,
and ``npm install -g rxjs`` some TypeScript sources. Each language is capped
(default 3 MB) with a fixed-seed sample, so runs are comparable and take a couple
of minutes. Files are copied into ``DIR/<language>/`` with a ``manifest.json``
recording where each came from. Nothing is ever written outside ``DIR``.

    python benchmarks/corpus.py --repos [--out DIR] [--force]

builds the other corpus: every file of a few whole small repositories (Python packages
of this environment, npm packages' ``src`` trees fetched with ``npm pack``, one JDK
package), whatever its size: the per-file costs a user meets on a repository count there.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import random
import shutil
import stat
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from functools import cache

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from explorer.engine.languages import detect_language

DEFAULT_OUT = os.path.join(os.environ.get("TMPDIR", "/tmp"), "chunk-explorer-corpus")
DEFAULT_CAP_MB = 3.0
MIN_FILE, MAX_FILE = 200, 400_000  # bytes: skip stubs and generated giants
SEED = 20240601
SKIP_DIRS = {".git", "__pycache__", "site-packages", "dist-packages", "node_modules/.cache"}


def _home(*parts: str) -> str:
    return os.path.join(os.path.expanduser("~"), *parts)


def _npm_root() -> list[str]:
    try:
        out = subprocess.run(["npm", "root", "-g"], capture_output=True, text=True, timeout=20).stdout.strip()
        return [out] if out else []
    except (OSError, subprocess.SubprocessError):
        return []


def _go_root() -> list[str]:
    try:
        out = subprocess.run(["go", "env", "GOROOT"], capture_output=True, text=True, timeout=20).stdout.strip()
        return [os.path.join(out, "src")] if out else []
    except (OSError, subprocess.SubprocessError):
        return []


def source_roots() -> dict[str, list[str]]:
    """Where each language's code may live on a typical Linux machine."""
    node = _npm_root() + ["/usr/lib/node_modules", "/usr/local/lib/node_modules", "/usr/share/nodejs",
                          "/usr/share/javascript"]
    return {
        "python": [os.path.dirname(os.__file__)],
        "javascript": node,
        "typescript": node,
        # Debian: golang-src puts the Go tree in /usr/share/go-1.NN, rust-src Rust's in /usr/src/rustc-*
        "go": _go_root() + sorted(glob.glob("/usr/lib/go*/src") + glob.glob("/usr/share/go*/src"))
        + ["/usr/local/go/src", _home("go", "pkg", "mod"), "/usr/share/doc"],
        "rust": glob.glob(_home(".rustup", "toolchains", "*", "lib", "rustlib", "src", "rust", "library"))
        + glob.glob("/usr/src/rustc-*/library")
        + [_home(".cargo", "registry", "src"), "/usr/share/cargo/registry"],
        "java": sorted(glob.glob("/usr/lib/jvm/*/lib/src.zip") + glob.glob("/usr/lib/jvm/*/src.zip")),
        "c": ["/usr/include", "/usr/share/doc"],
        "cpp": glob.glob("/usr/include/c++/*") + ["/usr/include"],
    }


@dataclass
class Candidate:
    origin: str  # a path, or "archive.zip!member"
    size: int
    suffix: str  # extension to give the copy


@cache
def _files_under(root: str) -> tuple[tuple[str, int], ...]:
    """Regular files (no symlinks) under a root with their sizes; each root is walked once."""
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            try:
                st = os.lstat(path)
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode) and MIN_FILE <= st.st_size <= MAX_FILE:
                found.append((path, st.st_size))
    return tuple(found)


def find_candidates(language: str, roots: list[str]) -> list[Candidate]:
    found: dict[str, Candidate] = {}
    for root in roots:
        if root.endswith(".zip") and os.path.isfile(root):
            if found:
                break  # one JDK is enough
            with zipfile.ZipFile(root) as archive:
                for info in archive.infolist():
                    if info.filename.endswith(".java") and MIN_FILE <= info.file_size <= MAX_FILE:
                        found[f"{root}!{info.filename}"] = Candidate(f"{root}!{info.filename}", info.file_size, ".java")
            continue
        if not os.path.isdir(root):
            continue
        libstdcxx = language == "cpp" and "/c++/" in root + "/"
        for path, size in _files_under(os.path.realpath(root)):
            if path in found:
                continue
            name = os.path.basename(path)
            if libstdcxx and "." not in name:
                found[path] = Candidate(path, size, ".hpp")  # <vector>, <map>, ...
            elif not name.endswith((".min.js", ".bundle.js")) and detect_language(path) == language:
                found[path] = Candidate(path, size, os.path.splitext(name)[1] or "")
    return list(found.values())


def read_candidate(candidate: Candidate) -> bytes:
    if "!" in candidate.origin and candidate.origin.split("!", 1)[0].endswith(".zip"):
        archive, member = candidate.origin.split("!", 1)
        with zipfile.ZipFile(archive) as zf:
            return zf.read(member)
    with open(candidate.origin, "rb") as handle:
        return handle.read()


def looks_like_source(data: bytes) -> bool:
    """Text that is real, hand-written code: UTF-8, no NUL, not minified."""
    if b"\x00" in data:
        return False
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    lines = text.splitlines() or [""]
    return max(map(len, lines)) <= 2000 and len(text) / len(lines) <= 200


def build(out: str, cap_bytes: int, languages: list[str] | None = None) -> dict:
    manifest: dict = {"cap_bytes": cap_bytes, "seed": SEED, "languages": {}}
    for language, roots in source_roots().items():
        if languages and language not in languages:
            continue
        candidates = find_candidates(language, roots)
        random.Random(f"{SEED}-{language}").shuffle(candidates)
        target = os.path.join(out, language)
        os.makedirs(target, exist_ok=True)
        files: list[dict[str, object]] = []
        total = 0
        for candidate in candidates:
            if total >= cap_bytes:
                break
            if total + candidate.size > cap_bytes * 1.1:
                continue
            data = read_candidate(candidate)
            if not looks_like_source(data):
                continue
            base = os.path.splitext(os.path.basename(candidate.origin.split("!")[-1]))[0]
            name = f"{len(files):04d}_{base}{candidate.suffix}"
            with open(os.path.join(target, name), "wb") as handle:
                handle.write(data)
            files.append({"file": f"{language}/{name}", "origin": candidate.origin, "bytes": len(data)})
            total += len(data)
        if not files:
            shutil.rmtree(target, ignore_errors=True)
            continue
        manifest["languages"][language] = {"bytes": total, "files": files, "roots": roots}
    with open(os.path.join(out, "manifest.json"), "w") as handle:
        json.dump(manifest, handle, indent=1)
    return manifest


def load(out: str = DEFAULT_OUT, cap_mb: float | None = None, *, force: bool = False) -> dict:
    """The corpus manifest. Builds the corpus when it is missing, when ``force``, or when
    ``cap_mb`` is given and differs from the existing corpus's cap (default cap: 3 MB)."""
    path = os.path.join(out, "manifest.json")
    if not force and os.path.exists(path):
        with open(path) as handle:
            manifest = json.load(handle)
        if cap_mb is None or manifest.get("cap_bytes") == int(cap_mb * 1_000_000):
            return manifest
    if os.path.isdir(out) and os.listdir(out) and not os.path.exists(path):
        raise SystemExit(f"{out} is not empty and holds no corpus manifest: refusing to replace it")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    return build(out, int((DEFAULT_CAP_MB if cap_mb is None else cap_mb) * 1_000_000))


# -- whole small repositories ---------------------------------------------------------------
DEFAULT_REPOS_OUT = os.path.join(os.environ.get("TMPDIR", "/tmp"), "chunk-explorer-repos")
#: Whole Python packages, from the environment's site-packages (each is a repository's source tree).
PYTHON_PACKAGES = ("rich", "httpx", "httpcore", "tomlkit", "click", "h11", "idna", "markdown_it")
#: npm packages whose tarball ships its sources, pinned; ``src`` is taken whole.
NPM_PACKAGES = ("zod@3.25.76", "rxjs@7.8.2", "effect@3.22.4")
#: A whole Java package of the JDK (every file of one directory tree of ``src.zip``).
JDK_PACKAGE = "java.base/java/util/concurrent/"
MAX_REPO_FILE = 1_000_000  # bytes: only a guard; no other size filter (small files count)


def _npm_sources(work: str) -> list[tuple[str, str]]:
    """``npm pack`` each package into ``work`` (needs the registry) and give its ``src`` tree."""
    found = []
    for spec in NPM_PACKAGES:
        name = spec.split("@")[0]
        target = os.path.join(work, name)
        try:
            os.makedirs(target, exist_ok=True)
            tarball = subprocess.run(["npm", "pack", spec, "--silent", "--pack-destination", target],
                                     capture_output=True, text=True, timeout=300, check=True).stdout.strip()
            subprocess.run(["tar", "xzf", os.path.join(target, tarball.splitlines()[-1]), "-C", target],
                           check=True, timeout=120)
        except (OSError, subprocess.SubprocessError, IndexError) as exc:
            print(f"  npm {spec}: skipped ({exc})", file=sys.stderr)
            continue
        found.append((name, os.path.join(target, "package", "src")))
    return found


def build_repos(out: str) -> dict:
    """Every file of a few whole repositories (whatever its size or language) that has a
    detected language and is text, grouped by language, in ``chunk-explorer``'s manifest form."""
    import site

    trees: list[tuple[str, str]] = []
    for root in site.getsitepackages():
        trees += [(name, os.path.join(root, name)) for name in PYTHON_PACKAGES if os.path.isdir(os.path.join(root, name))]
    trees += _npm_sources(os.path.join(out, ".npm"))
    manifest: dict = {"kind": "repositories", "repositories": [], "languages": {}}
    for name, tree in trees:
        if not os.path.isdir(tree):
            continue
        manifest["repositories"].append({"name": name, "root": tree})
        for dirpath, dirnames, filenames in os.walk(tree):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            for filename in sorted(filenames):
                path = os.path.join(dirpath, filename)
                st = os.lstat(path)
                if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_REPO_FILE:
                    continue
                with open(path, "rb") as handle:
                    data = handle.read()
                _add_repo_file(out, manifest, name, os.path.relpath(path, tree), path, data)
    jdk = [z for z in sorted(glob.glob("/usr/lib/jvm/*/lib/src.zip") + glob.glob("/usr/lib/jvm/*/src.zip"))
           if os.path.isfile(z)]  # (dangling links to removed JDKs happen)
    if jdk:
        manifest["repositories"].append({"name": "jdk-concurrent", "root": f"{jdk[0]}!{JDK_PACKAGE}"})
        with zipfile.ZipFile(jdk[0]) as archive:
            for info in sorted(archive.infolist(), key=lambda i: i.filename):
                if info.filename.startswith(JDK_PACKAGE) and not info.is_dir():
                    rel = info.filename[len(JDK_PACKAGE):]
                    _add_repo_file(out, manifest, "jdk-concurrent", rel, f"{jdk[0]}!{info.filename}", archive.read(info))
    with open(os.path.join(out, "manifest.json"), "w") as handle:
        json.dump(manifest, handle, indent=1)
    return manifest


def _add_repo_file(out: str, manifest: dict, repo: str, rel: str, origin: str, data: bytes) -> None:
    language = detect_language(rel, data[:256])
    if language is None or b"\x00" in data:
        return
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return
    name = os.path.join(repo, rel)
    os.makedirs(os.path.dirname(os.path.join(out, name)), exist_ok=True)
    with open(os.path.join(out, name), "wb") as handle:
        handle.write(data)
    entry = manifest["languages"].setdefault(language, {"bytes": 0, "files": []})
    entry["files"].append({"file": name, "origin": origin, "bytes": len(data)})
    entry["bytes"] += len(data)


def load_repos(out: str = DEFAULT_REPOS_OUT, *, force: bool = False) -> dict:
    """The whole-repositories corpus manifest, built on first use."""
    path = os.path.join(out, "manifest.json")
    if not force and os.path.exists(path):
        with open(path) as handle:
            return json.load(handle)
    if os.path.isdir(out) and os.listdir(out) and not os.path.exists(path):
        raise SystemExit(f"{out} is not empty and holds no corpus manifest: refusing to replace it")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    return build_repos(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=DEFAULT_OUT, help=f"corpus directory (default {DEFAULT_OUT})")
    parser.add_argument("--cap-mb", type=float, help=f"megabytes per language (default {DEFAULT_CAP_MB:g})")
    parser.add_argument("--force", action="store_true", help="rebuild even if the corpus exists")
    parser.add_argument("--repos", action="store_true",
                        help=f"build the whole-repositories corpus instead (default {DEFAULT_REPOS_OUT})")
    args = parser.parse_args()
    if args.repos:
        out = args.out if args.out != DEFAULT_OUT else DEFAULT_REPOS_OUT
        repos = load_repos(out, force=args.force)
        print(f"corpus of whole repositories in {out}: {', '.join(r['name'] for r in repos['repositories'])}")
        for language, info in sorted(repos["languages"].items(), key=lambda kv: -kv[1]["bytes"]):
            print(f"  {language:<11} {len(info['files']):>5} files  {info['bytes'] / 1e6:6.2f} MB")
        return
    manifest = load(args.out, args.cap_mb, force=args.force)
    print(f"corpus in {args.out}")
    for language, info in manifest["languages"].items():
        roots = sorted({f["origin"].split("!")[0] for f in info["files"]})
        where = os.path.commonpath(roots) if len(roots) > 1 else roots[0]
        print(f"  {language:<11} {len(info['files']):>5} files  {info['bytes'] / 1e6:6.2f} MB  from {where}")


if __name__ == "__main__":
    main()
