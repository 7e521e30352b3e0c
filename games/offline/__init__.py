"""The game against the computer with no connection: the browser's side of it.

This package runs in the browser, under Pyodide (CPython in WebAssembly), in the
offline page's Web Worker (``static/offline/worker.js``): it holds a match of the
engine (``games.engine``, the very package the server plays with), lets the
computer's seats decide with the engine's bots, and draws the table with the
server's own live templates (``templates/regions/``) through Jinja2.  No Django:
``django_shim`` answers the few calls to Django's translations that the shared
modules make.  The server never hears of these games: no coins, no XP.
"""
