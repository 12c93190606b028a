#!/usr/bin/python3
"""A scriptable desktop-notification server for beautyd's end-to-end tests.

Run with the system interpreter (it needs python3-dbus and python3-gi):

    /usr/bin/python3 notification_server.py LOG_FILE [--no-actions] [--markup] [--persistence] [--name NAME] [--hang]
                                            [--before-first-reply COMMAND] [--answer-together N]

It owns org.freedesktop.Notifications on the session bus named by
DBUS_SESSION_BUS_ADDRESS and serves /org/freedesktop/Notifications:

  org.freedesktop.Notifications
    Notify(susssasa{sv}i) -> u     ids count up from 1; a non-zero replaces_id that is
                                   still open is kept and returned
    GetCapabilities() -> as        ["actions", "body"], or ["body"] with --no-actions; "body-markup"
                                   added with --markup (bodies are then read as markup, as dunst does),
                                   "persistence" with --persistence (as GNOME Shell and Plasma list it)
    GetServerInformation() -> ssss ("beautyd-test-server", "beautyd", "1.0", "1.2")
    CloseNotification(u)           emits NotificationClosed(id, 3)
    signals ActionInvoked(us), NotificationClosed(uu)

  org.beautyd.Test (test control, same object)
    Invoke(u id, s action_key)     emits ActionInvoked(id, action_key); the popup stays open, as a
                                   resident one does (only its sender or Close takes it away)
    Close(u id, u reason)          emits NotificationClosed(id, reason)
    Displayed() -> au              the ids still open (shown, not closed), in order

  e.g. dbus-send --session --print-reply --dest=org.freedesktop.Notifications \
         /org/freedesktop/Notifications org.beautyd.Test.Invoke uint32:1 string:dismiss

Every Notify call is appended to LOG_FILE as one JSON line, flushed at once:
  {"time": <time.time(), microseconds>, "id": <returned id>, "app_name", "replaces_id",
   "app_icon", "summary", "body", "actions": [key, label, ...], "hints": {...},
   "expire_timeout"}
("category" is a string and "urgency" an integer inside "hints".)

"ready <unique bus name> <time.time()>" is printed on stdout only once the well-known name is owned;
if the name is already taken the server prints an error and exits with status 2.
With --hang it never answers Notify (GetCapabilities and GetServerInformation still answer):
each Notify is held open, not logged to LOG_FILE, and "hung <count> <time.time()>" is printed
on stdout instead, as a server that stopped responding would (libnotify then waits for its
D-Bus timeout, about 25 s, unless the server leaves the bus first).

With --before-first-reply, the first Notify is logged, then COMMAND is run with /bin/sh and waited
for, and only then answered: what another program does while a client waits for that answer.

With --answer-together N, the first N Notify calls are logged as they arrive but answered only once
the N-th has arrived, all then in order; later ones at once. A client that waits for each answer
before its next call gets no further than the first (until its D-Bus timeout).

SIGTERM and SIGINT stop it (they are unblocked first: a test runner may have blocked them).
"""

import json
import signal
import subprocess
import sys
import time

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

BUS_NAME = "org.freedesktop.Notifications"
OBJECT_PATH = "/org/freedesktop/Notifications"
IFACE = "org.freedesktop.Notifications"
TEST_IFACE = "org.beautyd.Test"


def plain(value):
    """D-Bus values as JSON-friendly Python values."""
    if isinstance(value, (dbus.Boolean, bool)):
        return bool(value)
    if isinstance(value, (dbus.Byte,)):
        return int(value)
    if isinstance(value, (int, dbus.Int16, dbus.Int32, dbus.Int64, dbus.UInt16, dbus.UInt32, dbus.UInt64)):
        return int(value)
    if isinstance(value, (float, dbus.Double)):
        return float(value)
    if isinstance(value, (str, dbus.String, dbus.ObjectPath, dbus.Signature)):
        return str(value)
    if isinstance(value, (dict, dbus.Dictionary)):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, dbus.Array, dbus.Struct)):
        if isinstance(value, dbus.Array) and value.signature == "y":
            return "<%d bytes>" % len(value)
        return [plain(v) for v in value]
    return repr(value)


class Server(dbus.service.Object):
    def __init__(self, bus, log_path, capabilities, name, hang=False, before_first_reply=None, answer_together=0):
        super().__init__(bus, OBJECT_PATH)
        self.answer_together = answer_together
        self.unanswered = []  # (reply, id) of the calls held for --answer-together
        self.hang = hang
        self.before_first_reply = before_first_reply
        self.held = []  # the reply callbacks of unanswered Notify calls (--hang)
        self.log = open(log_path, "a", encoding="utf-8")
        self.capabilities = capabilities
        self.name = name
        self.next_id = 1
        self.open_ids = set()

    @dbus.service.method(IFACE, in_signature="susssasa{sv}i", out_signature="u",
                         async_callbacks=("reply", "error"))
    def Notify(self, app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout,
               reply, error):
        received = time.time()
        if self.hang:
            self.held.append((reply, error))
            print("hung %d %.6f" % (len(self.held), received), flush=True)
            return
        replaces_id = int(replaces_id)
        if replaces_id != 0 and replaces_id in self.open_ids:
            nid = replaces_id
        else:
            nid = self.next_id
            self.next_id += 1
        self.open_ids.add(nid)
        record = {
            "time": round(received, 6),
            "id": nid,
            "app_name": str(app_name),
            "replaces_id": replaces_id,
            "app_icon": str(app_icon),
            "summary": str(summary),
            "body": str(body),
            "actions": [str(a) for a in actions],
            "hints": plain(hints),
            "expire_timeout": int(expire_timeout),
        }
        self.log.write(json.dumps(record, ensure_ascii=False) + "\n")
        self.log.flush()
        if self.before_first_reply:
            command, self.before_first_reply = self.before_first_reply, None
            subprocess.run(["/bin/sh", "-c", command], check=False)
        if self.answer_together:
            self.unanswered.append((reply, nid))
            if len(self.unanswered) < self.answer_together:
                return
            self.answer_together = 0
            for held_reply, held_id in self.unanswered:
                held_reply(dbus.UInt32(held_id))
            return
        reply(dbus.UInt32(nid))

    @dbus.service.method(IFACE, in_signature="", out_signature="as")
    def GetCapabilities(self):
        return dbus.Array(self.capabilities, signature="s")

    @dbus.service.method(IFACE, in_signature="", out_signature="ssss")
    def GetServerInformation(self):
        return (self.name, "beautyd", "1.0", "1.2")

    @dbus.service.method(IFACE, in_signature="u", out_signature="")
    def CloseNotification(self, nid):
        self._close(int(nid), 3)

    @dbus.service.signal(IFACE, signature="us")
    def ActionInvoked(self, nid, action_key):
        pass

    @dbus.service.signal(IFACE, signature="uu")
    def NotificationClosed(self, nid, reason):
        pass

    @dbus.service.method(TEST_IFACE, in_signature="us", out_signature="")
    def Invoke(self, nid, action_key):
        self.ActionInvoked(dbus.UInt32(nid), dbus.String(action_key))

    @dbus.service.method(TEST_IFACE, in_signature="uu", out_signature="")
    def Close(self, nid, reason):
        self._close(int(nid), int(reason))

    @dbus.service.method(TEST_IFACE, in_signature="", out_signature="au")
    def Displayed(self):
        return dbus.Array(sorted(self.open_ids), signature="u")

    def _close(self, nid, reason):
        self.open_ids.discard(nid)
        self.NotificationClosed(dbus.UInt32(nid), dbus.UInt32(reason))


def main(argv):
    args = argv[1:]
    if not args or args[0].startswith("-"):
        sys.stderr.write("usage: notification_server.py LOG_FILE [--no-actions] [--markup] [--persistence] [--name NAME] [--hang]"
                         " [--before-first-reply COMMAND] [--answer-together N]\n")
        return 64
    log_path = args.pop(0)
    capabilities = ["actions", "body"]
    name = "beautyd-test-server"
    hang = False
    before_first_reply = None
    answer_together = 0
    while args:
        flag = args.pop(0)
        if flag == "--no-actions":
            capabilities = [c for c in capabilities if c != "actions"]
        elif flag == "--markup":
            capabilities.append("body-markup")
        elif flag == "--persistence":
            capabilities.append("persistence")
        elif flag == "--hang":
            hang = True
        elif flag == "--name" and args:
            name = args.pop(0)
        elif flag == "--before-first-reply" and args:
            before_first_reply = args.pop(0)
        elif flag == "--answer-together" and args:
            answer_together = int(args.pop(0))
        else:
            sys.stderr.write("unknown argument: %s\n" % flag)
            return 64

    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    reply = bus.request_name(BUS_NAME, dbus.bus.NAME_FLAG_DO_NOT_QUEUE)
    if reply not in (dbus.bus.REQUEST_NAME_REPLY_PRIMARY_OWNER, dbus.bus.REQUEST_NAME_REPLY_ALREADY_OWNER):
        sys.stderr.write("%s is already owned on this bus\n" % BUS_NAME)
        return 2
    server = Server(bus, log_path, capabilities, name, hang, before_first_reply, answer_together)

    loop = GLib.MainLoop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signum, loop.quit)
    print("ready %s %.6f" % (bus.get_unique_name(), time.time()), flush=True)
    loop.run()
    server.log.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
