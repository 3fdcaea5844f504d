"""Writes are atomic and never clobber inputs (issue 42): every file a command writes lands whole
or not at all (cpflow.outputs), a generated puzzle with its solution and pictures; an output that
is an input is refused; a write that fails is one line and exit 2, and leaves nothing behind.

Each test starts from the attack as the issue gives it. A full disk is a real one where the tests
run as root and can mount a 64 KiB tmpfs (CI's `.ci/run` does), and otherwise a write that fails
with ENOSPC once a byte budget is spent, injected into cpflow.outputs's one low-level write.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import PUZZLES
from cpflow import outputs
from cpflow.board.formats import load, load_solution
from cpflow.board.verify import violations
from cpflow.cli import app
from cpflow.engines.catalog import available
from cpflow.errors import OutputError

runner = CliRunner()
TWO_SOLUTIONS = PUZZLES / "designs" / "two_solutions_4x4.txt"  # fix --out writes its fixed puzzle
QUICK = PUZZLES / "starter_5x5.txt"
BIG = PUZZLES / "gen_30x30_01.txt"  # its SVG and PNG are larger than 64 KiB
MODELLED = PUZZLES / "gen_14x14_01.txt"  # its LP, CNF and CP-SAT models are larger than 64 KiB
HANG_GUARD = 60  # seconds before a test gives up on a command that ignored the interrupt


def needs(engine: str):
    return pytest.mark.skipif(engine not in available(), reason=f"the {engine} engine is not installed")


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def assert_one_line(result, start: str) -> None:
    """Exit 2, nothing but one line on stderr that begins with `start`, no traceback."""
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(start) and result.stderr.count("\n") == 1, result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)


def leftovers(folder: Path) -> list[str]:
    """Parts, and empty files: what a write that failed must not leave."""
    return sorted(p.name for p in folder.iterdir() if outputs.is_part(p) or p.stat().st_size == 0)


def assert_generated_whole(folder: Path, pictures: tuple[str, ...] = ()) -> int:
    """Every puzzle in the folder has its solution (which solves it) and its pictures, and every
    picture its puzzle; the number of puzzles."""
    puzzles = [p for p in folder.glob("*.txt") if not p.name.endswith(".solution.txt")]
    for path in puzzles:
        (puzzle,) = load(path)
        assert violations(puzzle, load_solution(puzzle, path.with_suffix(".solution.txt"))) == []
        for kind in pictures:
            assert (folder / f"{path.stem}{kind}").exists() and (folder / f"{path.stem}.solution{kind}").exists()
    stems = {p.name.split(".")[0] for p in folder.iterdir()}
    assert stems == {p.stem for p in puzzles}, "a file without its puzzle"
    return len(puzzles)


# ---- fix --out into a missing folder, onto a read-only file system ----


def test_fix_out_into_a_missing_folder_is_one_line(tmp_path):
    result = run("fix", TWO_SOLUTIONS, "--out", tmp_path / "missing" / "dir" / "x.txt")
    assert_one_line(result, f"{tmp_path / 'missing' / 'dir' / 'x.txt'}: cannot write: No such file or directory")
    assert result.stdout == "" and list(tmp_path.iterdir()) == []  # refused before the work


@contextlib.contextmanager
def read_only_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder no file can be written in: a read-only tmpfs as root (chmod does not stop root), /sys
    as root where mount is not allowed (read-only in containers, refused otherwise), a folder without
    write permission for anyone else."""
    place = tmp_path / "ro"
    place.mkdir()
    if os.geteuid() != 0:
        place.chmod(0o555)
        yield place
        place.chmod(0o755)
    elif subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", place], capture_output=True).returncode:
        yield Path("/sys")
    else:
        try:
            yield place
        finally:
            subprocess.run(["umount", place], check=True)


def test_fix_out_onto_a_read_only_file_system_is_one_line(tmp_path):
    with read_only_folder(tmp_path) as place:
        before = sorted(place.iterdir())
        result = run("fix", TWO_SOLUTIONS, "--out", place / "x.txt")
        assert_one_line(result, f"{place / 'x.txt'}: cannot write: ")
        assert sorted(place.iterdir()) == before


# ---- a full disk: a real one ----


@contextlib.contextmanager
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 64 KiB tmpfs, or a skip saying why there is none."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root (CI runs as root); the injected full disk covers this")
    place = tmp_path / "disk"
    place.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", place], capture_output=True)
    if mounted.returncode:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield place
    finally:
        subprocess.run(["umount", place], check=True)


@pytest.mark.parametrize(
    ("command", "written"),
    [
        (["generate", "--size", "7x7", "--count", "30", "--seed", "1", "--out", "{disk}", "--png", "{disk}"], None),
        (["solve", BIG, "--svg", "{disk}"], "gen_30x30_01.svg"),
        (["solve", BIG, "--png", "{disk}"], "gen_30x30_01.png"),
        pytest.param(
            ["export", MODELLED, "-e", "ilp-cbc", "--out", "{disk}/model.lp"], "model.lp", marks=needs("ilp-cbc")
        ),
        pytest.param(["export", MODELLED, "-e", "sat", "--out", "{disk}/model.cnf"], "model.cnf", marks=needs("sat")),
        (["export", MODELLED, "-e", "cpsat", "--out", "{disk}/model.pb"], "model.pb"),
    ],
    ids=["generate-png", "solve-svg", "solve-png", "export-lp", "export-cnf", "export-cpsat"],
)
def test_a_full_disk_is_one_line_and_leaves_no_partial_file(tmp_path, command, written):
    with small_disk(tmp_path) as disk:
        result = run(*[str(a).format(disk=disk) for a in command])
        assert_one_line(result, f"{disk}/")
        assert "cannot write: No space left on device" in result.stderr or "could not write" in result.stderr
        assert leftovers(disk) == []
        if written:
            assert not (disk / written).exists()
        else:
            assert assert_generated_whole(disk, (".png",)) < 30  # some landed whole before the disk was full


# ---- a full disk: injected, without root ----


@pytest.fixture
def full_disk(monkeypatch) -> Callable[[int], None]:
    """`full_disk(n)`: from now on the disk takes n more bytes, then every write fails with ENOSPC
    (the bytes of the write that runs over are written in part, as a real disk does)."""
    real = outputs._write_all

    def fill(free: int) -> None:
        left = [free]

        def write_all(fd: int, data: bytes) -> None:
            taken = min(len(data), left[0])
            real(fd, data[:taken])
            left[0] -= taken
            if taken < len(data):
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        monkeypatch.setattr(outputs, "_write_all", write_all)

    return fill


@pytest.mark.parametrize("free", [0, 500, 30_000, 70_000])
def test_generate_on_a_full_disk_lands_each_puzzle_with_its_solution_and_pictures_or_nothing(tmp_path, full_disk, free):
    full_disk(free)
    result = run("generate", "--size", "6x6", "--count", "4", "--seed", "2", "--out", tmp_path, "--png", tmp_path)
    assert_one_line(result, f"{tmp_path}/gen_6x6_0")
    assert result.stderr.endswith(": cannot write: No space left on device\n")
    assert leftovers(tmp_path) == []
    assert assert_generated_whole(tmp_path, (".png",)) < 4


@pytest.mark.parametrize(
    ("command", "target"),
    [
        (["solve", QUICK, "--svg", "{dir}"], "starter_5x5.svg"),
        (["solve", QUICK, "--png", "{dir}"], "starter_5x5.png"),
        (["render", QUICK, "--solve", "--out", "{dir}/board.gif"], "board.gif"),
        (["fix", TWO_SOLUTIONS, "--out", "{dir}/fixed.txt"], "fixed.txt"),
        (["compare", "-e", "cpsat", QUICK, "--json", "{dir}/runs.json", "--csv", "{dir}/runs.csv"], "runs.csv"),
    ],
    ids=["solve-svg", "solve-png", "render-gif", "fix-out", "compare-json"],
)
@pytest.mark.parametrize("free", [0, 10])
def test_a_command_on_a_full_disk_is_one_line_and_leaves_nothing(tmp_path, full_disk, command, target, free):
    full_disk(free)
    result = run(*[str(a).format(dir=tmp_path) for a in command])
    assert_one_line(result, f"{tmp_path / target}: cannot write: No space left on device")
    assert list(tmp_path.iterdir()) == []


def test_an_engine_s_model_writer_that_runs_out_of_disk_leaves_nothing(tmp_path, monkeypatch):
    from cpflow.engines import cpsat

    def export(puzzle, path, **options):  # as PuLP, PySAT and CP-SAT write: by the path given
        with open(path, "w") as half:
            half.write("a model, cut short")
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    monkeypatch.setattr(cpsat, "export", export)
    result = run("export", QUICK, "-e", "cpsat", "--out", tmp_path / "model.pb")
    assert_one_line(result, f"{tmp_path / 'model.pb'}: cannot write: No space left on device")
    assert list(tmp_path.iterdir()) == []


def test_an_old_file_stays_whole_when_its_new_one_does_not_fit(tmp_path, full_disk):
    fixed = tmp_path / "fixed.txt"
    fixed.write_text("the old file\n")
    full_disk(5)
    assert run("fix", TWO_SOLUTIONS, "--out", fixed).exit_code == 2
    assert [p.name for p in tmp_path.iterdir()] == ["fixed.txt"] and fixed.read_text() == "the old file\n"


def test_a_group_whose_rename_fails_puts_back_the_files_it_replaced(tmp_path, monkeypatch):
    first, second, third = (tmp_path / name for name in ("a.txt", "b.txt", "c.txt"))
    first.write_text("old a\n")
    real = os.replace

    def replace(source, target):
        if Path(target) == third:
            raise OSError(errno.EIO, os.strerror(errno.EIO), str(source))
        real(source, target)

    monkeypatch.setattr(outputs.os, "replace", replace)
    with pytest.raises(OutputError, match=r"c\.txt: cannot write: Input/output error"), outputs.together() as group:
        for path in (first, second, third):
            group.write(path, f"new {path.stem}\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"] and first.read_text() == "old a\n"


def test_a_group_interrupted_while_it_is_written_leaves_nothing(tmp_path):
    with pytest.raises(KeyboardInterrupt), outputs.together() as group:
        group.write(tmp_path / "a.txt", "a\n")
        raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []


# ---- an output that is an input ----


@pytest.fixture
def screenshot(tmp_path) -> Path:
    pytest.importorskip("cv2", reason="the vision extra (OpenCV) is not installed")
    from cpflow.vision.synthetic import Shot, make

    shot = tmp_path / "shot.png"
    shot.write_bytes(make(Shot(5, 5, (720, 1480), seed=1))[0])
    return shot


@pytest.mark.parametrize("option", ["--out", "--play"])
def test_import_never_writes_over_its_screenshot(screenshot, option):
    before = screenshot.read_bytes()
    result = run("import", screenshot, option, screenshot)
    assert_one_line(result, f"{screenshot}: cannot write over an input")
    assert screenshot.read_bytes() == before


def test_import_never_writes_over_its_screenshot_through_another_name(screenshot, tmp_path):
    other = tmp_path / "other.png"
    os.link(screenshot, other)
    before = screenshot.read_bytes()
    result = run("import", screenshot, "--out", other)
    assert_one_line(result, f"{other}: cannot write over an input ({screenshot})")
    assert screenshot.read_bytes() == before


def test_import_never_draws_its_steps_over_its_screenshot(tmp_path):
    """--debug DIR writes debug.png and the steps' pictures there as the reading goes: a screenshot
    named debug.png in that folder was replaced."""
    from cpflow.vision.synthetic import Shot, make

    shot = tmp_path / "debug.png"
    shot.write_bytes(make(Shot(5, 5, (720, 1480), seed=1))[0])
    before = shot.read_bytes()
    result = run("import", shot, "--debug", tmp_path)
    assert_one_line(result, f"{shot}: cannot write over an input")
    assert shot.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["debug.png"]


@pytest.mark.parametrize(
    "command",
    [
        ["import", "{shot}", "--out", "{d}/same.txt", "--play", "{d}/./same.txt"],
        ["compare", "-e", "search", "{p}", "--csv", "{d}/same.txt", "--json", "{d}/same.txt"],
    ],
    ids=["import", "compare"],
)
def test_two_outputs_of_a_command_in_one_file_are_refused_before_any_work(screenshot, tmp_path, command):
    """import --out F --play F wrote the play over the puzzle; compare --csv F --json F ended in a traceback."""
    result = run(*[a.format(shot=screenshot, p=QUICK, d=tmp_path) for a in command])
    assert_one_line(result, f"{tmp_path}/")
    assert "same.txt: named for two of the files to write; name one each" in result.stderr
    assert not (tmp_path / "same.txt").exists()


@pytest.mark.parametrize("option", ["--json", "--csv"])
def test_compare_never_writes_over_a_puzzle_it_compares(tmp_path, option):
    puzzle = tmp_path / "in.txt"
    puzzle.write_bytes(QUICK.read_bytes())
    result = run("compare", "-e", "cpsat", option, puzzle, puzzle)
    assert_one_line(result, f"{puzzle}: cannot write over an input")
    assert puzzle.read_bytes() == QUICK.read_bytes()


@pytest.mark.parametrize(
    "command",
    [
        ["fix", "{p}", "--out", "{p}"],
        ["export", "{p}", "--out", "{d}/in.txt", "-e", "cpsat"],
        ["render", "{p}", "--out", "{d}/in.svg", "--solution", "{d}/in.svg"],
    ],
    ids=["fix", "export", "render"],
)
def test_no_command_writes_over_its_input(tmp_path, command):
    puzzle = tmp_path / "in.txt"
    puzzle.write_bytes(QUICK.read_bytes())
    (tmp_path / "in.svg").write_text("<svg/>")
    result = run(*[a.format(p=puzzle, d=tmp_path) for a in command])
    assert result.exit_code == 2 and "cannot write over an input" in result.stderr, result.output
    assert puzzle.read_bytes() == QUICK.read_bytes() and (tmp_path / "in.svg").read_text() == "<svg/>"


def test_solve_never_draws_over_its_screenshot(tmp_path):
    shot = tmp_path / "shot.png"
    shot.write_bytes(b"\x89PNG not really")
    result = run("solve", shot, "--png", tmp_path)
    assert_one_line(result, f"{shot}: cannot write over an input")
    assert shot.read_bytes() == b"\x89PNG not really"


# ---- Ctrl-C during generate --jobs 2 --png ----


def landed(folder: Path, *suffixes: str) -> int:
    return sum(1 for p in folder.iterdir() if p.name.endswith(suffixes) and not outputs.is_part(p))


@pytest.mark.parametrize(
    "moment",
    [
        lambda out: any(out.iterdir()),  # a part being written; before, the first picture
        lambda out: landed(out, ".png") >= 1,
        lambda out: landed(out, ".solution.txt") >= 3,
    ],
    ids=["at-the-first-file", "after-the-first-picture", "after-three-puzzles"],
)
def test_ctrl_c_during_generate_with_pictures_leaves_every_picture_with_its_puzzle(tmp_path, moment):
    out = tmp_path / "made"
    out.mkdir()
    command = [sys.executable, "-m", "cpflow", "generate", "--size", "9x9", "--count", "200", "--seed", "5"]
    command += ["--jobs", "2", "--out", str(out), "--png", str(out)]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True) as process:
        waited = time.monotonic()
        while not moment(out) and process.poll() is None and time.monotonic() - waited < HANG_GUARD:
            time.sleep(0.001)
        assert process.poll() is None, "generate ended before the moment"
        os.killpg(process.pid, signal.SIGINT)
        _, err = process.communicate(timeout=HANG_GUARD)
    assert process.returncode == 130, err
    assert not [p.name for p in out.iterdir() if outputs.is_part(p)]
    assert assert_generated_whole(out, (".png",)) < 200
