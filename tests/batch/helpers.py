"""Task functions the batch tests hand to the workers (importable, so the workers can unpickle them)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from campaign.batch.replicate import ChunkResult, ChunkTask, run_chunk


def kill_once(task: ChunkTask, marker: str) -> ChunkResult:
    """The first call anywhere kills its own worker process (SIGKILL: no clean-up, as a crashed node);
    ``marker`` records that it happened, so every later call, on any worker, runs the chunk."""
    m = Path(marker)
    try:
        fd = os.open(m, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return run_chunk(task)
    os.write(fd, str(task.chunk).encode())
    os.close(fd)
    os.kill(os.getpid(), signal.SIGKILL)
    raise AssertionError("unreachable")


def fail_variant(task: ChunkTask, variant: str) -> ChunkResult:
    """Fails every chunk of ``variant`` (a bug in a what-if), runs the others."""
    if task.variant == variant:
        raise RuntimeError(f"boom in {variant}")
    return run_chunk(task)


def slow(task: ChunkTask, seconds: float) -> ChunkResult:
    """Runs the chunk after ``seconds`` (s): a batch that lasts long enough to be disturbed."""
    import time

    time.sleep(seconds)
    return run_chunk(task)


def no_disk(task: ChunkTask) -> ChunkResult:
    """Runs the chunk on a worker that cannot write into the driver's folders (a machine without the
    driver's file system): every file of a run written through campaign.output.files fails there."""
    from campaign.output import files

    def refuse(outdir, writers):
        raise OSError(f"{outdir}: not on this worker's file system")

    files.write_all = refuse  # this worker process only
    return run_chunk(task)
