#!/usr/bin/python3
"""beautyd benchmarks: firing lateness, idle cost, start-up and memory, agenda vs remind/calcurse, throughput.

    /usr/bin/python3 benchmarks/run.py [--items 100000] [--quick] [--bin .build/release] [--no-build]

Builds the release beautyd/beautyctl if needed, starts a private D-Bus session bus, the test
notification server and its own beautyd on temporary XDG directories under /tmp, fills the store
over the JSON-RPC socket (appointment.import, 2,000 per request), then measures:

  1. lateness: reminders due within ~2 minutes (1000; --quick 200), due instant -> Notify call;
     then a fifth of them again while 4 clients add appointments as fast as they can;
  2. idle: context switches per thread and CPU time with nothing due (60 s; --quick 15 s);
  3. start-up exec -> READY=1 (NOTIFY_SOCKET), VmRSS idle (by kind of page, next to a program
     that only links Foundation) and after a full-range agenda;
  4. `beautyctl agenda --days 7` at 10,000 and all items vs `remind` and `calcurse -d 7`;
  5. appointment.add throughput over one connection and over 8 concurrent connections;
  6. bulk (benchmarks/bulk.py, on a fresh daemon): `beautyctl import` of a generated --items-event
     .ics end to end, `beautyctl export --ics` of them all, and a full-range `agenda --json`.

Prints a report and writes benchmarks/RESULTS.md. Not part of `swift test`.
"""
import argparse
import datetime
import json
import os
import platform
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bulk import bench_bulk, summary_rows as bulk_summary_rows  # noqa: E402
from harness import (ROOT, RPC, Session, memory_breakdown, process_cpu_seconds, summary, thread_counters,  # noqa: E402
                     vm_rss_kib, wait_for)

UTC = datetime.timezone.utc
TITLES = ["Haircut", "Manicure", "Pedicure", "Facial", "Brows", "Massage", "Colour", "Lashes", "Waxing", "Spa"]


def iso(ts):
    return datetime.datetime.fromtimestamp(ts, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def log(msg):
    print(msg, flush=True)


# ---------------------------------------------------------------- machine

def machine():
    def sh(cmd):
        try:
            return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout.strip()
        except OSError:
            return "?"
    cpu = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return {
        "date": datetime.datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "nproc": sh("nproc"),
        "cpu": cpu,
        "kernel": platform.release(),
        "free": sh("free -h"),
        "fs": sh(f"df -T /tmp | tail -1 | awk '{{print $2}}'"),
        "swift": sh("swift --version 2>&1 | head -1"),
        "load": open("/proc/loadavg").read().split()[:3],
    }


# ---------------------------------------------------------------- data

def make_items(n, seed=42):
    """n appointments at random 15-minute slots over ~5 years starting two days from now (UTC)."""
    rng = random.Random(seed)
    base = (int(time.time()) // 86400 + 2) * 86400
    slots = 5 * 365 * 24 * 4
    items = []
    for i in range(n):
        start = base + rng.randrange(slots) * 900
        items.append((start, rng.choice([1800, 3600, 5400]), f"{rng.choice(TITLES)} {i}"))
    return items


def add_params(item):
    start, duration, title = item
    return {"title": title, "start": iso(start), "durationSeconds": duration}


def import_params(item, index):
    start, duration, title = item
    now = iso(time.time())
    return {"uid": f"bench-{index}@beautyd-bench", "title": title, "start": iso(start),
            "durationSeconds": duration, "allDay": False, "status": "scheduled", "reminders": [],
            "createdAt": now, "updatedAt": now}


def populate(session, items, first_index=0, chunk=2000):
    """appointment.import in chunks (one transaction each; a line may be at most 1 MiB), one connection."""
    rpc = RPC(session.socket_path)
    t0 = time.monotonic()
    inserted = 0
    for i in range(0, len(items), chunk):
        part = [import_params(it, first_index + i + k) for k, it in enumerate(items[i:i + chunk])]
        result = rpc.call("appointment.import", {"appointments": part, "contactNames": [None] * len(part)})
        inserted += result.get("inserted", 0)
    elapsed = time.monotonic() - t0
    rpc.close()
    if inserted != len(items):
        raise RuntimeError(f"imported {inserted} of {len(items)}")
    return elapsed


def write_remind(path, items):
    with open(path, "w") as f:
        for start, duration, title in items:
            d = datetime.datetime.fromtimestamp(start, UTC)
            f.write(f"REM {d.day} {d.strftime('%b')} {d.year} AT {d.strftime('%H:%M')} "
                    f"DURATION {duration // 3600}:{duration % 3600 // 60:02d} MSG {title}\n")


def write_calcurse(directory, items):
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "apts"), "w") as f:
        for start, duration, title in sorted(items):
            a = datetime.datetime.fromtimestamp(start, UTC)
            b = datetime.datetime.fromtimestamp(start + duration, UTC)
            f.write(f"{a.strftime('%m/%d/%Y @ %H:%M')} -> {b.strftime('%m/%d/%Y @ %H:%M')} |{title}\n")
    open(os.path.join(directory, "todo"), "a").close()


# ---------------------------------------------------------------- 1. lateness

def bench_lateness(session, count, spread):
    rpc = RPC(session.socket_path)
    lead = 5.0 + count * 0.025  # adds are fsync-bound (~100/s)
    first = time.time() + lead
    due = {}
    params = []
    for i in range(count):
        at = round(first + spread * i / count, 3)
        title = f"lateness-{int(first)}-{i}"
        due[title] = at
        params.append({"title": title, "start": iso(at + 3600), "durationSeconds": 1800,
                       "reminders": [{"at": iso(at)}]})
    rpc.pipeline("appointment.add", params)
    rpc.close()
    if time.time() >= first:
        log("warning: adding the lateness reminders took longer than the lead")
    wait_for(lambda: len([c for c in session.notify_calls() if c["summary"] in due]) >= count,
             spread + lead + 60, "all reminders", step=0.5)
    time.sleep(2)
    shown = [c for c in session.notify_calls() if c["summary"] in due]
    lateness = [(c["time"] - due[c["summary"]]) * 1000 for c in shown]
    s = summary(lateness)
    s["shown"] = len({c["summary"] for c in shown})
    s["duplicates"] = len(shown) - s["shown"]
    s["early"] = len([x for x in lateness if x < 0])
    s["spread"] = spread
    return s


def bench_lateness_under_load(session, clients, count, spread):
    """Like bench_lateness, while `clients` connections add appointments as fast as they are
    answered: each add is a durable commit, and the scheduler's own ledger writes queue behind them."""
    stop = threading.Event()
    added = [0] * clients
    base = (int(time.time()) // 86400 + 4000) * 86400  # far future, out of every other range

    def hammer(c):
        rpc = RPC(session.socket_path)
        k = 0
        while not stop.is_set():
            rpc.call("appointment.add", {"title": f"load {c}-{k}", "start": iso(base + (c * 1_000_000 + k) * 900)})
            k += 1
        added[c] = k
        rpc.close()

    threads = [threading.Thread(target=hammer, args=(c,)) for c in range(clients)]
    t0 = time.monotonic()
    for t in threads:
        t.start()
    try:
        s = bench_lateness(session, count, spread)
    finally:
        stop.set()
        for t in threads:
            t.join()
    s["clients"] = clients
    s["adds_per_s"] = sum(added) / (time.monotonic() - t0)
    return s


# ---------------------------------------------------------------- 2. idle

def bench_idle(session, seconds):
    pid = session.daemon.pid
    # Let the previous step settle: libdispatch retires a worker thread 5 s after its last job,
    # and that exit is a last wake-up.
    time.sleep(6)
    before = thread_counters(pid)
    cpu0 = process_cpu_seconds(pid)
    time.sleep(seconds)
    after = thread_counters(pid)
    cpu1 = process_cpu_seconds(pid)
    per_name = {}
    total = 0
    for tid, (name, vol, nonvol, ticks) in after.items():
        b = before.get(tid, (name, 0, 0, 0))
        d = (vol - b[1]) + (nonvol - b[2])
        if tid not in before:
            d = max(d, 1)  # it appeared during the window, so it ran
        total += d
        entry = per_name.setdefault(name, [0, 0])
        entry[0] += 1
        entry[1] += d
    gone = set(before) - set(after)
    for tid in gone:  # it woke at least once, to exit
        entry = per_name.setdefault(before[tid][0] + " (gone)", [0, 0])
        entry[0] += 1
        entry[1] += 1
        total += 1
    return {"seconds": seconds, "wakeups": total, "cpu_ms": (cpu1 - cpu0) * 1000,
            "threads": len(after), "per_name": per_name,
            "new_threads": len(set(after) - set(before)), "gone_threads": len(set(before) - set(after))}


# ---------------------------------------------------------------- 3. start-up and memory

def bench_startup(session, runs):
    times = []
    for _ in range(runs):
        session.stop_daemon()
        path = os.path.join(session.work, "notify.sock")
        if os.path.exists(path):
            os.unlink(path)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(path)
        sock.settimeout(30)
        t0 = time.monotonic()
        session.start_daemon(extra_env={"NOTIFY_SOCKET": path}, wait=False)
        ready = None
        while ready is None:
            data = sock.recv(4096).decode(errors="replace")
            if "READY=1" in data.split("\n"):
                ready = time.monotonic()
        sock.close()
        times.append((ready - t0) * 1000)
        wait_for(session.answers, 30, "beautyd to answer")
    session_pid = session.daemon.pid
    time.sleep(3)
    rss_idle = vm_rss_kib(session_pid)
    breakdown = memory_breakdown(session_pid)
    t0 = time.monotonic()
    out = subprocess.run([session.beautyctl, "agenda", "--from", "2000-01-01", "--to", "2100-01-01", "--json"],
                         env=session.env, capture_output=True, text=True, timeout=600)
    full_agenda_s = time.monotonic() - t0
    entries = None
    try:
        parsed = json.loads(out.stdout)
        entries = len(parsed) if isinstance(parsed, list) else len(parsed.get("entries", parsed.get("items", [])))
    except (ValueError, AttributeError):
        pass
    rss_after = vm_rss_kib(session_pid)
    time.sleep(3)
    rss_later = vm_rss_kib(session_pid)
    return {"ready_ms": summary(times), "rss_idle_kib": rss_idle, "rss_idle_breakdown": breakdown, "rss_after_kib": rss_after,
            "rss_after_3s_kib": rss_later, "full_agenda_s": full_agenda_s, "full_agenda_entries": entries,
            "full_agenda_bytes": len(out.stdout), "full_agenda_rc": out.returncode,
            "full_agenda_stderr": out.stderr.strip()[:300]}


def bench_memory_floor():
    """VmRSS of the smallest Swift program linking Foundation (what every Foundation process pays
    before doing anything), built with the same toolchain: a scale for the daemon's figure."""
    work = tempfile.mkdtemp(prefix="bdb-floor-", dir="/tmp")
    try:
        source = os.path.join(work, "floor.swift")
        with open(source, "w") as f:
            f.write("import Foundation\nFileHandle.standardOutput.write(Data(\"\\(Date())\\n\".utf8))\nsleep(30)\n")
        subprocess.run(["swiftc", "-O", source, "-o", os.path.join(work, "floor")], check=True, capture_output=True)
        child = subprocess.Popen([os.path.join(work, "floor")], stdout=subprocess.PIPE, text=True)
        try:
            child.stdout.readline()
            time.sleep(1)
            return memory_breakdown(child.pid)
        finally:
            child.kill()
            child.wait()
    finally:
        shutil.rmtree(work, ignore_errors=True)


# ---------------------------------------------------------------- 4. agenda vs remind / calcurse

def time_cmd(cmd, runs, env=None, cwd=None):
    walls = []
    out = None
    for _ in range(runs):
        t0 = time.monotonic()
        out = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True)
        walls.append((time.monotonic() - t0) * 1000)
    return {"wall_ms": summary(walls), "rc": out.returncode, "lines": len(out.stdout.splitlines()),
            "stderr": out.stderr.strip()[:200]}


def ensure_tools():
    missing = [t for t in ("remind", "calcurse") if shutil.which(t) is None]
    if missing:
        log(f"installing {' '.join(missing)} ...")
        subprocess.run(["apt-get", "install", "-y", *missing], capture_output=True,
                       env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
    return {t: shutil.which(t) is not None for t in ("remind", "calcurse")}


def bench_agenda(session, items, runs, tools, label):
    d = os.path.join(session.work, f"cmp{label}")
    os.makedirs(d, exist_ok=True)
    result = {"items": len(items)}
    result["beautyctl"] = time_cmd([session.beautyctl, "agenda", "--days", "7"], runs, env=session.env)
    if tools.get("remind"):
        write_remind(os.path.join(d, "rem"), items)
        result["remind -n"] = time_cmd(["remind", "-n", os.path.join(d, "rem")], runs)
        result["remind -s+1"] = time_cmd(["remind", "-s+1", os.path.join(d, "rem")], runs)
    if tools.get("calcurse"):
        cdir = os.path.join(d, "calcurse")
        write_calcurse(cdir, items)
        cenv = dict(os.environ, TZ="UTC", HOME=d)
        result["calcurse -d 7"] = time_cmd(["calcurse", "-D", cdir, "-d", "7"], runs, env=cenv)
    return result


# ---------------------------------------------------------------- 5. throughput

def bench_throughput(session, per_client_single, clients, per_client_multi):
    base = (int(time.time()) // 86400 + 3000) * 86400  # far future, out of the agenda ranges

    def worker(n, offset, results, idx, pipelined):
        rpc = RPC(session.socket_path)
        params = [{"title": f"tp {offset + k}", "start": iso(base + (offset + k) * 900)} for k in range(n)]
        t0 = time.monotonic()
        if pipelined:
            rpc.pipeline("appointment.add", params, window=64)
        else:
            for p in params:
                rpc.call("appointment.add", p)
        results[idx] = time.monotonic() - t0
        rpc.close()

    out = {}
    for pipelined in (False, True):
        tag = "pipelined" if pipelined else "request/answer"
        res = [0.0]
        worker(per_client_single, 0 if not pipelined else 10_000_000, res, 0, pipelined)
        out[f"1 connection, {tag}"] = per_client_single / res[0]
        res = [0.0] * clients
        t0 = time.monotonic()
        threads = [threading.Thread(target=worker,
                                    args=(per_client_multi, (20_000_000 if pipelined else 30_000_000) + c * 1_000_000,
                                          res, c, pipelined)) for c in range(clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.monotonic() - t0
        out[f"{clients} connections, {tag}"] = clients * per_client_multi / wall
    return out


# ---------------------------------------------------------------- report

def fmt_ms(x):
    return f"{x:.2f}" if x < 100 else f"{x:.0f}"


def report(m, args, r):
    L = []
    L.append("# beautyd benchmark results\n")
    L.append(f"Produced by `/usr/bin/python3 benchmarks/run.py{' --quick' if args.quick else ''} --items {args.items}` "
             f"on {m['date']}, binaries from `{os.path.relpath(args.bin, ROOT)}`.\n")
    L.append("## Machine\n")
    L.append(f"- CPU: {m['cpu']} ({m['nproc']} CPUs by `nproc`)")
    L.append(f"- Kernel: Linux {m['kernel']}")
    L.append(f"- /tmp (store, WAL) filesystem: {m['fs']}")
    L.append(f"- {m['swift']}")
    L.append(f"- Load average when the run started: {' '.join(m['load'])}; at the end: "
             f"{' '.join(open('/proc/loadavg').read().split()[:3])} (other work on the machine skews timings)")
    L.append("- Memory (`free -h`):\n\n```\n" + m["free"] + "\n```\n")

    L.append("## Summary\n")
    L.append("| Measure | Figure | Goal | Met |")
    L.append("|---|---|---|---|")
    for row in r["summary"]:
        L.append("| " + " | ".join(row) + " |")
    L.append("")

    if "populate" in r:
        p = r["populate"]
        L.append("## Filling the store\n")
        L.append(f"{p['items']:,} appointments imported with `appointment.import` in requests of 2,000 "
                 f"(one transaction each) on one connection: {p['seconds']:.1f} s, **{p['rate']:.0f} "
                 f"appointments/s**. Single `appointment.add`s are far slower since each one is its own durable "
                 f"commit (an fsync): see section 5.\n")

    if "lateness" in r:
        s = r["lateness"]
        L.append("## 1. Firing lateness (due instant → Notify call)\n")
        L.append(f"{s['n']} reminders due over {s['spread']:.0f} s (millisecond-precise `at` instants), with "
                 f"{r['items_in_store']:,} other future appointments in the store. Measured from the due instant "
                 f"to the time the test notification server (Python, same machine) logged the Notify call.\n")
        L += lateness_table(s)

    if "lateness_load" in r:
        s = r["lateness_load"]
        L.append("### Under write load\n")
        L.append(f"{s['n']} reminders over {s['spread']:.0f} s while {s['clients']} connections add appointments as "
                 f"fast as they are answered ({s['adds_per_s']:.0f} durable adds/s). Each delivery commits "
                 f"`delivering` before the Notify call; that commit goes ahead of the queued adds but waits "
                 f"for the one being written, and all share 2 CPUs with the clients.\n")
        L += lateness_table(s)

    if "idle" in r:
        s = r["idle"]
        L.append("## 2. Idle cost\n")
        L.append(f"{s['seconds']} s with {r['items_in_store']:,} future appointments and nothing due, no client "
                 f"connected: **{s['wakeups']} context switches** (voluntary + nonvoluntary, summed over "
                 f"/proc/PID/task/*/status) and **{s['cpu_ms']:.0f} ms CPU**, {s['threads']} threads "
                 f"({s['new_threads']} appeared, {s['gone_threads']} went during the window).\n")
        L.append("| thread name | threads | context switches |")
        L.append("|---|---|---|")
        for name, (n, d) in sorted(s["per_name"].items(), key=lambda kv: -kv[1][1]):
            L.append(f"| `{name}` | {n} | {d} |")
        L.append("")

    if "startup" in r:
        s = r["startup"]
        L.append("## 3. Start-up and memory\n")
        L.append(f"exec → `READY=1` on `$NOTIFY_SOCKET` with {r['items_in_store']:,} items, {s['ready_ms']['n']} runs: "
                 f"median {fmt_ms(s['ready_ms']['median'])} ms, max {fmt_ms(s['ready_ms']['max'])} ms.\n")
        L.append(f"VmRSS idle after start: **{s['rss_idle_kib'] / 1024:.1f} MiB**; right after "
                 f"`beautyctl agenda --from 2000-01-01 --to 2100-01-01 --json` "
                 f"({s['full_agenda_bytes'] / 1e6:.1f} MB of JSON in {s['full_agenda_s']:.2f} s): "
                 f"{s['rss_after_kib'] / 1024:.1f} MiB; 3 s later {s['rss_after_3s_kib'] / 1024:.1f} MiB.\n")
        b = s["rss_idle_breakdown"]
        L.append("Where the idle resident pages are (from /proc/PID/smaps; file-backed pages are mostly clean code, shared "
                 "with every process that maps the same file, and reclaimable):\n")
        L.append("| part | resident |")
        L.append("|---|---|")
        L.append(f"| anonymous mappings (heap, thread stacks) | {b['anonymous'] / 1024:.1f} MiB |")
        L.append(f"| the beautyd binary (code, data) | {b['binary'] / 1024:.1f} MiB |")
        L.append(f"| Swift runtime and Foundation libraries (incl. ICU) | {b['swift'] / 1024:.1f} MiB |")
        L.append(f"| other shared libraries and files (libc, GLib, SQLite, libsystemd...) | {b['other_libraries'] / 1024:.1f} MiB |")
        L.append(f"| total (VmRSS) / PSS | {b['rss'] / 1024:.1f} / {b['pss'] / 1024:.1f} MiB |\n")
        if "memory_floor" in r:
            f = r["memory_floor"]
            L.append(f"For scale: a Swift program that only links Foundation, prints the date and sleeps is "
                     f"**{f['rss'] / 1024:.1f} MiB** VmRSS here ({f['swift'] / 1024:.1f} MiB of it Swift runtime and "
                     f"Foundation libraries, {f['anonymous'] / 1024:.1f} MiB anonymous). The daemon's own heap and "
                     f"stacks are the anonymous row above; the rest is code of the libraries it links.\n")
        if s.get("full_agenda_rc"):
            L.append(f"The full-range agenda **failed** (exit {s['full_agenda_rc']}): `{s['full_agenda_stderr']}`\n")

    if "agenda" in r:
        L.append("## 4. `beautyctl agenda --days 7` vs remind and calcurse\n")
        L.append(f"Wall time per run (median of {args.agenda_runs}), the same appointments exported to each tool's "
                 "format (remind: `REM d Mon yyyy AT hh:mm DURATION h:mm MSG title`; calcurse: its `apts` file, "
                 "`-D dir`). beautyctl includes the round trip to the daemon; remind and calcurse parse their "
                 "whole file on every run.\n")
        L.append("| items | command | median | p99 | max | output lines | beautyctl ÷ it |")
        L.append("|---|---|---|---|---|---|---|")
        for a in r["agenda"]:
            b = a["beautyctl"]["wall_ms"]["median"]
            for name in ("beautyctl", "remind -n", "remind -s+1", "calcurse -d 7"):
                if name not in a:
                    continue
                w = a[name]["wall_ms"]
                ratio = "—" if name == "beautyctl" else f"{b / w['median']:.2f}×"
                cmd = "beautyctl agenda --days 7" if name == "beautyctl" else name
                bad = "" if a[name]["rc"] == 0 else f" (exit {a[name]['rc']})"
                L.append(f"| {a['items']:,} | `{cmd}`{bad} | {fmt_ms(w['median'])} ms | {fmt_ms(w['p99'])} ms "
                         f"| {fmt_ms(w['max'])} ms | {a[name]['lines']} | {ratio} |")
        L.append("")

    if "throughput" in r:
        L.append("## 5. Throughput of `appointment.add`\n")
        L.append("Each add is answered only after its SQLite transaction is committed (WAL, synchronous=FULL). "
                 "\"request/answer\" waits for each answer before sending the next; \"pipelined\" keeps up to 64 "
                 "requests in flight per connection.\n")
        L.append("| clients | adds/s |")
        L.append("|---|---|")
        for k, v in r["throughput"].items():
            L.append(f"| {k} | {v:.0f} |")
        L.append("")
    if "bulk" in r:
        b = r["bulk"]
        L.append("## 6. Bulk: import, export and a full-range agenda\n")
        L.append(f"A fresh daemon and an empty store; a generated .ics of {b['items']:,} events "
                 f"({b['ics_bytes'] / 1e6:.1f} MB: single events, 1 in 200 a weekly or monthly series, a third with "
                 "a TZID, a fifth with VALARMs), timed with the release `beautyctl` end to end "
                 "(benchmarks/bulk.py):\n")
        L.append("| Command | Wall time | Goal | Met |")
        L.append("|---|---|---|---|")
        for row in bulk_summary_rows(b):
            L.append("| " + " | ".join(row) + " |")
        L.append("")
    for note in r.get("notes", []):
        L.append(f"- {note}")
    return "\n".join(L) + "\n"


def lateness_table(s):
    """The Markdown table of one lateness summary (from bench_lateness)."""
    return ["| median | p99 | max | min | shown | duplicates | early |",
            "|---|---|---|---|---|---|---|",
            f"| {fmt_ms(s['median'])} ms | {fmt_ms(s['p99'])} ms | {fmt_ms(s['max'])} ms | {fmt_ms(s['min'])} ms "
            f"| {s['shown']} | {s['duplicates']} | {s['early']} |\n"]


def build_summary(r):
    rows = []
    if "populate" in r:
        rows.append(["Bulk insert rate (appointment.import, 2,000 per request)", f"{r['populate']['rate']:.0f} appointments/s", "—", "—"])
    if "lateness" in r:
        s = r["lateness"]
        rows.append(["Firing lateness median / p99 / max", f"{fmt_ms(s['median'])} / {fmt_ms(s['p99'])} / "
                     f"{fmt_ms(s['max'])} ms", "p99 < 10 ms", "yes" if s["p99"] < 10 else "**no**"])
    if "lateness_load" in r:
        s = r["lateness_load"]
        rows.append([f"Firing lateness under write load ({s['clients']} clients, {s['adds_per_s']:.0f} adds/s) "
                     "median / p99 / max", f"{fmt_ms(s['median'])} / {fmt_ms(s['p99'])} / {fmt_ms(s['max'])} ms", "—", "—"])
    if "idle" in r:
        s = r["idle"]
        rows.append([f"Idle wake-ups over {s['seconds']} s", f"{s['wakeups']} ({s['cpu_ms']:.0f} ms CPU)", "0",
                     "yes" if s["wakeups"] == 0 else "**no**"])
    if "startup" in r:
        s = r["startup"]
        rows.append(["Start-up exec → READY=1 (median / max)",
                     f"{fmt_ms(s['ready_ms']['median'])} / {fmt_ms(s['ready_ms']['max'])} ms", "< 300 ms",
                     "yes" if s["ready_ms"]["max"] < 300 else "**no**"])
        rows.append(["VmRSS idle", f"{s['rss_idle_kib'] / 1024:.1f} MiB", "< 30 MiB",
                     "yes" if s["rss_idle_kib"] < 30 * 1024 else "**no**"])
        rows.append(["VmRSS after full-range agenda", f"{s['rss_after_kib'] / 1024:.1f} MiB", "—", "—"])
    for a in r.get("agenda", []):
        parts = [f"beautyctl {fmt_ms(a['beautyctl']['wall_ms']['median'])} ms"]
        for name in ("remind -n", "remind -s+1", "calcurse -d 7"):
            if name in a:
                parts.append(f"{name} {fmt_ms(a[name]['wall_ms']['median'])} ms")
        rows.append([f"agenda --days 7 at {a['items']:,} items (median)", "; ".join(parts), "—", "—"])
    for k, v in r.get("throughput", {}).items():
        rows.append([f"Durable adds/s, {k}", f"{v:.0f}", "—", "—"])
    if "bulk" in r:
        rows += bulk_summary_rows(r["bulk"])
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--quick", action="store_true", help="shorter idle window, fewer reminders and runs")
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release"))
    parser.add_argument("--no-build", action="store_true")
    parser.add_argument("--output", default=os.path.join(ROOT, "benchmarks", "RESULTS.md"))
    args = parser.parse_args()
    args.agenda_runs = 5 if args.quick else 15
    reminders = 200 if args.quick else 1000
    spread = 30.0 if args.quick else 120.0
    idle_seconds = 15 if args.quick else 60

    if not args.no_build:
        for product in ("beautyd", "beautyctl"):
            log(f"swift build -c release --product {product} ...")
            subprocess.run(["swift", "build", "-c", "release", "--product", product], cwd=ROOT, check=True)

    m = machine()
    tools = ensure_tools()
    r = {"notes": []}
    items = make_items(args.items)
    small = min(10_000, args.items)
    session = Session(args.bin)
    try:
        session.start_bus()
        session.start_daemon()
        log(f"work dir {session.work}; filling {small:,} appointments ...")
        t_small = populate(session, items[:small])
        r["agenda"] = []
        log("agenda at 10,000 ...")
        r["agenda"].append(bench_agenda(session, items[:small], args.agenda_runs, tools, "10k"))
        log(f"filling up to {args.items:,} ...")
        t_rest = populate(session, items[small:], small) if args.items > small else 0.0
        r["populate"] = {"items": args.items, "seconds": t_small + t_rest, "rate": args.items / (t_small + t_rest)}
        r["items_in_store"] = args.items
        log(f"  {r['populate']['rate']:.0f} adds/s")
        if args.items > small:
            log(f"agenda at {args.items:,} ...")
            r["agenda"].append(bench_agenda(session, items, args.agenda_runs, tools, "all"))

        log(f"lateness: {reminders} reminders over {spread:.0f} s ...")
        r["lateness"] = bench_lateness(session, reminders, spread)
        log(f"  {r['lateness']}")

        log(f"idle {idle_seconds} s ...")
        r["idle"] = bench_idle(session, idle_seconds)
        log(f"  {r['idle']['wakeups']} wake-ups, {r['idle']['cpu_ms']:.0f} ms CPU")

        log("start-up and memory ...")
        r["startup"] = bench_startup(session, 3 if args.quick else 5)
        log(f"  {r['startup']}")

        log("memory floor of a Foundation program ...")
        r["memory_floor"] = bench_memory_floor()

        log("throughput ...")
        r["throughput"] = bench_throughput(session, 300 if args.quick else 1000, 8, 100 if args.quick else 250)
        log(f"  {r['throughput']}")

        # Last: the load adds tens of thousands of appointments the other measures should not see.
        log(f"lateness under write load: {reminders // 5} reminders over {spread / 4:.0f} s, 4 clients adding ...")
        r["lateness_load"] = bench_lateness_under_load(session, 4, reminders // 5, spread / 4)
        log(f"  {r['lateness_load']}")

        session.close()  # the bulk measures start their own daemon on an empty store
        log(f"bulk: import, export and full-range agenda of {args.items:,} ...")
        r["bulk"] = bench_bulk(args.bin, args.items, log=log)
        log(f"  {r['bulk']}")
    finally:
        r["summary"] = build_summary(r)
        text = report(m, args, r)
        print(text)
        with open(args.output, "w") as f:
            f.write(text)
        session.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
