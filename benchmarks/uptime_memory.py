#!/usr/bin/python3
"""Weeks of uptime in one run: does beautyd's memory level off?

    /usr/bin/python3 benchmarks/uptime_memory.py [--requests 1000000] [--step 100000] [--bin .build/release]
                                                 [--trim] [--json FILE] [--png FILE]

Starts a private session bus, the test notification server and a release beautyd on temporary XDG
directories (benchmarks/harness.py), then sends --requests mixed requests over ONE pipelined
connection (at most 256 unanswered): 96% `status`, 2% durable `appointment.add`, all on one day,
and 2% `agenda` of that day, so the database grows all the time. After every --step requests it
records VmRSS, the anonymous (heap) part of it, the database and WAL sizes, how many SQLite
connections beautyd has open on the database, and the request rate.

SQLite keeps a page cache per connection (GRDB's pool: one writer and up to five readers, each
`PRAGMA cache_size` = -2000, i.e. 2,000 KiB), filled as the database grows and then bounded; a
leak would grow without that bound. With --trim, after the run, gdb calls `malloc_trim(0)` in
beautyd (freed heap pages glibc kept) and the RSS after it is recorded too.

Prints a table (and JSON with --json). Not part of `swift test`.
"""
import argparse
import datetime
import json
import os
import random
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import ROOT, RPC, Session, memory_breakdown, vm_rss_kib  # noqa: E402
from png_chart import write_line_chart  # noqa: E402

UTC = datetime.timezone.utc


def iso(ts):
    return datetime.datetime.fromtimestamp(ts, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def database_connections(pid, path):
    """Open descriptors of `pid` on the database file itself (one per SQLite connection)."""
    count = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}") == path:
                count += 1
        except OSError:
            continue
    return count


def size_kib(path):
    try:
        return os.path.getsize(path) // 1024
    except OSError:
        return 0


class MixedLoad:
    """The request mix, drawn from a seeded generator so that runs are alike."""

    def __init__(self, rpc, day_start, seed=22):
        self.rpc = rpc
        self.day_start = day_start
        self.random = random.Random(seed)
        self.counts = {"status": 0, "appointment.add": 0, "agenda": 0}

    def next_line(self):
        draw = self.random.random()
        if draw < 0.96:
            method, params = "status", None
        elif draw < 0.98:
            n = self.counts["appointment.add"]
            # All on one day: a minute of it each, round and round.
            params = {"title": f"uptime {n}", "start": iso(self.day_start + (n % 1440) * 60)}
            method = "appointment.add"
        else:
            method, params = "agenda", {"from": iso(self.day_start), "to": iso(self.day_start + 86400)}
        self.counts[method] += 1
        return self.rpc.line(method, params)

    def run(self, total, window=256):
        """Sends `total` requests, keeping at most `window` unanswered; checks every answer."""
        sent = answered = 0
        while answered < total:
            batch = []
            while sent < total and sent - answered < window:
                batch.append(self.next_line())
                sent += 1
            if batch:
                self.rpc.sock.sendall(b"".join(batch))
            target = min(total, answered + max(1, window // 2)) if sent < total else total
            while answered < target:
                self.rpc.receive()
                answered += 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=1_000_000)
    parser.add_argument("--step", type=int, default=100_000)
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release"))
    parser.add_argument("--trim", action="store_true", help="call malloc_trim(0) in beautyd with gdb at the end")
    parser.add_argument("--json", help="write the samples here")
    parser.add_argument("--png", help="plot VmRSS (blue) and its anonymous part (red), MiB, here")
    args = parser.parse_args()

    session = Session(args.bin, prefix="bdu-")
    samples = []
    try:
        session.start_bus()
        session.start_daemon()
        pid = session.daemon.pid
        database = os.path.join(session.work, "data", "beautyd", "beautyd.sqlite")
        day_start = (int(time.time()) // 86400 + 30) * 86400 + 8 * 3600
        rpc = RPC(session.socket_path)
        load = MixedLoad(rpc, day_start)

        def sample(done, seconds):
            memory = memory_breakdown(pid)
            row = {"requests": done, "vmrss_kib": vm_rss_kib(pid), "anonymous_kib": memory["anonymous"],
                   "database_kib": size_kib(database), "wal_kib": size_kib(database + "-wal"),
                   "sqlite_connections": database_connections(pid, database),
                   "appointments": load.counts["appointment.add"],
                   "requests_per_s": round(args.step / seconds) if seconds else None}
            samples.append(row)
            print(json.dumps(row), flush=True)

        sample(0, None)
        done = 0
        while done < args.requests:
            chunk = min(args.step, args.requests - done)
            started = time.monotonic()
            load.run(chunk)
            done += chunk
            sample(done, time.monotonic() - started)
        rpc.close()

        trimmed = None
        if args.trim:
            subprocess.run(["gdb", "-p", str(pid), "-batch", "-ex", "call (int) malloc_trim(0)"],
                           capture_output=True, text=True, timeout=300)
            trimmed = vm_rss_kib(pid)
            print(json.dumps({"after_malloc_trim_vmrss_kib": trimmed}), flush=True)
        result = {"requests": args.requests, "counts": load.counts, "samples": samples,
                  "after_malloc_trim_vmrss_kib": trimmed, "load": open("/proc/loadavg").read().split()[:3]}
        if args.json:
            with open(args.json, "w") as f:
                json.dump(result, f, indent=1)
        if args.png:
            write_line_chart(args.png, {
                "VmRSS": [(row["requests"], row["vmrss_kib"] / 1024) for row in samples],
                "anonymous": [(row["requests"], row["anonymous_kib"] / 1024) for row in samples],
            }, x_step=args.step, y_step=10, x_unit=1000)
        print()
        print("| requests | VmRSS MiB | anonymous MiB | database MiB | WAL MiB | SQLite connections | appointments | requests/s |")
        print("|---|---|---|---|---|---|---|---|")
        for row in samples:
            print(f"| {row['requests']:,} | {row['vmrss_kib'] / 1024:.1f} | {row['anonymous_kib'] / 1024:.1f} | "
                  f"{row['database_kib'] / 1024:.1f} | {row['wal_kib'] / 1024:.1f} | {row['sqlite_connections']} | "
                  f"{row['appointments']:,} | {row['requests_per_s'] or '—'} |")
        return 0
    finally:
        session.close()


if __name__ == "__main__":
    sys.exit(main())
