"""Runs every example against a service of its own started as `make run` starts it (`danger
serve`, default settings: every limit on), on a free loopback port with a temporary data
directory, and checks each one finished: exit status 0 and its result printed. The service
is stopped at the end, whatever happened. `make test-examples` runs it; CI does too.

    .venv/bin/python examples/run_all.py            # every example
    .venv/bin/python examples/run_all.py danger     # play.py danger only
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
DANGER = Path(sys.executable).with_name("danger")  # the venv's, beside this interpreter
KINDS = ("danger", "high-voltage", "danger-13", "danger-danger")
SHELL = "play-danger.sh"
START_SECONDS = 60.0  # the service's start: the embedded Valkey, the API, the worker
STOP_SECONDS = 30.0
RUN_SECONDS = 600  # one example at most; play.py gives up on its own after --timeout
# What each prints last when it finished: play.py's result and "done"; the shell's totals.
FINISHED = {
    "play.py": re.compile(r"  game over: .*\n(?:.*\n)*\s*\S+s  done\n?$"),
    SHELL: re.compile(r"^totals \[[\d, ]+\] winners \[[\d, ]*\]\n?$", re.MULTILINE),
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def defaults_only() -> dict[str, str]:
    """This environment without any DANGER_ setting, so that the service runs as `make run`
    runs it on a fresh machine."""
    return {k: v for k, v in os.environ.items() if not k.startswith("DANGER_")}


@contextlib.contextmanager
def service(data_dir: Path) -> Iterator[str]:
    """`danger serve` on a free port, its URL while it runs; stopped (its whole process
    group: the API, the worker, the embedded Valkey) on the way out."""
    port = free_port()
    log = (data_dir / "serve.log").open("wb")
    process = subprocess.Popen(
        [str(DANGER), "serve", "--port", str(port), "--data-dir", str(data_dir / "data")],
        env=defaults_only(),
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(url, process, data_dir / "serve.log")
        yield url
    finally:
        stop(process)
        log.close()


def wait_until_up(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit(f"danger serve exited with {process.returncode}:\n{log.read_text()}")
        with contextlib.suppress(httpx.TransportError):
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                return
        time.sleep(0.2)
    sys.exit(f"danger serve did not answer /health within {START_SECONDS:g} s:\n{log.read_text()}")


def stop(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(STOP_SECONDS)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(STOP_SECONDS)


def run(name: str, command: list[str], url: str) -> bool:
    """Runs one example; whether it finished. Its output is shown as it ends."""
    began = time.monotonic()
    try:
        done = subprocess.run(
            command,
            env={**defaults_only(), "DANGER_API": url},
            capture_output=True,
            text=True,
            timeout=RUN_SECONDS,
        )
    except subprocess.TimeoutExpired:
        print(f"FAIL {name}: still running after {RUN_SECONDS} s", flush=True)
        return False
    took = time.monotonic() - began
    script = "play.py" if "play.py" in command[1] else SHELL
    finished = done.returncode == 0 and FINISHED[script].search(done.stdout) is not None
    last = done.stdout.strip().splitlines()[-1:] or ["(no output)"]
    if finished:
        print(f"ok   {name} ({took:.1f} s): {last[0].strip()}", flush=True)
    else:
        print(f"FAIL {name} (exit {done.returncode}, {took:.1f} s)", flush=True)
        print(done.stdout[-4000:], done.stderr[-4000:], sep="\n", flush=True)
    return finished


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("only", nargs="*", help=f"some of: {', '.join(KINDS)}, {SHELL}")
    args = parser.parse_args()
    chosen = args.only or [*KINDS, SHELL]
    examples = {
        **{kind: [sys.executable, str(HERE / "play.py"), kind, "--seed", "1"] for kind in KINDS},
        SHELL: ["bash", str(HERE / SHELL)],
    }
    unknown = [name for name in chosen if name not in examples]
    if unknown:
        parser.error(f"no such example: {', '.join(unknown)}")
    with (
        tempfile.TemporaryDirectory(prefix="danger-examples-") as scratch,
        service(Path(scratch)) as url,
    ):
        print(f"danger serve at {url}, default settings", flush=True)
        results = [run(name, examples[name], url) for name in chosen]
    failed = results.count(False)
    print(f"{len(results) - failed} of {len(results)} examples finished", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
