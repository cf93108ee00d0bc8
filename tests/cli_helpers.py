"""Running the CLI in-process for the CLI tests: every argument as text, JSON read from stdout only."""
import json

from typer.testing import CliRunner

from riskstats.cli import app

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def run_json(*args):
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def interrupt_on_a_terminal(args, ready, *, cwd=None, wait=120.0, grace=5.0, delay=0.0):
    """Run ``python -m riskstats ARGS`` with its stdout on a pseudo-terminal (so that it draws its progress),
    send it SIGINT (Ctrl-C) ``delay`` seconds after the terminal shows a match of the regular expression
    ``ready`` (bytes), and return ``(exit status, stderr, seconds from the signal to the exit, what the
    terminal showed)``; the process is killed, and the status is None, if it is not gone ``grace`` seconds
    after the signal.
    ``wait`` bounds the time to ``ready``: call the kernels in the test first, so that they are in numba's
    cache and the process only loads them."""
    import os
    import pty
    import re
    import select
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(root), "COLUMNS": "120", "TERM": "xterm"}
    env.pop("NO_COLOR", None)
    main, child = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "riskstats", *map(str, args)], stdin=subprocess.DEVNULL,
                               stdout=child, stderr=subprocess.PIPE, cwd=cwd, env=env,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    os.close(child)
    screen, err = b"", b""
    seen = sent = None
    end = time.monotonic() + wait
    try:
        while process.poll() is None and time.monotonic() < end:
            readable, _, _ = select.select([main, process.stderr], [], [], 0.05)
            if main in readable:
                try:
                    screen += os.read(main, 65536)
                except OSError:  # the terminal's other end closed
                    pass
            if process.stderr in readable:
                err += os.read(process.stderr.fileno(), 65536)
            if seen is None and re.search(ready, screen):
                seen = time.monotonic()
            if sent is None and seen is not None and time.monotonic() >= seen + delay:
                process.send_signal(signal.SIGINT)
                sent = time.monotonic()
                end = sent + grace
        status = process.poll()
        took = None if sent is None or status is None else time.monotonic() - sent
        if status is None:
            process.kill()
        process.wait()
        err += process.stderr.read()
    finally:
        os.close(main)
        process.stderr.close()
    return status, err.decode(errors="replace"), took, screen.decode(errors="replace")
