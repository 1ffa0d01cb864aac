"""Workers forked from this process that talk through plain pipes: :func:`planner.common.processes.ordered_map`'s
crew wherever a fork is safe.

A batch's serial time is what its workers' start costs: through multiprocessing a worker took 9-12 ms to start, most
of it importing multiprocessing's modules (its semaphores pull in tempfile, socket and subprocess, its shared value
ctypes), against about a millisecond for a fork and three pipes. The chunks' numbers are all written to one pipe
before the workers start, so that taking the next chunk is one read (a read of one number is one process's: no
lock); each worker sends its results back through a pipe of its own, never waiting for this process to read them;
the stop is a pipe too, set by a byte written to it, or by this process's end.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys
import time
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar

from planner.common.limits import StopLike
from planner.common.threads import POLL

T = TypeVar("T")
R = TypeVar("R")

__all__ = ["MAX_CHUNKS", "Forked", "run_chunk", "sendable"]

TOKEN = 2
"""Bytes of one chunk number in the pipe of chunk numbers."""

TOKEN_BYTES = 4096
"""The most bytes of chunk numbers: one page, what a pipe holds before anyone reads on every system, even under
Linux's limit of a user's pipe memory."""

MAX_CHUNKS = TOKEN_BYTES // TOKEN
"""The most chunks a batch may be cut into: all their numbers fit in the pipe at once."""

ATOMIC = 512
"""Bytes a pipe takes in one write or not at all (POSIX's least ``PIPE_BUF``): the numbers go in whole."""

LENGTH = 8
"""Bytes of the length before each message from a worker."""


class Forked:
    """The forked workers of one :func:`~planner.common.processes.ordered_map` and the pipes to them: started by
    :meth:`start`, ended by :meth:`close`; what they send back collects in :attr:`arrived`."""

    def __init__(self, fn: Callable[[T, StopLike | None], R], chunks: list[list[T]], *,
                 in_child: Callable[[], None], stop_wait: float) -> None:
        """``in_child`` runs first in each worker; ``stop_wait``: seconds the workers get to finish their chunks
        after an early stop, before they are terminated."""
        self.fn, self.chunks = fn, chunks
        self.in_child, self.stop_wait = in_child, stop_wait
        self.arrived: dict[int, tuple[bool, Any]] = {}  # chunk -> (whether fn returned, its results or its error)
        self.pids: list[int] = []
        self.streams: dict[int, bytearray] = {}  # a worker's pipe -> what arrived of its next message
        self.reading = False  # set while a pipe is read: one broken off (Ctrl-C) leaves its stream unreadable
        self.tokens = self.stop_read = self.stop_write = -1
        self.stopped = False
        self.poll = select.poll()

    def start(self, workers: int) -> None:
        """Fill the pipe of chunk numbers and fork ``workers`` workers (fewer if the system refuses more)."""
        try:
            tokens, tokens_write = os.pipe()
        except OSError:  # no descriptors left: this process takes every chunk, in turn
            return
        try:
            self.stop_read, self.stop_write = os.pipe()
        except OSError:
            os.close(tokens)
            os.close(tokens_write)
            return
        self.tokens = tokens
        os.set_blocking(tokens_write, False)
        numbers = b"".join(_token(index) for index in range(len(self.chunks)))  # at most TOKEN_BYTES
        for at in range(0, len(numbers), ATOMIC):
            try:  # whole writes of whole numbers: a pipe takes ATOMIC bytes at once or none
                os.write(tokens_write, numbers[at:at + ATOMIC])
            except BlockingIOError:  # a pipe smaller than any system's: what is not in, this process computes
                break
        os.close(tokens_write)  # all in: a read finds a number, or the end once all are taken
        _flush_standard_streams()  # what they hold would be written again by each worker
        for _ in range(workers):
            try:
                results_read, results_write = os.pipe()
            except OSError:  # no descriptors left: the workers started, and this process, do the work
                break
            try:
                pid = os.fork()
            except OSError:  # no more processes: likewise
                os.close(results_read)
                os.close(results_write)
                break
            if pid == 0:
                _forked_worker(self.fn, self.chunks, self.tokens, results_write, self.stop_read,
                               closing=[results_read, self.stop_write, *self.streams], in_child=self.in_child)
            os.close(results_write)
            self.pids.append(pid)
            self.streams[results_read] = bytearray()
            self.poll.register(results_read, select.POLLIN)

    def take(self) -> int | None:
        """The next chunk nobody has taken (and take it), or None when all are."""
        data = os.read(self.tokens, TOKEN) if self.tokens >= 0 else b""
        return int.from_bytes(data, "little") if data else None

    def alive(self) -> bool:
        """Whether a worker may still send: its pipe is open."""
        return bool(self.streams)

    def stop(self) -> None:
        """Set the workers' stop."""
        if not self.stopped and self.stop_write >= 0:
            os.write(self.stop_write, b"!")
        self.stopped = True

    def receive(self, timeout: float | None) -> bool:
        """What the workers sent into :attr:`arrived` (waiting up to ``timeout`` seconds for something; None: only
        what is there); whether a whole message arrived. A pipe at its end is closed: its worker is gone."""
        if not self.streams:
            return False
        got = False
        self.reading = True
        try:
            for descriptor, _ in self.poll.poll(0 if timeout is None else timeout * 1000):
                data = os.read(descriptor, 1 << 16)
                if data:
                    got = self._unpack(self.streams[descriptor], data) or got
                else:  # the worker ended; a message it broke off when it died is dropped
                    self.poll.unregister(descriptor)
                    os.close(descriptor)
                    del self.streams[descriptor]
        finally:
            self.reading = False
        return got

    def receive_rest(self) -> None:
        """Nothing to do: a pipe ends only after everything its worker sent was read."""

    def _unpack(self, stream: bytearray, data: bytes) -> bool:
        import pickle

        stream += data
        got = False
        while len(stream) >= LENGTH and len(stream) >= LENGTH + (size := int.from_bytes(stream[:LENGTH], "little")):
            index, ok, value = pickle.loads(memoryview(stream)[LENGTH:LENGTH + size])
            del stream[:LENGTH + size]
            self.arrived[index] = (ok, value)
            got = True
        return got

    def close(self, finished: bool) -> None:
        """Stop what still runs (the caller stopped early), hand out no more chunks, and end every worker: given
        ``stop_wait`` seconds to finish its chunk (its pipe kept flowing), then terminated."""
        self.stop()
        if self.tokens >= 0:
            while os.read(self.tokens, 1 << 16):
                pass
        if not finished and not self.reading:
            deadline = time.monotonic() + self.stop_wait
            while self.streams and time.monotonic() < deadline:
                self.receive(POLL)
        for descriptor in self.streams:
            os.close(descriptor)
        self.streams.clear()
        for pid in self.pids:
            if not finished:
                with contextlib.suppress(ProcessLookupError):  # what still runs is not wanted
                    os.kill(pid, signal.SIGTERM)
            with contextlib.suppress(ChildProcessError):  # reaped by someone else (SIGCHLD ignored)
                os.waitpid(pid, 0)
        for descriptor in (self.tokens, self.stop_read, self.stop_write):
            if descriptor >= 0:
                os.close(descriptor)
        self.tokens = self.stop_read = self.stop_write = -1


def _token(index: int) -> bytes:
    return index.to_bytes(TOKEN, "little")


def _flush_standard_streams() -> None:
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            with contextlib.suppress(OSError, ValueError):  # closed or refusing: nothing to write again
                stream.flush()


class _PipeStop:
    """A forked worker's stop: set once the parent writes to its pipe or ends (the pipe then reads as ended)."""

    def __init__(self, descriptor: int) -> None:
        self._poll = select.poll()
        self._poll.register(descriptor, select.POLLIN)
        self._set = False

    def is_set(self) -> bool:
        """Whether the parent stopped the work (one poll of the pipe until it has)."""
        return self.wait(0)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait up to ``timeout`` seconds (None: for ever) for the stop; whether it is set."""
        if not self._set:
            self._set = bool(self._poll.poll(None if timeout is None else timeout * 1000))
        return self._set


def _forked_worker(fn: Callable[[T, StopLike | None], R], chunks: list[list[T]], tokens: int, results: int,
                   stop: int, *, closing: list[int], in_child: Callable[[], None]) -> NoReturn:
    """A forked worker: chunks in turn until none is left, each one's results sent back with its number, then the
    process ends (without the parent's exit handlers). Its sends never wait for the parent, which may be busy with
    a chunk of its own: what the pipe does not take is kept and sent after the next chunk, and the rest at the
    end."""
    code = 1
    try:
        in_child()
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's, which passes it on as the stop
        for descriptor in closing:
            os.close(descriptor)
        watched = _PipeStop(stop)
        os.set_blocking(results, False)
        backlog = bytearray()
        while data := os.read(tokens, TOKEN):
            index = int.from_bytes(data, "little")
            ok, value = run_chunk(fn, chunks[index], watched)
            backlog += _message(index, ok, value)
            _send(results, backlog)
        os.set_blocking(results, True)
        _send(results, backlog)
        code = 0
    except BrokenPipeError:  # the parent is gone: nobody wants the rest
        pass
    except BaseException:
        import traceback

        traceback.print_exc()
    finally:
        _flush_standard_streams()
        os._exit(code)


def _message(index: int, ok: bool, value: Any) -> bytes:
    """One chunk's results (or its error) as a worker sends them: their length, then their pickle."""
    import pickle

    try:
        body = pickle.dumps((index, ok, value if ok else sendable(value)), pickle.HIGHEST_PROTOCOL)
    except Exception as error:  # results that cannot travel: raised in their turn, in the parent
        body = pickle.dumps((index, False, RuntimeError(f"a worker's results could not be sent back: {error}")))
    return len(body).to_bytes(LENGTH, "little") + body


def _send(descriptor: int, backlog: bytearray) -> None:
    """Write what of ``backlog`` the pipe takes now (all of it if the pipe blocks), and drop that from it."""
    while backlog:
        try:
            written = os.write(descriptor, backlog)
        except BlockingIOError:
            return
        del backlog[:written]


def run_chunk(fn: Callable[[T, StopLike | None], R], chunk: list[T], stop: StopLike | None) -> tuple[bool, Any]:
    """``fn`` over ``chunk``: (True, the results), or (False, the exception it raised, to raise in its turn)."""
    try:
        return True, [fn(item, stop) for item in chunk]
    except Exception as error:  # raised in the item's turn, in the caller's process
        return False, error


def sendable(error: Exception) -> Exception:
    """``error``, or where it would not come back whole through a pipe, a RuntimeError that says what it was."""
    import pickle

    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        return RuntimeError(f"{type(error).__name__}: {error}")
    return error
