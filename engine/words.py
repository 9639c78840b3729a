"""Counts in words, for every message the app and the commands print: "1 tug", "2 tugs"."""


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun``, the plural (``noun + "s"`` unless given) unless ``n`` is 1."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def node_label(airport, node_id: str) -> str:
    """How every window names a node: the layout's name, with its id where that differs (the id
    is what scenario and sweep files use)."""
    try:
        name = airport.node(node_id).name
    except (AttributeError, KeyError):   # no airport, or a node it lacks: the id says it
        return node_id
    return name if name == node_id else f"{name} ({node_id})"
