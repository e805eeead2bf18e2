"""`danger`: the command line."""
