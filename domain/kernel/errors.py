"""Refusals the rules give, with a stable machine code."""


class RuleViolation(Exception):
    """A command the rules forbid now. `code` is stable; `message` is for a player."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class InvalidOptions(ValueError):
    """Options (or a sandbox deck) that no game can be set up with."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
