#!/usr/bin/python3
"""Measures how late beautyd shows reminders: due instant -> Notify call on the bus.

Starts a private D-Bus session bus (no service directories), the test notification server
(Tests/BeautyEndToEndTests/Fixtures/notification_server.py, which timestamps every Notify call),
and a real beautyd on temporary XDG directories; adds RUNS appointments through the real
beautyctl, each with an absolute reminder on its own whole second; waits for all of them, and
prints the lateness distribution.

    /usr/bin/python3 benchmarks/reminder_lateness.py [--runs 20] [--bin .build/debug]

Needs the system python3 (python3-dbus, python3-gi) and a built beautyd/beautyctl.
"""
import argparse
import datetime
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "Tests", "BeautyEndToEndTests", "Fixtures")


def wait_for(predicate, timeout, what):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return
        time.sleep(0.02)
    sys.exit(f"timed out waiting for {what}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "debug"))
    parser.add_argument("--lead", type=float, default=3.0, help="seconds before the first reminder")
    args = parser.parse_args()
    beautyd = os.path.join(args.bin, "beautyd")
    beautyctl = os.path.join(args.bin, "beautyctl")

    work = tempfile.mkdtemp(prefix="bdl-", dir="/tmp")
    children = []
    try:
        bus = subprocess.Popen(
            ["dbus-daemon", f"--config-file={FIXTURES}/session-bus.conf", "--nofork", "--print-address=1",
             f"--address=unix:path={work}/bus"], stdout=subprocess.PIPE, text=True)
        children.append(bus)
        address = bus.stdout.readline().strip()
        env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=address, XDG_RUNTIME_DIR=f"{work}/run",
                   XDG_DATA_HOME=f"{work}/data", XDG_CONFIG_HOME=f"{work}/config")
        os.makedirs(f"{work}/run", mode=0o700)
        log = f"{work}/notify.jsonl"
        server = subprocess.Popen(["/usr/bin/python3", f"{FIXTURES}/notification_server.py", log],
                                  env=env, stdout=subprocess.PIPE, text=True)
        children.append(server)
        if not server.stdout.readline().startswith("ready"):
            sys.exit("notification server did not start")
        daemon = subprocess.Popen([beautyd, "--log-level", "warning"], env=env)
        children.append(daemon)
        wait_for(lambda: subprocess.run([beautyctl, "status"], env=env, capture_output=True).returncode == 0,
                 10, "beautyd to answer")

        first = int(time.time() + args.lead) + 1
        due = {}
        for i in range(args.runs):
            at = first + i
            stamp = datetime.datetime.fromtimestamp(at, datetime.timezone.utc).isoformat()
            title = f"lateness-{i}"
            start = datetime.datetime.fromtimestamp(at + 3600, datetime.timezone.utc).isoformat()
            subprocess.run([beautyctl, "appointment", "add", title, "--at", start, "--remind-at", stamp],
                           env=env, check=True, capture_output=True)
            due[title] = at
        if time.time() >= first:
            sys.exit("adding took longer than --lead; raise it")

        def calls():
            if not os.path.exists(log):
                return []
            with open(log) as f:
                return [json.loads(line) for line in f if line.strip()]

        wait_for(lambda: len(calls()) >= args.runs, args.runs + args.lead + 15, "all reminders")
        time.sleep(1.5)  # anything shown twice would arrive now
        shown = calls()
        lateness_ms = sorted((c["time"] - due[c["summary"]]) * 1000 for c in shown if c["summary"] in due)
        duplicates = len(shown) - len({c["summary"] for c in shown})
        early = [x for x in lateness_ms if x < 0]
        print(f"reminders: {len(lateness_ms)} shown of {args.runs}, duplicates: {duplicates}, early: {len(early)}")
        print(f"lateness due->Notify (ms): median {statistics.median(lateness_ms):.2f}, "
              f"p90 {lateness_ms[int(0.9 * (len(lateness_ms) - 1))]:.2f}, max {max(lateness_ms):.2f}, "
              f"min {min(lateness_ms):.2f}")
        return 0 if len(lateness_ms) == args.runs and duplicates == 0 and not early else 1
    finally:
        for child in reversed(children):
            child.send_signal(signal.SIGINT if child is not children[0] else signal.SIGTERM)
        for child in children:
            try:
                child.wait(timeout=5)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
