#!/usr/bin/python3
"""Measures how late beautyd shows reminders: due instant -> Notify call on the bus.

Starts a private D-Bus session bus (no service directories), the test notification server
(Tests/BeautyTestSupport/Fixtures/notification_server.py, which timestamps every Notify call),
and a real beautyd on temporary XDG directories; adds RUNS appointments through the real
beautyctl, each with an absolute reminder on its own whole second; waits for all of them, and
prints the lateness distribution.

    /usr/bin/python3 benchmarks/reminder_lateness.py [--runs 20] [--bin .build/debug]

Needs the system python3 (python3-dbus, python3-gi) and a built beautyd/beautyctl.
"""
import argparse
import datetime
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import ROOT, Session, wait_for  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "debug"))
    parser.add_argument("--lead", type=float, default=3.0, help="seconds before the first reminder")
    args = parser.parse_args()
    session = Session(args.bin, prefix="bdl-")
    beautyctl = session.beautyctl
    try:
        session.start_bus()
        session.start_daemon()
        env = session.env  # set by start_bus

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

        calls = session.notify_calls

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
        session.close()


if __name__ == "__main__":
    sys.exit(main())
