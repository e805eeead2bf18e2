"""How long a fresh clone's `make run` takes until the API answers, step by step, as the
README's quick start states it; then a second `make run` in the same clone, and a rebuild of
the compiled modules after an edit of one. Standard library only: run it with the Python
that `make run` would use, from a checkout (the clone is of its HEAD).

    python3 -m bench.first_run [--into DIR] [--port 18600] [--pip-cache]

pip's cache is off (`PIP_NO_CACHE_DIR=1`), as on a fresh CI machine, unless `--pip-cache`.
Prints one JSON line: seconds from `make run` to the first answer of `GET /v1/games`, the
steps' seconds (the venv and its installs, the Cython build, the service's start), the CPU
seconds of `make` and all it ran, and the load average before and after (the machine's other
work slows every step: say it with the figures). Everything it starts listens on 127.0.0.1
and is stopped before it ends; each wait is bounded.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ANSWER_SECONDS = 1800  # a first build on a busy 2-core machine took 6 minutes
# Lines `make` echoes as it begins each step of `make run` (Makefile).
STEPS = {
    "install": "-m pip install --quiet -c constraints.txt",
    "compile": "/cythonize ",
    "start": "/danger serve",
}


def run_until_answered(clone: Path, port: int, env: dict[str, str]) -> dict[str, object]:
    """`make run` in `clone` until `GET /v1/games` answers on `port`; then stopped."""
    begun = time.monotonic()
    load = os.getloadavg()
    cpu_before = _children_cpu()
    make = subprocess.Popen(
        ["make", "run"],
        cwd=clone,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its group is stopped whole
    )
    seen: dict[str, float] = {}

    def read() -> None:
        assert make.stdout is not None
        for line in make.stdout:
            for step, sign in STEPS.items():
                if sign in line and step not in seen:
                    seen[step] = time.monotonic() - begun

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    answered = None
    while make.poll() is None and time.monotonic() - begun < ANSWER_SECONDS:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/games", timeout=1) as r:
                if r.status == 200:
                    answered = time.monotonic() - begun
                    break
        except OSError:
            time.sleep(0.2)
    os.killpg(make.pid, signal.SIGTERM)
    try:
        make.wait(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(make.pid, signal.SIGKILL)
        make.wait()
    reader.join(timeout=5)
    return {
        "answered_s": None if answered is None else round(answered, 1),
        "steps_began_s": {step: round(at, 1) for step, at in seen.items()},
        "cpu_s": round(_children_cpu() - cpu_before, 1),
        "load_before": [round(x, 2) for x in load],
        "load_after": [round(x, 2) for x in os.getloadavg()],
    }


def rebuild_after_edit(clone: Path, env: dict[str, str]) -> dict[str, object]:
    """`make compiled` after one compiled module changed (its mtime)."""
    (clone / "domain/danger/rules.py").touch()
    begun, load = time.monotonic(), os.getloadavg()
    subprocess.run(
        ["make", "compiled"], cwd=clone, env=env, capture_output=True, check=True, timeout=1800
    )
    return {"seconds": round(time.monotonic() - begun, 1), "load_before": round(load[0], 2)}


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--into", type=Path, help="where the clone goes (a new temporary dir)")
    parser.add_argument("--port", type=int, default=18600)
    parser.add_argument("--pip-cache", action="store_true", help="leave pip's cache as it is")
    args = parser.parse_args()
    parent = Path(tempfile.mkdtemp(prefix="danger-first-run-", dir=args.into))
    clone = parent / "clone"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True, timeout=300)
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DANGER_DATA_DIR")}
    env.pop("VIRTUAL_ENV", None)
    env["DANGER_PORT"] = str(args.port)
    if not args.pip_cache:
        env["PIP_NO_CACHE_DIR"] = "1"
    first = run_until_answered(clone, args.port, env)
    again = run_until_answered(clone, args.port, env)
    edit = rebuild_after_edit(clone, env)
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=clone, capture_output=True, text=True
    ).stdout.strip()
    print(
        json.dumps(
            {
                "commit": commit,
                "clone": str(clone),
                "pip_cache": "as it is" if args.pip_cache else "off (PIP_NO_CACHE_DIR=1)",
                "first_make_run": first,
                "second_make_run": again,
                "rebuild_after_an_edit": edit,
            }
        )
    )


if __name__ == "__main__":
    main()
