"""Errors raised while a game runs (content mistakes found only at run time)."""

from __future__ import annotations


class RuleError(Exception):
    """A rule could not be carried out; `where` is the DSL text's file:line:col."""

    def __init__(self, message: str, where: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.where = where

    def __str__(self) -> str:
        return f"{self.where}: error: {self.message} [RUN001]" if self.where else self.message


class StopLoop(BaseException):
    """Raised by the `stop` statement; caught by the innermost repeat."""


class GameOver(BaseException):
    """Raised by `end_game`: the game ends at once (scoring still runs)."""
