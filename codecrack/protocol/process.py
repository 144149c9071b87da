"""A bot's subprocess, spoken to within deadlines and read within a byte bound.

The host never blocks on a bot: every write and read runs under a deadline through a
selector on non-blocking pipes; a line longer than ``Limits.line_bytes`` is a fault as soon as
that many bytes have arrived; stderr is drained as it comes and only its tail is kept. The bot
runs in its own session, so closing it kills the whole process group it may have spawned, and
the host reaps it.
"""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import time
from dataclasses import dataclass
from typing import IO

from .messages import Message, encode

STDERR_TAIL_BYTES = 2048
READ_CHUNK = 65536


@dataclass(frozen=True)
class Limits:
    """Per-answer time, start-up time (launch to the first pong) and the longest line a bot may send."""

    move_s: float = 5.0
    start_s: float = 20.0
    line_bytes: int = 1 << 16
    exit_grace_s: float = 0.5


class BotFault(Exception):
    """A bot crashed, timed out, broke the protocol or answered an illegal action.

    ``kind`` is ``crash``, ``timeout``, ``protocol`` or ``illegal``; ``seat`` is set by whoever
    knows it; ``stderr`` is the tail of what the bot wrote there.
    """

    def __init__(self, kind: str, detail: str, stderr: str = "", seat: int | None = None) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind, self.detail, self.stderr, self.seat = kind, detail, stderr, seat


class BotProcess:
    """One running bot. ``exchange`` sends a message and returns the bot's next line."""

    def __init__(self, argv: list[str], limits: Limits) -> None:
        self.argv, self.limits = argv, limits
        self._buffer = bytearray()
        self._stderr = bytearray()
        self.closed = False
        try:
            self.process = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
            )
        except OSError as error:
            raise BotFault("crash", f"cannot start {argv[0]!r}: {error.strerror or error}") from None
        self.stdin, self.stdout, self.stderr = _pipes(self.process)
        for pipe in (self.stdin, self.stdout, self.stderr):
            os.set_blocking(pipe.fileno(), False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self.stdout, selectors.EVENT_READ)
        self._selector.register(self.stderr, selectors.EVENT_READ)

    @property
    def stderr_tail(self) -> str:
        return self._stderr.decode(errors="replace")

    def fault(self, kind: str, detail: str) -> BotFault:
        return BotFault(kind, detail, self.stderr_tail)

    def send(self, message: Message, timeout_s: float) -> None:
        """Send ``message`` within ``timeout_s``, expecting no answer."""
        self._refuse_unsolicited()
        self._send(encode(message), time.monotonic() + timeout_s, timeout_s)

    def exchange(self, message: Message, timeout_s: float) -> bytes:
        """Send ``message`` and return the bot's answer line, all within ``timeout_s``."""
        deadline = time.monotonic() + timeout_s
        self._refuse_unsolicited()
        self._send(encode(message), deadline, timeout_s)
        return self._read_line(deadline, timeout_s)

    def close(self, farewell: Message | None = None) -> None:
        """Say goodbye if the bot still listens, give it a moment to exit, then kill its process
        group and reap it. Safe to call twice."""
        if self.closed:
            return
        self.closed = True
        if self.process.returncode is None:
            if farewell is not None:
                self._try_send(encode(farewell))
            self._wait_for_exit(self.limits.exit_grace_s)
            self._kill_group()
            self.process.wait()
        self._selector.close()
        for pipe in (self.stdin, self.stdout, self.stderr):
            pipe.close()

    # -- reading and writing under a deadline -----------------------------------------
    def _refuse_unsolicited(self) -> None:
        """A bot speaks only when asked: a line sent in between is a protocol fault."""
        self._pump(0.0)
        if self._buffer:
            raise self.fault("protocol", f"sent output nobody asked for: {self._preview(self._buffer)}")

    def _send(self, data: bytes, deadline: float, timeout_s: float) -> None:
        view = memoryview(data)
        stdin = self.stdin
        self._selector.register(stdin, selectors.EVENT_WRITE)
        try:
            while view:
                ready = self._wait(deadline, timeout_s)
                if any(key.fileobj is stdin for key in ready):
                    view = view[self._write_some(view) :]
        finally:
            self._selector.unregister(stdin)

    def _write_some(self, data: memoryview) -> int:
        try:
            return os.write(self.stdin.fileno(), data)
        except BlockingIOError:
            return 0
        except BrokenPipeError:
            raise self._crashed("closed its input") from None

    def _try_send(self, data: bytes) -> None:
        try:
            os.write(self.stdin.fileno(), data)
        except OSError:
            pass

    def _read_line(self, deadline: float, timeout_s: float) -> bytes:
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                line = bytes(self._buffer[:end])
                del self._buffer[: end + 1]
                return line
            if len(self._buffer) > self.limits.line_bytes:
                raise self.fault("protocol", f"sent a line longer than {self.limits.line_bytes} bytes")
            self._wait(deadline, timeout_s)

    def _wait(self, deadline: float, timeout_s: float) -> list[selectors.SelectorKey]:
        """Drain whatever output is ready and return the ready keys; a fault at the deadline."""
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise self.fault("timeout", f"no answer within {timeout_s:g} s")
        return self._pump(remaining)

    def _pump(self, timeout: float) -> list[selectors.SelectorKey]:
        ready = [key for key, _ in self._selector.select(timeout)]
        for key in ready:
            if key.fileobj is self.stdout:
                self._read_stdout()
            elif key.fileobj is self.stderr:
                self._read_stderr()
        return ready

    def _read_stdout(self) -> None:
        room = self.limits.line_bytes + 1 - len(self._buffer)
        chunk = self._read(self.stdout, min(READ_CHUNK, max(room, 1)))
        if chunk == b"":
            raise self._crashed("closed its output")
        self._buffer += chunk or b""

    def _read_stderr(self) -> bool:
        """Keep the tail of what is ready on stderr; ``False`` when nothing more came."""
        chunk = self._read(self.stderr, READ_CHUNK)
        if chunk == b"":
            self._selector.unregister(self.stderr)
        if not chunk:
            return False
        self._stderr = (self._stderr + chunk)[-STDERR_TAIL_BYTES:]
        return True

    def _drain_stderr(self) -> None:
        registered = self.stderr in self._selector.get_map()
        while registered and self._read_stderr():
            pass

    @staticmethod
    def _read(pipe, size: int) -> bytes | None:
        try:
            return os.read(pipe.fileno(), size)
        except BlockingIOError:
            return None

    # -- ending ------------------------------------------------------------------------
    def _crashed(self, what: str) -> BotFault:
        self._wait_for_exit(self.limits.exit_grace_s)
        self._drain_stderr()
        code = self._exit_code()
        status = f"exited with code {code}" if code is not None else "is still running"
        return self.fault("crash", f"{what}; the process {status}")

    def _exit_code(self) -> int | None:
        """The exit status if the bot has exited (not reaped yet, so that its group stays ours)."""
        try:
            info = os.waitid(os.P_PID, self.process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return self.process.returncode
        if info is None:
            return None
        return info.si_status if info.si_code == os.CLD_EXITED else -info.si_status

    def _wait_for_exit(self, grace_s: float) -> None:
        deadline = time.monotonic() + grace_s
        while self._exit_code() is None and time.monotonic() < deadline:
            time.sleep(0.01)

    def _kill_group(self) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    @staticmethod
    def _preview(data: bytes | bytearray) -> str:
        text = bytes(data[:80]).decode(errors="replace")
        return repr(text) + ("..." if len(data) > 80 else "")


def _pipes(process: subprocess.Popen[bytes]) -> tuple[IO[bytes], IO[bytes], IO[bytes]]:
    """The bot's stdin, stdout and stderr: each was asked for as a pipe, so each is open."""
    if process.stdin is None or process.stdout is None or process.stderr is None:
        raise RuntimeError("a pipe of the bot was not opened")
    return process.stdin, process.stdout, process.stderr
