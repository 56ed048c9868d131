"""An SMTP server for the announcement test: Debian's aiosmtpd.

Usage: python3 announce_smtpd.py HOST PORT MAILDIR LOG HOLD

Stores every message it accepts in the Maildir MAILDIR and writes one line
per recipient to LOG: "accepted ADDRESS" once its message is stored,
"refused ADDRESS" when it refuses the recipient. Recipients whose address
starts with "refused-" are refused at RCPT TO with 550 (a permanent
refusal). The HOLD-th message (counting from 1) is held as the mailtest
server holds it: the file "held" appears next to MAILDIR, and once the
file "release" appears the message is refused with 451, not stored.
"""
import asyncio
import os
import signal
import sys
import threading

from aiosmtpd.controller import Controller
from aiosmtpd.handlers import Mailbox

host, port, maildir, logpath, hold = sys.argv[1:6]
hold = int(hold)
folder = os.path.dirname(os.path.abspath(maildir))
log = open(logpath, "a", buffering=1)


class Handler(Mailbox):
    seen = 0

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.lower().startswith("refused-"):
            log.write("refused %s\n" % address.lower())
            return "550 5.1.1 No such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.seen += 1
        if self.seen == hold:
            open(os.path.join(folder, "held"), "w").close()
            while not os.path.exists(os.path.join(folder, "release")):
                await asyncio.sleep(0.01)
            return "451 4.3.0 Held by the test, not stored"
        answer = await super().handle_DATA(server, session, envelope)
        for rcpt in envelope.rcpt_tos:
            log.write("accepted %s\n" % rcpt.lower())
        return answer


controller = Controller(Handler(maildir), hostname=host, port=int(port))
controller.start()
stop = threading.Event()
signal.signal(signal.SIGTERM, lambda *_: stop.set())
signal.signal(signal.SIGINT, lambda *_: stop.set())
stop.wait()
controller.stop()
