"""Input widths that follow the parts: a part builds what it feeds with the sum of the widths it concatenates, and a
width a config still gives is checked against them, in words that name both parts."""

from typing import Any, Optional


def width_mismatch(given: Any, widths: dict[str, int], feeder: str) -> Optional[str]:
    """Why a given input width does not fit (None where it does, or where none is given).

    # Parameters

    given : the width a config gives (None: none).
    widths : what `feeder` concatenates for the input, by name: `{"words": 384, "predicate embedding": 32}`.
    feeder : the part that feeds the input, `"the frame scorer"`.
    """
    width = sum(widths.values())
    if given is None or given == width:
        return None
    fed = " + ".join(f"{name} {value}" for name, value in widths.items())
    return f"{given}, but {feeder} feeds it {width} ({fed})"
