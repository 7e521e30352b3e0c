"""The table page's live connection: consumers, websocket commands, presence,
announcements after the commit, shared fragments and frames."""
