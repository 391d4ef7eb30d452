"""placeholder"""

from __future__ import annotations

from typing import NamedTuple


class Explanation(NamedTuple):
    text: str
    example: str
    fix: str

    def help_text(self) -> str:
        return f"{self.text}\n\nExample:\n{self.example}\n\nHow to fix: {self.fix}"

    def help_markdown(self) -> str:
        return f"{self.text}\n\n**Example**\n\n```\n{self.example}\n```\n\n**How to fix**: {self.fix}"


EXPLANATIONS: dict[str, Explanation] = {}


def explanation(code: str) -> Explanation | None:
    return EXPLANATIONS.get(code)
