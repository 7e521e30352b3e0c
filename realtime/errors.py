"""What ends a consumer after it has closed itself down (imported by the log's set-up
too, before the apps are loaded: it imports nothing)."""


class ClosedOnError(Exception):
    """Raised by a consumer once it has logged the error that ended it and given back
    what it held: daphne then closes the socket with 1011 ("internal error", after
    which htmx's websocket extension reconnects).  An application cannot send that
    code itself: daphne's autobahn allows 1000 and 3000-4999 only."""
