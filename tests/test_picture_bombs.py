"""Pictures are bounded before anything decodes them, and a reading that fails inside is one line
(issue 42).

The attack: a 30000x30000 PNG of 110 KB (zlib-compressed zeros) whose `tEXt` chunk has a wrong
CRC. Pillow will not open it, so the old size check let it through and OpenCV decoded it: 5.3 GB
and 17-45 s for `cpflow import`, `solve` or `POST /api/import`. Now its size is read from its
header (cpflow.vision.dimensions) for every format the import takes, and it is refused unread.
"""

from __future__ import annotations

import io
import json
import struct
import subprocess
import sys
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from conftest import PUZZLES, ROOT
from cpflow.cli import app
from cpflow.errors import NotAnImage, ScreenshotUnreadable
from cpflow.vision.dimensions import MAX_PIXELS, MAX_SIDE, READERS, dimensions
from cpflow.workflows.shots import MAGIC

cv2 = pytest.importorskip("cv2", reason="the vision extra (OpenCV) is not installed")
np = pytest.importorskip("numpy")
Image = pytest.importorskip("PIL.Image")

BOMB_SIDE = 30_000
TOO_LARGE = (
    f"the image of {BOMB_SIDE}x{BOMB_SIDE} pixels is far larger than a screenshot "
    f"({MAX_PIXELS:,} pixels and {MAX_SIDE:,} a side at most)"
)
PEAK_MB = 300  # a child that decoded the bomb would pass 2.7 GB (one byte a pixel, three channels)
runner = CliRunner()


def chunk(kind: bytes, body: bytes, crc: int | None = None) -> bytes:
    crc = zlib.crc32(kind + body) if crc is None else crc
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)


def png_bomb(side: int = BOMB_SIDE, rows: int = 1_000) -> bytes:
    """A black `side` x `side` PNG, one bit a pixel, with a tEXt chunk whose CRC is wrong. The image
    data is one deflate stream of equal pieces, each fully flushed, so it is made in a tenth of a second."""
    block = bytes(1 + (side + 7) // 8) * rows  # each row: its filter byte, then its bits
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    piece = packer.compress(block) + packer.flush(zlib.Z_FULL_FLUSH)
    last = packer.compress(block) + packer.flush()
    adler = 1
    for _ in range(side // rows):
        adler = zlib.adler32(block, adler)
    idat = b"\x78\xda" + piece * (side // rows - 1) + last + struct.pack(">I", adler)
    header = struct.pack(">IIBBBBB", side, side, 1, 0, 0, 0, 0)
    text = chunk(b"tEXt", b"Comment\x00hello", crc=0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + text + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


@pytest.fixture(scope="module")
def bomb(tmp_path_factory):
    path = tmp_path_factory.mktemp("bomb") / "bomb.png"
    path.write_bytes(png_bomb())
    return path


def measured(*args: str) -> tuple[subprocess.CompletedProcess, int]:
    """`cpflow ARGS` in a child of a child, and the child's peak RSS in MB (RUSAGE_CHILDREN of a
    process that ran nothing else)."""
    script = (
        "import json, resource, subprocess, sys\n"
        "done = subprocess.run([sys.executable, '-m', 'cpflow', *sys.argv[1:]], capture_output=True, text=True)\n"
        "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024\n"
        "print(json.dumps([done.returncode, done.stdout, done.stderr, peak]))\n"
    )
    done = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, cwd=ROOT, timeout=120)
    code, out, err, peak = json.loads(done.stdout)
    return subprocess.CompletedProcess(args, code, out, err), peak


# ---- the attack ----


def test_the_bomb_is_small_says_30000x30000_and_pillow_cannot_open_it(bomb):
    data = bomb.read_bytes()
    assert len(data) < 160_000 and dimensions(data) == (BOMB_SIDE, BOMB_SIDE)
    with pytest.raises(OSError):
        Image.open(io.BytesIO(data))  # the old check asked Pillow, and let the picture through
    small = cv2.imdecode(np.frombuffer(png_bomb(2_000), np.uint8), cv2.IMREAD_COLOR)
    assert small.shape == (2_000, 2_000, 3)  # made so, a PNG that OpenCV decodes whole


@pytest.mark.parametrize("command", ["import", "solve", "hint"])
def test_the_bomb_is_refused_in_one_line_with_bounded_memory(bomb, command):
    done, peak = measured(command, str(bomb))
    assert (done.returncode, done.stdout, done.stderr) == (2, "", f"{bomb}: {TOO_LARGE}\n")
    assert peak < PEAK_MB, f"the child peaked at {peak} MB"


def test_api_import_refuses_the_bomb_with_400_and_keeps_serving(bomb):
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    from fastapi.testclient import TestClient

    from cpflow.web.app import create_app
    from cpflow.web.limits import Limits

    with TestClient(create_app(Limits(workers=1)), base_url="http://127.0.0.1:8000") as client:
        answer = client.post(
            "/api/import?name=bomb.png", content=bomb.read_bytes(), headers={"content-type": "image/png"}
        )
        assert (answer.status_code, answer.json()) == (400, {"error": f"bomb.png: {TOO_LARGE}"})
        starter = (PUZZLES / "starter_5x5.txt").read_text()
        assert client.post("/api/solve", json={"puzzle": starter}).json()["status"] == "solved"


# ---- the header reader, format by format ----


def saved(image, kind: str, **options) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format=kind, **options)
    return buffer.getvalue()


def animated(kind: str, **options) -> bytes:
    frames = [Image.new("RGB", (97, 61), colour) for colour in ("red", "blue")]
    frames[1].paste((0, 255, 0), (10, 10, 30, 30))
    return saved(frames[0], kind, save_all=True, append_images=frames[1:], **options)


def encoded(suffix: str, width: int = 123, height: int = 45) -> bytes:
    return cv2.imencode(suffix, np.full((height, width, 3), 90, np.uint8))[1].tobytes()


RGB = Image.new("RGB", (123, 45), (10, 200, 30))
PICTURES = {  # name -> the file's bytes, made by Pillow or OpenCV
    "png": saved(RGB, "PNG"),
    "png 1-bit": saved(Image.new("1", (1001, 3)), "PNG"),
    "png interlaced (OpenCV)": cv2.imencode(".png", np.zeros((7, 300, 3), np.uint8))[1].tobytes(),
    "jpeg": saved(RGB, "JPEG"),
    "jpeg progressive": saved(RGB, "JPEG", progressive=True),
    "jpeg with exif and a comment": saved(RGB, "JPEG", exif=Image.Exif(), comment=b"x" * 300),
    "jpeg grey (OpenCV)": cv2.imencode(".jpg", np.zeros((33, 65), np.uint8))[1].tobytes(),
    "gif87a": saved(RGB, "GIF"),
    "gif89a animated": animated("GIF", duration=100, loop=0),
    "gif (OpenCV)": encoded(".gif"),
    "bmp": saved(RGB, "BMP"),
    "bmp (OpenCV)": encoded(".bmp", 17, 9),
    "tiff little-endian": saved(RGB, "TIFF"),
    "tiff big-endian 16-bit": saved(Image.new("I;16B", (77, 31)), "TIFF"),
    "tiff lzw (OpenCV)": encoded(".tiff"),
    "webp lossy": saved(RGB, "WEBP"),
    "webp lossless": saved(RGB, "WEBP", lossless=True),
    "webp extended": saved(RGB, "WEBP", exif=Image.Exif().tobytes()),
    "webp animated": animated("WEBP"),
    "webp (OpenCV)": encoded(".webp"),
}


@pytest.mark.parametrize("name", PICTURES)
def test_the_header_says_the_size_opencv_decodes(name):
    data = PICTURES[name]
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert dimensions(data) == (image.shape[1], image.shape[0])


@pytest.mark.parametrize("name", PICTURES)
def test_a_header_cut_short_is_refused_as_not_an_image(name):
    data, size = PICTURES[name], dimensions(PICTURES[name])
    for end in range(min(len(data), 400)):
        try:
            assert dimensions(data[:end]) == size  # the header was whole
        except NotAnImage:
            pass


ODD = {
    "empty": b"",
    "text": b".GY.Y\nGO..B\n",
    "png, IHDR not first": b"\x89PNG\r\n\x1a\n" + chunk(b"tEXt", b"a\x00b") + chunk(b"IHDR", bytes(13)),
    "png, IHDR of 12 bytes": b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">III", 5, 5, 0)),
    "png of width 0": b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 0, 5, 8, 2, 0, 0, 0)),
    "png signature only": b"\x89PNG\r\n\x1a\n",
    "jpeg, scan before any frame": b"\xff\xd8\xff\xda\x00\x08\x01\x01\x00\x00\x3f\x00",
    "jpeg, height left to DNL": b"\xff\xd8\xff\xc0\x00\x0b\x08\x00\x00\x00\x10\x01\x01\x11\x00",
    "jpeg, end before any frame": b"\xff\xd8\xff\xd9",
    "jpeg, segment of length 0": b"\xff\xd8\xff\xe0\x00\x00" + b"\xff\xc0" * 20,
    "jpeg, garbage between segments": b"\xff\xd8\xff\xe0\x00\x02garbage\xff\xc0\x00\x0b\x08\x00\x10\x00\x10",
    "gif, no image": b"GIF89a\x10\x00\x10\x00\x00\x00\x00;",
    "gif, image of width 0": b"GIF89a\x10\x00\x10\x00\x00\x00\x00,\x00\x00\x00\x00\x00\x00\x10\x00\x00",
    "gif, colour table cut": b"GIF89a\x10\x00\x10\x00\xf7\x00\x00" + bytes(100),
    "bmp, unknown header": b"BM" + bytes(12) + struct.pack("<Iii", 20, 10, 10),
    "bmp of negative width": b"BM" + bytes(12) + struct.pack("<Iii", 40, -10, 10),
    "tiff, no width": b"II*\x00\x08\x00\x00\x00\x01\x00" + struct.pack("<HHII", 257, 3, 1, 10),
    "tiff, directory past the end": b"MM\x00*\xff\xff\xff\xf0",
    "tiff, width as a list": b"II*\x00\x08\x00\x00\x00\x02\x00" + struct.pack("<HHIIHHII", 256, 4, 2, 99, 257, 4, 1, 5),
    "webp, unknown chunk": b"RIFF\x20\x00\x00\x00WEBPVP9 " + bytes(20),
    "webp, lossy without its start code": b"RIFF\x20\x00\x00\x00WEBPVP8 " + bytes(20),
    "riff, not webp": b"RIFF\x20\x00\x00\x00AVI LIST" + bytes(20),
}


@pytest.mark.parametrize("name", ODD)
def test_an_odd_header_is_refused_as_not_an_image(name):
    with pytest.raises(NotAnImage, match="^not an image"):
        dimensions(ODD[name])


# OpenEXR left out: OpenCV's wheels neither write nor read it.
@pytest.mark.parametrize("suffix", [".ppm", ".pgm", ".pfm", ".hdr", ".ras", ".jp2", ".avif"])
def test_a_format_opencv_reads_but_the_import_does_not_take_is_refused_unread(suffix):
    pixels = np.zeros((45, 123), np.uint8) if suffix == ".pgm" else np.zeros((45, 123, 3), np.uint8)
    try:
        made, data = cv2.imencode(suffix, pixels.astype(np.float32) if suffix in (".pfm", ".hdr") else pixels)
    except cv2.error:
        made = False
    if not made or cv2.imdecode(data, cv2.IMREAD_COLOR) is None:
        pytest.skip(f"this OpenCV does not write and read {suffix}")
    with pytest.raises(NotAnImage):
        dimensions(data.tobytes())


def test_every_signature_a_file_is_taken_as_a_picture_by_has_a_reader():
    for magic in (*MAGIC, b"RIFF"):
        assert any(signature.startswith(magic) or magic.startswith(signature) for signature, _ in READERS), magic


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(PICTURES)), st.lists(st.tuples(st.integers(0, 63), st.integers(0, 255)), max_size=6))
def test_a_damaged_header_gives_a_size_or_not_an_image_and_nothing_else(name, changes):
    data = bytearray(PICTURES[name])
    for at, value in changes:
        if at < len(data):
            data[at] = value
    try:
        width, height = dimensions(bytes(data))
    except NotAnImage:
        return
    assert width > 0 and height > 0


# ---- the reading never raises: a board cut by the picture's edge, and a bug inside ----


def cut_board() -> bytes:
    """A shaped board (a border round it) cut by the picture's right edge halfway through its last
    column: the reading grew the lattice past the edge, and read a pixel off the picture (IndexError
    in board.py line_pixel, a traceback)."""
    from cpflow.vision.board import find_lattice
    from cpflow.vision.ridges import line_masks
    from cpflow.vision.screenshot import decode
    from cpflow.vision.synthetic import Shot, make

    data, _ = make(Shot(8, 8, (1080, 2400), shaped=True, seed=5))
    whole, working = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR), decode(data)
    lattice = find_lattice(*line_masks(working))
    scale = whole.shape[0] / working.shape[0]
    return cv2.imencode(".png", whole[:, : round((lattice.xs[-2] + lattice.step / 2) * scale)])[1].tobytes()


def test_a_board_cut_by_the_picture_s_edge_is_refused_in_one_line(tmp_path):
    shot = tmp_path / "cut.png"
    shot.write_bytes(cut_board())
    done = runner.invoke(app, ["import", str(shot)])
    assert (done.exit_code, done.stdout) == (1, "")
    assert done.stderr == f"{shot}: no board found: the board runs on past the picture's edge\n"


def sliver(width: int, height: int) -> bytes:
    rows = (b"\x00" + bytes((width + 7) // 8)) * height
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


@pytest.mark.parametrize(("width", "height"), [(1, 1), (60_000, 1), (1, 60_000)])
def test_a_sliver_of_a_picture_is_no_board_in_one_line(width, height):
    """60000x1 was shrunk to 1280x0 pixels: a cv2.error traceback."""
    from cpflow.vision.screenshot import read

    with pytest.raises(ScreenshotUnreadable, match="^no board found"):
        read(sliver(width, height))


def test_a_side_longer_than_any_screen_s_is_refused_unread():
    from cpflow.vision.screenshot import read

    with pytest.raises(NotAnImage, match=f"^the image of {MAX_SIDE + 1}x1 pixels is far larger"):
        read(sliver(MAX_SIDE + 1, 1))


def test_an_error_inside_the_reading_is_a_one_line_refusal_that_names_it(tmp_path, monkeypatch):
    from cpflow.vision import screenshot
    from cpflow.vision.synthetic import Shot, make

    def broken(*args, **kwargs):
        return [][0]  # an IndexError, as a bug would raise it

    shot = tmp_path / "shot.png"
    shot.write_bytes(make(Shot(6, 6, (720, 1480), seed=1))[0])
    monkeypatch.setattr(screenshot, "find_holes", broken)
    done = runner.invoke(app, ["import", str(shot)])
    assert (done.exit_code, done.stdout) == (1, "")
    line = f"{shot}: could not read the board (IndexError in screenshot.py:"
    # the line names the function the error came up in: the one that calls find_holes
    assert done.stderr.startswith(line) and done.stderr.endswith(" _on_lattice)\n") and done.stderr.count("\n") == 1
    with pytest.raises(ScreenshotUnreadable, match=r"^could not read the board \(IndexError in screenshot\.py:\d+"):
        screenshot.read(shot.read_bytes())


@pytest.mark.parametrize("kind", [MemoryError, KeyboardInterrupt])
def test_running_out_of_memory_or_an_interrupt_is_not_taken_for_a_refusal(tmp_path, monkeypatch, kind):
    from cpflow.vision import screenshot
    from cpflow.vision.synthetic import Shot, make

    def broken(*args, **kwargs):
        raise kind

    monkeypatch.setattr(screenshot, "find_holes", broken)
    with pytest.raises(kind):
        screenshot.read(make(Shot(6, 6, (720, 1480), seed=1))[0])
