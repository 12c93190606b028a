#!/usr/bin/python3
"""Firing lateness next to its floor, in one run: how late beautyd shows reminders, and how late the
machine itself would be.

    /usr/bin/python3 benchmarks/firing.py [--items 100000] [--quick] [--bin .build/release] [--json FILE]
                                          [--commit-ahead-ms N] [--only spread,burst,writers] [--margins]

Starts a private D-Bus session bus, the test notification server (it logs the time of every Notify
call it receives) and a beautyd on temporary XDG directories, fills the store with --items future
appointments (appointment.import), then measures, each as median / p99 / max in milliseconds:

  floor-timerfd  a bare CLOCK_REALTIME timerfd armed for an absolute instant (TFD_TIMER_ABSTIME), as
                 beautyd arms its own: how late the read returns (200 instants, 20 ms apart);
  floor-notify   a Notify call to the same notification server alone (dbus-python, 200 calls): the
                 round trip, and the one way (call sent -> the server's logged receipt);
  spread         1,000 reminders (--quick 200) due over 120 s (--quick 30 s), due instant -> Notify
                 received, as run.py's section 1;
  burst          10 reminders due at the same instant, 5 instants a second apart;
  writers        200 reminders (--quick 40) over 30 s (--quick 8 s) while 4 clients add appointments
                 as fast as they are answered.

--commit-ahead-ms sets `scheduling.commit_ahead_ms` in the daemon's config.toml (0: each delivery
commits its ledger row at its instant, as before the rows were committed ahead), so the two ways
can be compared with one binary, back to back, under the same load. --only runs some of the three
reminder measures (the floor is always measured). --margins runs beautyd at --log-level debug and reports,
from its "committed ahead" lines, how long before each instant its commit ahead ended (negative: after
the instant, so that instant was shown late by the write); the debug log costs a little itself. The load average before and after is printed with the figures: on a shared machine it says how much
of the lateness is the machine's. Needs the system python3 (python3-dbus, python3-gi) and a built
beautyd/beautyctl (swift build -c release). Not part of `swift test`.
"""
import argparse
import ctypes
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import ROOT, RPC, Session, summary, wait_for  # noqa: E402
from run import bench_lateness, bench_lateness_under_load, iso, make_items, populate  # noqa: E402

CLOCK_REALTIME = 0
TFD_TIMER_ABSTIME = 1


class Timespec(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_long), ("tv_nsec", ctypes.c_long)]


class Itimerspec(ctypes.Structure):
    _fields_ = [("it_interval", Timespec), ("it_value", Timespec)]


def floor_timerfd(count, step=0.02):
    """Lateness of a bare absolute timerfd's wake, in ms."""
    libc = ctypes.CDLL(None, use_errno=True)
    fd = libc.timerfd_create(CLOCK_REALTIME, 0)
    if fd < 0:
        raise OSError(ctypes.get_errno(), "timerfd_create")
    late = []
    try:
        for _ in range(count):
            target = round(time.time() + step, 3)
            spec = Itimerspec(Timespec(0, 0), Timespec(int(target), int(round((target - int(target)) * 1e9))))
            if libc.timerfd_settime(fd, TFD_TIMER_ABSTIME, ctypes.byref(spec), None) != 0:
                raise OSError(ctypes.get_errno(), "timerfd_settime")
            os.read(fd, 8)
            late.append((time.time() - target) * 1000)
    finally:
        os.close(fd)
    return summary(late)


def floor_notify(session, count):
    """A Notify call alone to the test notification server: round trip and one way, in ms."""
    import dbus
    bus = dbus.bus.BusConnection(session.env["DBUS_SESSION_BUS_ADDRESS"])
    server = dbus.Interface(bus.get_object("org.freedesktop.Notifications", "/org/freedesktop/Notifications"),
                            "org.freedesktop.Notifications")
    sent = {}
    round_trip = []
    for i in range(count):
        summary_text = f"floor-{i}"
        t0 = time.time()
        server.Notify("firing-floor", dbus.UInt32(0), "", summary_text, "", dbus.Array([], signature="s"),
                      dbus.Dictionary({}, signature="sv"), dbus.Int32(-1))
        round_trip.append((time.time() - t0) * 1000)
        sent[summary_text] = t0
        time.sleep(0.005)
    calls = [c for c in session.notify_calls() if c["summary"] in sent]
    one_way = [(c["time"] - sent[c["summary"]]) * 1000 for c in calls]
    bus.close()
    return {"round_trip": summary(round_trip), "one_way": summary(one_way)}


def bench_burst(session, per_instant, instants, lead=5.0):
    """`per_instant` reminders due at each of `instants` whole seconds, a second apart."""
    rpc = RPC(session.socket_path)
    first = int(time.time() + lead) + 1
    due = {}
    params = []
    for k in range(instants):
        for j in range(per_instant):
            title = f"burst-{first}-{k}-{j}"
            due[title] = first + k
            params.append({"title": title, "start": iso(first + k + 3600), "reminders": [{"at": iso(first + k)}]})
    rpc.pipeline("appointment.add", params)
    rpc.close()
    if time.time() >= first:
        print("warning: adding the burst reminders took longer than the lead", file=sys.stderr)
    wait_for(lambda: len([c for c in session.notify_calls() if c["summary"] in due]) >= len(due),
             instants + lead + 60, "all burst reminders", step=0.2)
    time.sleep(1.5)
    shown = [c for c in session.notify_calls() if c["summary"] in due]
    s = summary([(c["time"] - due[c["summary"]]) * 1000 for c in shown])
    s["duplicates"] = len(shown) - len({c["summary"] for c in shown})
    return s


def commit_margins(log):
    """From beautyd's "committed ahead" debug lines, in ms: how long before its instant each commit ahead
    ended (margin), how long the commit took (commit: its wait for a write in progress and its fsync), and
    how late the pass that made it began after the timer's deadline (woke)."""
    import re
    lines = [line for line in log.splitlines() if "committed ahead" in line]

    def field(name):
        return [float(m.group(1)) for m in (re.search(name + r"=(-?[0-9.]+)", line) for line in lines) if m]
    margins = sorted(field("margin_ms"))
    late = [i for i, line in enumerate(lines) if re.search(r"margin_ms=-", line)]
    result = {"n": len(margins), "late": len(late), "margin": summary(margins) if margins else None,
              "commit": summary(field("commit_ms")) if margins else None,
              "woke": summary(field("pass_began_late_ms")) if margins else None}
    result["late_lines"] = [lines[i] for i in late][:20]
    return result


def load():
    return " ".join(open("/proc/loadavg").read().split()[:3])


def row(name, s):
    return f"| {name} | {s['median']:.2f} | {s['p99']:.2f} | {s['max']:.2f} | {s['n']} |"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release"))
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--commit-ahead-ms", type=int, help="scheduling.commit_ahead_ms (default: beautyd's)")
    parser.add_argument("--only", default="spread,burst,writers", help="which reminder measures to run")
    parser.add_argument("--margins", action="store_true", help="report how far ahead each commit ahead ended")
    args = parser.parse_args()
    only = set(args.only.split(","))
    reminders, spread = (200, 30.0) if args.quick else (1000, 120.0)
    loaded, loaded_spread = (40, 8.0) if args.quick else (200, 30.0)

    r = {"load_before": load(), "uptime_before": subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()}
    session = Session(args.bin, prefix="bdf-")
    try:
        session.start_bus()
        if args.commit_ahead_ms is not None:
            os.makedirs(f"{session.work}/config/beautyd", exist_ok=True)
            with open(f"{session.work}/config/beautyd/config.toml", "w") as f:
                f.write(f"[scheduling]\ncommit_ahead_ms = {args.commit_ahead_ms}\n")
        log = open(f"{session.work}/beautyd.err", "w+") if args.margins else None
        session.start_daemon(log_level="debug" if args.margins else "warning", stderr=log)
        r["floor_timerfd"] = floor_timerfd(200)
        r["floor_notify"] = floor_notify(session, 200)
        populate(session, make_items(args.items))
        if "spread" in only:
            r["spread"] = bench_lateness(session, reminders, spread)
        if "burst" in only:
            r["burst"] = bench_burst(session, 10, 5)
        if "writers" in only:
            r["writers"] = bench_lateness_under_load(session, 4, loaded, loaded_spread)
        if log:
            log.seek(0)
            r["margins"] = commit_margins(log.read())
    finally:
        session.close()
    r["load_after"] = load()
    r["uptime_after"] = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()

    print(f"commit_ahead_ms: {args.commit_ahead_ms if args.commit_ahead_ms is not None else 'default'}")
    print(f"load average before: {r['load_before']} ({r['uptime_before']}); after: {r['load_after']}")
    print("| measure (ms) | median | p99 | max | n |")
    print("|---|---|---|---|---|")
    print(row("floor: bare timerfd, absolute instant -> read returns", r["floor_timerfd"]))
    print(row("floor: Notify round trip alone", r["floor_notify"]["round_trip"]))
    print(row("floor: Notify one way (sent -> server's receipt)", r["floor_notify"]["one_way"]))
    if "spread" in r:
        print(row(f"{reminders} reminders over {spread:.0f} s, {args.items:,} items", r["spread"]))
    if "burst" in r:
        print(row("10 reminders at one instant, 5 instants", r["burst"]))
    if "writers" in r:
        print(row(f"{loaded} reminders over {loaded_spread:.0f} s, 4 clients writing "
                  f"({r['writers']['adds_per_s']:.0f} adds/s)", r["writers"]))
    print("shown twice: " + ", ".join(f"{k} {r[k]['duplicates']}" for k in ("spread", "burst", "writers") if k in r)
          + (f"; shown of asked: spread {r['spread']['shown']}/{reminders}" if "spread" in r else ""))
    if r.get("margins", {}).get("n"):
        m = r["margins"]
        print(f"commits ahead: {m['n']}, {m['late']} ended after their instant")
        print(f"commit ahead ended before its instant (ms): median {m['margin']['median']:.2f}, "
              f"least {m['margin']['min']:.2f}")
        print(row("the commit ahead itself (wait for a write in progress + fsync)", m["commit"]))
        print(row("its pass began after the timer's deadline", m["woke"]))
        for line in m["late_lines"]:
            print("  late: " + line[-200:])
    if args.json:
        with open(args.json, "w") as f:
            json.dump(r, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
