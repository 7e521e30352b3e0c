"""What the site's live pages share, whatever they show: the websocket consumer
base (its viewer, its limits, its heartbeat, its close-down), slots counted in the
cache, and group messages sent once the transaction commits.  Apps build their
consumers and their messages on it (``games``: tables and invitations;
``matchmaking``: waiting screens); it knows none of them."""
