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
"""
import argparse
import base64
import hmac
import http.client
import http.server
import os
import re
import socketserver
import ssl
import subprocess
import sys
import threading
import urllib.request
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server


class ThreadingServer(socketserver.ThreadingMixIn, WSGIServer):
    daemon_threads = True


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


def radicale_app(data, users):
    import radicale
    from radicale import config

    htpasswd = os.path.join(data, "htpasswd")
    with open(htpasswd, "w", encoding="utf-8") as file:
        for name, password in users.items():
            file.write(f"{name}:{password}\n")
    configuration = config.load()
    configuration.update(
        {
            "auth": {
                "type": "htpasswd",
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
    return radicale.Application(configuration)


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
    options = parser.parse_args()
    roles = []
    for value in options.front:
        role, _, host = value.partition("=")
        if role not in ("books", "home", "redirect", "plain") or not host:
            sys.exit(f"carddav-server: --front takes ROLE=HOST (books, home, redirect, plain), not {value!r}")
        roles.append((role, host.lower()))
    os.makedirs(options.data, exist_ok=True)
    users = parse_users(options.user)
    try:
        app = radicale_app(options.data, users) if options.server == "radicale" else xandikos_app(options.data, users)
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
    front = None
    if roles:
        front, ca = start_front(roles, server.server_port, os.path.join(options.data, "tls"))
        print(root, flush=True)
        print(f"https-port {front.server_address[1]} {ca}", flush=True)
    else:
        print(root, flush=True)
    # Runs until standard input closes: the parent ended, whether it stopped us or not.
    try:
        sys.stdin.buffer.read()
    except KeyboardInterrupt:
        pass
    server.shutdown()
    if front is not None:
        front.shutdown()


if __name__ == "__main__":
    main()
