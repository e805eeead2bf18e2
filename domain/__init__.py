"""The rules of the four Danger games, pure: no I/O, clock or randomness source."""
