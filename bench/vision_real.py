"""Screenshot import on real screenshots: every picture of DIR that has a truth file is read as
`cpflow import` reads it (cpflow.workflows.shots.read_shot) and judged against its truth.

The truth files are in tests/screenshots/ (or --truth): FOLDER/FILE.txt beside DIR/FOLDER/FILE,
the puzzle in cpflow's own format, or the word `refuse` for a picture cpflow must refuse (a Flow
Free: Shapes board, a menu with no board); FOLDER/FILE.play.txt, when the picture shows pipes, the
play as `cpflow import --play` writes it (the whole solution on a solved picture); pictures.txt
names each picture's look (phone, tablet, desktop, old, colour-blind, crop, tiny, promo) and state
(unsolved, half played, solved). A reading is
- exact: the board (size, shape, holes, walls, warps, bridges), the pairs of endpoint cells and
  every pipe drawn match; for a `refuse` truth, the picture refused in one line;
- refused: refused in one line (no board written), or the board right and the pipes right but
  for cells the reading said it was unsure of and left out;
- wrong: a board or a play written that is not the picture's (the worst outcome), or a refusal
  longer than one line.

    python bench/vision_real.py ../shared/screenshots/real [--truth tests/screenshots] [--save]

--save also writes the output to docs/figures/vision_real.md, which docs quote.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from common import ROOT, recorded, saving

from cpflow.board.formats import parse, parse_play
from cpflow.board.grid import Puzzle, cell_of
from cpflow.errors import ScreenshotUnreadable

TRUTH = ROOT / "tests" / "screenshots"
REFUSE = "refuse"
KINDS = ("square", "holes", "walls", "hexagons", "refuse")
STATES = ("unsolved", "half", "solved", "-")


@dataclass(frozen=True)
class Case:
    """A picture and its truth: the puzzle (None: refuse), the play drawn, its look and state."""

    name: str  # FOLDER/FILE
    picture: Path
    puzzle: Puzzle | None
    drawn: dict
    look: str
    state: str

    @property
    def kind(self) -> str:
        if self.puzzle is None:
            return "refuse"
        if self.puzzle.shape == "hex":
            return "hexagons"
        return "walls" if self.puzzle.walls() else "holes" if self.puzzle.holes() else "square"


@dataclass(frozen=True)
class Verdict:
    outcome: str  # exact, refused or wrong
    seconds: float
    detail: str  # what was said, or what differs


def cases(pictures: Path, truth: Path = TRUTH) -> list[Case]:
    """Every picture of `pictures` named in truth/pictures.txt, with its truth."""
    found = []
    for line in (truth / "pictures.txt").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, look, state = line.split()[:3]
        text = (truth / f"{name}.txt").read_text()
        puzzle = None if text.strip() == REFUSE else parse(text, f"{name}.txt")[0]
        play = truth / f"{name}.play.txt"
        drawn = parse_play(puzzle, play.read_text(), str(play)) if puzzle and play.exists() else {}
        found.append(Case(name, pictures / name, puzzle, drawn, look, state))
    return found


def judge(case: Case) -> Verdict:
    """Read the picture as `cpflow import` does and judge the reading against the truth."""
    from cpflow.workflows.shots import read_shot

    began = time.perf_counter()
    try:
        reading = read_shot(case.picture)
    except ScreenshotUnreadable as error:
        seconds, said = time.perf_counter() - began, str(error).split(": ", 1)[-1]
        if "\n" in str(error):
            return Verdict("wrong", seconds, f"refused in {str(error).count(chr(10)) + 1} lines")
        return Verdict("exact" if case.puzzle is None else "refused", seconds, said)
    seconds, found = time.perf_counter() - began, reading.puzzle
    if case.puzzle is None:
        return Verdict("wrong", seconds, f"read a {found.width}x{found.height} board it must refuse")
    differs = _board_differs(case.puzzle, found)
    if differs:
        return Verdict("wrong", seconds, differs)
    names = {frozenset(cell_of(n) for n in ends): colour for colour, ends in case.puzzle.endpoints.items()}
    own = {colour: names[frozenset(cell_of(n) for n in ends)] for colour, ends in found.endpoints.items()}
    drawn = {node: own[colour] for node, colour in reading.play.drawn.items()}
    wrong = {n for n in set(drawn) | set(case.drawn) if drawn.get(n) != case.drawn.get(n)}
    if not wrong:
        return Verdict("exact", seconds, "")
    unsure = set(reading.play.unsure)
    if all(cell_of(n) in unsure and n not in drawn for n in wrong):
        return Verdict("refused", seconds, f"unsure of {len(wrong)} pipe cells, left out")
    return Verdict("wrong", seconds, f"play: {len(wrong)} cells differ")


def _board_differs(truth: Puzzle, found: Puzzle) -> str:
    """What differs between the two boards, in a few words ('' when they are the same)."""
    from vision_kinds import board_of  # the board up to the colours' names (it imports OpenCV)

    a, b = board_of(truth), board_of(found)
    if a == b:
        return ""
    if a[:3] != b[:3]:
        return f"read {b[0]}x{b[1]} {b[2]} for {a[0]}x{a[1]} {a[2]}"
    what = ("holes", "walls", "warps", "bridges", "dots")
    return "wrong " + ", ".join(w for w, x, y in zip(what, a[3:], b[3:], strict=True) if x != y)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pictures", type=Path, metavar="DIR", help="the real screenshots (../shared/screenshots/real)")
    parser.add_argument("--truth", type=Path, default=TRUTH, help="the truth files (tests/screenshots)")
    saving(parser)
    args = parser.parse_args()
    with recorded("vision_real", args.save):
        measure(cases(args.pictures, args.truth))


def measure(found: list[Case]) -> None:
    """A row per picture, then the counts by kind and state, by look, and the time per picture."""
    from cpflow.vision import screenshot  # noqa: F401  (OpenCV's import is not any picture's time)

    print("| picture | kind | look | state | outcome | seconds | what was said or differs |")
    print("|---|---|---|---|---|---|---|")
    verdicts = []
    for case in found:
        verdict = judge(case)
        verdicts.append((case, verdict))
        detail = verdict.detail.replace("|", "/")
        print(
            f"| {case.name} | {case.kind} | {case.look} | {case.state} | {verdict.outcome} "
            f"| {verdict.seconds:.3f} | {detail} |",
            flush=True,
        )
    print("\n| kind | state | pictures | exact | refused in one line | wrong |")
    print("|---|---|---|---|---|---|")
    for kind in KINDS:
        for state in STATES:
            counts = Counter(v.outcome for c, v in verdicts if c.kind == kind and c.state == state)
            if counts:
                print(_counts_row(f"{kind} | {state}", counts))
    print(_counts_row("all | all", Counter(v.outcome for _, v in verdicts)))
    print("\n| look | pictures | exact | refused in one line | wrong |")
    print("|---|---|---|---|---|")
    for look in sorted({c.look for c in found}):
        print(_counts_row(look, Counter(v.outcome for c, v in verdicts if c.look == look)))
    seconds = [v.seconds for _, v in verdicts]
    worst = max(verdicts, key=lambda cv: cv[1].seconds)
    total = Counter(v.outcome for _, v in verdicts)
    print(
        f"\n{len(verdicts)} pictures: {total['exact']} exact ({100 * total['exact'] / len(verdicts):.0f} %), "
        f"{total['refused']} refused in one line, {total['wrong']} wrong; seconds per picture (decoding "
        f"included, in-process): median {statistics.median(seconds):.3f}, worst {worst[1].seconds:.3f} "
        f"({worst[0].name})"
    )


def _counts_row(label: str, counts: Counter) -> str:
    return f"| {label} | {counts.total()} | {counts['exact']} | {counts['refused']} | {counts['wrong']} |"


if __name__ == "__main__":
    main()
