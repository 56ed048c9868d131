"""A real SMTP server for Salaula's tests: Debian's aiosmtpd.

Usage: python3 smtpd.py HOST PORT MAILDIR USER PASSWORD [HOLD]

Accepts mail (AUTH PLAIN/LOGIN with USER and PASSWORD offered, without TLS,
as on 127.0.0.1) and stores every message it receives in the Maildir MAILDIR.

With HOLD n > 0, the n-th message (counting from 1 over every connection)
is held: the server writes the file "held" next to MAILDIR and answers
that message's DATA only once the file "release" appears there, with 451,
without storing it. The sender is then provably in the middle of that
message's conversation, having been told that the earlier ones were
accepted.
"""
import asyncio
import os
import signal
import sys
import threading

from aiosmtpd.controller import Controller
from aiosmtpd.handlers import Mailbox
from aiosmtpd.smtp import AuthResult

host, port, maildir, user, password = sys.argv[1:6]
hold = int(sys.argv[6]) if len(sys.argv) > 6 else 0
folder = os.path.dirname(os.path.abspath(maildir))


class Holding(Mailbox):
    """A Mailbox that holds the hold-th message (see the usage above)."""

    seen = 0

    async def handle_DATA(self, server, session, envelope):
        self.seen += 1
        if self.seen != hold:
            return await super().handle_DATA(server, session, envelope)
        open(os.path.join(folder, "held"), "w").close()
        while not os.path.exists(os.path.join(folder, "release")):
            await asyncio.sleep(0.01)
        return "451 4.3.0 Held by the test, not stored"


def authenticate(server, session, envelope, mechanism, auth_data):
    ok = auth_data.login == user.encode() and auth_data.password == password.encode()
    return AuthResult(success=ok)


controller = Controller(Holding(maildir), hostname=host, port=int(port),
                        authenticator=authenticate, auth_require_tls=False)
controller.start()
stop = threading.Event()
signal.signal(signal.SIGTERM, lambda *_: stop.set())
signal.signal(signal.SIGINT, lambda *_: stop.set())
stop.wait()
controller.stop()
