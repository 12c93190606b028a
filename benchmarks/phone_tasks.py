#!/usr/bin/python3
"""Doses on the phone benchmark: how soon a tick on the phone is a dose taken on the desktop, and
what beautyd asks of the server with nothing pending.

    /usr/bin/python3 benchmarks/phone_tasks.py [--polls 60,10] [--samples 5] [--idle 300]
                                               [--bin .build/release] [--out FILE]

Starts Radicale (Debian package `radicale`) on loopback behind the counting proxy of
benchmarks/caldav.py, and for each poll interval a release beautyd of its own (private session bus,
test notification server, `[sync] doses_poll` set to it, the appointment sync's interval a day so it
stays out of the counts) with `beautyctl sync add bench ... --doses` and SAMPLES medications whose
first dose falls due a minute or two later. The phone is python3-caldav on the dose list, straight
to Radicale (its requests are not beautyd's).

  1. Tick to record: once the doses are due and open, the phone ticks one task at a time, each after
     a random wait of up to one poll interval (so the tick lands anywhere in the poll cycle), with
     `complete(completion_timestamp=now)`; the figure is the time from the tick's PUT being answered
     to the dose reading "taken" in beautyd's `history` (read every 50 ms over the socket).
  2. Nothing pending: after every dose is answered, an idle stretch of IDLE seconds; beautyd's
     requests to Radicale during it (Radicale's log, user agent "beautyd") are extrapolated to a
     day. beautyd has no sped-up clock, so the day is extrapolated from the stretch, and the writes
     a day brings by itself (one PUT per dose entering the window, one per answer or missed close,
     docs/PHONE_TASKS.md §7) are counted from this run's figures, not waited for.

Prints a table and writes every figure as JSON to --out. doses_poll takes 10 s at the least, so the
short interval measured is 10 s.
"""
import argparse
import datetime
import importlib.util
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
# python3-caldav (the phone) has the name of benchmarks/caldav.py (Radicale and its counting proxy):
# the library is imported with this folder off the path, the benchmark's file by its path.
sys.path[:] = [entry for entry in sys.path if os.path.abspath(entry or ".") != HERE]
import caldav  # noqa: E402

sys.path.insert(0, HERE)
from harness import ROOT, RPC, Session, summary, wait_for  # noqa: E402

_spec = importlib.util.spec_from_file_location("caldav_benchmark", os.path.join(HERE, "caldav.py"))
caldav_benchmark = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(caldav_benchmark)
Radicale, USER, PASSWORD = caldav_benchmark.Radicale, caldav_benchmark.USER, caldav_benchmark.PASSWORD

UTC = datetime.timezone.utc


def beautyd_requests(radicale):
    """beautyd's requests Radicale has logged, by method."""
    radicale.log.flush()
    counts = {}
    with open(radicale.log_path) as f:
        for line in f:
            if " received from " in line and "using 'beautyd'" in line:
                method = re.search(r"\] (\w+) request for", line) or re.search(r"(\w+) request for", line)
                key = method.group(1) if method else "?"
                counts[key] = counts.get(key, 0) + 1
    return counts


def total(counts):
    return sum(counts.values())


class Phone:
    """python3-caldav on the dose list, as a phone's task app."""

    def __init__(self, radicale, list_url):
        path = urllib.parse.urlparse(list_url).path
        base = f"http://127.0.0.1:{radicale.port}/"
        self.client = caldav.DAVClient(url=base, username=USER, password=PASSWORD)
        self.calendar = caldav.Calendar(client=self.client, url=urllib.parse.urljoin(base, path))

    def open_tasks(self):
        return {str(t.icalendar_component["UID"]): t for t in self.calendar.todos()}

    def tick(self, todo):
        todo.complete(completion_timestamp=datetime.datetime.now(UTC))
        return time.monotonic()


def taken(rpc, title):
    """Whether beautyd's history has `title`'s dose taken."""
    return any(entry["kind"] == "dose" and entry["title"] == title and entry["state"] == "taken"
               for entry in rpc.call("history", {})["entries"])


def run_interval(radicale, bin_dir, poll, samples, idle, log):
    session = Session(bin_dir, prefix="bdb-pt-")
    os.makedirs(os.path.join(session.work, "config", "beautyd"), exist_ok=True)
    with open(os.path.join(session.work, "config", "beautyd", "config.toml"), "w") as f:
        f.write(f'[sync]\ninterval = "24h"\ndoses_poll = "{poll}s"\n')
    try:
        session.start_bus()
        session.start_daemon()
        # The doses fall due at the next whole minute at least 90 s away (local time, as beautyctl reads --at).
        due = datetime.datetime.now().replace(second=0, microsecond=0) + datetime.timedelta(minutes=2)
        if (due - datetime.datetime.now()).total_seconds() < 90:
            due += datetime.timedelta(minutes=1)
        titles = [f"Bench {poll}s {i}" for i in range(samples)]
        for title in titles:
            session.ctl("med", "add", title, "--dose", "1 tablet", "--at", due.strftime("%H:%M"), "--stock", "30")
        added = json.loads(session.ctl(
            "sync", "add", "bench", "--url", radicale.url, "--user", USER, "--password-file",
            radicale.password_file, "--doses", "--json").stdout)
        list_url = added["doses"]["listURL"]
        phone = Phone(radicale, list_url)
        wait_for(lambda: len(phone.open_tasks()) >= samples * 7, 120, "the dose window on the server", step=1)
        before_due = beautyd_requests(radicale)
        log(f"  poll {poll}s: {samples} doses due at {due:%H:%M}, {len(phone.open_tasks())} tasks on the server")
        wait_for(lambda: datetime.datetime.now() >= due + datetime.timedelta(seconds=2), 300, "the doses to fall due",
                 step=0.5)
        rpc = RPC(session.socket_path)
        rng = random.Random(poll)
        latencies = []
        tick_requests = []
        for title in titles:
            time.sleep(rng.uniform(0, poll))
            todo = next(t for t in phone.open_tasks().values()
                        if str(t.icalendar_component["SUMMARY"]).startswith(title + " ")
                        and t.icalendar_component["DUE"].dt.astimezone(UTC).replace(tzinfo=None)
                        <= datetime.datetime.utcnow())
            requests_before = total(beautyd_requests(radicale))
            ticked = phone.tick(todo)
            wait_for(lambda: taken(rpc, title), poll * 3 + 60, f"{title} to be taken on the desktop", step=0.05)
            latencies.append(time.monotonic() - ticked)
            tick_requests.append(total(beautyd_requests(radicale)) - requests_before)
            log(f"    tick to record: {latencies[-1]:.2f} s")
        rpc.close()
        answered = beautyd_requests(radicale)
        # Nothing pending: every due dose answered, the rest days away.
        time.sleep(3)
        idle_before = beautyd_requests(radicale)
        log(f"  poll {poll}s: idle for {idle} s ...")
        time.sleep(idle)
        idle_after = beautyd_requests(radicale)
        idle_requests = total(idle_after) - total(idle_before)
        status = json.loads(session.ctl("sync", "status", "bench", "--json").stdout)["accounts"][0]
        return {
            "poll": poll,
            "samples": samples,
            "tickToRecord": summary(latencies),
            "tickToRecordAll": [round(v, 3) for v in latencies],
            "requestsPerTick": tick_requests,
            "requestsWhileOpen": total(answered) - total(before_due),
            "requestsByMethodWhileOpen": {k: answered.get(k, 0) - before_due.get(k, 0) for k in answered},
            "idleSeconds": idle,
            "idleRequests": idle_requests,
            "idleRequestsPerDay": round(idle_requests * 86400 / idle, 1),
            "idleRequestsByMethod": {k: idle_after.get(k, 0) - idle_before.get(k, 0) for k in idle_after},
            "windowTasks": samples * 7,
            "nextRunAt": status.get("doses", {}).get("nextRunAt"),
        }
    finally:
        session.close()


def table(results):
    rows = [("doses_poll", "ticks", "tick→record median", "p99", "max", "min", "req/tick", "idle req", "idle req/day")]
    for r in results:
        t = r["tickToRecord"]
        rows.append((f"{r['poll']} s", str(t["n"]), f"{t['median']:.2f} s", f"{t['p99']:.2f} s", f"{t['max']:.2f} s",
                     f"{t['min']:.2f} s", ",".join(map(str, r["requestsPerTick"])),
                     f"{r['idleRequests']} in {r['idleSeconds']} s", str(r["idleRequestsPerDay"])))
    widths = [max(len(str(row[i])) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(str(c).ljust(w) for c, w in zip(row, widths)).rstrip() for row in rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--polls", default="60,10", help="doses_poll intervals in seconds, comma-separated")
    parser.add_argument("--samples", type=int, default=5, help="doses ticked on the phone per interval")
    parser.add_argument("--idle", type=int, default=300, help="seconds of the nothing-pending stretch")
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release"),
                        help="where beautyd and beautyctl are (default .build/release)")
    parser.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "beautyd-phone-tasks-bench.json"))
    args = parser.parse_args()
    if not os.path.exists(os.path.join(args.bin, "beautyctl")):
        sys.exit(f"{args.bin}/beautyctl does not exist: build it (swift build -c release) or pass --bin")
    results = []
    for poll in [int(p) for p in args.polls.split(",")]:
        work = tempfile.mkdtemp(prefix="bdb-ptr-", dir="/tmp")
        radicale = Radicale(work, 0)
        try:
            results.append(run_interval(radicale, args.bin, poll, args.samples, args.idle,
                                        lambda m: print(m, flush=True)))
        finally:
            radicale.close()
            if not os.environ.get("BEAUTYD_BENCH_KEEP"):
                shutil.rmtree(work, ignore_errors=True)
    print()
    print(table(results))
    with open(args.out, "w") as f:
        json.dump(results, f, indent=2)
    print(f"\nfigures written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
