"""Every file cpflow writes: whole or not at all, a group of files together, never over an input.

Glossary
- target: the path a file is to have, e.g. `out/gen_7x7_01.txt`
- part: the temporary a target is written as first, in the target's own folder (the same
  file system, so that the rename onto the target is atomic), named
  `.cpflow-part-<8 hex digits>-<the target's name>`: it ends in the target's name, so a writer
  that picks its format by the suffix (PuLP, CP-SAT, PySAT) picks the same one; `is_part`
  knows such names (and `.cpflow-old-...`, below), for a sweep
- group: files that land together (a generated puzzle, its solution and their pictures;
  an imported puzzle and its play; the two run files of a comparison)
- landing: every part written, flushed and fsynced, then each renamed onto its target

What a group guarantees (`together`; `write` is a group of one):
- No target is renamed before every part of the group is written and fsynced. Whatever
  stops the group before then (an OSError: a missing folder, a read-only or full file system;
  an exception of the writer; Ctrl-C or SIGTERM) removes every part: each target is as it
  was, absent or with its old content.
- A target is never seen part-written: before its rename it is its old file, after it the
  whole new one (POSIX `rename`). A target that existed keeps its permission bits.
- The renames run with SIGINT and SIGTERM held. If one fails, the targets already renamed
  are put back: each replaced file was kept under a hard link (`.cpflow-old-<hex>-<name>`)
  until the whole group landed (on a file system without hard links it is moved aside,
  and that target is absent between the two renames); a target that was absent is
  removed. So the group lands whole or not at all.
- Not covered: SIGKILL or a power cut during the renames (a few system calls) leaves the
  targets renamed so far landed and the rest as they were, with parts and old links beside
  them under names no target has; a failure while putting targets back (the disk gone) is
  reported as the first failure. Folders are fsynced after the renames, so a landed group
  survives a power cut.

Every OSError of a group's files becomes OutputError, one line (`PATH: cannot write: No space
left on device`), exit 2. Before any work, `ready` refuses a target that is the same file as an
input of the command (`refuse_inputs`) or whose folder cannot be written in. A target that is a
symbolic link is replaced by the new file (the file it pointed to is left as it was). The
library prints nothing.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path

from cpflow.errors import OutputError

PART = ".cpflow-part-"
OLD = ".cpflow-old-"
KEPT_NAME = 200  # characters of the target's name kept in a part's (a file name is at most 255 bytes)
CHUNK = 1 << 20  # bytes per write call


def is_part(path: str | Path) -> bool:
    """Whether the file is a part or an old link this module made (left only by a killed process)."""
    return Path(path).name.startswith((PART, OLD))


def write(target: str | Path, data: str | bytes) -> None:
    """One file written whole or not at all (a group of one); OutputError when it cannot be."""
    with together() as group:
        group.write(target, data)


@contextlib.contextmanager
def together() -> Iterator[Group]:
    """A group whose files land when the block ends, or none of them when it raises (any exception,
    an interrupt too); an OSError from writing or landing one of its files becomes OutputError."""
    group = Group()
    try:
        yield group
        group.land()
    except BaseException as error:
        group.discard()
        if isinstance(error, OSError) and group.owns(error):
            raise _refusal(error) from None
        raise


def ready(targets: Iterable[str | Path | None], inputs: Iterable[str | Path | None] = ()) -> None:
    """Before any work: OutputError for a target that is an input (`refuse_inputs`) or another target
    (two outputs of a command in one file), or that cannot be written (its folder missing, read-only: a
    part made and removed); None is no file."""
    named = [target for target in targets if target is not None and str(target) != "-"]
    refuse_inputs(named, inputs)
    for k, target in enumerate(named):
        if any(_same_file(Path(target), Path(other)) for other in named[:k]):
            raise OutputError(str(target), "named for two of the files to write; name one each")
    for target in named:
        group = Group()
        try:
            group.open(target)
        except OSError as error:
            raise _refusal(error) from None
        finally:
            group.discard()


def folder(path: str | Path) -> Path:
    """The folder, made if need be (with its parents); OutputError (`DIR: cannot write here: ...`)
    when it cannot be."""
    path = Path(path)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputError(str(path), f"cannot write here: {_reason(error)}") from None
    return path


def refuse_inputs(targets: Iterable[str | Path | None], inputs: Iterable[str | Path | None]) -> None:
    """OutputError for the first target that is the same file as an input (the same inode however
    reached, or the same resolved path); None and `-` (standard input) are no file."""
    sources = [Path(source) for source in inputs if source is not None and str(source) != "-"]
    for target in targets:
        if target is None or str(target) == "-":
            continue
        for source in sources:
            if _same_file(Path(target), source):
                named = "" if Path(target) == source else f" ({source})"
                raise OutputError(str(target), f"cannot write over an input{named}")


class Part:
    """A target's temporary, open for writing: text (UTF-8) or bytes, in any number of `write`s."""

    def __init__(self, target: Path):
        self.target = target
        if not target.name:  # `.`, `/`
            raise OSError(errno.EISDIR, os.strerror(errno.EISDIR), str(target))
        self.path = target.with_name(f"{PART}{os.urandom(4).hex()}-{target.name[-KEPT_NAME:]}")
        self.by_path = False  # True when another writer writes it by its path
        with said_of(target):
            self.fd: int | None = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # umask applies
        try:
            os.chmod(self.path, stat.S_IMODE(os.stat(target).st_mode))  # a replaced file keeps its mode
        except FileNotFoundError:
            pass
        except OSError as error:
            _remove(self)
            raise _of(error, target) from None

    def write(self, data: str | bytes) -> int:
        """The data appended to the part (text as UTF-8); its length, as a file's `write` returns."""
        if self.fd is None:
            raise ValueError(f"{self.target}: written after it was closed")
        with said_of(self.target):
            _write_all(self.fd, data.encode() if isinstance(data, str) else data)
        return len(data)

    def flush(self) -> None:
        """Nothing to flush: every `write` reaches the file at once."""

    def close(self) -> None:
        """The part fsynced and closed: what is written is on disk before it is renamed."""
        with said_of(self.target):
            if self.fd is not None:
                fd, self.fd = self.fd, None
                try:
                    os.fsync(fd)
                finally:
                    os.close(fd)
            elif self.by_path:
                _fsync(self.path)
                self.by_path = False


class Group:
    """Files written as parts and landed together (`together` makes one and lands it)."""

    def __init__(self) -> None:
        self.parts: dict[Path, Part] = {}  # by target, in the order opened
        self.targets: set[str] = set()  # every target asked for, also one whose part could not be made
        self.landed = False

    def open(self, target: str | Path) -> Part:
        """A part for `target`, to write into as it comes (created now, so a bad path is told before
        any work); written again, a target's earlier part is dropped."""
        target = Path(target)
        self.targets.add(str(target))
        with interrupts_held():  # the part is known to the group from the moment it exists
            if target in self.parts:
                _remove(self.parts.pop(target))
            self.parts[target] = part = Part(target)
        return part

    def write(self, target: str | Path, data: str | bytes) -> None:
        """The whole file, as a part (fsynced) until the group lands."""
        part = self.open(target)
        part.write(data)
        part.close()

    def path(self, target: str | Path) -> Path:
        """A part's path for a writer that takes a path (it writes there; the group lands it)."""
        part = self.open(target)
        part.close()
        part.by_path = True
        return part.path

    def land(self) -> None:
        """Each part fsynced, then renamed onto its target with interrupts held; any rename that fails
        puts back those already done (the module's docstring says exactly what is guaranteed)."""
        for part in self.parts.values():
            part.close()
        with interrupts_held():
            done: list[tuple[Part, Path | None]] = []
            try:
                for number, part in enumerate(self.parts.values()):
                    last = number == len(self.parts) - 1
                    with said_of(part.target):
                        done.append((part, None if last else _keep_old(part.target)))
                        os.replace(part.path, part.target)
            except BaseException:
                _put_back(done)
                raise
            self.landed = True  # before interrupts come: the group is whole, nothing to discard
        for _, old in done:
            if old is not None:
                with contextlib.suppress(OSError):
                    os.unlink(old)
        for place in {part.target.parent for part in self.parts.values()}:
            _fsync_folder(place)

    def discard(self) -> None:
        """Every part removed (nothing once the group has landed)."""
        if not self.landed:
            with interrupts_held():  # a second Ctrl-C does not leave parts behind
                for part in self.parts.values():
                    _remove(part)

    def owns(self, error: OSError) -> bool:
        """Whether the error came from writing one of the group's files; if so it is said of the target
        (a writer given a part's path names the part)."""
        for target, part in self.parts.items():
            if error.filename == str(part.path):
                _of(error, target)
        return error.filename in self.targets


@contextlib.contextmanager
def said_of(target: str | Path) -> Iterator[None]:
    """An OSError in the block said of the target: for a writer of a part that may raise one naming
    no file (a full disk, from a file's `write`)."""
    try:
        yield
    except OSError as error:
        raise _of(error, target) from None


def _of(error: OSError, target: str | Path) -> OSError:
    error.filename, error.filename2 = str(Path(target)), None  # as `Group.targets` holds it
    return error


def _write_all(fd: int, data: bytes) -> None:
    """Every byte written (os.write may write fewer than asked)."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view[:CHUNK])
        view = view[written:]


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_folder(path: Path) -> None:
    """The folder's entries on disk; a file system that cannot fsync a folder is left as it is."""
    with contextlib.suppress(OSError):
        _fsync(path)


def _keep_old(target: Path) -> Path | None:
    """The file the target holds now, kept under an old link until the group has landed; None when
    there is none."""
    old = target.with_name(f"{OLD}{os.urandom(4).hex()}-{target.name[-KEPT_NAME:]}")
    try:
        os.link(target, old, follow_symlinks=False)
    except FileNotFoundError:
        return None
    except OSError:  # no hard links here: moved aside, the target absent until its part lands
        try:
            os.replace(target, old)
        except FileNotFoundError:
            return None
    return old


def _put_back(done: list[tuple[Part, Path | None]]) -> None:
    """The targets renamed so far as they were: their old files back, or removed when there was none."""
    for part, old in reversed(done):
        with contextlib.suppress(OSError):
            if old is not None:
                os.replace(old, part.target)
            elif not os.path.lexists(part.path):  # renamed: the target is the part
                os.unlink(part.target)
        _remove(part)


def _remove(part: Part) -> None:
    with contextlib.suppress(OSError):
        part.close()
    with contextlib.suppress(FileNotFoundError):
        os.unlink(part.path)


def _same_file(target: Path, source: Path) -> bool:
    try:
        return os.path.samefile(target, source)
    except OSError:  # one of them is absent
        return target.resolve() == source.resolve()


def _refusal(error: OSError) -> OutputError:
    return OutputError(str(error.filename), f"cannot write: {_reason(error)}")


def _reason(error: OSError) -> str:
    return error.strerror or str(error) or type(error).__name__


@contextlib.contextmanager
def interrupts_held() -> Iterator[None]:
    """SIGINT and SIGTERM wait (where POSIX allows) until the block ends, then come: while files that go
    together land, or while a pool's processes start (cpflow.workflows.batch)."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
