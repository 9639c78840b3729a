"""The tiny sweep the sweep tests share: 2 fleets × 2 policies × 2 seeds of the paper's 5-node
airport, one hour each (8 days in about a second)."""

TINY = """
[sweep]
seeds = 2
variant = "cpu-linear"

[factors]
layout = "paper-5"
fleet = [1, 2]
policy = ["shortest-path", "baseline"]
hours = 1
"""


def tiny(tmp_path, text=TINY):
    """The sweep file ``text`` written as tmp_path/tiny.toml; its path."""
    path = tmp_path / "tiny.toml"
    path.write_text(text)
    return path
