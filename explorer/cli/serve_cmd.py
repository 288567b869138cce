"""``chunk-explorer serve [PATH]``: the explorer in a browser, an app of its own for every
visitor (the server is :mod:`explorer.serve`; this module parses the flags, checks them
and prints the address)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import os
import secrets
import signal
import socket
import sys
from typing import TYPE_CHECKING

from ..workspace.confine import Confinement, PathRefused
from .errors import EXIT_FAILED, EXIT_OK, UsageError, require_extra
from .flag_types import positive_int
from .report import say
from .verbs import SUMMARIES

if TYPE_CHECKING:  # aiohttp and textual-serve are imported when the server starts
    from ..serve.visitors import ServeConfig

NAME = "serve"
HELP = SUMMARIES[NAME]
DESCRIPTION = """\
Serve the explorer on PATH to web browsers: every visitor gets an explorer process of
their own (textual-serve relays it to xterm.js in the page). It listens on 127.0.0.1
unless --host says otherwise, and prints the address to open, with its token.

Safe on a classroom network:
  - every address needs the token (a random one unless --token; --no-token drops it);
  - the apps read only files under PATH: a URL's ?open=FILE outside it is refused
    (403), and so is any file the app is asked to open outside it, through a link too;
  - the apps write only into --write-to DIR (exports, saved settings, caches); without
    it they write nothing; screenshots download to the visitor's browser;
  - each app runs whole-tree work on one core, and ends when the server ends, however
    the server is stopped;
  - the page loads nothing from the internet (the font ships with textual-serve).
--teach FILE starts every visitor in teach mode on FILE, in its presentation layout.
A URL may name the file to open first: http://HOST:PORT/?token=T&open=src/app.py

The explorer's chunking, walk and settings flags (see `chunk-explorer . --help`) are
passed to every visitor's app.

exit status: 0 stopped, 1 the address could not be used, 2 usage error."""

#: Visitors at once when --max-visitors is not given (see docs/serving.md for what each costs).
DEFAULT_MAX_VISITORS = 30


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    # PATH and the explorer's flags are the explorer's parser's (explorer_args), passed on as typed.
    parser = subparsers.add_parser(NAME, help=HELP, description=DESCRIPTION, allow_abbrev=False,
                                   usage="chunk-explorer serve [PATH] [options] [the explorer's flags]",
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1",
                        help="the address to listen on (default 127.0.0.1; 0.0.0.0 for every network)")
    parser.add_argument("--port", type=int, default=8000, help="the port (default 8000; 0: any free one)")
    parser.add_argument("--token", metavar="TEXT", help="the token every address must carry (default: a random one)")
    parser.add_argument("--no-token", action="store_true", help="no token: anyone who reaches the port may use it")
    parser.add_argument("--write-to", metavar="DIR",
                        help="the one folder the apps may write into (exports, saved settings, caches)")
    parser.add_argument("--teach", metavar="FILE", help="start every visitor in teach mode on FILE (under PATH)")
    parser.add_argument("--max-visitors", type=positive_int, default=DEFAULT_MAX_VISITORS, metavar="N",
                        help=f"apps running at once (default {DEFAULT_MAX_VISITORS})")
    parser.add_argument("--fontsize", type=positive_int, default=16, metavar="PX",
                        help="the terminal's font size in the page (default 16; ?fontsize= overrides it)")
    parser.set_defaults(run=run, explorer_flags=True)
    return parser


def run(args: argparse.Namespace) -> int:
    from ..serve.visitors import ServeConfig

    require_extra("serve", "textual_serve", "aiohttp")
    config = _config(args)
    try:
        listener = _listen(config.host, config.port)
    except OSError as exc:
        say(f"error: cannot listen on {config.host}:{config.port}: {exc.strerror or exc}")
        return EXIT_FAILED
    port = listener.getsockname()[1]
    config = ServeConfig(**{**{f: getattr(config, f) for f in config.__dataclass_fields__}, "port": port})
    for line in _announce(config, args.fontsize):
        print(line, flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_serve(config, listener))
    return EXIT_OK


def _config(args: argparse.Namespace) -> ServeConfig:
    from ..serve.visitors import ServeConfig
    from .explorer_args import parse_explorer_args

    # The explorer's own flags: checked now (a mistake fails here, not in every visitor's app).
    launch = parse_explorer_args(args.explorer_argv)
    path = launch.path
    if not os.path.isdir(path):
        raise UsageError(f"serve {path}: not a directory; serve the folder that holds the code")
    # Passed as typed: the apps run in the server's folder, so a relative PATH means the same there.
    flags = list(args.explorer_argv)
    if args.token is not None and args.no_token:
        raise UsageError("--token and --no-token: choose one")
    if args.token is not None and not args.token.strip():
        raise UsageError("--token: give a non-empty text")
    write_to = None
    if args.write_to is not None:
        write_to = os.path.abspath(args.write_to)
        if not os.path.isdir(write_to):
            raise UsageError(f"--write-to {args.write_to}: not a directory; create it first")
        if not os.access(write_to, os.W_OK | os.X_OK):
            raise UsageError(f"--write-to {args.write_to}: not writable")
    confinement = Confinement.of(path, write_to)
    if write_to is not None and confinement.read_refusal(write_to) is None:
        raise UsageError(f"--write-to {args.write_to}: inside the served folder; name a folder outside it, "
                         "so the apps never write where they read")
    teach = None
    if args.teach is not None:
        try:
            teach = confinement.readable(os.path.abspath(args.teach))
        except PathRefused as exc:
            raise UsageError(f"--teach: {exc}") from None
    token = None if args.no_token else (args.token or secrets.token_urlsafe(12))
    return ServeConfig(confinement, host=args.host, port=args.port, token=token, teach=teach,
                       max_visitors=args.max_visitors, explorer_args=tuple(flags))


def _listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((host, port))
    listener.listen(128)
    listener.setblocking(False)
    return listener


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def _announce(config: ServeConfig, font_size: int) -> list[str]:
    query = [f"token={config.token}"] if config.token else []
    if font_size != 16:
        query.append(f"fontsize={font_size}")
    suffix = "/" + ("?" + "&".join(query) if query else "")
    host = config.host if ":" not in config.host else f"[{config.host}]"
    lines = [f"Serving {config.root} at http://{host}:{config.port}{suffix}"]
    if config.host in ("0.0.0.0", "::"):
        lines.append("  (every network of this machine: use its address, e.g. "
                     f"http://{socket.gethostname()}:{config.port}{suffix})")
    elif not _is_loopback(config.host):
        lines.append("  (reachable from the network: share the address with its token)")
    write = config.confinement.write_dir
    lines.append(f"Apps write {'into ' + write if write else 'nothing (no --write-to)'}; "
                 f"at most {config.max_visitors} visitors at once. Ctrl+C stops the server and every app.")
    if config.token is None and not _is_loopback(config.host):
        lines.append("Warning: no token: anyone who reaches this port can use the explorer.")
    return lines


async def _serve(config: ServeConfig, listener: socket.socket) -> None:
    from aiohttp import web

    from ..serve.server import build_app
    from ..serve.visitors import app_environment

    # The visitors' apps inherit the server's environment (textual-serve copies it).
    os.environ.update(app_environment(config))
    runner = web.AppRunner(build_app(config), handle_signals=False, access_log=None)
    await runner.setup()
    site = web.SockSite(runner, listener, shutdown_timeout=2.0)
    await site.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(signum, stop.set)
    try:
        await stop.wait()
    finally:
        print("Stopping: every app is asked to quit.", file=sys.stderr, flush=True)
        await runner.cleanup()
