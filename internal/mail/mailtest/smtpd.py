"""A real SMTP server for Salaula's tests: Debian's aiosmtpd.

Usage: python3 smtpd.py HOST PORT MAILDIR USER PASSWORD

Accepts mail (AUTH PLAIN/LOGIN with USER and PASSWORD offered, without TLS,
as on 127.0.0.1) and stores every message it receives in the Maildir MAILDIR.
"""
import signal
import sys
import threading

from aiosmtpd.controller import Controller
from aiosmtpd.handlers import Mailbox
from aiosmtpd.smtp import AuthResult

host, port, maildir, user, password = sys.argv[1:6]


def authenticate(server, session, envelope, mechanism, auth_data):
    ok = auth_data.login == user.encode() and auth_data.password == password.encode()
    return AuthResult(success=ok)


controller = Controller(Mailbox(maildir), hostname=host, port=int(port),
                        authenticator=authenticate, auth_require_tls=False)
controller.start()
stop = threading.Event()
signal.signal(signal.SIGTERM, lambda *_: stop.set())
signal.signal(signal.SIGINT, lambda *_: stop.set())
stop.wait()
controller.stop()
