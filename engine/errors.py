"""The engine's error classes: `CogworkError` is the one base every error it means to raise shares.

Below it: `PackError` (engine.diagnostics: a pack, log or scenario that cannot be used, with
positioned diagnostics), `RuleError` (a rule that cannot be carried out while a match runs) and
`MoveError` (an answer the match cannot take: not a legal option, or the match is over).
"""

from __future__ import annotations


class CogworkError(Exception):
    """The base of every error the engine raises on purpose (catch this one at an embedding's edge)."""


class MoveError(CogworkError):
    """An answer a match cannot take: no such option, no decision pending, or the match is busy."""


class RuleError(CogworkError):
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
