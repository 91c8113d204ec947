// libsecret, loaded with dlopen at the first use (see CSecretLoader.h for why).
//
// libsecret's headers need GLib's include folders, which only pkg-config knows; and a
// system-library target with pkg-config would link the libraries into every start. So the few
// types this file passes to libsecret are declared here, as libsecret 0.20 (Debian 12's) and
// every later 0.x define them: a SecretSchema of a name, flags and 32 attributes, a GError of a
// domain, a code and a message. They are part of libsecret's stable ABI.

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "CSecretLoader.h"

#pragma GCC visibility push(hidden)

typedef int gboolean;
typedef uint32_t GQuark;
typedef struct {
    GQuark domain;
    int code;
    char *message;
} GError;

typedef struct {
    const char *name;
    int type;  // SecretSchemaAttributeType: 0 string
} SecretSchemaAttribute;

typedef struct {
    const char *name;
    int flags;  // SecretSchemaFlags
    SecretSchemaAttribute attributes[32];
    int reserved;
    void *reserved1, *reserved2, *reserved3, *reserved4, *reserved5, *reserved6, *reserved7;
} SecretSchema;

enum { SECRET_SCHEMA_DONT_MATCH_NAME = 1 << 1 };
enum { SECRET_ERROR_IS_LOCKED = 2 };

static const SecretSchema schema = {
    "dev.cardwallet.Password",
    SECRET_SCHEMA_DONT_MATCH_NAME,
    {{"application", 0}, {"server", 0}, {"user", 0}, {NULL, 0}},
};

typedef gboolean (*store_fn)(const SecretSchema *, const char *, const char *, const char *, void *, GError **, ...);
typedef char *(*lookup_fn)(const SecretSchema *, void *, GError **, ...);
typedef gboolean (*clear_fn)(const SecretSchema *, void *, GError **, ...);
typedef void (*free_fn)(char *);
typedef void (*error_free_fn)(GError *);
typedef const char *(*quark_fn)(GQuark);

static struct {
    store_fn store;
    lookup_fn lookup;
    clear_fn clear;
    free_fn password_free;
    error_free_fn error_free;
    quark_fn quark_to_string;
    int loaded;  // 1 loaded, -1 not available
} lib;

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *handle = dlopen("libsecret-1.so.0", RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        lib.loaded = -1;
        return;
    }
    lib.store = (store_fn)dlsym(handle, "secret_password_store_sync");
    lib.lookup = (lookup_fn)dlsym(handle, "secret_password_lookup_sync");
    lib.clear = (clear_fn)dlsym(handle, "secret_password_clear_sync");
    lib.password_free = (free_fn)dlsym(handle, "secret_password_free");
    lib.error_free = (error_free_fn)dlsym(handle, "g_error_free");
    lib.quark_to_string = (quark_fn)dlsym(handle, "g_quark_to_string");
    if (lib.store && lib.lookup && lib.clear && lib.password_free && lib.error_free && lib.quark_to_string) {
        lib.loaded = 1;
    } else {
        lib.loaded = -1;
    }
}

static int ready(char **message) {
    pthread_once(&once, load);
    if (lib.loaded == 1) return 1;
    if (message) *message = strdup("libsecret (libsecret-1.so.0) is not installed");
    return 0;
}

static int contains(const char *text, const char *part) { return text != NULL && strstr(text, part) != NULL; }

// The status for a GError, and its message for the caller; frees the error.
static cwsecret_status judge(GError *error, char **message) {
    if (error == NULL) {
        if (message) *message = strdup("the Secret Service refused without saying why");
        return CWSECRET_FAILED;
    }
    const char *domain = lib.quark_to_string(error->domain);
    cwsecret_status status = CWSECRET_FAILED;
    if (contains(domain, "secret-error") && error->code == SECRET_ERROR_IS_LOCKED) {
        status = CWSECRET_LOCKED;
    } else if (contains(error->message, "ServiceUnknown") || contains(error->message, "not provided by any")
               || contains(error->message, "Cannot autolaunch") || contains(error->message, "Could not connect")
               || contains(error->message, "Error spawning command line") || contains(error->message, "NameHasNoOwner")
               || contains(error->message, "no such name") || contains(error->message, "DBUS_SESSION_BUS_ADDRESS")) {
        status = CWSECRET_NO_SERVICE;
    } else if (contains(error->message, "locked") || contains(error->message, "Locked")
               || contains(error->message, "prompt") || contains(error->message, "Prompt")
               || contains(error->message, "dismissed")) {
        status = CWSECRET_LOCKED;
    }
    if (message) *message = strdup(error->message ? error->message : "unknown error");
    lib.error_free(error);
    return status;
}

#pragma GCC visibility pop

cwsecret_status cwsecret_store(const char *label, const char *server, const char *user, const char *password,
                               char **message) {
    if (!ready(message)) return CWSECRET_NO_LIBRARY;
    GError *error = NULL;
    gboolean stored = lib.store(&schema, "default", label, password, NULL, &error, "application", "cardwallet",
                                "server", server, "user", user, NULL);
    if (stored && error == NULL) return CWSECRET_OK;
    return judge(error, message);
}

cwsecret_status cwsecret_lookup(const char *server, const char *user, char **password, char **message) {
    *password = NULL;
    if (!ready(message)) return CWSECRET_NO_LIBRARY;
    GError *error = NULL;
    char *found = lib.lookup(&schema, NULL, &error, "application", "cardwallet", "server", server, "user", user, NULL);
    if (error != NULL) {
        if (found) lib.password_free(found);
        return judge(error, message);
    }
    *password = found;
    return CWSECRET_OK;
}

cwsecret_status cwsecret_clear(const char *server, const char *user, char **message) {
    if (!ready(message)) return CWSECRET_NO_LIBRARY;
    GError *error = NULL;
    lib.clear(&schema, NULL, &error, "application", "cardwallet", "server", server, "user", user, NULL);
    if (error == NULL) return CWSECRET_OK;  // FALSE without an error: there was nothing to remove
    return judge(error, message);
}

void cwsecret_free(char *text) { free(text); }

void cwsecret_free_password(char *password) {
    if (password == NULL) return;
    if (lib.loaded == 1) {
        lib.password_free(password);  // libsecret wipes it before freeing
    }
}
