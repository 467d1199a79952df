"""Models the bots learned from data, with plain numpy inference."""
