#include <libnotify/notify.h>
#include <gio/gio.h>
#include <unistd.h>

/* g_signal_connect and g_object_get are macros or variadic, which Swift cannot call:
   these small wrappers give Swift typed entry points. */

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

/* Notify sent without waiting for its answer, so that several can be in flight on the connection at
   once (libnotify's notify_notification_show waits for each). The same call libnotify makes: app name,
   replaces_id, no icon, summary, body, actions as key/label pairs (`action_count` strings), the hints
   category, urgency, sender-pid and, when `resident` is 0 or 1, resident; D-Bus's default timeout.
   `done` runs on the thread of the connection's main context; finish it with beautyd_notify_finish. */
static inline void beautyd_notify(GDBusConnection *connection, const char *app_name, guint32 replaces_id,
                                  const char *summary, const char *body, const char *const *actions, gsize action_count,
                                  const char *category, guchar urgency, gint resident, gint32 expire_timeout,
                                  GAsyncReadyCallback done, gpointer user_data) {
    GVariantBuilder action_list;
    g_variant_builder_init(&action_list, G_VARIANT_TYPE("as"));
    for (gsize i = 0; i < action_count; i++) g_variant_builder_add(&action_list, "s", actions[i]);
    GVariantBuilder hints;
    g_variant_builder_init(&hints, G_VARIANT_TYPE("a{sv}"));
    g_variant_builder_add(&hints, "{sv}", "urgency", g_variant_new_byte(urgency));
    g_variant_builder_add(&hints, "{sv}", "category", g_variant_new_string(category));
    g_variant_builder_add(&hints, "{sv}", "sender-pid", g_variant_new_int64((gint64)getpid()));
    if (resident >= 0) g_variant_builder_add(&hints, "{sv}", "resident", g_variant_new_boolean(resident));
    g_dbus_connection_call(connection, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                           "org.freedesktop.Notifications", "Notify",
                           g_variant_new("(susssasa{sv}i)", app_name, replaces_id, "", summary, body, &action_list,
                                         &hints, expire_timeout),
                           G_VARIANT_TYPE("(u)"), G_DBUS_CALL_FLAGS_NONE, -1, NULL, done, user_data);
}

/* The id the server gave a Notify sent by beautyd_notify, or 0 with *error set. */
static inline guint32 beautyd_notify_finish(GObject *connection, GAsyncResult *result, GError **error) {
    GVariant *reply = g_dbus_connection_call_finish(G_DBUS_CONNECTION(connection), result, error);
    if (reply == NULL) return 0;
    guint32 id = 0;
    g_variant_get(reply, "(u)", &id);
    g_variant_unref(reply);
    return id;
}

/* CloseNotification(id), not waiting for the answer (an id the server already closed answers an error). */
static inline void beautyd_close_notification(GDBusConnection *connection, guint32 id) {
    g_dbus_connection_call(connection, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                           "org.freedesktop.Notifications", "CloseNotification", g_variant_new("(u)", id), NULL,
                           G_DBUS_CALL_FLAGS_NONE, -1, NULL, NULL, NULL);
}

/* What a notification server signal says: ActionInvoked(u id, s action) sets *action (owned by
   `parameters`), NotificationClosed(u id, u reason) sets *reason; false for any other signal. */
static inline gboolean beautyd_notification_signal(const gchar *name, GVariant *parameters, guint32 *id,
                                                   guint32 *reason, const gchar **action) {
    if (g_strcmp0(name, "ActionInvoked") == 0 && g_variant_is_of_type(parameters, G_VARIANT_TYPE("(us)"))) {
        g_variant_get(parameters, "(u&s)", id, action);
        return TRUE;
    }
    if (g_strcmp0(name, "NotificationClosed") == 0 && g_variant_is_of_type(parameters, G_VARIANT_TYPE("(uu)"))) {
        g_variant_get(parameters, "(uu)", id, reason);
        return TRUE;
    }
    return FALSE;
}

/* The notification server's signals on `connection`, from whoever owns its name now. */
static inline guint beautyd_subscribe_notification_signals(GDBusConnection *connection, GDBusSignalCallback callback,
                                                           gpointer user_data, GDestroyNotify release) {
    return g_dbus_connection_signal_subscribe(connection, NULL, "org.freedesktop.Notifications", NULL,
                                              "/org/freedesktop/Notifications", NULL, G_DBUS_SIGNAL_FLAGS_NONE,
                                              callback, user_data, release);
}
