#ifndef CSECRETLOADER_H
#define CSECRETLOADER_H

// The freedesktop Secret Service (GNOME Keyring, KeePassXC, KWallet) through libsecret, loaded
// with dlopen at the first use instead of linked: linking libsecret would make every start of
// `cardwallet` map it and GLib, GIO and GObject behind it (docs/TokenStore.md, "Secrets").
//
// Every function takes and returns plain C strings; nothing of GLib shows. A password is stored
// under the attributes application=cardwallet, server=<server>, user=<user>, so
// `secret-tool lookup application cardwallet server S user U` finds it.

/// How a call ended.
typedef enum {
    /// Done (for a lookup: found, or not found when *password is NULL).
    CWSECRET_OK = 0,
    /// libsecret is not installed (libsecret-1.so.0 could not be loaded).
    CWSECRET_NO_LIBRARY = 1,
    /// No Secret Service answers on the session bus (no bus, or no keyring running there).
    CWSECRET_NO_SERVICE = 2,
    /// The keyring is locked and was not unlocked (no prompt could appear, or it was dismissed).
    CWSECRET_LOCKED = 3,
    /// Anything else; the message says what.
    CWSECRET_FAILED = 4,
} cwsecret_status;

/// Stores `password` under `label`, replacing the one kept for `server` and `user`. On failure,
/// `*message` (when not NULL) is a string to free with cwsecret_free.
cwsecret_status cwsecret_store(const char *label, const char *server, const char *user, const char *password,
                               char **message);

/// The password kept for `server` and `user` in `*password` (NULL when none; free it with
/// cwsecret_free_password).
cwsecret_status cwsecret_lookup(const char *server, const char *user, char **password, char **message);

/// Removes the password kept for `server` and `user` (none kept is not a failure).
cwsecret_status cwsecret_clear(const char *server, const char *user, char **message);

/// Frees a message.
void cwsecret_free(char *text);

/// Frees a password, wiping it first.
void cwsecret_free_password(char *password);

#endif
