"""Articles before a monster's name, in one place: "the Ghoul", but "The Unlit" (a name that brings its own).

The engine needs them only for its refusal reasons; :mod:`undercroft.narrate` uses them for every sentence.
"""

from __future__ import annotations


def owns_article(name: str) -> bool:
    """Whether a name brings its own article ("The Unlit", "The Patient One")."""
    return name.startswith("The ")


def the(name: str) -> str:
    """'the Ghoul', but 'The Unlit'."""
    return name if owns_article(name) else f"the {name}"


def The(name: str) -> str:
    """'The Ghoul', and 'The Unlit'."""
    return name if owns_article(name) else f"The {name}"


def a_name(name: str) -> str:
    """'A Ghoul', 'An Orc', 'The Unlit'."""
    if owns_article(name):
        return name
    return f"{'An' if name[0].lower() in 'aeiou' else 'A'} {name}"
