"""Shared pieces of the beautyd benchmarks: a private D-Bus session bus, the test notification
server, a beautyd on temporary XDG directories, and a JSON-RPC client for its socket.

Used by benchmarks/run.py and benchmarks/reminder_lateness.py; run with /usr/bin/python3
(the notification server needs python3-dbus and python3-gi).
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "Tests", "BeautyTestSupport", "Fixtures")


def wait_for(predicate, timeout, what, step=0.02):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return
        time.sleep(step)
    raise TimeoutError(f"timed out waiting for {what}")


def percentile(sorted_values, p):
    """Nearest-rank percentile of an already sorted list."""
    if not sorted_values:
        return float("nan")
    k = max(0, min(len(sorted_values) - 1, int(round(p / 100.0 * len(sorted_values) + 0.5)) - 1))
    return sorted_values[k]


def summary(values):
    v = sorted(values)
    n = len(v)
    median = v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2
    return {"n": n, "median": median, "p99": percentile(v, 99), "max": v[-1], "min": v[0]}


class RPC:
    """One connection to beautyd's JSON-RPC socket (one JSON object per line)."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.file = self.sock.makefile("rb")
        self.next_id = 1

    def call(self, method, params=None):
        self.send(method, params)
        return self.receive()

    def send(self, method, params=None):
        self.sock.sendall(self.line(method, params))

    def line(self, method, params=None):
        request = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        self.next_id += 1
        if params is not None:
            request["params"] = params
        return (json.dumps(request, separators=(",", ":")) + "\n").encode()

    def receive(self):
        line = self.file.readline()
        if not line:
            raise ConnectionError("beautyd closed the connection")
        answer = json.loads(line)
        if "error" in answer:
            raise RuntimeError(f"beautyd error: {answer['error']}")
        return answer["result"]

    def pipeline(self, method, params_list, window=256):
        """Sends every request on this connection, keeping at most `window` unanswered; returns the results."""
        results = []
        sent = 0
        total = len(params_list)
        while len(results) < total:
            batch = []
            while sent < total and sent - len(results) < window:
                batch.append(self.line(method, params_list[sent]))
                sent += 1
            if batch:
                self.sock.sendall(b"".join(batch))
            # read half a window before sending more, so both sides stay busy
            target = min(total, len(results) + max(1, window // 2)) if sent < total else total
            while len(results) < target:
                results.append(self.receive())
        return results

    def close(self):
        try:
            self.file.close()
            self.sock.close()
        except OSError:
            pass


class Session:
    """Temporary directories, a private session bus, the notification server and beautyd."""

    def __init__(self, bin_dir, prefix="bdb-", data_dir=None):
        self.bin_dir = bin_dir
        self.beautyd = os.path.join(bin_dir, "beautyd")
        self.beautyctl = os.path.join(bin_dir, "beautyctl")
        self.work = tempfile.mkdtemp(prefix=prefix, dir="/tmp")  # short: the socket path is <= 107 bytes
        self.children = []
        self.daemon = None
        self.env = None
        self.notify_log = os.path.join(self.work, "notify.jsonl")
        self.socket_path = os.path.join(self.work, "run", "beautyd", "beautyd.sock")

    def start_bus(self):
        bus = subprocess.Popen(
            ["dbus-daemon", f"--config-file={FIXTURES}/session-bus.conf", "--nofork", "--print-address=1",
             f"--address=unix:path={self.work}/bus"], stdout=subprocess.PIPE, text=True)
        self.children.append(bus)
        address = bus.stdout.readline().strip()
        self.env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=address, XDG_RUNTIME_DIR=f"{self.work}/run",
                        XDG_DATA_HOME=f"{self.work}/data", XDG_CONFIG_HOME=f"{self.work}/config",
                        XDG_STATE_HOME=f"{self.work}/state", XDG_CACHE_HOME=f"{self.work}/cache")
        self.env.pop("NOTIFY_SOCKET", None)
        self.env.pop("BEAUTYD_SOCKET", None)
        os.makedirs(f"{self.work}/run", mode=0o700, exist_ok=True)
        server = subprocess.Popen(["/usr/bin/python3", f"{FIXTURES}/notification_server.py", self.notify_log],
                                  env=self.env, stdout=subprocess.PIPE, text=True)
        self.children.append(server)
        if not server.stdout.readline().startswith("ready"):
            raise RuntimeError("notification server did not start")

    def start_daemon(self, extra_env=None, wait=True, log_level="warning", stderr=None):
        env = dict(self.env, **(extra_env or {}))
        started = time.monotonic()
        self.daemon = subprocess.Popen([self.beautyd, "--log-level", log_level], env=env, stderr=stderr)
        if wait:
            wait_for(self.answers, 30, "beautyd to answer")
        return started

    def answers(self):
        try:
            rpc = RPC(self.socket_path)
            rpc.call("status")
            rpc.close()
            return True
        except (OSError, ConnectionError, RuntimeError, ValueError):
            return False

    def stop_daemon(self):
        if self.daemon is None:
            return
        self.daemon.send_signal(signal.SIGTERM)
        try:
            self.daemon.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.daemon.kill()
            self.daemon.wait()
        self.daemon = None

    def ctl(self, *args, check=True):
        return subprocess.run([self.beautyctl, *args], env=self.env, capture_output=True, text=True, check=check)

    def notify_calls(self):
        if not os.path.exists(self.notify_log):
            return []
        with open(self.notify_log) as f:
            return [json.loads(line) for line in f if line.strip()]

    def close(self):
        self.stop_daemon()
        for child in reversed(self.children):
            child.send_signal(signal.SIGINT if child is not self.children[0] else signal.SIGTERM)
        for child in self.children:
            try:
                child.wait(timeout=5)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
        shutil.rmtree(self.work, ignore_errors=True)


def thread_counters(pid):
    """{tid: (name, voluntary, nonvoluntary, utime+stime ticks)} for every thread of pid."""
    out = {}
    base = f"/proc/{pid}/task"
    for tid in os.listdir(base):
        try:
            with open(f"{base}/{tid}/comm") as f:
                name = f.read().strip()
            vol = nonvol = 0
            with open(f"{base}/{tid}/status") as f:
                for line in f:
                    if line.startswith("voluntary_ctxt_switches:"):
                        vol = int(line.split()[1])
                    elif line.startswith("nonvoluntary_ctxt_switches:"):
                        nonvol = int(line.split()[1])
            with open(f"{base}/{tid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            ticks = int(fields[11]) + int(fields[12])
            out[tid] = (name, vol, nonvol, ticks)
        except OSError:
            continue
    return out


def process_cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def memory_breakdown(pid):
    """Resident KiB by kind, each mapping counted once, from /proc/PID/smaps: anonymous (heap,
    thread stacks, other unnamed mappings), the beautyd binary, the Swift runtime and Foundation
    (a swift toolchain path), other shared libraries and files; plus PSS (shared pages divided
    among the processes that map them)."""
    out = {"rss": 0, "pss": 0, "anonymous": 0, "binary": 0, "swift": 0, "other_libraries": 0}
    kind = None
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            first = line.split(None, 1)[0]
            if "-" in first and not first.endswith(":"):
                parts = line.split()
                name = parts[5] if len(parts) > 5 else ""
                if not name.startswith("/"):
                    kind = "anonymous"
                elif name.endswith("/beautyd"):
                    kind = "binary"
                elif "/swift" in name:
                    kind = "swift"
                else:
                    kind = "other_libraries"
            elif first == "Rss:":
                kib = int(line.split()[1])
                out["rss"] += kib
                out[kind] += kib
            elif first == "Pss:":
                out["pss"] += int(line.split()[1])
    return out


def vm_rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0
