#!/usr/bin/env python3
"""Starts an OAuth 2.0 authorization server on 127.0.0.1, on a port the kernel picks, for the OAuth
tests and the demo: Authlib's server classes (the pinned version of scripts/requirements-oauth.txt)
in a small Flask app. It is what the CardDAV server behind OAuth (scripts/carddav-server.py
--bearer) asks about every token.

    scripts/oauth-server.py [--client ID:SECRET] [--user NAME:EMAIL] [--access-ttl SECONDS] [--rotate]

The first line on standard output is the issuer, for example `http://127.0.0.1:40123`, printed
only once the socket listens. The server stops when standard input closes (the test that started
it ended, however it ended) or on SIGTERM.

What it serves (all from Authlib, configured here):
- RFC 8414 metadata at /.well-known/oauth-authorization-server and OpenID Connect discovery at
  /.well-known/openid-configuration (--metadata rfc8414|oidc|both);
- the authorization code grant with PKCE (RFC 7636, required, S256 or plain) at /authorize: a
  consent page (GET) whose form (POST) allows or denies; any loopback redirect URI on any port
  (RFC 8252 §7.3) is accepted for the registered clients;
- /token: the code grant and the refresh grant (RFC 6749 §6), short-lived access tokens
  (--access-ttl), refresh tokens that can be revoked (and, with --rotate, are replaced on every
  refresh, the old one revoked); an OpenID Connect ID token (RS256, a key made for the run) when
  the scope has `openid`, with the user's email;
- RFC 7662 introspection at /introspect for the resource server (--resource ID:SECRET, Basic);
- RFC 7009 revocation at /revoke.

Test controls, for the tests only (loopback, no authentication):
- POST /test/fail-token   status=500 count=1 [error=invalid_request]: the next COUNT token requests
                          answer STATUS (an RFC 6749 error body for a 4xx, a plain text for a 5xx);
- POST /test/revoke-user  user=NAME: revokes every token of the user (consent withdrawn);
- POST /test/expire-access: every access token issued so far expires now;
- GET  /test/stats        {"authorization_code": N, "refresh_token": N, "introspect": N, "revoke": N}:
                          the grants given and the calls made.
"""
import argparse
import hmac
import json
import os
import sys
import threading
import time
import logging
import urllib.parse

# Plain http is this script's own loopback; Authlib refuses it otherwise.
os.environ["AUTHLIB_INSECURE_TRANSPORT"] = "1"

try:
    from authlib.integrations.flask_oauth2 import AuthorizationServer
    from authlib.oauth2.rfc6749 import ClientMixin, TokenMixin, grants
    from authlib.oauth2.rfc6749.errors import OAuth2Error
    from authlib.oauth2.rfc7009 import RevocationEndpoint
    from authlib.oauth2.rfc7636 import CodeChallenge
    from authlib.oauth2.rfc7662 import IntrospectionEndpoint
    from authlib.oidc.core import OpenIDCode, UserInfo
    from authlib.oidc.core.models import AuthorizationCodeMixin
    from flask import Flask, Response, request
    from joserfc.jwk import RSAKey
    from werkzeug.serving import make_server
except ImportError as error:
    sys.exit(
        f"oauth-server: Authlib and Flask are not installed ({error}); "
        "run scripts/bootstrap (it installs scripts/requirements-oauth.txt)"
    )


class Store:
    """Everything the server keeps, in memory, behind one lock (the server is threaded)."""

    def __init__(self, access_ttl, rotate):
        self.lock = threading.RLock()
        self.clients = {}
        self.users = {}
        self.codes = {}
        self.tokens = []
        self.access_ttl = access_ttl
        self.rotate = rotate
        self.failures = []  # (status, error) for the next token requests
        self.stats = {"authorization_code": 0, "refresh_token": 0, "introspect": 0, "revoke": 0}

    def token_by_access(self, value):
        with self.lock:
            return next((token for token in self.tokens if token.access_token == value), None)

    def token_by_refresh(self, value):
        with self.lock:
            return next((token for token in self.tokens if token.refresh_token and token.refresh_token == value), None)


class User:
    def __init__(self, name, email):
        self.name = name
        self.email = email

    def get_user_id(self):
        return self.name


class Client(ClientMixin):
    def __init__(self, client_id, secret, resource=False):
        self.client_id = client_id
        self.secret = secret or None
        self.resource = resource

    def get_client_id(self):
        return self.client_id

    def get_default_redirect_uri(self):
        return None

    def get_allowed_scope(self, scope):
        return scope or ""

    def check_redirect_uri(self, redirect_uri):
        # RFC 8252 §7.3: a loopback IP literal on any port (the client picks a free one).
        parts = urllib.parse.urlsplit(redirect_uri)
        return not self.resource and parts.scheme == "http" and parts.hostname in ("127.0.0.1", "::1")

    def check_client_secret(self, client_secret):
        return self.secret is not None and hmac.compare_digest(self.secret.encode(), (client_secret or "").encode())

    def check_endpoint_auth_method(self, method, endpoint):
        if self.secret is None:
            return method == "none"
        return method in ("client_secret_basic", "client_secret_post")

    def check_response_type(self, response_type):
        return not self.resource and response_type == "code"

    def check_grant_type(self, grant_type):
        return not self.resource and grant_type in ("authorization_code", "refresh_token")


class Token(TokenMixin):
    def __init__(self, store, client_id, user, scope, access_token, refresh_token, expires_in):
        self.store = store
        self.client_id = client_id
        self.user = user
        self.scope = scope
        self.access_token = access_token
        self.refresh_token = refresh_token
        self.issued_at = time.time()
        self.expires_in = expires_in
        self.access_revoked = False
        self.refresh_revoked = False

    def check_client(self, client):
        return client.get_client_id() == self.client_id

    def get_scope(self):
        return self.scope

    def get_expires_in(self):
        return self.expires_in

    def is_expired(self):
        return time.time() >= self.issued_at + self.expires_in

    def is_revoked(self):
        return self.access_revoked

    def get_user(self):
        return self.user

    def get_client(self):
        return self.store.clients.get(self.client_id)


class Code(AuthorizationCodeMixin):
    def __init__(self, code, client_id, redirect_uri, scope, user, challenge, method, nonce):
        self.code = code
        self.client_id = client_id
        self.redirect_uri = redirect_uri
        self.scope = scope
        self.user = user
        self.code_challenge = challenge
        self.code_challenge_method = method
        self.nonce = nonce
        self.auth_time = int(time.time())
        self.created = time.time()

    def get_redirect_uri(self):
        return self.redirect_uri

    def get_scope(self):
        return self.scope

    def get_nonce(self):
        return self.nonce

    def get_auth_time(self):
        return self.auth_time

    def get_acr(self):
        return None

    def get_amr(self):
        return None


def build_app(store, issuer_box, metadata_kinds):
    app = Flask("cardwallet-oauth-test")
    key = RSAKey.generate_key(2048, private=True)

    def save_token(token, oauth_request):
        with store.lock:
            store.tokens.append(
                Token(
                    store, oauth_request.client.get_client_id(), oauth_request.user, token.get("scope", ""),
                    token["access_token"], token.get("refresh_token"), token.get("expires_in", store.access_ttl),
                )
            )

    def expires_in(client, grant_type):
        return store.access_ttl

    app.config["OAUTH2_TOKEN_EXPIRES_IN"] = {"authorization_code": store.access_ttl, "refresh_token": store.access_ttl}
    app.config["OAUTH2_REFRESH_TOKEN_GENERATOR"] = True
    server = AuthorizationServer(app, query_client=lambda client_id: store.clients.get(client_id), save_token=save_token)

    class CodeGrant(grants.AuthorizationCodeGrant):
        TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"]

        def save_authorization_code(self, code, oauth_request):
            data = oauth_request.payload.data
            with store.lock:
                store.codes[code] = Code(
                    code, oauth_request.client.get_client_id(), oauth_request.payload.redirect_uri,
                    oauth_request.scope, oauth_request.user, data.get("code_challenge"),
                    data.get("code_challenge_method"), data.get("nonce"),
                )

        def query_authorization_code(self, code, client):
            with store.lock:
                item = store.codes.get(code)
            if item and item.client_id == client.get_client_id() and time.time() - item.created < 600:
                return item
            return None

        def delete_authorization_code(self, authorization_code):
            with store.lock:
                store.codes.pop(authorization_code.code, None)

        def authenticate_user(self, authorization_code):
            with store.lock:
                store.stats["authorization_code"] += 1
            return authorization_code.user

    class RefreshGrant(grants.RefreshTokenGrant):
        TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"]
        INCLUDE_NEW_REFRESH_TOKEN = store.rotate

        def authenticate_refresh_token(self, refresh_token):
            token = store.token_by_refresh(refresh_token)
            if token and not token.refresh_revoked:
                return token
            return None

        def authenticate_user(self, refresh_token):
            with store.lock:
                store.stats["refresh_token"] += 1
            return refresh_token.user

        def revoke_old_credential(self, refresh_token):
            # Rotating: the old refresh token is spent. Otherwise it stays valid (as Google's).
            if store.rotate:
                with store.lock:
                    refresh_token.refresh_revoked = True

        def issue_token(self, user, refresh_token):
            token = super().issue_token(user, refresh_token)
            if not store.rotate:
                # The same refresh token stays valid: the new access token belongs to it.
                token.pop("refresh_token", None)
            return token

    class IDToken(OpenIDCode):
        def exists_nonce(self, nonce, oauth_request):
            return False

        def resolve_client_private_key(self, client):
            return key

        def get_client_algorithm(self, client):
            return "RS256"

        def get_encode_header(self, client):
            return {"alg": "RS256", "kid": "test"}

        def get_client_claims(self, client):
            return {"iss": issuer_box["issuer"], "aud": [client.get_client_id()], "exp": int(time.time()) + 3600}

        def generate_user_info(self, user, scope):
            info = UserInfo(sub=user.name, preferred_username=user.name, name=user.name.capitalize())
            if "email" in scope.split():
                info["email"] = user.email
                info["email_verified"] = True
            return info

    class Introspection(IntrospectionEndpoint):
        CLIENT_AUTH_METHODS = ["client_secret_basic", "client_secret_post"]

        def query_token(self, token_string, token_type_hint):
            with store.lock:
                store.stats["introspect"] += 1
            return store.token_by_access(token_string)

        def check_permission(self, token, client, oauth_request):
            return client.resource

        def introspect_token(self, token):
            return {
                "active": True, "client_id": token.client_id, "token_type": "Bearer", "username": token.user.name,
                "email": token.user.email, "scope": token.scope, "sub": token.user.name,
                "exp": int(token.issued_at + token.expires_in), "iat": int(token.issued_at), "iss": issuer_box["issuer"],
            }

    class Revocation(RevocationEndpoint):
        CLIENT_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"]

        def query_token(self, token_string, token_type_hint):
            return store.token_by_refresh(token_string) or store.token_by_access(token_string)

        def revoke_token(self, token, oauth_request):
            with store.lock:
                store.stats["revoke"] += 1
                token.access_revoked = True
                token.refresh_revoked = True

    server.register_grant(CodeGrant, [CodeChallenge(required=True), IDToken(require_nonce=False)])
    server.register_grant(RefreshGrant)
    server.register_endpoint(Introspection)
    server.register_endpoint(Revocation)

    def metadata():
        issuer = issuer_box["issuer"]
        return {
            "issuer": issuer,
            "authorization_endpoint": f"{issuer}/authorize",
            "token_endpoint": f"{issuer}/token",
            "introspection_endpoint": f"{issuer}/introspect",
            "revocation_endpoint": f"{issuer}/revoke",
            "jwks_uri": f"{issuer}/jwks",
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "refresh_token"],
            "code_challenge_methods_supported": ["S256", "plain"],
            "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post", "none"],
            "scopes_supported": ["openid", "email", "profile", "carddav", "offline_access"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["RS256"],
        }

    def json_response(body, status=200):
        return Response(json.dumps(body), status=status, mimetype="application/json")

    if metadata_kinds in ("rfc8414", "both"):
        app.add_url_rule("/.well-known/oauth-authorization-server", "rfc8414", lambda: json_response(metadata()))
    if metadata_kinds in ("oidc", "both"):
        app.add_url_rule("/.well-known/openid-configuration", "oidc", lambda: json_response(metadata()))

    @app.get("/jwks")
    def jwks():
        return json_response({"keys": [key.as_dict(private=False, kid="test")]})

    @app.get("/authorize")
    def consent_page():
        try:
            grant = server.get_consent_grant(end_user=None)
        except OAuth2Error as error:
            return Response(f"<p>The request is refused: {error.error}</p>", status=400, mimetype="text/html")
        fields = "".join(
            f'<input type="hidden" name="{html(name)}" value="{html(value)}">'
            for name, value in request.args.items(multi=True)
        )
        users = "".join(f'<option value="{html(name)}">{html(user.email)}</option>' for name, user in store.users.items())
        client = html(grant.client.get_client_id())
        page = (
            "<!doctype html><html><body><h1>Allow access?</h1>"
            f"<p>{client} asks for: {html(grant.request.scope or '')}</p>"
            f'<form method="post" action="/authorize">{fields}<select name="user">{users}</select>'
            '<button name="confirm" value="allow">Allow</button>'
            '<button name="confirm" value="deny">Deny</button></form></body></html>'
        )
        return Response(page, mimetype="text/html")

    @app.post("/authorize")
    def consent_given():
        user = store.users.get(request.form.get("user", ""))
        allowed = request.form.get("confirm") == "allow" and user is not None
        try:
            grant = server.get_consent_grant(end_user=user)
        except OAuth2Error as error:
            return Response(f"<p>The request is refused: {error.error}</p>", status=400, mimetype="text/html")
        return server.create_authorization_response(grant=grant, grant_user=user if allowed else None)

    @app.post("/token")
    def token():
        with store.lock:
            failure = store.failures.pop(0) if store.failures else None
        if failure is not None:
            status, error = failure
            if status < 500:
                return json_response({"error": error, "error_description": "the test asked for this"}, status)
            return Response("The server is failing on purpose.\n", status=status, mimetype="text/plain")
        return server.create_token_response()

    @app.post("/introspect")
    def introspect():
        return server.create_endpoint_response(Introspection.ENDPOINT_NAME)

    @app.post("/revoke")
    def revoke():
        return server.create_endpoint_response(Revocation.ENDPOINT_NAME)

    @app.post("/test/fail-token")
    def fail_token():
        status = int(request.form.get("status", "500"))
        count = int(request.form.get("count", "1"))
        error = request.form.get("error", "invalid_request")
        with store.lock:
            store.failures.extend([(status, error)] * count)
        return json_response({"queued": count})

    @app.post("/test/revoke-user")
    def revoke_user():
        name = request.form.get("user", "")
        revoked = 0
        with store.lock:
            for item in store.tokens:
                if item.user.name == name:
                    item.access_revoked = True
                    item.refresh_revoked = True
                    revoked += 1
        return json_response({"revoked": revoked})

    @app.post("/test/expire-access")
    def expire_access():
        with store.lock:
            for item in store.tokens:
                item.issued_at = time.time() - item.expires_in - 1
        return json_response({"expired": len(store.tokens)})

    @app.get("/test/stats")
    def stats():
        with store.lock:
            return json_response(dict(store.stats))

    return app


def html(text):
    return (
        str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
        .replace("'", "&#39;")
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--client", action="append", metavar="ID:SECRET",
        help="a registered client (repeatable; ID: for a public client); default cardwallet:cardwallet-secret",
    )
    parser.add_argument(
        "--resource", default="radicale:radicale-secret", metavar="ID:SECRET",
        help="the resource server allowed to introspect tokens (default radicale:radicale-secret)",
    )
    parser.add_argument(
        "--user", action="append", metavar="NAME:EMAIL", help="a user who can consent (default alice:alice@example.com)"
    )
    parser.add_argument("--access-ttl", type=int, default=3600, help="access-token lifetime in seconds (default 3600)")
    parser.add_argument("--rotate", action="store_true", help="give a new refresh token on every refresh, revoking the old")
    parser.add_argument("--metadata", choices=["rfc8414", "oidc", "both"], default="both", help="which metadata to serve")
    options = parser.parse_args()

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    store = Store(max(1, options.access_ttl), options.rotate)
    for value in options.client or ["cardwallet:cardwallet-secret"]:
        client_id, _, secret = value.partition(":")
        if not client_id:
            sys.exit(f"oauth-server: --client takes ID:SECRET, not {value!r}")
        store.clients[client_id] = Client(client_id, secret)
    resource_id, _, resource_secret = options.resource.partition(":")
    if not resource_id or not resource_secret:
        sys.exit("oauth-server: --resource takes ID:SECRET")
    store.clients[resource_id] = Client(resource_id, resource_secret, resource=True)
    for value in options.user or ["alice:alice@example.com"]:
        name, _, email = value.partition(":")
        if not name or not email:
            sys.exit(f"oauth-server: --user takes NAME:EMAIL, not {value!r}")
        store.users[name] = User(name, email)

    issuer_box = {}
    app = build_app(store, issuer_box, options.metadata)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    issuer_box["issuer"] = f"http://127.0.0.1:{server.server_port}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    print(issuer_box["issuer"], flush=True)
    try:
        sys.stdin.buffer.read()
    except KeyboardInterrupt:
        pass
    server.shutdown()


if __name__ == "__main__":
    main()
