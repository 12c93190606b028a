#include <libnotify/notify.h>
#include <gio/gio.h>

/* g_signal_connect and g_object_get are macros or variadic, which Swift cannot call:
   these small wrappers give Swift typed entry points. */

typedef void (*beautyd_closed_cb)(NotifyNotification *notification, gpointer user_data);

static inline gulong beautyd_connect_closed(NotifyNotification *notification, beautyd_closed_cb callback, gpointer user_data,
                                            GDestroyNotify release) {
    return g_signal_connect_data(notification, "closed", G_CALLBACK(callback), user_data, (GClosureNotify)release, (GConnectFlags)0);
}

static inline gint beautyd_notification_id(NotifyNotification *notification) {
    gint id = 0;
    g_object_get(notification, "id", &id, NULL);
    return id;
}

typedef void (*beautyd_bus_closed_cb)(GDBusConnection *connection, gboolean remote_peer_vanished, GError *error, gpointer user_data);

/* The shared session-bus connection (libnotify uses the same one), or NULL with *error set. It does
   not raise SIGTERM when the bus goes away (GLib's default for it): the caller reconnects. */
static inline GDBusConnection *beautyd_session_bus(GError **error) {
    GDBusConnection *connection = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, error);
    if (connection != NULL) g_dbus_connection_set_exit_on_close(connection, FALSE);
    return connection;
}

static inline gulong beautyd_connect_bus_closed(GDBusConnection *connection, beautyd_bus_closed_cb callback, gpointer user_data,
                                                GDestroyNotify release) {
    return g_signal_connect_data(connection, "closed", G_CALLBACK(callback), user_data, (GClosureNotify)release, (GConnectFlags)0);
}

static inline guint beautyd_watch_notification_server(GDBusConnection *connection, GBusNameAppearedCallback appeared,
                                                      GBusNameVanishedCallback vanished, gpointer user_data,
                                                      GDestroyNotify release) {
    return g_bus_watch_name_on_connection(connection, "org.freedesktop.Notifications", G_BUS_NAME_WATCHER_FLAGS_NONE,
                                          appeared, vanished, user_data, release);
}

/* The unique name (":1.42") owning org.freedesktop.Notifications, asked of the bus itself (which
   answers even while that server hangs); NULL if nobody owns it. Free with g_free. */
static inline gchar *beautyd_notification_server_owner(GDBusConnection *connection) {
    GVariant *reply = g_dbus_connection_call_sync(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                  "GetNameOwner", g_variant_new("(s)", "org.freedesktop.Notifications"),
                                                  G_VARIANT_TYPE("(s)"), G_DBUS_CALL_FLAGS_NONE, -1, NULL, NULL);
    if (reply == NULL) return NULL;
    gchar *owner = NULL;
    g_variant_get(reply, "(s)", &owner);
    g_variant_unref(reply);
    return owner;
}

/* True when a call ended without any answer from the server: our timeout, or the bus giving up
   (NoReply). The server may still have the call queued and act on it later. */
static inline gboolean beautyd_error_is_unanswered(const GError *error) {
    return error != NULL && (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT) ||
                             g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_NO_REPLY));
}
