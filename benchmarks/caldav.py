#!/usr/bin/python3
"""CalDAV sync benchmark: beautyd against vdirsyncer on the same local Radicale calendar.

    /usr/bin/python3 benchmarks/caldav.py [--sizes 2000,5000] [--bin .build/release] [--out FILE]

For each size, starts Radicale (Debian package `radicale`) on loopback with a calendar of that many
events (one .ics each, as phones store them: a third pinned to Europe/Warsaw with its VTIMEZONE, a
fifth with one or two VALARMs, one in fifty a weekly or monthly series), reached through a small
counting TCP proxy, then measures:

  1. vdirsyncer (Debian package): `discover`, a first `sync` into an empty filesystem storage, and a
     `sync` after one event changed on the server;
  2. beautyd: `beautyctl sync add bench --url CALENDAR --user alice --password-file F --json`, a first
     `beautyctl sync now bench --json` into an empty store, and one after one event changed on the
     server (skipped with a message when beautyctl has no `sync` command yet).

Each measure gives requests (from Radicale's log), bytes both ways (at the proxy) and seconds (wall
clock around the command; beautyctl's own figures are kept too). Radicale's item cache is warmed
before anything is measured, so neither side pays for the server's first parse. Prints a table and
writes every figure as JSON to --out.
"""
import argparse
import datetime
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import ROOT, Session, wait_for  # noqa: E402

UTC = datetime.timezone.utc
USER, PASSWORD = "alice", "bench-pw"
CALENDAR_PATH = f"/{USER}/calendar/"
TITLES = ["Haircut", "Manicure", "Pedicure", "Facial", "Brows", "Massage", "Colour", "Lashes", "Waxing", "Spa"]
WARSAW = [
    "BEGIN:VTIMEZONE", "TZID:Europe/Warsaw",
    "BEGIN:DAYLIGHT", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200", "TZNAME:CEST", "DTSTART:19700329T020000",
    "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "END:DAYLIGHT",
    "BEGIN:STANDARD", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "TZNAME:CET", "DTSTART:19701025T030000",
    "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "END:STANDARD",
    "END:VTIMEZONE",
]


def event_ics(i, rng, base, summary=None):
    """One VCALENDAR with one VEVENT, CRLF line ends."""
    start = datetime.datetime.fromtimestamp(base + rng.randrange(2 * 365 * 24 * 4) * 900, UTC)
    end = start + datetime.timedelta(seconds=rng.choice([1800, 3600, 5400]))
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//beautyd bench//phone//EN"]
    pinned = i % 3 == 0
    if pinned:
        lines += WARSAW
    lines += ["BEGIN:VEVENT", f"UID:bench-{i}@phone.example", "DTSTAMP:20260101T000000Z"]
    if pinned:
        local = start.astimezone(datetime.timezone(datetime.timedelta(hours=1)))
        local_end = end.astimezone(datetime.timezone(datetime.timedelta(hours=1)))
        lines += [f"DTSTART;TZID=Europe/Warsaw:{local:%Y%m%dT%H%M%S}", f"DTEND;TZID=Europe/Warsaw:{local_end:%Y%m%dT%H%M%S}"]
    else:
        lines += [f"DTSTART:{start:%Y%m%dT%H%M%SZ}", f"DTEND:{end:%Y%m%dT%H%M%SZ}"]
    lines.append(f"SUMMARY:{summary or rng.choice(TITLES) + ' ' + str(i)}")
    if i % 4 == 0:
        lines.append(f"LOCATION:Salon {i % 17}\\, Main Street {i % 90}")
    if i % 7 == 0:
        lines.append("DESCRIPTION:Bring the loyalty card.\\nAsk about the new colour.")
    if i % 50 == 0:
        lines.append("RRULE:" + ("FREQ=WEEKLY;INTERVAL=6;COUNT=10" if i % 100 == 0 else "FREQ=MONTHLY;COUNT=12"))
    if i % 5 == 0:
        for lead in (["-PT1H"] if i % 10 else ["-P1D", "-PT30M"]):
            lines += ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder", f"TRIGGER:{lead}", "END:VALARM"]
    lines += ["END:VEVENT", "END:VCALENDAR"]
    return "\r\n".join(lines) + "\r\n"


class CountingProxy:
    """A TCP proxy from a loopback port to Radicale that counts the bytes each way."""

    def __init__(self, target_port):
        self.target_port = target_port
        self.sent = 0  # client → server
        self.received = 0  # server → client
        self.lock = threading.Lock()
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self.accept, daemon=True).start()

    def counts(self):
        with self.lock:
            return self.sent, self.received

    def accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.target_port))
            for a, b, outbound in ((client, upstream, True), (upstream, client, False)):
                threading.Thread(target=self.pump, args=(a, b, outbound), daemon=True).start()

    def pump(self, source, sink, outbound):
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                with self.lock:
                    if outbound:
                        self.sent += len(data)
                    else:
                        self.received += len(data)
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def close(self):
        self.listener.close()


class Radicale:
    """Radicale on a free loopback port with one calendar of `count` events written straight into its
    storage (its multifilesystem layout), then listed once so its item cache is warm."""

    def __init__(self, work, count, seed=11):
        self.work = work
        self.rng = random.Random(seed)
        self.base = (int(time.time()) // 86400 + 30) * 86400
        self.count = count
        self.password_file = os.path.join(work, "password")
        with open(self.password_file, "w") as f:
            f.write(PASSWORD + "\n")
        os.chmod(self.password_file, 0o600)
        with open(os.path.join(work, "users"), "w") as f:
            f.write(f"{USER}:{PASSWORD}\n")
        folder = os.path.join(work, "data", "collection-root", USER, "calendar")
        os.makedirs(folder)
        with open(os.path.join(folder, ".Radicale.props"), "w") as f:
            json.dump({"tag": "VCALENDAR", "D:displayname": "Bench", "C:supported-calendar-component-set": "VEVENT"}, f)
        for i in range(count):
            with open(os.path.join(folder, f"bench-{i}.ics"), "w", newline="") as f:
                f.write(event_ics(i, self.rng, self.base))
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        config = os.path.join(work, "radicale.conf")
        with open(config, "w") as f:
            f.write(f"[server]\nhosts = 127.0.0.1:{self.port}\n[auth]\ntype = htpasswd\n"
                    f"htpasswd_filename = {work}/users\nhtpasswd_encryption = plain\ndelay = 0\n"
                    f"[storage]\nfilesystem_folder = {work}/data\n[logging]\nlevel = info\nmask_passwords = True\n")
        self.log_path = os.path.join(work, "radicale.log")
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(["/usr/bin/python3", "-m", "radicale", "--config", config],
                                        stdout=self.log, stderr=subprocess.STDOUT)
        wait_for(self.answers, 20, "Radicale to listen")
        self.proxy = CountingProxy(self.port)
        self.url = f"http://127.0.0.1:{self.proxy.port}{CALENDAR_PATH}"
        # Radicale parses every item at the first request that needs their content, 10 s and more for
        # thousands: a calendar-query for all calendar-data fills its cache before anything is measured.
        self.request("REPORT", CALENDAR_PATH, depth="1", body=(
            '<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/>'
            '<c:calendar-data/></d:prop><c:filter><c:comp-filter name="VCALENDAR"/></c:filter></c:calendar-query>'))

    def answers(self):
        try:
            socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
            return True
        except OSError:
            return False

    def request(self, method, path, body=None, depth=None, content_type="application/xml"):
        """Straight to Radicale (not through the proxy): setup and changes are not measured bytes."""
        import base64
        import http.client
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        headers = {"Authorization": "Basic " + base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode(),
                   "Content-Type": content_type}
        if depth is not None:
            headers["Depth"] = depth
        connection.request(method, path, body=body.encode() if body else None, headers=headers)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        if response.status >= 300:
            raise RuntimeError(f"{method} {path}: {response.status} {data[:300]!r}")
        return data

    def change_one(self, label):
        """One event edited on the server, as a phone would."""
        i = self.rng.randrange(self.count)
        self.request("PUT", f"{CALENDAR_PATH}bench-{i}.ics", body=event_ics(i, self.rng, self.base, summary=f"Moved ({label})"),
                     content_type="text/calendar; charset=utf-8")

    def requests_logged(self):
        self.log.flush()
        with open(self.log_path) as f:
            return sum(1 for line in f if " received from " in line)

    def close(self):
        self.proxy.close()
        self.process.kill()
        self.process.wait()
        self.log.close()


def measure(radicale, command, env=None):
    """Runs `command` and answers its figures: requests Radicale logged, bytes at the proxy, seconds."""
    requests_before = radicale.requests_logged()
    sent_before, received_before = radicale.proxy.counts()
    started = time.monotonic()
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    seconds = time.monotonic() - started
    time.sleep(0.2)  # Radicale logs the last response after answering it
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    sent, received = radicale.proxy.counts()
    return {"requests": radicale.requests_logged() - requests_before, "bytesSent": sent - sent_before,
            "bytesReceived": received - received_before, "seconds": round(seconds, 3)}, done.stdout


def bench_vdirsyncer(radicale, work, log):
    config = os.path.join(work, "vdirsyncer.conf")
    local = os.path.join(work, "vdir")
    os.makedirs(local)
    with open(config, "w") as f:
        f.write(f"""[general]
status_path = "{work}/vdirsyncer-status/"

[pair bench]
a = "bench_local"
b = "bench_remote"
collections = null
conflict_resolution = "b wins"

[storage bench_local]
type = "filesystem"
path = "{local}/"
fileext = ".ics"

[storage bench_remote]
type = "caldav"
url = "{radicale.url}"
username = "{USER}"
password.fetch = ["command", "cat", "{radicale.password_file}"]
""")
    vdirsyncer = shutil.which("vdirsyncer") or "/usr/bin/vdirsyncer"
    base = [vdirsyncer, "-c", config]
    log("  vdirsyncer discover ...")
    discover, _ = measure(radicale, base + ["discover"])
    log("  vdirsyncer first sync ...")
    first, _ = measure(radicale, base + ["sync"])
    stored = len([name for name in os.listdir(local) if name.endswith(".ics")])
    if stored != radicale.count:
        raise RuntimeError(f"vdirsyncer stored {stored} of {radicale.count} events")
    radicale.change_one("vdirsyncer")
    log("  vdirsyncer sync after one change ...")
    incremental, _ = measure(radicale, base + ["sync"])
    return {"discover": discover, "first": first, "incremental": incremental}


def beautyctl_has_sync(session):
    help_text = session.ctl("--help", check=False).stdout
    return any(line.strip().startswith("sync") for line in help_text.splitlines())


def bench_beautyd(radicale, bin_dir, log):
    session = Session(bin_dir, prefix="bdb-dav-")
    try:
        if not beautyctl_has_sync(session):
            return {"skipped": "beautyctl has no `sync` command yet (the sync engine of issue 13 is not merged)"}
        session.start_bus()
        session.start_daemon()
        log("  beautyctl sync add ...")
        added, _ = measure(radicale, [session.beautyctl, "sync", "add", "bench", "--url", radicale.url, "--user", USER,
                                      "--password-file", radicale.password_file, "--json"], env=session.env)
        log("  beautyctl sync now (first) ...")
        first, out = measure(radicale, [session.beautyctl, "sync", "now", "bench", "--json"], env=session.env)
        first["reported"] = json.loads(out)
        radicale.change_one("beautyd")
        log("  beautyctl sync now (after one change) ...")
        incremental, out = measure(radicale, [session.beautyctl, "sync", "now", "bench", "--json"], env=session.env)
        incremental["reported"] = json.loads(out)
        return {"add": added, "first": first, "incremental": incremental}
    finally:
        session.close()


def table(results):
    rows = [("calendar", "tool", "sync", "requests", "sent", "received", "seconds")]
    for size, result in results.items():
        for tool in ("vdirsyncer", "beautyd"):
            figures = result[tool]
            if "skipped" in figures:
                rows.append((size, tool, "-", "-", "-", "-", "skipped: " + figures["skipped"]))
                continue
            for kind in ("discover", "add", "first", "incremental"):
                if kind in figures:
                    f = figures[kind]
                    rows.append((size, tool, kind, str(f["requests"]), f"{f['bytesSent'] / 1e3:,.1f} kB",
                                 f"{f['bytesReceived'] / 1e3:,.1f} kB", f"{f['seconds']:.2f}"))
        b, v = result["beautyd"], result["vdirsyncer"]
        if "skipped" not in b:
            for kind in ("first", "incremental"):
                rows.append((size, "ratio", kind, "", "", "", f"vdirsyncer/beautyd {v[kind]['seconds'] / b[kind]['seconds']:.1f}x"))
    widths = [max(len(str(row[i])) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(str(cell).ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="2000,5000", help="calendar sizes, comma-separated")
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release"),
                        help="where beautyd and beautyctl are (default .build/release)")
    parser.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "beautyd-caldav-bench.json"))
    args = parser.parse_args()
    if not os.path.exists(os.path.join(args.bin, "beautyctl")):
        sys.exit(f"{args.bin}/beautyctl does not exist: build it (swift build -c release) or pass --bin")
    results = {}
    for size in [int(s) for s in args.sizes.split(",")]:
        work = tempfile.mkdtemp(prefix="bdb-cd-", dir="/tmp")
        print(f"{size:,} events: writing the calendar and starting Radicale ...", flush=True)
        radicale = Radicale(work, size)
        try:
            results[size] = {"vdirsyncer": bench_vdirsyncer(radicale, work, lambda m: print(m, flush=True)),
                             "beautyd": bench_beautyd(radicale, args.bin, lambda m: print(m, flush=True))}
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
