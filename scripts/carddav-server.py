#!/usr/bin/env python3
"""Starts a real CardDAV server on 127.0.0.1, on a port the kernel picks, for the CardDAV tests
and demos: Radicale or Xandikos, the pinned versions of scripts/requirements-carddav.txt.

    scripts/carddav-server.py radicale --data DIR [--user alice:secret] [--book contacts]
    scripts/carddav-server.py xandikos --data DIR [--user alice:secret]

The first line on standard output is the server's root URL, for example
`http://127.0.0.1:40123/`, printed only once the socket listens and the address book exists.
The server stops when standard input closes (the test that started it ended, however it ended)
or on SIGTERM.

Logins:
- Radicale checks them itself: an htpasswd file (plain entries) made from every --user.
- Xandikos has no logins of its own on plain HTTP (its --htpasswd needs its TLS mode), so this
  script wraps its WSGI app in a small Basic-auth check against the same --user list, which
  sets REMOTE_USER as Xandikos documents for an authenticating WSGI middleware. Its single
  principal is /user/ whoever logs in, with the address book /user/contacts/addressbook/.
  /.well-known/carddav redirects to / with 302, as Xandikos' own server does.

Both are served by wsgiref with one thread per connection (HTTP/1.0, one request per connection).

Other hosts of one domain (the CardDAV redirect tests): with --front ROLE=HOST (repeatable), the
script also serves over https, on a port of its own, under those host names, which the client
maps to 127.0.0.1 (no DNS is involved): a certificate authority is made for the run with
openssl (DATA/tls/ca.pem, which the client trusts) and one certificate names every HOST. The
second line on standard output is then `https-port PORT DATA/tls/ca.pem`. The roles:
- books=HOST   the server itself, as it is, over https (iCloud's partition host, Fastmail's
               carddav.fastmail.com);
- home=HOST    the server, but the principal names its address book home on the books host
               (`https://BOOKS:PORT/alice/`), as contacts.icloud.com names pNN-contacts.icloud.com;
- redirect=HOST  nothing but /.well-known/carddav, which redirects (301) to the books host's
               (`https://BOOKS:PORT/.well-known/carddav`), as fastmail.com's does;
- plain=HOST   the same, but to the server's plain http port under the books host's name
               (`http://BOOKS:HTTPPORT/`): an https server sending the client to http.
Every request that carries an Authorization header is written to DATA/tls/authorized.txt as
`HOST METHOD PATH`, one a line, so that a test can tell which hosts the password reached.

A CardDAV server behind OAuth 2.0 (the OAuth tests, issue 39): with --bearer ISSUER, Radicale
also takes `Authorization: Bearer <token>` through an auth plugin of its own
(scripts/radicale_bearer_auth.py) that asks ISSUER's RFC 7662 introspection endpoint about every
token, as the resource server --bearer-client ID:SECRET (default radicale:radicale-secret,
scripts/oauth-server.py's); the token's `username` is the Radicale user. A refused token is
answered 401 with `WWW-Authenticate: Bearer error="invalid_token"`. Basic logins keep working.

Google's shape of CardDAV (--google EMAIL, for the user of the first --user): a front on plain
http, on a port of its own (the next line on standard output: `google-port PORT`), that serves
the Radicale book as Google serves its one book: /.well-known/carddav answers 301 to
/carddav/v1/principals/EMAIL/lists/default/, which is the user's book (no resource type in its
PROPFIND answers, as Google's has none), and the principal /carddav/v1/principals/EMAIL/ and
anything else answer 404. Paths and hrefs are rewritten both ways. POST /test/throttle with
count=N status=503 retry=1 makes the next N requests answer STATUS with `Retry-After: RETRY`, as
Google does under load; GET /test/requests lists the requests seen, `METHOD PATH STATUS` a line.
"""
import argparse
import base64
import hmac
import http.client
import http.server
import json
import os
import re
import socketserver
import ssl
import subprocess
import sys
import threading
import urllib.parse
import urllib.request
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server


class ThreadingServer(socketserver.ThreadingMixIn, WSGIServer):
    daemon_threads = True
    # socketserver's default backlog of 5 drops the SYNs of a client opening 8 connections at
    # once, which then wait for the kernel's 1 s retransmission (seen in the OAuth storm figure).
    request_queue_size = 128


class QuietHandler(WSGIRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass


class BoundedInput:
    """The request body as WSGI promises it: reading stops at Content-Length. wsgiref hands
    over the socket itself, and Xandikos reads its body to the end of the stream."""

    def __init__(self, stream, length):
        self.stream = stream
        self.left = length

    def read(self, size=-1):
        if size is None or size < 0 or size > self.left:
            size = self.left
        data = self.stream.read(size) if size > 0 else b""
        self.left -= len(data)
        return data

    def readline(self, size=-1):
        if size is None or size < 0 or size > self.left:
            size = self.left
        data = self.stream.readline(size) if size > 0 else b""
        self.left -= len(data)
        return data

    def __iter__(self):
        return iter(self.readline, b"")


def bounded(app):
    def wrapped(environ, start_response):
        try:
            length = int(environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        environ["wsgi.input"] = BoundedInput(environ["wsgi.input"], max(0, length))
        return app(environ, start_response)

    return wrapped


def parse_users(values):
    users = {}
    for value in values or ["alice:secret"]:
        name, _, password = value.partition(":")
        if not name or not password:
            sys.exit(f"carddav-server: --user takes NAME:PASSWORD, not {value!r}")
        users[name] = password
    return users


def radicale_app(data, users, bearer=None):
    import radicale
    from radicale import config

    htpasswd = os.path.join(data, "htpasswd")
    with open(htpasswd, "w", encoding="utf-8") as file:
        for name, password in users.items():
            file.write(f"{name}:{password}\n")
    configuration = config.load()
    auth_type = "htpasswd"
    if bearer is not None:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import radicale_bearer_auth

        radicale_bearer_auth.INTROSPECTION_URL, radicale_bearer_auth.CLIENT_ID, radicale_bearer_auth.CLIENT_SECRET = bearer
        auth_type = "radicale_bearer_auth"
    configuration.update(
        {
            "auth": {
                "type": auth_type,
                "htpasswd_filename": htpasswd,
                "htpasswd_encryption": "plain",
                "delay": "0",
            },
            "storage": {"filesystem_folder": os.path.join(data, "collections")},
            "rights": {"type": "owner_only"},
            "logging": {"level": "warning"},
        },
        "carddav-server.py",
    )
    application = radicale.Application(configuration)
    if bearer is None:
        return application
    return with_bearer_challenge(application)


def with_bearer_challenge(app):
    """Answers 401 with a Bearer challenge (RFC 6750 §3.1) when the plugin refused the token:
    Radicale, told the login came from outside, would answer 403."""
    import radicale_bearer_auth

    def wrapped(environ, start_response):
        def start(status, headers, exc_info=None):
            if environ.get(radicale_bearer_auth.REFUSED):
                status = "401 Unauthorized"
                headers = [(name, value) for name, value in headers if name.lower() != "www-authenticate"]
                headers.append(("WWW-Authenticate", 'Bearer realm="Radicale", error="invalid_token"'))
            return start_response(status, headers, exc_info) if exc_info else start_response(status, headers)

        return app(environ, start)

    return wrapped


def discover_introspection(issuer):
    """The introspection endpoint of ISSUER's metadata."""
    for path in ("/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"):
        try:
            with urllib.request.urlopen(issuer.rstrip("/") + path, timeout=10) as response:
                endpoint = json.load(response).get("introspection_endpoint")
                if endpoint:
                    return endpoint
        except (OSError, ValueError):
            continue
    sys.exit(f"carddav-server: {issuer} publishes no introspection endpoint")


def xandikos_app(data, users):
    from xandikos.web import SingleUserFilesystemBackend, XandikosApp

    backend = SingleUserFilesystemBackend(os.path.abspath(data), autocreate=True)
    if not backend.get_resource("/user/"):
        backend.create_principal("/user/", create_defaults=True)
    backend._mark_as_principal("/user/")
    app = XandikosApp(backend, "/user/")

    def with_logins(environ, start_response):
        path = environ.get("PATH_INFO", "")
        if path.rstrip("/") == "/.well-known/carddav":
            start_response("302 Found", [("Location", "/"), ("Content-Length", "0")])
            return [b""]
        user = checked_user(environ.get("HTTP_AUTHORIZATION", ""), users)
        if user is None:
            body = b"Log in with Basic authentication.\n"
            start_response(
                "401 Unauthorized",
                [
                    ("WWW-Authenticate", 'Basic realm="xandikos"'),
                    ("Content-Type", "text/plain"),
                    ("Content-Length", str(len(body))),
                ],
            )
            return [body]
        environ["REMOTE_USER"] = user
        return app(environ, start_response)

    return with_logins


def checked_user(header, users):
    scheme, _, encoded = header.partition(" ")
    if scheme.lower() != "basic":
        return None
    try:
        name, _, password = base64.b64decode(encoded.strip(), validate=True).decode("utf-8").partition(":")
    except (ValueError, UnicodeDecodeError):
        return None
    expected = users.get(name)
    if expected is None or not hmac.compare_digest(expected.encode(), password.encode()):
        return None
    return name


def make_radicale_book(root, users, book):
    """Creates /<user>/<book>/ as an address book for every user, through the server's own MKCOL."""
    body = (
        '<?xml version="1.0" encoding="utf-8"?>'
        '<D:mkcol xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav"><D:set><D:prop>'
        "<D:resourcetype><D:collection/><C:addressbook/></D:resourcetype>"
        f"<D:displayname>{book.capitalize()}</D:displayname>"
        "</D:prop></D:set></D:mkcol>"
    ).encode()
    for name, password in users.items():
        request = urllib.request.Request(f"{root}{name}/{book}/", data=body, method="MKCOL")
        request.add_header("Content-Type", "application/xml; charset=utf-8")
        token = base64.b64encode(f"{name}:{password}".encode()).decode()
        request.add_header("Authorization", f"Basic {token}")
        try:
            urllib.request.urlopen(request, timeout=30).close()
        except urllib.error.HTTPError as error:
            if error.code != 405:  # 405: it exists already (a --data folder used again)
                raise


def make_certificates(folder, hosts):
    """A certificate authority made for this run, and a certificate for every host signed by it."""
    os.makedirs(folder, exist_ok=True)

    def run(*arguments):
        try:
            subprocess.run(["openssl", *arguments], check=True, cwd=folder, capture_output=True)
        except FileNotFoundError:
            sys.exit("carddav-server: openssl is not installed; run scripts/bootstrap")
        except subprocess.CalledProcessError as error:
            sys.exit(f"carddav-server: openssl failed: {error.stderr.decode(errors='replace')}")

    run(
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
        "-subj", "/CN=CardWallet test authority", "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign",
    )
    run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "host.key", "-out", "host.csr", "-subj", f"/CN={hosts[0]}")
    with open(os.path.join(folder, "host.ext"), "w", encoding="utf-8") as file:
        file.write("subjectAltName=" + ",".join(f"DNS:{host}" for host in hosts) + "\n")
        file.write("basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\n")
        file.write("extendedKeyUsage=serverAuth\n")
    run(
        "x509", "-req", "-in", "host.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
        "-out", "host.pem", "-days", "2", "-extfile", "host.ext",
    )
    return os.path.join(folder, "ca.pem"), os.path.join(folder, "host.pem"), os.path.join(folder, "host.key")


HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "te", "upgrade", "proxy-connection", "host"}
# Headers the front writes itself.
OWN = {"content-length", "date", "server"}
HOME_SET = re.compile(rb"(addressbook-home-set[^>]*>\s*<(?:[A-Za-z0-9_-]+:)?href>)(/)")


def start_front(roles, backend_port, folder):
    """The https front of --front: one port, the host names told apart by the Host header."""
    books = next((host for role, host in roles if role == "books"), None)
    if books is None:
        sys.exit("carddav-server: --front needs a books=HOST")
    by_host = {host: role for role, host in roles}
    ca, certificate, key = make_certificates(folder, [host for _, host in roles])
    log_path = os.path.join(folder, "authorized.txt")
    log_lock = threading.Lock()
    open(log_path, "w", encoding="utf-8").close()
    port_box = {}

    class Front(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format, *args):  # noqa: A002 - the base class's name
            pass

        def answer(self, status, headers=(), body=b""):
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def handle_any(self):
            host = (self.headers.get("Host") or "").rsplit(":", 1)[0].lower()
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length > 0 else b""
            if self.headers.get("Authorization"):
                with log_lock, open(log_path, "a", encoding="utf-8") as file:
                    file.write(f"{host} {self.command} {self.path}\n")
            role = by_host.get(host)
            port = port_box["port"]
            if role is None:
                return self.answer(421, body=b"Not a host of this server.\n")
            if role in ("redirect", "plain"):
                if self.path.rstrip("/") != "/.well-known/carddav":
                    return self.answer(404)
                target = (
                    f"https://{books}:{port}/.well-known/carddav" if role == "redirect"
                    else f"http://{books}:{backend_port}/"
                )
                return self.answer(301, [("Location", target)])
            headers = {name: value for name, value in self.headers.items() if name.lower() not in HOP_BY_HOP}
            headers["Host"] = f"127.0.0.1:{backend_port}"
            connection = http.client.HTTPConnection("127.0.0.1", backend_port, timeout=60)
            try:
                connection.request(self.command, self.path, body=body, headers=headers)
                response = connection.getresponse()
                data = response.read()
            finally:
                connection.close()
            if role == "home":
                data = HOME_SET.sub(lambda match: match.group(1) + f"https://{books}:{port}/".encode(), data)
            backend = f"http://127.0.0.1:{backend_port}"
            out = []
            for name, value in response.getheaders():
                if name.lower() in HOP_BY_HOP or name.lower() in OWN:
                    continue
                if name.lower() == "location" and value.startswith(backend):
                    value = f"https://{host}:{port}" + value[len(backend):]
                out.append((name, value))
            self.answer(response.status, out, data)

        def __getattr__(self, name):
            if name.startswith("do_"):
                return self.handle_any
            raise AttributeError(name)

    class FrontServer(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True

    server = FrontServer(("127.0.0.1", 0), Front)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certificate, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    port_box["port"] = server.server_address[1]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, ca


def start_google_front(backend_port, user, book, email):
    """The Google-shaped front of --google (see above): plain http on a port of its own."""
    public = f"/carddav/v1/principals/{urllib.parse.quote(email)}/lists/default/"
    principal = f"/carddav/v1/principals/{urllib.parse.quote(email)}/"
    private = f"/{user}/{book}/"
    throttle = {"count": 0, "status": 503, "retry": "1"}
    seen = []
    lock = threading.Lock()
    resourcetype = re.compile(rb"<(?:[A-Za-z0-9_-]+:)?resourcetype\s*/>|<(?:[A-Za-z0-9_-]+:)?resourcetype>.*?</(?:[A-Za-z0-9_-]+:)?resourcetype>", re.S)

    class Google(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format, *args):  # noqa: A002 - the base class's name
            pass

        def answer(self, status, headers=(), body=b""):
            with lock:
                seen.append(f"{self.command} {self.path} {status}")
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def handle_any(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length > 0 else b""
            path = urllib.parse.urlsplit(self.path).path
            if path == "/test/throttle" and self.command == "POST":
                form = urllib.parse.parse_qs(body.decode())
                with lock:
                    throttle["count"] = int(form.get("count", ["1"])[0])
                    throttle["status"] = int(form.get("status", ["503"])[0])
                    throttle["retry"] = form.get("retry", ["1"])[0]
                return self.answer(200, body=b"ok\n")
            if path == "/test/requests":
                with lock:
                    text = "\n".join(seen) + "\n"
                return self.answer(200, [("Content-Type", "text/plain")], text.encode())
            with lock:
                throttled = throttle["count"] > 0
                if throttled:
                    throttle["count"] -= 1
            if throttled:
                return self.answer(throttle["status"], [("Retry-After", throttle["retry"])], b"Slow down.\n")
            if path.rstrip("/") == "/.well-known/carddav":
                return self.answer(301, [("Location", public)])
            # `@` and `%40` name the same segment (clients differ in which they send, as Google allows).
            plain = urllib.parse.unquote(path)
            if not plain.startswith(urllib.parse.unquote(public)):
                return self.answer(404, [("Content-Type", "text/plain")], b"Not Found\n")
            inner = private + urllib.parse.quote(plain[len(urllib.parse.unquote(public)):])
            headers = {name: value for name, value in self.headers.items() if name.lower() not in HOP_BY_HOP}
            headers["Host"] = f"127.0.0.1:{backend_port}"
            body = body.replace(public.encode(), private.encode())
            body = body.replace(urllib.parse.unquote(public).encode(), private.encode())
            if body:
                headers["Content-Length"] = str(len(body))
            connection = http.client.HTTPConnection("127.0.0.1", backend_port, timeout=60)
            try:
                connection.request(self.command, inner, body=body, headers=headers)
                response = connection.getresponse()
                data = response.read()
            finally:
                connection.close()
            data = data.replace(private.encode(), public.encode()).replace(f"/{user}/".encode(), principal.encode())
            if self.command == "PROPFIND":
                data = resourcetype.sub(b"", data)
            out = [
                (name, value) for name, value in response.getheaders()
                if name.lower() not in HOP_BY_HOP and name.lower() not in OWN
            ]
            self.answer(response.status, out, data)

        def __getattr__(self, name):
            if name.startswith("do_"):
                return self.handle_any
            raise AttributeError(name)

    class GoogleServer(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True

    server = GoogleServer(("127.0.0.1", 0), Google)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("server", choices=["radicale", "xandikos"])
    parser.add_argument("--data", required=True, help="the folder the server keeps its data in")
    parser.add_argument("--user", action="append", help="NAME:PASSWORD, repeatable (default alice:secret)")
    parser.add_argument("--book", default="contacts", help="the address book made for each Radicale user")
    parser.add_argument(
        "--front", action="append", default=[], metavar="ROLE=HOST",
        help="also serve over https under HOST in ROLE: books, home, redirect or plain (see above)",
    )
    parser.add_argument("--bearer", metavar="ISSUER", help="also take Bearer tokens, introspected at ISSUER (see above)")
    parser.add_argument(
        "--bearer-client", default="radicale:radicale-secret", metavar="ID:SECRET",
        help="the resource server's credentials for introspection (default radicale:radicale-secret)",
    )
    parser.add_argument("--google", metavar="EMAIL", help="also serve the first user's book in Google's shape (see above)")
    options = parser.parse_args()
    roles = []
    for value in options.front:
        role, _, host = value.partition("=")
        if role not in ("books", "home", "redirect", "plain") or not host:
            sys.exit(f"carddav-server: --front takes ROLE=HOST (books, home, redirect, plain), not {value!r}")
        roles.append((role, host.lower()))
    os.makedirs(options.data, exist_ok=True)
    users = parse_users(options.user)
    bearer = None
    if options.bearer:
        if options.server != "radicale":
            sys.exit("carddav-server: --bearer works with radicale only")
        client_id, _, client_secret = options.bearer_client.partition(":")
        bearer = (discover_introspection(options.bearer), client_id, client_secret)
    try:
        app = (
            radicale_app(options.data, users, bearer) if options.server == "radicale" else xandikos_app(options.data, users)
        )
    except ImportError as error:
        sys.exit(
            f"carddav-server: {options.server} is not installed ({error}); "
            "run scripts/bootstrap (it installs scripts/requirements-carddav.txt)"
        )
    server = make_server("127.0.0.1", 0, bounded(app), server_class=ThreadingServer, handler_class=QuietHandler)
    root = f"http://127.0.0.1:{server.server_port}/"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    if options.server == "radicale":
        make_radicale_book(root, users, options.book)
    google = None
    if options.google:
        if options.server != "radicale":
            sys.exit("carddav-server: --google works with radicale only")
        google = start_google_front(server.server_port, next(iter(users)), options.book, options.google)
    front = None
    if roles:
        front, ca = start_front(roles, server.server_port, os.path.join(options.data, "tls"))
        print(root, flush=True)
        print(f"https-port {front.server_address[1]} {ca}", flush=True)
    else:
        print(root, flush=True)
    if google is not None:
        print(f"google-port {google.server_address[1]}", flush=True)
    # Runs until standard input closes: the parent ended, whether it stopped us or not.
    try:
        sys.stdin.buffer.read()
    except KeyboardInterrupt:
        pass
    server.shutdown()
    if front is not None:
        front.shutdown()
    if google is not None:
        google.shutdown()


if __name__ == "__main__":
    main()
