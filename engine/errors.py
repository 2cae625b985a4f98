"""Errors raised while a game runs (content mistakes found only at run time)."""

from __future__ import annotations


class RuleError(Exception):
    """A rule could not be carried out; `where` is the DSL text's file:line:col."""

    code = "RUN001"

    def __init__(self, message: str, where: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.where = where

    def __str__(self) -> str:
        return f"{self.where}: error: {self.message} [{self.code}]" if self.where else self.message


# Python errors a content mistake can cause in generated code (bad arithmetic, a missing key, a wrong type)
CONTENT_FAULTS = (ArithmeticError, LookupError, TypeError, ValueError, AttributeError)


def locate_error(exc: Exception, where: str) -> RuleError:
    """The error to raise for `exc` at `where`: a RuleError keeps the innermost position it already has."""
    if isinstance(exc, RuleError):
        if exc.where is None:
            exc.where = where
        return exc
    return RuleError(f"{type(exc).__name__}: {exc}", where)


class StopLoop(BaseException):
    """Raised by the `stop` statement; caught by the innermost repeat."""


class GameOver(BaseException):
    """Raised by `end_game`: the game ends at once (scoring still runs)."""
