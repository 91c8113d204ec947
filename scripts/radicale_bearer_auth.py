"""A Radicale auth plugin that accepts `Authorization: Bearer <token>` by asking an OAuth 2.0
authorization server about the token (RFC 7662 introspection), and HTTP Basic as Radicale's own
htpasswd plugin does (the test script makes its address books with Basic).

scripts/carddav-server.py --bearer ISSUER loads it (Radicale's `auth.type` names this module) and
sets its settings below before Radicale starts; they are module settings because Radicale's
configuration refuses options it does not know.

A token the server says is active logs in its `username`; one it says is not (expired, revoked,
unknown) logs in nobody, and the request is marked so that the WSGI wrapper answers
`401` with `WWW-Authenticate: Bearer error="invalid_token"` (RFC 6750 §3.1): Radicale itself, told
the login came from outside, would answer 403.
"""
import base64
import json
import threading
import urllib.parse
import urllib.request

from radicale.auth import htpasswd

#: The introspection endpoint, and the resource server's credentials there (set by the script).
INTROSPECTION_URL = ""
CLIENT_ID = ""
CLIENT_SECRET = ""
#: The WSGI environ key that marks a request whose bearer token was refused.
REFUSED = "cardwallet.bearer_refused"
#: How many introspections were made (for the script's stats).
counts = {"introspect": 0}
_lock = threading.Lock()
_local = threading.local()


def introspect(token):
    """The introspection answer for `token`, or None when the authorization server cannot be asked."""
    body = urllib.parse.urlencode({"token": token, "token_type_hint": "access_token"}).encode()
    request = urllib.request.Request(INTROSPECTION_URL, data=body, method="POST")
    credentials = base64.b64encode(f"{CLIENT_ID}:{CLIENT_SECRET}".encode()).decode()
    request.add_header("Authorization", f"Basic {credentials}")
    request.add_header("Content-Type", "application/x-www-form-urlencoded")
    with _lock:
        counts["introspect"] += 1
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)
    except (OSError, ValueError):
        return None


class Auth(htpasswd.Auth):
    def get_external_login(self, environ):
        header = environ.get("HTTP_AUTHORIZATION", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer":
            _local.bearer = None
            return ()  # Basic, or nothing: Radicale's own handling
        answer = introspect(token.strip())
        if not answer or not answer.get("active") or not answer.get("username"):
            environ[REFUSED] = True
            _local.bearer = None
            return ("", "")
        _local.bearer = (answer["username"], token.strip())
        return (answer["username"], token.strip())

    def _login(self, login, password):
        bearer = getattr(_local, "bearer", None)
        if bearer is not None:
            # The token was found active a moment ago, for this user, in this request.
            return login if bearer == (login, password) else ""
        return super()._login(login, password)
