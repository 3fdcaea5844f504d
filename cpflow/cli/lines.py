"""Lines of text for people, on stdout and stderr, with what came from outside made harmless.

A file's name, or a puzzle's name taken from it, may hold control characters: a terminal
obeys an escape sequence in one (colours, a cleared screen, a window's title), and a newline
splits a `-q` line in two. Every line the CLI prints about a puzzle or a file goes through
`shown`, which writes each such character as Python does in a string (`\\x1b`, `\\n`,
`\\u202e`); the JSON output carries names as they are (JSON escapes them itself).
"""

from __future__ import annotations

import sys
import unicodedata

# Control characters, format characters (the bidirectional overrides among them) and the
# line and paragraph separators: none belongs in one line of text as it is.
UNSHOWN = frozenset({"Cc", "Cf", "Zl", "Zp"})


def shown(line: str) -> str:
    """The line with each control character escaped, e.g. `a\\x1b[2Jb.txt` for a name holding ESC."""
    if line.isprintable():
        return line
    return "".join(repr(ch)[1:-1] if unicodedata.category(ch) in UNSHOWN else ch for ch in line)


def version() -> str:
    """What `cpflow --version` prints."""
    from cpflow import __version__

    return f"cpflow {__version__}"


def say(line: str) -> None:
    """A line on stdout: an answer."""
    print(shown(line))


def stderr(line: str) -> None:
    """A line on stderr (a failure, a summary), so that stdout holds only answers."""
    print(shown(line), file=sys.stderr)
