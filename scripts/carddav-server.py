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
"""
import argparse
import base64
import hmac
import os
import socketserver
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


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("server", choices=["radicale", "xandikos"])
    parser.add_argument("--data", required=True, help="the folder the server keeps its data in")
    parser.add_argument("--user", action="append", help="NAME:PASSWORD, repeatable (default alice:secret)")
    parser.add_argument("--book", default="contacts", help="the address book made for each Radicale user")
    options = parser.parse_args()
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
    print(root, flush=True)
    # Runs until standard input closes: the parent ended, whether it stopped us or not.
    try:
        sys.stdin.buffer.read()
    except KeyboardInterrupt:
        pass
    server.shutdown()


if __name__ == "__main__":
    main()
