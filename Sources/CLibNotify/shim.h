#include <libnotify/notify.h>
#include <gio/gio.h>

/* g_signal_connect and g_object_get are macros or variadic, which Swift cannot call:
   these small wrappers give Swift typed entry points. */

typedef void (*beautyd_closed_cb)(NotifyNotification *notification, gpointer user_data);

static inline gulong beautyd_connect_closed(NotifyNotification *notification, beautyd_closed_cb callback, gpointer user_data) {
    return g_signal_connect_data(notification, "closed", G_CALLBACK(callback), user_data, NULL, (GConnectFlags)0);
}

static inline gint beautyd_notification_id(NotifyNotification *notification) {
    gint id = 0;
    g_object_get(notification, "id", &id, NULL);
    return id;
}

static inline guint beautyd_watch_notification_server(GBusNameAppearedCallback appeared, GBusNameVanishedCallback vanished, gpointer user_data) {
    return g_bus_watch_name(G_BUS_TYPE_SESSION, "org.freedesktop.Notifications", G_BUS_NAME_WATCHER_FLAGS_NONE,
                            appeared, vanished, user_data, NULL);
}
