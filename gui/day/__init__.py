"""The live simulated day: its worker thread, the player that animates it, its panel and plots."""
