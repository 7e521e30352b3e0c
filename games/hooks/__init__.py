"""What other apps plug into the tables without games knowing them: the coins' escrow of
stake tables, what a finished table paid each player, notes on every seat (a rating's
change), and which accounts sit apart.  Each app registers here when it starts."""
