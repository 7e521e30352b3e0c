"""Finished games: the profile's list, replays, records, deals' proofs and the coach."""
