"""``chunk-explorer serve``: the explorer in a browser, an app process per visitor.

The HTTP layer is our own small aiohttp application (:mod:`.server`): the page
(:mod:`.page`, our template: no web font from the internet, the Roboto Mono that
textual-serve ships is served from here), a token in the URL, a one-time ticket per page
load for the websocket, a check of every file a URL names against PATH, and a cap on
visitors. Each websocket drives one explorer process through textual-serve's
``AppService`` (the relay between the browser's xterm.js and Textual's web driver);
:mod:`.visitors` builds that process's command line and environment. Nothing here
imports Textual: the explorer runs in the child processes only.
"""
