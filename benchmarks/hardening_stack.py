"""Shared helpers of the hardening scripts (crash_safety.py, fuzz_protocol.py).

A private D-Bus session bus, optionally the test notification server
(Tests/BeautyTestSupport/Fixtures/notification_server.py), and a real beautyd on temporary XDG
directories under a short /tmp path (Unix socket paths stay far below 108 bytes).
Needs the system /usr/bin/python3 (python3-dbus, python3-gi for the notification server).
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "Tests", "BeautyTestSupport", "Fixtures")
DEFAULT_BIN = os.path.join(ROOT, ".build", "debug")


class Stack:
    def __init__(self, bin_dir, notification_server=False, prefix="bdh-"):
        self.bin_dir = bin_dir
        self.beautyd = os.path.join(bin_dir, "beautyd")
        if not os.access(self.beautyd, os.X_OK):
            raise SystemExit(f"{self.beautyd} is not built (swift build)")
        self.work = tempfile.mkdtemp(prefix=prefix, dir="/tmp")
        # A private copy: a rebuild during the run (ETXTBSY, or a different binary at a restart) cannot interfere.
        shutil.copy2(self.beautyd, f"{self.work}/beautyd")
        self.built = self.beautyd
        self.beautyd = f"{self.work}/beautyd"
        self.children = []
        self.daemon = None
        self.daemon_starts = 0
        self.socket_path = f"{self.work}/run/beautyd/beautyd.sock"
        self.database_path = f"{self.work}/data/beautyd/beautyd.sqlite"
        self.notify_log = f"{self.work}/notify.jsonl"
        os.makedirs(f"{self.work}/run", mode=0o700)
        for sub in ("data", "config", "home"):
            os.makedirs(f"{self.work}/{sub}")
        self.bus = subprocess.Popen(
            ["dbus-daemon", f"--config-file={FIXTURES}/session-bus.conf", "--nofork", "--print-address=1",
             f"--address=unix:path={self.work}/bus"], stdout=subprocess.PIPE, text=True,
            start_new_session=True)
        self.children.append(self.bus)
        address = self.bus.stdout.readline().strip()
        if not address.startswith("unix:"):
            self.close()
            raise SystemExit("dbus-daemon printed no address")
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("XDG_", "LISTEN_", "WATCHDOG_"))
               and k not in ("NOTIFY_SOCKET", "JOURNAL_STREAM", "BEAUTYD_SOCKET", "DISPLAY", "WAYLAND_DISPLAY")}
        env.update(DBUS_SESSION_BUS_ADDRESS=address, XDG_RUNTIME_DIR=f"{self.work}/run",
                   XDG_DATA_HOME=f"{self.work}/data", XDG_CONFIG_HOME=f"{self.work}/config",
                   XDG_CACHE_HOME=f"{self.work}/home/.cache", HOME=f"{self.work}/home",
                   TZ="Europe/Warsaw", LC_ALL="C.UTF-8")
        self.env = env
        if notification_server:
            server = subprocess.Popen(["/usr/bin/python3", f"{FIXTURES}/notification_server.py", self.notify_log],
                                      env=env, stdout=subprocess.PIPE, stderr=open(f"{self.work}/server.err", "ab"),
                                      text=True, start_new_session=True)
            self.children.append(server)
            if not server.stdout.readline().startswith("ready"):
                self.close()
                raise SystemExit("the test notification server did not start")

    def start_daemon(self, timeout=30.0, nofile=None):
        """Starts beautyd and returns once its socket answers `status` (`nofile`: its RLIMIT_NOFILE)."""
        def limit():
            if nofile:
                import resource
                resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))
        out = open(f"{self.work}/beautyd.out", "ab")
        err = open(f"{self.work}/beautyd.err", "ab")
        self.daemon = subprocess.Popen([self.beautyd, "--log-level", "warning"], env=self.env, stdout=out,
                                       stderr=err, stdin=subprocess.DEVNULL, start_new_session=True,
                                       preexec_fn=limit)
        out.close()
        err.close()
        self.daemon_starts += 1
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.daemon.poll() is not None:
                raise SystemExit(f"beautyd exited with {self.daemon.returncode} at start\n{self.tail()}")
            try:
                with connect(self.socket_path, timeout=2) as s:
                    if "result" in call(s, "status", {}, 1):
                        return self.daemon
            except OSError:
                pass
            time.sleep(0.01)
        raise SystemExit(f"beautyd did not answer within {timeout} s\n{self.tail()}")

    def kill_daemon(self):
        """kill -9, and reap it; answers when the signal was sent (time.time())."""
        sent = time.time()
        if self.daemon and self.daemon.poll() is None:
            sent = time.time()
            self.daemon.send_signal(signal.SIGKILL)
            self.daemon.wait()
        return sent

    def stop_daemon(self, timeout=15):
        """SIGINT (graceful), then SIGKILL if it does not end; returns the exit status."""
        if not self.daemon:
            return None
        if self.daemon.poll() is None:
            self.daemon.send_signal(signal.SIGINT)
            try:
                self.daemon.wait(timeout)
            except subprocess.TimeoutExpired:
                self.daemon.kill()
                self.daemon.wait()
        return self.daemon.returncode

    def open_fds(self):
        try:
            return len(os.listdir(f"/proc/{self.daemon.pid}/fd"))
        except (OSError, AttributeError):
            return None

    def rss_kib(self):
        """VmRSS of the running daemon in KiB (None if it is not running)."""
        try:
            with open(f"/proc/{self.daemon.pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
        except (OSError, AttributeError):
            return None
        return None

    def notifications(self):
        calls = []
        try:
            with open(self.notify_log) as f:
                for line in f:
                    try:
                        calls.append(json.loads(line))
                    except ValueError:
                        pass
        except OSError:
            pass
        return calls

    def tail(self, lines=30):
        try:
            with open(f"{self.work}/beautyd.err", errors="replace") as f:
                return "".join(f.readlines()[-lines:])
        except OSError:
            return ""

    def close(self, keep=False):
        self.stop_daemon()
        for child in reversed(self.children):
            if child.poll() is None:
                try:
                    os.killpg(child.pid, signal.SIGKILL)
                except OSError:
                    child.kill()
                child.wait()
        if not keep and not os.environ.get("BEAUTYD_KEEP"):
            shutil.rmtree(self.work, ignore_errors=True)


def connect(path, timeout=10.0):
    """A connected socket with `timeout`. A full listen backlog (EAGAIN: a socket with a timeout is
    non-blocking underneath, and a Unix connect does not wait then) is retried until `timeout`."""
    deadline = time.time() + timeout
    while True:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(timeout)
        try:
            s.connect(path)
            return s
        except BlockingIOError:
            s.close()
            if time.time() > deadline:
                raise
            time.sleep(0.005)
        except OSError:
            s.close()
            raise


class LineReader:
    """Reads `\\n`-terminated lines from a socket."""

    def __init__(self, sock):
        self.sock = sock
        self.buffer = b""

    def line(self):
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionResetError("the daemon closed the connection")
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line


def call(sock, method, params, request_id, reader=None):
    """One request, one answer (parsed); raises OSError on a broken connection."""
    sock.sendall(json.dumps({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}).encode() + b"\n")
    return json.loads((reader or LineReader(sock)).line())


def percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100.0 * (len(ordered) - 1))))]
