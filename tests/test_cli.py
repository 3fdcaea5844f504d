"""The `cpflow` command: output in each format, and the documented exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from rich.text import Text
from typer.testing import CliRunner

from conftest import PUZZLES, ZUCKER, board, needs_zucker, project_puzzles
from cpflow.board.formats import load, parse_solution
from cpflow.board.verify import violations
from cpflow.cli import app

runner = CliRunner()
NO_SHELL = {k: v for k, v in os.environ.items() if k not in ("SHELL", "PS1")}  # as a process a shell did not start
SOLVABLE = project_puzzles()
UNSOLVABLE = project_puzzles(solvable=False)


def run(*args: str):
    return runner.invoke(app, [str(a) for a in args])


def test_solve_prints_the_solved_grid_as_text_when_not_a_terminal():
    path = SOLVABLE[0]
    result = run("solve", path)
    assert result.exit_code == 0, result.output
    first, *grid = result.stdout.splitlines()
    assert first.startswith(f"# {path}: solved in ")  # a remark, so the output reads back
    (puzzle,) = load(path)
    assert violations(puzzle, parse_solution(puzzle, "\n".join(grid))) == []


def test_solve_draws_pipes_in_terminal_format():
    result = run("solve", "--format", "terminal", "--color", "always", SOLVABLE[0])
    assert result.exit_code == 0
    assert "●" in result.stdout and any(pipe in result.stdout for pipe in "─│┌┐└┘")


def test_solve_json_carries_paths_and_grid():
    path = SOLVABLE[0]
    result = run("solve", "--format", "json", path)
    assert result.exit_code == 0
    record = json.loads(result.stdout)
    assert set(record) == {"file", "index", "width", "height", "status", "seconds", "paths", "grid"}
    assert (record["file"], record["status"]) == (str(path), "solved")
    (puzzle,) = load(path)
    assert violations(puzzle, parse_solution(puzzle, "\n".join(record["grid"]))) == []
    assert {tuple(map(tuple, p))[0] for p in record["paths"].values()} <= set(puzzle.endpoint_colour())


def test_quiet_prints_one_line_per_puzzle_and_exit_1_when_one_is_unsolvable():
    result = run("solve", "--quiet", SOLVABLE[0], UNSOLVABLE[0])
    assert result.exit_code == 1
    lines = [line.split() for line in result.stdout.splitlines()]
    assert [(name, status) for name, status, _ in lines] == [
        (str(SOLVABLE[0]), "solved"),
        (str(UNSOLVABLE[0]), "unsolvable"),
    ]
    assert all(float(seconds) >= 0 for *_, seconds in lines)


def test_a_directory_is_solved_in_name_order_without_its_solution_files():
    result = run("solve", "--quiet", PUZZLES)
    assert result.exit_code == 1  # the directory holds an unsolvable board
    names = [line.split()[0] for line in result.stdout.splitlines()]
    assert names == [str(p) for p in sorted(SOLVABLE + UNSOLVABLE)]


def test_a_quoted_glob_is_expanded_without_solution_files():
    result = run("solve", "--quiet", str(PUZZLES / "starter_*x*.txt"))
    assert result.exit_code == 0
    assert len(result.stdout.splitlines()) == len([p for p in SOLVABLE if p.name.startswith("starter_")])


def test_solution_files_named_by_an_unquoted_shell_glob_are_left_out():
    named = sorted(PUZZLES.glob("starter_*x*.txt"))  # what the shell hands over, solutions included
    assert any(p.name.endswith(".solution.txt") for p in named)
    result = run("solve", "--quiet", *named)
    assert result.exit_code == 0
    assert [line.split()[0] for line in result.stdout.splitlines()] == [
        str(p) for p in named if not p.name.endswith(".solution.txt")
    ]
    alone = run("solve", named[0].with_suffix(".solution.txt"))
    assert alone.exit_code == 2 and alone.stderr.endswith(
        ": is a solution file, not a puzzle; name the puzzle's file\n"
    )


def test_a_time_limit_too_short_to_start_gives_unknown_and_exit_1():
    result = run("solve", "--quiet", "--time-limit", "1e-9", SOLVABLE[-1])
    assert result.exit_code == 1
    assert result.stdout.split()[1] == "unknown"


@pytest.mark.parametrize("command", ["solve", "unique", "count", "hint", "compare", "generate"])
@pytest.mark.parametrize("limit", ["0", "-1"])
def test_a_time_limit_of_zero_or_less_is_refused_in_one_line(command, limit):
    files = [] if command == "generate" else [SOLVABLE[0]]
    result = run(command, "--time-limit", limit, *files)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == f"cpflow {command}: --time-limit: must be more than 0 seconds (see 'cpflow {command} -h')\n"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", ": empty file: no puzzle in it"),
        (b"R.G\n..\nR.G\n", ":2:3: row has 2 cells, the first row has 3"),
        (b"R.G\n...\n..G\n", ":1:1: colour 'R' appears once; each colour needs exactly 2 endpoints"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", ":1:1: not a text file (undecodable byte)"),
    ],
)
def test_bad_input_gives_one_line_exit_2_and_no_output(tmp_path, content, message):
    path = tmp_path / "bad.txt"
    path.write_bytes(content)
    result = run("solve", SOLVABLE[0], path)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == f"{path}{message}\n"


def test_missing_file_and_unmatched_glob_exit_2(tmp_path):
    for argument, message in [
        (tmp_path / "none.txt", ": no such file"),
        (tmp_path / "*.txt", ": no file matches"),
    ]:
        result = run("solve", argument)
        assert result.exit_code == 2
        assert result.stderr.startswith(f"{argument}{message}")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["solve"], "cpflow solve: missing argument 'FILE...'"),
        (["verify"], "cpflow verify: missing argument 'PUZZLE'"),
        (["solve", "--format", "xml", "x"], "cpflow solve: --format: 'xml' is not one of 'auto', 'terminal', "),
        (["unique", "--workers", "0", "x"], "cpflow unique: --workers: 0 is not in the range x>=1"),
        (["count", "--bogus", "x"], "cpflow count: no such option: --bogus"),
        (["nosuch"], "cpflow: no such command 'nosuch'"),
        (["generate", "--size", "3"], "cpflow generate: --size: '3' is not a size like 7x7"),
        (["render", "x"], "cpflow render: missing option '--out'"),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(args, said):
    result = run(*args)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(said) and result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.endswith(f" (see '{said.split(':')[0]} -h')\n")


def test_input_format_can_be_forced(tmp_path):
    path = tmp_path / "zeros.txt"
    path.write_text("R0R\nG0G\n")
    # Detected as classic (two '0's are a colour, never dropped): adjacent '0' endpoints cut the board.
    assert run("solve", "--quiet", path).exit_code == 1
    assert run("solve", "--quiet", "--input-format", "zero", path).exit_code == 0


def test_solve_writes_the_go_solvers_stream_with_format_header(tmp_path):
    path = tmp_path / "stream"
    path.write_text("# two boards\n\n2 3\n09\n..\n09\n\n3 1\n00.\n0 0\n")
    result = run("solve", "--format", "header", path)
    assert result.exit_code == 1
    solved, impossible = result.stdout.split("\n\n")[:2]
    assert impossible == "IMPOSSIBLE"
    first = load(path)[0]
    assert solved.splitlines()[0] == "2 3"
    assert violations(first, parse_solution(first, solved)) == []


def test_module_entry_point_runs(tmp_path):
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "cpflow", "solve", "--quiet", SOLVABLE[0]], capture_output=True, text=True
    )
    assert done.returncode == 0
    assert done.stdout.split()[1] == "solved"


@needs_zucker
def test_the_classic_set_solves_all_28_and_proves_the_29th_unsolvable():
    result = run("solve", "--quiet", ZUCKER)
    statuses = [line.split()[1] for line in result.stdout.splitlines()]
    assert result.exit_code == 1
    assert (statuses.count("solved"), statuses.count("unsolvable"), len(statuses)) == (28, 1, 29)


@pytest.mark.parametrize("options", [["--jobs", "2"], ["--engine", "cpsat-circuit"], ["--workers", "2"]])
def test_jobs_models_and_workers_give_the_same_statuses_in_input_order(options):
    paths = [SOLVABLE[-1], UNSOLVABLE[0], *SOLVABLE[:2]]
    result = run("solve", "--quiet", *options, *paths)
    assert result.exit_code == 1
    lines = [line.split() for line in result.stdout.splitlines()]
    assert [(name, status) for name, status, _ in lines] == [
        (str(paths[0]), "solved"),
        (str(paths[1]), "unsolvable"),
        (str(paths[2]), "solved"),
        (str(paths[3]), "solved"),
    ]


@pytest.mark.parametrize("options", [[], ["--jobs", "2"], ["--workers", "2"], ["--jobs", "2", "-e", "ilp-highs"]])
def test_count_and_unique_take_quiet_jobs_and_workers_and_answer_in_input_order(options):
    paths = [SOLVABLE[-1], UNSOLVABLE[0], SOLVABLE[0]]
    counted = run("count", "--quiet", *options, *paths)
    assert counted.exit_code == 0
    assert [line.split()[:3] for line in counted.stdout.splitlines()] == [
        [str(paths[0]), "1", "exact"],
        [str(paths[1]), "0", "exact"],
        [str(paths[2]), "1", "exact"],
    ]
    proven = run("unique", "--quiet", *options, *paths)
    assert proven.exit_code == 1
    assert [line.split()[:2] for line in proven.stdout.splitlines()] == [
        [str(paths[0]), "unique"],
        [str(paths[1]), "unsolvable"],
        [str(paths[2]), "unique"],
    ]


def test_version_and_short_help():
    from importlib.metadata import version

    shown = run("--version")
    assert shown.exit_code == 0 and shown.stdout.strip() == f"cpflow {version('cpflow')}"
    helped = run("solve", "-h")
    assert helped.exit_code == 0 and "--time-limit" in helped.stdout


def test_a_dash_reads_the_puzzle_from_standard_input():
    path = SOLVABLE[0]
    result = runner.invoke(app, ["solve", "--quiet", "-"], input=path.read_text())
    assert result.exit_code == 0 and result.stdout.split()[:2] == ["<stdin>", "solved"]
    bad = runner.invoke(app, ["solve", "-"], input="R.\n")
    assert bad.exit_code == 2 and bad.stderr.startswith("<stdin>:1:1: colour 'R' appears once")


def test_keep_going_reports_every_bad_file_solves_the_rest_and_exits_2(tmp_path):
    bad_one, bad_two = tmp_path / "a.txt", tmp_path / "b.txt"
    bad_one.write_text("R.\n")
    bad_two.write_text("RGR\n")
    stopped = run("solve", "--quiet", bad_one, SOLVABLE[0])
    assert stopped.exit_code == 2 and stopped.stdout == ""
    going = run("solve", "--quiet", "--keep-going", bad_one, SOLVABLE[0], bad_two, SOLVABLE[1])
    assert going.exit_code == 2
    assert [line.split()[:2] for line in going.stdout.splitlines()] == [[str(SOLVABLE[0]), "solved"]] + [
        [str(SOLVABLE[1]), "solved"]
    ]
    errors = going.stderr.splitlines()
    assert errors[0].startswith(f"{bad_one}:1:1:") and errors[1].startswith(f"{bad_two}:1:")


def test_a_batch_ends_with_a_summary_line_on_stderr():
    paths = [SOLVABLE[0], UNSOLVABLE[0], SOLVABLE[1]]
    result = run("solve", "--quiet", *paths)
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("3 puzzles: 2 solved, 1 unsolvable, 0 unknown; ") and last.endswith(" s")
    assert "puzzles:" not in run("solve", "--quiet", SOLVABLE[0]).stderr


def on_a_terminal(*args) -> tuple[int, str, str]:
    """`cpflow ARGS` with stderr on a pseudo-terminal and stdout on a pipe: exit code, stdout, stderr."""
    import os
    import pty
    import select
    import subprocess
    import sys

    screen, terminal = pty.openpty()
    command = [sys.executable, "-m", "cpflow", *map(str, args)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=terminal)
    os.close(terminal)
    shown = b""
    while process.poll() is None or select.select([screen], [], [], 0)[0]:
        if select.select([screen], [], [], 0.05)[0]:
            try:
                shown += os.read(screen, 65536)
            except OSError:  # the other end is closed
                break
    os.close(screen)
    return process.wait(), process.stdout.read().decode(), shown.decode(errors="replace")


@pytest.mark.parametrize("command", ["solve", "unique", "count"])
def test_progress_shows_on_a_terminal_on_stderr_and_leaves_stdout_alone(command):
    paths = [SOLVABLE[0], SOLVABLE[1]]
    code, out, shown = on_a_terminal(command, "--quiet", *paths)
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()] == [str(p) for p in paths]
    assert "2/2" in shown and "0:00:" in shown  # the count of puzzles done, and the time elapsed
    piped = run(command, "--quiet", *paths)
    assert "2/2" not in piped.stderr and "0:00:" not in piped.stderr


def test_a_board_whose_model_would_not_fit_in_free_memory_is_refused_before_building(monkeypatch):
    from cpflow.engines import memory

    monkeypatch.setattr(memory, "free_memory", lambda: 1_000_000)
    result = run("solve", SOLVABLE[0])
    assert result.exit_code == 2 and result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith("cpflow: ") and "cpsat model" in line and "GiB is free" in line
    monkeypatch.setattr(memory, "free_memory", lambda: None)  # memory unknown: no guard
    assert run("solve", SOLVABLE[0]).exit_code == 0


def test_the_memory_estimate_grows_with_the_board_and_for_per_colour_models_with_the_colours():
    from cpflow.engines.catalog import ENGINES

    small, large = board("R.G\n...\nR.G\n"), board("R...G\n.....\n.....\n.....\nR...G\n")
    more_colours = board("R.G\nB.Y\nR.G\nB.Y\n")
    label, circuit = ENGINES["cpsat"], ENGINES["cpsat-circuit"]
    assert 0 < label.model_bytes(small) < label.model_bytes(large)
    per_node = [circuit.model_bytes(p) / len(p.nodes) for p in (small, more_colours)]
    assert per_node[0] < per_node[1]


COMMANDS = ["solve", "unique", "count", "verify", "render", "compare", "export", "generate"]


@pytest.mark.parametrize("command", COMMANDS)
def test_help_placeholders_are_words_and_point_at_no_file_a_pip_user_lacks(command):
    result = run(command, "--help")
    assert result.exit_code == 0
    for python_type in ("<bool>", "<int", "<float", "list[", "<str>", "INTEGER", "FLOAT", "<path>"):
        assert python_type not in result.stdout
    assert "README" not in result.stdout and "models/" not in result.stdout


def test_shell_completion_offers_a_script_and_completes_commands_and_options():
    script = runner.invoke(app, ["--show-completion", "bash"], prog_name="cpflow")
    assert script.exit_code == 0 and "complete -o default -F _cpflow_completion cpflow" in script.stdout

    def completions(words: str) -> list[str]:
        env = {"_CPFLOW_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": str(len(words.split()) - 1)}
        return runner.invoke(app, [], prog_name="cpflow", env=env).stdout.split()

    assert completions("cpflow so") == ["solve"]
    assert completions("cpflow solve --eng") == ["--engine"]


ROUND_TRIPS = [  # the header stream holds plain rectangular grids only
    *[(shown, "starter_5x5.txt") for shown in ("text", "json", "header")],
    *[(shown, name) for shown in ("text", "json") for name in ("holes_8x8_01.txt", "hex_7x7_01.txt")],
]


@pytest.mark.parametrize(("shown", "name"), ROUND_TRIPS)
def test_every_output_format_reads_back_as_a_solution_and_as_a_hint(tmp_path, shown, name):
    path = PUZZLES / name
    answer = tmp_path / f"answer.{shown}"
    solved = run("solve", "--format", shown, path)
    assert solved.exit_code == 0
    answer.write_text(solved.stdout)
    checked = run("verify", path, answer)
    assert checked.exit_code == 0 and checked.stdout == f"{path}: valid\n"
    hinted = run("solve", "--quiet", "--play", answer, path)
    assert hinted.exit_code == 0 and hinted.stdout.split()[1] == "solved"


def test_text_output_of_an_unsolvable_board_is_refused_as_a_solution(tmp_path):
    answer = tmp_path / "answer.txt"
    answer.write_text(run("solve", "--format", "text", UNSOLVABLE[0]).stdout)
    refused = run("verify", UNSOLVABLE[0], answer)
    assert refused.exit_code == 2 and refused.stderr == f"{answer}: no board in it, only remarks ('# ' lines)\n"


@pytest.mark.parametrize(
    ("shell", "marker"),
    [("bash", "complete -o"), ("zsh", "#compdef cpflow"), ("fish", "complete --command cpflow"), ("pwsh", "Register-")],
)
def test_show_completion_prints_the_named_shells_script_without_a_shell_around(shell, marker):
    done = subprocess.run(
        [sys.executable, "-m", "cpflow", "--show-completion", shell], capture_output=True, text=True, env=NO_SHELL
    )
    assert done.returncode == 0 and marker in done.stdout and "_CPFLOW_COMPLETE" in done.stdout


@pytest.mark.parametrize("colour", ["never", "always"])
def test_a_wide_board_is_never_wrapped_in_the_terminal_picture(tmp_path, colour):
    wide = tmp_path / "wide.txt"
    rows = ["A" + "." * 43 + "B", "." * 45, "A" + "." * 43 + "B"]
    wide.write_text("board 45x3 hex\n" + "\n".join(rows) + "\n")
    result = run("solve", "--format", "terminal", "--color", colour, wide)
    drawn = [line for line in result.stdout.splitlines() if "·" in line or "●" in line]
    assert len(drawn) == 2 * 3  # two text lines a row of hexagons, none broken in two
    assert all(len(Text.from_ansi(line).plain) <= 80 for line in drawn)


def test_solving_one_board_piped_imports_no_other_command_no_rich_and_no_process_pool():
    """Start-up: `cpflow solve` joins only its own family of commands, and rich (the terminal's drawing and
    progress display) is imported only for a terminal."""
    script = (
        "import sys\n"
        "from cpflow.cli import main\n"
        f"sys.argv = ['cpflow', 'solve', {str(PUZZLES / 'starter_5x5.txt')!r}]\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, env=os.environ | {"FORCE_COLOR": ""}
    )
    imported = set(done.stderr.split())
    assert "cpflow.cli.batch" in imported and done.stdout.startswith("# ")
    others = {f"cpflow.cli.{family}" for family in ("checks", "engines", "make", "play", "screenshot", "serve")}
    assert not imported & others
    assert not {name for name in imported if name == "rich" or name.startswith("rich.")}
    assert "multiprocessing" not in imported  # a batch on processes imports it, not one board


def test_every_command_is_listed_in_the_help():
    from cpflow.cli import FAMILIES

    done = subprocess.run([sys.executable, "-m", "cpflow", "--help"], capture_output=True, text=True, check=True)
    listed = {line.split()[1] for line in done.stdout.splitlines() if line.startswith("│ ") and len(line.split()) > 2}
    assert set(FAMILIES) <= listed


def test_a_board_solved_by_cp_sat_loads_no_pandas_and_pandas_still_works_after():
    """Start-up: cp_model is imported without pandas (cpflow.engines.cp_model); pandas, asked for later, is real."""
    script = (
        "import sys\n"
        "from cpflow.board.formats import load\n"
        "from cpflow.engines.pipeline import solve\n"
        "from dataclasses import replace\n"
        "from cpflow.board.grid import Rules\n"
        f"(puzzle,) = load({str(PUZZLES / 'gen_10x10_01.txt')!r})\n"
        "result = solve(replace(puzzle, rules=Rules(touch=True)))\n"  # no search: CP-SAT answers
        "print(result.status.value, 'conflicts' in result.stats, 'ortools.sat.python.cp_model' in sys.modules,"
        " 'pandas' in sys.modules)\n"
        "from cpflow.engines.cp_model import cp_model\n"
        "import pandas\n"
        "print(cp_model.pd.Series is pandas.Series, len(cp_model.pd.Series([1, 2])))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == ["solved True True False", "True 2"]


@pytest.mark.parametrize(
    "command",
    [["fix"], ["hint"], ["render", "--out", "board.svg"], ["export", "--out", "model.pb.txt"]],
    ids=lambda command: command[0],
)
def test_a_puzzle_number_past_the_file_s_end_is_refused_in_one_line(command, tmp_path):
    path = PUZZLES / "starter_5x5.txt"
    args = [a if "." not in a else str(tmp_path / a) for a in command]
    result = run(*args[:1], path, *args[1:], "--index", "2")
    assert result.exit_code == 2
    assert result.stderr.strip() == f"{path}: holds 1 puzzle(s), no puzzle 2"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("command", "out", "said"),
    [("render", "board.bmp", "cannot tell the picture format"), ("export", "model.xyz", "model.xyz")],
)
def test_an_output_that_cannot_be_written_is_refused_in_one_line(command, out, said, tmp_path):
    result = run(command, PUZZLES / "starter_5x5.txt", "--out", tmp_path / out)
    assert result.exit_code == 2 and said in result.stderr
    assert result.stderr.startswith(f"{tmp_path / out}: ") and list(tmp_path.iterdir()) == []


def test_a_picture_format_it_cannot_tell_is_an_output_error_not_bad_input(tmp_path):
    from cpflow.cli.checks import show_rendered
    from cpflow.errors import OutputError
    from cpflow.workflows.inputs import Entry

    (puzzle,) = load(PUZZLES / "starter_5x5.txt")
    with pytest.raises(OutputError, match="cannot tell the picture format"):
        show_rendered(Entry("starter_5x5", 1, puzzle), tmp_path / "board.bmp", None, True, "cpsat")
