"""Articles before a monster's name, in one place: "the Ghoul", but "The Unlit" (a name that brings its own); and
several of a monster: "the Bandits" (:func:`plural_name`).

The engine itself words nothing; :mod:`undercroft.narrate` uses them for every sentence, and the screens and the
summaries of recordings for theirs.
"""

from __future__ import annotations


def owns_article(name: str) -> bool:
    """Whether a name brings its own article ("The Unlit", "The Patient One")."""
    return name.startswith("The ")


def the(name: str) -> str:
    """'the Ghoul', and 'the Unlit' (its own article, mid-sentence)."""
    return f"the {name[4:]}" if owns_article(name) else f"the {name}"


def The(name: str) -> str:
    """'The Ghoul', and 'The Unlit'."""
    return name if owns_article(name) else f"The {name}"


def a_name(name: str) -> str:
    """'A Ghoul', 'An Orc', 'The Unlit'; one of a monster whose name names several, by its :func:`one_name`:
    'A Sump Leech' (never 'A Sump Leeches')."""
    if owns_article(name):
        return name
    name = one_name(name)
    return f"{'An' if name[0].lower() in 'aeiou' else 'A'} {name}"


def names_several(name: str) -> bool:
    """Whether a name already names several: its last word ends in a single "s" ("Sump Leeches"; not "Empty
    Harness", "Incubus", "Ibis"), and it brings no article of its own."""
    last = name.rsplit(" ", 1)[-1].lower()
    return not owns_article(name) and last.endswith("s") and not last.endswith(("ss", "us", "is"))


def one_name(name: str) -> str:
    """One of a monster whose name names several (:func:`names_several`): "es" off after ch, sh, x, z and s
    ("Sump Leeches": "Sump Leech"), else "s" off; any other name as it is."""
    if not names_several(name):
        return name
    return name[:-2] if name.lower().endswith(("ches", "shes", "xes", "zes", "sses")) else name[:-1]


def plural_name(name: str, plural: str | None = None) -> str:
    """Several of a monster: its data's ``plural`` when it has one; else the name itself when it names several
    already (:func:`names_several`: "Sump Leeches") or one of a kind ("The Unlit"); else with "es" after s, x, z,
    ch and sh ("Empty Harnesses"), else with "s" ("Bandits")."""
    if plural:
        return plural
    if owns_article(name) or names_several(name):
        return name
    last = name.rsplit(" ", 1)[-1].lower()
    return name + ("es" if last.endswith(("s", "x", "z", "ch", "sh")) else "s")


def group_name(name: str, plural: str | None, count: int) -> tuple[str, bool]:
    """How a group of ``count`` of a monster is named (its :func:`plural_name` for several, its :func:`one_name`
    for one: "the Sump Leech is defeated"), and whether it is several (for the words that agree with it: "does" /
    "do")."""
    many = count > 1
    return (plural_name(name, plural) if many else one_name(name)), many
