#!/usr/bin/python3
"""How long beautyd takes to say a CalDAV server is unreachable when nobody listens on its port.

    /usr/bin/python3 benchmarks/refused_connect.py [--runs 20] [--hogs 0,2,4] [--bin .build/release]

For each number of CPU hogs (`sha256sum /dev/zero`, one per hog), runs `beautyctl sync add` against
http://127.0.0.1:PORT/ where nothing listens, --runs times, and prints the median and maximum time
from exec to the "cannot be reached" refusal, with the beautyctl process start-up included.
A refused connect is one request and no retry: the time is the CPU's, not a timeout's. (This is the
figure CalDAVAccountRulesTests.nobodyListeningIsUnreachableQuickly once bounded in the suite.)
"""
import argparse
import os
import socket
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import ROOT, Session  # noqa: E402


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--hogs", default="0,2,4")
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release"))
    args = parser.parse_args()
    session = Session(args.bin, prefix="bdr-")
    try:
        session.start_bus()
        session.start_daemon()
        password = os.path.join(session.work, "password")
        with open(password, "w") as f:
            f.write("secret\n")
        os.chmod(password, 0o600)
        print("| CPU hogs | runs | median s | max s | reason |")
        print("|---|---|---|---|---|")
        for hogs in [int(h) for h in args.hogs.split(",")]:
            hogging = [subprocess.Popen(["sha256sum", "/dev/zero"]) for _ in range(hogs)]
            try:
                times, reason = [], ""
                for run in range(args.runs):
                    port = free_port()
                    started = time.monotonic()
                    out = session.ctl("sync", "add", f"r{hogs}-{run}", "--url", f"http://127.0.0.1:{port}/",
                                      "--user", "anna", "--password-file", password, check=False)
                    times.append(time.monotonic() - started)
                    reason = (out.stderr.strip().splitlines() or ["?"])[-1]
                    if out.returncode == 0 or "cannot be reached" not in out.stderr:
                        sys.exit(f"unexpected answer: {out}")
            finally:
                for hog in hogging:
                    hog.kill()
                    hog.wait()
            print(f"| {hogs} | {len(times)} | {statistics.median(times):.3f} | {max(times):.3f} | {reason[:90]} |",
                  flush=True)
        return 0
    finally:
        session.close()


if __name__ == "__main__":
    sys.exit(main())
