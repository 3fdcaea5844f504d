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

    python bench/vision_real.py ../shared/screenshots/real [--truth tests/screenshots] [--against COMMIT] [--save]

Seconds are a picture's `read_shot`, decoding included, in-process (OpenCV imported before), on the
wall clock and in CPU time (the process's, OpenCV's threads included: what a load on the machine
does not add to); a table gives their median and worst by the picture's size. With `--against
COMMIT` (or a folder holding a copy of cpflow/), that cpflow reads each picture too, in a process of
its own, in turn with this one (which goes first alternates), so that both meet the same load: its
outcome and seconds beside ours. A last table times whole `cpflow import` commands on an unsolved
picture of each phone size, beside what starting costs (Python, the imports, OpenCV's Lab tables).
A confidence table sets the least confidence of a cell (cpflow.vision.confidence) of the boards written
exact against the readings refused for it or wrong: each picture refused is read again with the threshold
set aside, so that its confidence is seen too (its outcome is the first reading's, as `cpflow import`'s).
--save also writes the output to docs/figures/vision_real.md, which docs quote.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from common import ROOT, package_at, recorded, saving

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
    cpu: float = 0.0  # the process's CPU seconds over the same (OpenCV's threads included; a load does not add)
    least: float | None = None  # the reading's least confidence of a cell (None: refused before it was known)


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
    began = time.process_time()
    verdict = _judged(case)
    return replace(verdict, cpu=time.process_time() - began)


def _judged(case: Case) -> Verdict:
    from cpflow.workflows.shots import read_shot

    began = time.perf_counter()
    try:
        reading = read_shot(case.picture)
    except ScreenshotUnreadable as error:
        seconds, said = time.perf_counter() - began, str(error).split(": ", 1)[-1]
        if "\n" in str(error):
            return Verdict("wrong", seconds, f"refused in {str(error).count(chr(10)) + 1} lines")
        return Verdict("exact" if case.puzzle is None else "refused", seconds, said, least=_least(case.picture))
    verdict = _compared(case, reading, time.perf_counter() - began)
    sure = getattr(reading, "confidence", None)  # None: an older cpflow, read --against
    return replace(verdict, least=min(sure.values(), default=None) if sure else None)


def _least(picture: Path) -> float | None:
    """The least confidence of a cell of a reading refused, read again with the threshold set aside (None when
    the reading is refused before any confidence, or the cpflow read has none). The outcome is the reading's as
    `cpflow import` reads it: a pass refused for its confidence is read again on thin lines, which the reading
    with the threshold set aside does not do."""
    from cpflow.workflows.shots import read_shot

    with _unheld() as confidence:
        if confidence is None:
            return None
        try:
            reading = read_shot(picture)
        except ScreenshotUnreadable:
            return None
    return min(reading.confidence.values(), default=None) if reading.confidence else None


@contextmanager
def _unheld():
    """The reading's threshold of confidence (cpflow.vision.confidence.SURE) set aside while it reads, so that
    the confidence of a reading it refuses for it is seen too; the module, or None for a cpflow without it."""
    try:
        from cpflow.vision import confidence
    except ImportError:  # an older cpflow, read --against
        yield None
        return
    held, confidence.SURE = confidence.SURE, -1.0
    try:
        yield confidence
    finally:
        confidence.SURE = held


def _compared(case: Case, reading, seconds: float) -> Verdict:
    """A reading judged against the truth."""
    found = reading.puzzle
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
    parser.add_argument("--against", metavar="COMMIT", help="a commit (or a folder with cpflow/) read beside")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)  # the process of --against
    saving(parser)
    args = parser.parse_args()
    found = cases(args.pictures, args.truth)
    if args.serve:
        serve(found)
        return
    old = Against(args.against, args.pictures, args.truth) if args.against else None
    with recorded("vision_real", args.save, f"beside {args.against}" if old else ""):
        measure(found, old)
        start_up(found)


class Against:
    """Another cpflow (a commit's, or a folder's cpflow/) judging pictures in a process of its own
    (this script with --serve, that cpflow first on its path): a case's index in, its verdict out."""

    def __init__(self, against: str, pictures: Path, truth: Path):
        self.name = against
        self.folder = package_at(against)
        command = [sys.executable, __file__, str(pictures), "--truth", str(truth), "--serve"]
        environment = {**os.environ, "PYTHONPATH": str(self.folder)}
        pipes = {"stdin": subprocess.PIPE, "stdout": subprocess.PIPE}
        self.process = subprocess.Popen(command, **pipes, text=True, env=environment)

    def judge(self, index: int) -> Verdict:
        assert self.process.stdin and self.process.stdout
        print(index, file=self.process.stdin, flush=True)
        return Verdict(**json.loads(self.process.stdout.readline()))

    def close(self) -> None:
        if self.process.stdin:
            self.process.stdin.close()
        self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


def serve(found: list[Case]) -> None:
    """Judge the cases named by index on stdin, a verdict (JSON) a line on stdout (see Against)."""
    from cpflow.vision import screenshot  # noqa: F401  (as in measure)

    for line in sys.stdin:
        verdict = judge(found[int(line)])
        print(json.dumps(verdict.__dict__), flush=True)


def measure(found: list[Case], old: Against | None = None) -> None:
    """A row per picture, then the counts by kind and state, by look, and the time per picture
    (by size too; with `old`, its outcome and seconds beside ours)."""
    from cpflow.vision import screenshot  # noqa: F401  (OpenCV's import is not any picture's time)

    beside = ["outcome at " + old.name, "seconds at " + old.name] if old else []
    head = ["picture", "kind", "look", "state", "outcome", "seconds", *beside, "what was said or differs"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    verdicts, befores = [], []
    for index, case in enumerate(found):
        if old and index % 2:
            befores.append(old.judge(index))
        verdict = judge(case)
        if old and not index % 2:
            befores.append(old.judge(index))
        verdicts.append((case, verdict))
        detail = verdict.detail.replace("|", "/")
        then = [befores[-1].outcome, f"{befores[-1].seconds:.3f}"] if old else []
        row = [case.name, case.kind, case.look, case.state, verdict.outcome, f"{verdict.seconds:.3f}", *then, detail]
        print("| " + " | ".join(row) + " |", flush=True)
    if old:
        old.close()
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
    confidences(verdicts)
    by_size(found, [v for _, v in verdicts], befores, old.name if old else "")
    if old:
        changed = [(c.name, b.outcome, v.outcome) for (c, v), b in zip(verdicts, befores, strict=True)]
        changed = [f"{name} {b} -> {a}" for name, b, a in changed if a != b]
        print(f"\noutcomes that differ from {old.name}: " + ("; ".join(changed) if changed else "none"))
    seconds = [v.seconds for _, v in verdicts]
    worst = max(verdicts, key=lambda cv: cv[1].seconds)
    total = Counter(v.outcome for _, v in verdicts)
    print(
        f"\n{len(verdicts)} pictures: {total['exact']} exact ({100 * total['exact'] / len(verdicts):.0f} %), "
        f"{total['refused']} refused in one line, {total['wrong']} wrong; seconds per picture (decoding "
        f"included, in-process): median {statistics.median(seconds):.3f}, worst {worst[1].seconds:.3f} "
        f"({worst[0].name}); CPU seconds: median {statistics.median(v.cpu for _, v in verdicts):.3f}, "
        f"worst {max(v.cpu for _, v in verdicts):.3f}"
    )
    if befores:
        then = max(zip(found, befores, strict=True), key=lambda cb: cb[1].seconds)
        print(
            f"at {old.name if old else ''}: median {statistics.median(b.seconds for b in befores):.3f}, "
            f"worst {then[1].seconds:.3f} ({then[0].name}); CPU seconds: median "
            f"{statistics.median(b.cpu for b in befores):.3f}, worst {max(b.cpu for b in befores):.3f}"
        )


def confidences(verdicts: list[tuple[Case, Verdict]]) -> None:
    """Whether the threshold of confidence separates: the lowest least confidence among the boards written
    exact against the highest among the readings refused for it or wrong (a board the picture does not show)."""
    from cpflow.vision.confidence import SURE

    labels = (
        "board written, exact",
        "refused for its confidence, or wrong",
        "board right, pipe cells left out as unsure",
        "refused before any confidence (no board, no pairs)",
    )
    groups: dict[str, list[tuple[float, str]]] = {label: [] for label in labels}
    for case, verdict in verdicts:
        least = verdict.least
        if least is None:
            label = labels[3]
        elif least < SURE or verdict.outcome == "wrong":
            label = labels[1]
        else:
            label = labels[0] if verdict.outcome == "exact" else labels[2]
        groups[label].append((-1.0 if least is None else least, case.name))
    print(f"\n| readings (threshold {SURE}) | pictures | least confidence: lowest | highest |\n|---|---|---|---|")
    for label, group in groups.items():
        known = sorted(group) if label != labels[3] else []
        low, high = (f"{known[0][0]:.3f} ({known[0][1]})", f"{known[-1][0]:.3f} ({known[-1][1]})") if known else "--"
        print(f"| {label} | {len(group)} | {low} | {high} |")
    exact, other = min(groups[labels[0]], default=(1.0, "")), max(groups[labels[1]], default=(0.0, ""))
    apart = "separates them" if exact[0] >= SURE > other[0] else "does NOT separate them"
    below = f"every reading refused for it or wrong at {other[0]:.3f} or less" if groups[labels[1]] else "none below"
    print(f"\nconfidence: every board written exact at {exact[0]:.3f} or more, {below}: the threshold {SURE} {apart}")


PHONES = ((1080, 2316), (1179, 2556))  # the phones' screens most pictures come from
STARTS = {
    "Python alone": "pass",
    "the imports: cpflow's CLI, numpy, OpenCV, cpflow.vision": "import cpflow.cli.group, cpflow.vision.screenshot",
    "the imports and OpenCV's Lab tables (built on its first conversion to Lab)": "import cpflow.cli.group, "
    "cpflow.vision.screenshot, cv2, numpy as np; cv2.cvtColor(np.zeros((1, 1, 3), np.float32), cv2.COLOR_BGR2Lab)",
}


def start_up(found: list[Case], runs: int = 5) -> None:
    """What a whole `cpflow import` of an unsolved picture of each phone size costs, and how much of it is
    starting: Python, the imports, OpenCV's Lab tables (the least and the median of `runs` runs each, wall
    and CPU). Each command runs once first, and Python writes its bytecode caches as a user's does (with
    PYTHONDONTWRITEBYTECODE set, every module changed since its cache was written is compiled again each run)."""
    from cpflow.vision.dimensions import dimensions

    commands = {label: [sys.executable, "-c", code] for label, code in STARTS.items()}
    for size in PHONES:
        case = next((c for c in found if c.state == "unsolved" and dimensions(c.picture.read_bytes()) == size), None)
        if case:
            label = f"cpflow import {case.name} ({size[0]}x{size[1]})"
            commands[label] = [sys.executable, "-m", "cpflow", "import", str(case.picture)]
    environment = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "check": False, "env": environment}
    print("\n| command | wall s | CPU s | median wall s | median CPU s |\n|---|---|---|---|---|")
    for label, command in commands.items():
        walls, cpus = [], []
        subprocess.run(command, **quiet)  # the bytecode caches written
        for _ in range(runs):
            began, before = time.perf_counter(), os.times()
            subprocess.run(command, **quiet)
            after = os.times()
            walls.append(time.perf_counter() - began)
            cpus.append(after.children_user - before.children_user + after.children_system - before.children_system)
        middle = f"{statistics.median(walls):.3f} | {statistics.median(cpus):.3f}"
        print(f"| {label} | {min(walls):.3f} | {min(cpus):.3f} | {middle} |")


def by_size(found: list[Case], verdicts: list[Verdict], befores: list[Verdict], against: str) -> None:
    """The median and worst seconds (wall and CPU) by the pictures' size (width x height as stored),
    `befores` beside."""
    from cpflow.vision.dimensions import dimensions

    sizes = ["{}x{}".format(*dimensions(case.picture.read_bytes())) for case in found]
    head = ["size", "pictures", "median s", "worst s", "median CPU s", "worst CPU s"]
    head += [f"{column} at {against}" for column in head[2:]] if befores else []
    print("\n| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for size in sorted(set(sizes), key=lambda s: (-sizes.count(s), s)):
        row = [size, str(sizes.count(size))]
        for judged in (verdicts, befores) if befores else (verdicts,):
            here = [v for v, s in zip(judged, sizes, strict=True) if s == size]
            for times in ([v.seconds for v in here], [v.cpu for v in here]):
                row += [f"{statistics.median(times):.3f}", f"{max(times):.3f}"]
        print("| " + " | ".join(row) + " |")


def _counts_row(label: str, counts: Counter) -> str:
    return f"| {label} | {counts.total()} | {counts['exact']} | {counts['refused']} | {counts['wrong']} |"


if __name__ == "__main__":
    main()
