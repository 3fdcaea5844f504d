"""What the commands print and write: the board pictures, JSON records, the header stream,
the compare table, CSV. Each `show_*` runs one command's work and returns its exit code.

The CLI's face: it formats and prints; the library decides everything else.
"""

from __future__ import annotations

import csv
import json
import random
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from cpflow import records
from cpflow.board.errors import PuzzleFormatError
from cpflow.board.formats import picture
from cpflow.board.grid import Puzzle, Solution
from cpflow.engines.result import SolveResult, Status
from cpflow.workflows.compare import FIELDS, Run, summary
from cpflow.workflows.inputs import Entry

Answer = TypeVar("Answer")


@dataclass(frozen=True)
class Looks:
    """How boards are shown besides text: terminal colour (auto, always, never) and picture folders."""

    colour: str = "auto"
    svg: Path | None = None
    png: Path | None = None

    def console(self) -> Console:
        """A console honouring --color (and, on auto, NO_COLOR and whether stdout is a terminal)."""
        if self.colour == "auto":
            return Console(highlight=False)
        return Console(highlight=False, force_terminal=self.colour == "always", no_color=self.colour == "never")

    def ready(self) -> bool:
        """Whether the picture folders asked for can be written into (each made if need be)."""
        return all(_writable(folder) for folder in (self.svg, self.png) if folder)

    def draw(self, entry: Entry, solutions: Sequence[Solution] = (), highlight=(), suffix: str = "") -> None:
        """Write the board (with its solutions side by side, differing cells marked) to each folder asked for."""
        from cpflow.pictures.files import write_picture

        stem = Path(entry.source).stem + (f"-{entry.index}" if "#" in entry.puzzle.name else "") + suffix
        for folder, kind in ((self.svg, ".svg"), (self.png, ".png")):
            if folder:
                folder.mkdir(parents=True, exist_ok=True)
                write_picture(folder / (stem + kind), entry.puzzle, solutions, highlight)


def show_solved(entries: Sequence[Entry], shown: str, quiet: bool, where, options: dict, looks=Looks()) -> int:
    """Solve each puzzle and print its answer; 0 if every one was solved, else 1 (`failed_exit` first).

    `where` (here, on a pool or a cluster; a batch.Where or a number of jobs) changes nothing printed."""
    from cpflow.workflows.batch import solve_all

    if not looks.ready():
        return 2
    console = looks.console()
    shown = shown if shown != "auto" else ("terminal" if console.is_terminal else "text")
    failed, statuses, failures = False, [], []
    results = with_progress("solving", solve_all([e.puzzle for e in entries], where, **options), len(entries))
    for entry, result in answered(entries, results, failures):
        failed |= result.status is not Status.SOLVED
        name = entry.puzzle.name
        if quiet:
            print(f"{name} {result.status.value} {result.seconds:.3f}")
        elif shown == "json":
            record = records.solved(entry.source, entry.index, entry.puzzle, result)
            print(json.dumps(record | _why_record(entry.puzzle, result.status)))
        elif shown == "header":
            print(as_stream(entry.puzzle, result))
        else:
            remark = "" if shown == "terminal" else "# "  # text reads back as a solution: see grids
            print(f"{remark}{name}: {result.status.value} in {result.seconds:.3f} s")
            if result.status is Status.UNSOLVABLE:
                show_why(console, entry.puzzle, shown, remark)
            if result.solution and shown == "terminal":
                console.print(_terminal(console, entry.puzzle, result.solution), end="", soft_wrap=True)
            elif result.solution:
                print(picture(entry.puzzle, result.solution), end="")
        looks.draw(entry, [result.solution] if result.solution else [])
        statuses.append((result.status, result.seconds))
    if len(entries) > 1:
        print(summary_line(statuses, sum(f.bug for f in failures)), file=sys.stderr)
    return failed_exit(failures) or (1 if failed else 0)


def answered(entries: Sequence[Entry], answers: Iterable, failures: list) -> Iterator[tuple[Entry, Answer]]:
    """Each entry with its answer, in order; an entry whose work gave none (batch.Failed: refused, or
    verdict `error`) is said on stderr in one line, its Failed added to `failures`, and left out."""
    from cpflow.workflows.batch import Failed

    for entry, answer in zip(entries, answers, strict=True):
        if isinstance(answer, Failed):
            print(answer.line, file=sys.stderr)
            failures.append(answer)
        else:
            yield entry, answer


def failed_exit(failures: Sequence) -> int:
    """The exit code that puzzles left without an answer (batch.Failed) call for, before the answers'
    own: 4 when some ended in an unexpected error (verdict `error`, a bug), 2 when some were refused on
    bad input, 0 when there are none."""
    return 4 if any(failure.bug for failure in failures) else 2 if failures else 0


def with_progress(what: str, answers: Iterable[Answer], total: int) -> Iterator[Answer]:
    """The answers, as they come, under a spinner with the time elapsed (and for a batch a bar
    and a count) on stderr when it is a terminal; nothing is shown otherwise. What is printed
    meanwhile goes above it."""
    console = Console(stderr=True)
    many = [BarColumn(), MofNCompleteColumn()] if total > 1 else []
    columns = [SpinnerColumn(), TextColumn("{task.description}"), *many, TimeElapsedColumn()]
    terminal = console.is_terminal
    # On one screen with stdout, what is printed goes above the display; a piped stdout is left alone.
    with Progress(
        *columns, console=console, transient=True, disable=not terminal, redirect_stdout=sys.stdout.isatty()
    ) as shown:
        task = shown.add_task(what, total=total)
        for answer in answers:
            yield answer
            shown.advance(task)


def summary_line(statuses: Sequence[tuple[Status, float]], errors: int = 0) -> str:
    """A batch in one line: how many puzzles ended how (`errors` of them in verdict `error`, said only
    when there are some), and the seconds the others took."""
    counts = ", ".join(f"{sum(s is status for s, _ in statuses)} {status.value}" for status in Status)
    counts += f", {errors} error" if errors else ""
    return f"{len(statuses) + errors} puzzles: {counts}; {sum(t for _, t in statuses):.3f} s"


def _writable(folder: Path) -> bool:
    """Whether files can be written into `folder` (made if need be); if not, says why on stderr."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        print(f"{folder}: cannot write here: {error.strerror}", file=sys.stderr)
        return False
    return True


def _terminal(console: Console, puzzle: Puzzle, solution: Solution, highlight=()):
    from cpflow.pictures.terminal import terminal

    return terminal(puzzle, solution, highlight, width=console.width, colour=console.color_system is not None)


def _status_of(verdict) -> Status:
    from cpflow.workflows.unique import Verdict

    return Status.UNSOLVABLE if verdict is Verdict.UNSOLVABLE else Status.UNKNOWN


def _why_record(puzzle: Puzzle, status: Status) -> dict:
    from cpflow.workflows.unsolvable import explanation

    return records.why(explanation(puzzle, status))


def show_why(console: Console, puzzle: Puzzle, shown: str, remark: str = "") -> None:
    """Why an unsolvable puzzle has no solution, in a sentence and on the board: the cells that must
    be covered highlighted (`*` in text), the endpoints of the colours that must connect marked."""
    from cpflow.board.grid import cell_of
    from cpflow.deduce.sentences import why_sentence
    from cpflow.workflows.unsolvable import explanation

    found = explanation(puzzle, Status.UNSOLVABLE)
    if found is None:
        return
    print(f"{remark}why: {why_sentence(found.connect, found.cover)}")
    cover = {cell_of(node) for node in found.cover}
    ends = {cell_of(node) for c in found.connect for node in puzzle.endpoints[c]}
    if shown == "terminal":
        from cpflow.pictures.terminal import terminal

        drawing = terminal(
            puzzle, width=console.width, colour=console.color_system is not None, highlight=cover, marked=ends
        )
        console.print(drawing, end="", soft_wrap=True)
    else:
        owner = {cell_of(n): c for n, c in puzzle.endpoint_colour().items()}
        for row in puzzle.array():
            marks = "".join(" " if cell is None else "*" if cell in cover else owner.get(cell, ".") for cell in row)
            print(f"{remark}{marks}")


def show_uniqueness(entries: Sequence[Entry], shown: str, quiet: bool, where, options: dict, looks=Looks()) -> int:
    """Prove each puzzle unique or show two solutions; 0 all unique, 1 some not or unsolvable, 3 time-outs
    (`failed_exit` first)."""
    from cpflow.board.grid import differ as differ_cells
    from cpflow.pictures.terminal import differences_grid, terminal
    from cpflow.workflows.batch import uniqueness_all
    from cpflow.workflows.unique import Verdict

    if not looks.ready():
        return 2
    console = looks.console()
    shown = shown if shown != "auto" else ("terminal" if console.is_terminal else "text")
    verdicts, failures = set(), []
    found_all = with_progress("proving", uniqueness_all([e.puzzle for e in entries], where, **options), len(entries))
    for entry, found in answered(entries, found_all, failures):
        verdicts.add(found.verdict)
        if quiet:
            print(f"{entry.puzzle.name} {found.verdict.value} {found.seconds:.3f}")
        elif shown == "json":
            record = records.uniqueness(entry.source, entry.index, entry.puzzle, found)
            print(json.dumps(record | _why_record(entry.puzzle, _status_of(found.verdict))))
        else:
            print(f"{entry.puzzle.name}: {found.verdict.value} in {found.seconds:.3f} s")
            if found.verdict is Verdict.UNSOLVABLE:
                show_why(console, entry.puzzle, shown)
            differ = found.differences()
            same_colours = len(found.solutions) == 2 and differ and not differ_cells(*found.solutions)
            if same_colours:
                print("the two solutions colour every cell alike; their paths take different steps:")
            for number, solution in enumerate(found.solutions, 1):
                if len(found.solutions) > 1:
                    print(f"solution {number}:")
                if shown == "terminal":
                    console.print(_terminal(console, entry.puzzle, solution, differ), end="", soft_wrap=True)
                elif same_colours:  # the letters would show nothing: the paths, drawn
                    print(terminal(entry.puzzle, solution, colour=False).plain, end="")
                else:
                    print(picture(entry.puzzle, solution), end="")
            if differ and shown != "terminal":
                print("differences:\n" + "\n".join(differences_grid(entry.puzzle, differ)))
        looks.draw(entry, found.solutions, found.differences())
    bad = {Verdict.NOT_UNIQUE, Verdict.UNSOLVABLE}
    return failed_exit(failures) or (1 if verdicts & bad else 3 if Verdict.UNKNOWN in verdicts else 0)


def show_counts(entries: Sequence[Entry], limit: int, shown: str, quiet: bool, where, options: dict) -> int:
    """Count each puzzle's solutions; 0 when every count is exact, else 3 (`failed_exit` first)."""
    from cpflow.workflows.batch import count_all

    exact, failures = True, []
    counts = with_progress("counting", count_all([e.puzzle for e in entries], limit, where, **options), len(entries))
    for entry, found in answered(entries, counts, failures):
        exact &= found.exact
        if quiet:
            print(f"{entry.puzzle.name} {found.number} {'exact' if found.exact else 'at-least'} {found.seconds:.3f}")
        elif shown == "json":
            print(json.dumps(records.counted(entry.source, entry.index, found)))
        else:
            how = "exactly" if found.exact else "at least"
            print(f"{entry.puzzle.name}: {how} {found.number} solution{'s' * (found.number != 1)}")
    return failed_exit(failures) or (0 if exact else 3)


def show_verified(file: str, solution_file: str | None, fmt: str, rules=None) -> int:
    """Check the solutions of every puzzle of a file (given in SOLUTION, paired in order when it holds
    as many, or carried by the puzzle file) under the rules; 0 when all are right, 1 when one is not.
    A wrong one is said with the first rule it breaks and its cell (`3:5: path B touches itself`),
    then the others."""
    from dataclasses import replace

    from cpflow.board.formats import parse_solution, parse_with_solutions
    from cpflow.board.grid import FLOW
    from cpflow.board.verify import problems
    from cpflow.workflows.inputs import STDIN, solution_texts, text_of

    if file == STDIN and solution_file == STDIN:
        raise PuzzleFormatError.whole(STDIN, "the puzzle and the solution cannot both come from standard input")
    text, source = text_of(file)
    found = parse_with_solutions(text, source, fmt)
    if solution_file is None and any(solution is None for _, solution in found):
        raise PuzzleFormatError.whole(source, "carries no solution: name a solution file to check")
    given, given_source = text_of(solution_file) if solution_file is not None else ("", "")
    texts = solution_texts(given) if solution_file is not None else []
    checked = []
    for number, (puzzle, carried) in enumerate(found):
        puzzle = replace(puzzle, rules=rules or FLOW)
        piece = texts[number] if len(texts) == len(found) else given
        solution = carried if solution_file is None else parse_solution(puzzle, piece, given_source)
        checked.append((puzzle, problems(puzzle, solution)))
    for puzzle, broken in checked:
        print(f"{puzzle.name}: " + ("valid" if not broken else "invalid"))
        for problem in broken:
            print(f"  {problem.located()}")
    return 1 if any(broken for _, broken in checked) else 0


def show_comparison(entries, names, time_limit, repeat, csv_path: Path | None, json_path: Path | None, where=1) -> int:
    """Run the engines side by side, print the table, write the raw runs; 0 when every run was right,
    else 1 (`failed_exit` first: some puzzle refused or in error, said on stderr)."""
    from cpflow.workflows import compare as comparing
    from cpflow.workflows.batch import Failed

    comparing.check(names)
    runs, failures = [], []
    with RunFiles(csv_path, json_path) as files:
        try:
            found = comparing.compare(entries, names, time_limit, repeat, where)
            for run in with_progress("comparing", found, len(entries) * len(names)):
                if isinstance(run, Failed):
                    print(run.line, file=sys.stderr)
                    failures.append(run)
                    continue
                runs.append(run)
                files.add(run)
        finally:  # an interrupted comparison still shows the puzzles it finished
            wide = None if sys.stdout.isatty() else 200  # a file or pipe gets the whole table, unwrapped
            if runs:
                Console(highlight=False, width=wide).print(compare_table(runs, names))
    return failed_exit(failures) or (0 if all(run.correct for run in runs) else 1)


def show_generated(
    width,
    height,
    wanted,
    count,
    seed,
    out: Path | None,
    prefix,
    force,
    time_limit,
    shape="square",
    holes=0,
    walls=0,
    looks=Looks(),
    where=1,
) -> int:
    """Make the puzzles and print or write each; 0 when made, 2 when it would overwrite a file unforced."""
    from cpflow.workflows.generate import default_colours, files, generate_many, name, plain, save

    if (out and not _writable(out)) or not looks.ready():
        return 2
    wanted = wanted or default_colours(width, height, holes)
    seed = random.SystemRandom().randrange(2**31) if seed is None else seed
    stems = [name(width, height, number, prefix) for number in range(1, count + 1)]
    taken = [file for stem in stems for file in files(out, stem) if file.exists()] if out and not force else []
    if taken:
        print(
            f"{taken[0]}: file exists; use --force to overwrite it or --prefix to choose other names",
            file=sys.stderr,
        )
        return 2
    made = generate_many(plain(width, height, shape), wanted, count, seed, time_limit, holes, walls, where)
    for stem, one in zip(stems, with_progress(f"making {width}x{height}", made, count), strict=True):
        entry = Entry(stem, 1, one.puzzle)
        looks.draw(entry)
        looks.draw(entry, [one.solution], suffix=".solution")
        if out:
            out.mkdir(parents=True, exist_ok=True)
            save(one, out, stem)
        else:
            print(f"{stem}: {len(one.puzzle.colours)} colours, proven unique in {one.seconds:.3f} s")
            print(f"{picture(one.puzzle)}\n{picture(one.puzzle, one.solution)}")
    print(f"made {count} unique {width}x{height} puzzle{'s' * (count != 1)}, seed {seed}", file=sys.stderr)
    return 0


def as_stream(puzzle: Puzzle, result: SolveResult) -> str:
    """One puzzle's answer as the Go solver of thomasahle/numberlink writes it: `W H` and the
    solved rows, or `IMPOSSIBLE` (`UNKNOWN` when the time limit came first)."""
    if result.solution:
        return picture(puzzle, result.solution, "header")
    return "IMPOSSIBLE\n" if result.status is Status.UNSOLVABLE else "UNKNOWN\n"


def show_engines(fmt: str) -> int:
    """The table of engines (`cpflow engines`): what each is, supports and needs, and whether it is
    installed; 0."""
    from cpflow.engines.registry import ENGINES, KINDS, RULE_SETS

    found = [entry.record() for entry in ENGINES.values()]
    if fmt == "json":
        for record in found:
            print(json.dumps(record))
        return 0
    header = ("name", "family", "formulation", "front end", "counts", "workers", "supports", "writes", "installed")
    rows = [header]
    for r in found:
        missing = [f"--allow-{name}" for name in RULE_SETS if name not in r["rule_sets"]]
        missing += [kind for kind in KINDS if kind not in r["kinds"]]
        rows.append(
            (
                r["name"],
                r["family"],
                r["formulation"],
                "yes" if r["front_end"] else "no",
                r["counts"],
                "yes" if r["workers"] else "one",
                "all" if not missing else "all but " + ", ".join(missing),
                " ".join(r["exports"]) or "-",
                "yes" if r["installed"] else f"no: {r['install']}",
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())
    return 0


def compare_table(runs: Sequence[Run], names: Sequence[str]) -> Table:
    """Puzzles down, contenders across: median seconds and the ratio to the puzzle's fastest; totals below."""
    table = Table(title="seconds per puzzle (build + solve; x: times the fastest)", show_footer=True)
    totals = summary(runs, names)
    footer = ["total\n  building\n  solving\nmedian\nworst", "", ""]
    for name in names:
        t = totals[name]
        split = f"{t['build']:.3f}\n{t['total'] - t['build']:.3f}"
        footer.append(f"{t['total']:.3f}\n{split}\n{t['median']:.3f}\n{t['worst']:.3f} ({t['worst_puzzle']})")
    for title, foot in zip(["puzzle", "size", "colours", *names, "status"], [*footer, ""], strict=True):
        table.add_column(title, footer=foot, justify="left" if title in ("puzzle", "status") else "right")
    for mine in _by_puzzle(runs).values():
        fastest = min(run.seconds for run in mine)
        first = mine[0]
        cells = [f"{run.seconds:.3f} x{run.seconds / fastest if fastest else 1:.1f}" for run in mine]
        cells = [c if run.correct else f"[red]{c} {run.status}[/]" for c, run in zip(cells, mine, strict=True)]
        statuses = {run.status for run in mine}
        status = statuses.pop() if len(statuses) == 1 else "disagree: " + ", ".join(r.status for r in mine)
        table.add_row(first.puzzle, f"{first.width}x{first.height}", str(first.colours), *cells, status)
    return table


def _by_puzzle(runs: Sequence[Run]) -> dict[tuple[str, int], list[Run]]:
    grouped: dict[tuple[str, int], list[Run]] = {}
    for run in runs:
        grouped.setdefault((run.file, run.index), []).append(run)
    return grouped


class RunFiles:
    """The raw runs written as they come, as CSV and as a JSON list, so an interrupted or
    failed comparison leaves every finished run on disk in a file that reads."""

    def __init__(self, csv_path: Path | None, json_path: Path | None):
        self.csv_path, self.json_path = csv_path, json_path
        self.rows = 0

    def __enter__(self) -> RunFiles:
        """Opens both files before the first run, so a bad path is told before the long work."""
        self.csv_handle = _writing(self.csv_path, newline="")
        try:
            self.json_handle = _writing(self.json_path)
        except PuzzleFormatError:
            if self.csv_handle:
                self.csv_handle.close()
            raise
        if self.csv_handle:
            self.csv = csv.DictWriter(self.csv_handle, fieldnames=FIELDS)
            self.csv.writeheader()
        if self.json_handle:
            self.json_handle.write("[")
        return self

    def add(self, run: Run) -> None:
        """One more run, flushed to disk at once."""
        if self.csv_handle:
            self.csv.writerow(run.row())
            self.csv_handle.flush()
        if self.json_handle:
            self.json_handle.write(("\n" if not self.rows else ",\n") + json.dumps(run.row()))
            self.json_handle.flush()
        self.rows += 1

    def __exit__(self, *_) -> None:
        if self.csv_handle:
            self.csv_handle.close()
        if self.json_handle:
            self.json_handle.write("\n]\n")
            self.json_handle.close()


def _writing(path: Path | None, **options):
    """`path` opened for writing, or None when there is none; a located error when it cannot be."""
    if path is None:
        return None
    try:
        return path.open("w", **options)
    except OSError as error:
        raise PuzzleFormatError.whole(str(path), f"cannot write: {error.strerror}") from None


def show_rendered(
    entry: Entry, out: Path, solution_file: Path | None, solve: bool, engine: str, carried=None, **drawing
) -> int:
    """Draw one puzzle (solved, with a given solution, or with the one its file carries) to a picture file;
    0 drawn, 1 no solution to draw."""
    from cpflow.board.formats import load_solution
    from cpflow.board.verify import violations
    from cpflow.engines.registry import entry_of
    from cpflow.engines.registry import solve as solve_with
    from cpflow.pictures.files import SUFFIXES, write_picture

    if out.suffix.lower() not in SUFFIXES:
        raise PuzzleFormatError.whole(str(out), f"cannot tell the picture format; use {', '.join(SUFFIXES)}")
    solutions: list[Solution] = []
    if solution_file:
        solutions = [load_solution(entry.puzzle, solution_file)]
        for problem in violations(entry.puzzle, solutions[0]):
            print(f"{solution_file}: {problem}", file=sys.stderr)
    elif solve:
        rounds: list[dict] = []
        if out.suffix.lower() == ".gif" and entry_of(engine).rounds:
            drawing["rounds"] = rounds
            result = solve_with(entry.puzzle, engine, on_round=rounds.append)
        else:
            result = solve_with(entry.puzzle, engine)
        if result.solution is None:
            print(f"{entry.puzzle.name}: {result.status.value}: nothing to draw", file=sys.stderr)
            return 1
        solutions = [result.solution]
    elif carried is not None:
        solutions = [carried]
    try:
        write_picture(out, entry.puzzle, solutions, **drawing)
    except OSError as error:
        raise PuzzleFormatError.whole(str(out), f"cannot write: {error.strerror}") from None
    print(f"{out}: {entry.puzzle.width}x{entry.puzzle.height}, {'solved' if solutions else 'puzzle only'}")
    return 0
