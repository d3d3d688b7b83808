"""Text that can be written out: a lone surrogate (from `\\udXXX` escapes, `surrogateescape` decoding
or broken JSON) cannot be encoded as UTF-8, and spaCy, the writers and the JSON output all fail on it."""

import unicodedata
from collections.abc import Sequence


def unencodable_offset(text: str) -> int:
    """The character offset of the first character of `text` that UTF-8 cannot encode, or -1."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        return error.start
    return -1


def check_encodable(text: str, where: str) -> None:
    """`ValueError` naming `where` (e.g. "text 3") and the character offset when `text` holds a
    character UTF-8 cannot encode (a lone surrogate)."""
    offset = unencodable_offset(text)
    if offset >= 0:
        raise ValueError(
            f"{where}: character {offset} ({text[offset]!r}) cannot be encoded as UTF-8 "
            "(a lone surrogate?): remove it or decode the input with errors='replace'"
        )


def check_encodable_tokens(tokens: Sequence[str], where: str) -> None:
    """`check_encodable` for each token, naming the token's index and its character offset."""
    for index, token in enumerate(tokens):
        if isinstance(token, str):
            check_encodable(token, f"{where}token {index}")


#: Unicode categories of characters that show nothing: controls, format characters (zero-width space and
#: joiners, the byte-order mark) and separators
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Zs", "Zl", "Zp"})


def is_invisible(token: str) -> bool:
    """Whether `token` is made only of control, zero-width or space characters (nothing a model can label)."""
    return all(unicodedata.category(character) in INVISIBLE_CATEGORIES for character in token)


def check_visible_tokens(tokens: Sequence[str], where: str) -> None:
    """`ValueError` naming the first token (by index) made only of control or zero-width characters."""
    for index, token in enumerate(tokens):
        if isinstance(token, str) and is_invisible(token):
            raise ValueError(f"{where}token {index} ({token!r}) is only control or zero-width characters: remove it")
