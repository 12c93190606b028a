#!/usr/bin/python3
"""What one `status` answer costs beautyd.

    /usr/bin/python3 benchmarks/status_cost.py [--requests 20000] [--bin .build/release] [--waiting N]

Starts the benchmark session (benchmarks/harness.py: private bus, test notification server, beautyd
on an empty database), then sends --requests `status` requests over one pipelined connection (at
most 256 unanswered) and prints status/second and beautyd's CPU time (user + system) per status,
steadier than wall time on a shared machine. With --waiting N the notification server is stopped and N
due reminders are written to the database, so every status counts N deliveries waiting for it. Instruction counts are not available here: valgrind
3.19 cannot read Swift 6.3's DWARF 5 and, on a `strip --strip-debug` copy, crashes inside
callgrind; `perf stat -e instructions` is not supported in this VM. To see where the time goes, sample beautyd while this runs:
`perf record -e cpu-clock -g -p PID`.
Not part of `swift test`.
"""
import argparse
import datetime
import os
import signal
import sqlite3
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import ROOT, RPC, Session, process_cpu_seconds  # noqa: E402


def pipelined_status(session, count):
    rpc = RPC(session.socket_path)
    started = time.monotonic()
    rpc.pipeline("status", [None] * count)
    seconds = time.monotonic() - started
    rpc.close()
    return seconds


def add_waiting(session, count):
    """Stops the notification server (reminders then wait for it) and writes `count` due ones."""
    server = session.children[1]
    server.send_signal(signal.SIGINT)
    server.wait(timeout=15)
    due = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(seconds=1)).strftime("%Y-%m-%d %H:%M:%S.000")
    db = sqlite3.connect(os.path.join(session.work, "data", "beautyd", "beautyd.sqlite"), timeout=30)
    with db:
        db.executemany("INSERT INTO delivery(key, itemKind, itemID, occurrence, fireAt, state, source, attempts) "
                       "VALUES (?, 'water', 0, ?, ?, 'pending', 'plan', 0)",
                       ((f"water/bench/{n}", due, due) for n in range(count)))
    db.close()
    waiting = RPC(session.socket_path)
    counts = waiting.call("status")["counts"]["waitingDeliveries"]
    waiting.close()
    if counts != count:
        raise RuntimeError(f"status counts {counts} waiting deliveries, not {count}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=20000)
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release"))
    parser.add_argument("--waiting", type=int, default=0, help="due reminders waiting for the notification server")
    args = parser.parse_args()

    session = Session(args.bin, prefix="bds-")
    try:
        session.start_bus()
        session.start_daemon()
        if args.waiting:
            add_waiting(session, args.waiting)
        pipelined_status(session, 1000)  # warm up
        cpu_before = process_cpu_seconds(session.daemon.pid)
        seconds = pipelined_status(session, args.requests)
        cpu = process_cpu_seconds(session.daemon.pid) - cpu_before
        print(f"{args.requests} status ({args.waiting} waiting) in {seconds:.2f} s: {args.requests / seconds:,.0f} status/s "
              f"({seconds / args.requests * 1e6:,.0f} µs each; beautyd CPU {cpu / args.requests * 1e6:,.0f} µs each)")
    finally:
        session.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
