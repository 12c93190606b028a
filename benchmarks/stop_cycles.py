#!/usr/bin/env python3
"""Starts and stops beautyd many times the way systemd does, and counts stops that do not end with
exit status 0 (a crash while the process ends). Each cycle: no session bus (the notifier keeps
retrying one), NOTIFY_SOCKET and a watchdog, READY=1, one `status` request on a connection left
open, SIGHUP (RELOADING=1, READY=1), then SIGINT.

    /usr/bin/python3 benchmarks/stop_cycles.py [--binary .build/debug/beautyd] [--cycles 700]

Run two or three side by side on a busy machine: the exit race it was written for showed up
about once in 400 cycles (a GLib retry timer calling a freed object).
"""
import argparse, os, shutil, signal, socket, subprocess, tempfile

parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("--binary", default=".build/debug/beautyd")
parser.add_argument("--cycles", type=int, default=700)
options = parser.parse_args()
binary = os.path.abspath(options.binary)

bad = 0
for cycle in range(options.cycles):
    directory = tempfile.mkdtemp(prefix="bx", dir="/tmp")
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(directory + "/n.sock")
    notify.settimeout(30)
    environment = {
        "PATH": "/usr/bin:/bin", "HOME": directory, "XDG_RUNTIME_DIR": directory, "TZ": "UTC",
        "XDG_CONFIG_HOME": directory + "/c", "XDG_DATA_HOME": directory + "/d", "XDG_STATE_HOME": directory + "/s",
        "DBUS_SESSION_BUS_ADDRESS": "unix:path=%s/no-bus" % directory,
        "NOTIFY_SOCKET": directory + "/n.sock", "WATCHDOG_USEC": "400000", "SWIFT_BACKTRACE": "enable=no",
    }
    log = open(directory + "/log", "wb")
    daemon = subprocess.Popen(
        [binary, "--socket", directory + "/b.sock", "--database", directory + "/db.sqlite",
         "--config", directory + "/config.toml"], env=environment, stdout=log, stderr=log)

    def wait_for(wanted):
        while True:
            message = notify.recv(4096).decode()
            if wanted(message):
                return message

    try:
        wait_for(lambda m: "READY=1" in m.split("\n"))
        client = socket.socket(socket.AF_UNIX)
        client.connect(directory + "/b.sock")
        client.sendall(b'{"jsonrpc":"2.0","id":1,"method":"status","params":{}}\n')
        client.recv(65536)
        daemon.send_signal(signal.SIGHUP)
        wait_for(lambda m: m.startswith("RELOADING=1"))
        wait_for(lambda m: "READY=1" in m.split("\n"))
        daemon.send_signal(signal.SIGINT)
        status = daemon.wait(60)
        client.close()
    except Exception as error:
        daemon.kill()
        status = daemon.wait()
        print("cycle %d: %s" % (cycle, error))
    notify.close()
    if status != 0:
        bad += 1
        print("cycle %d: exit status %s, log in %s/log" % (cycle, status, directory), flush=True)
    else:
        shutil.rmtree(directory, ignore_errors=True)
print("cycles %d, not exit 0: %d" % (options.cycles, bad))
