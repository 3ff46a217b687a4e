"""``adjudicator serve`` watching a Maildir: mail delivered into ``new/`` is answered at
once; the Maildir is left as it was (a mail program may share it); a restart reads it
again and answers nothing twice."""

from __future__ import annotations

import mailbox

from tests.pipeline.pipeline_helpers import email, orders_text
from tests.service.conftest import Mailbag, wait_for


def test_mail_delivered_into_a_maildir_is_answered_and_the_maildir_left_as_it_was(referee, smtp_capture,
                                                                                   start_serve, tmp_path):
    inbox = mailbox.Maildir(tmp_path / "Maildir", create=True)
    handler, port = smtp_capture
    serve = start_serve("--maildir", str(tmp_path / "Maildir"), "--poll", "0.1", smtp_port=port, lmtp=False)
    key = inbox.add(email(orders_text(), message_id="<md-1@japan.test>"))
    mail = Mailbag(handler)
    wait_for(lambda: len(mail.messages()) >= 3, 20, serve.log)
    assert len(mail.replies_to("<md-1@japan.test>")) == 1
    assert (tmp_path / "Maildir" / "new" / key).exists()
    assert serve.terminate() == 0
    serve = start_serve("--maildir", str(tmp_path / "Maildir"), "--poll", "0.1", smtp_port=port, lmtp=False)
    wait_for(lambda: "duplicate" in serve.log(), 20, serve.log)
    assert len(mail.messages()) == 3


def test_a_folder_that_is_not_a_maildir_is_refused_with_a_clear_error(referee, tmp_path):
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "adjudicator", "serve", "--store", str(referee.store),
                           "--key", str(referee.key_file), "--maildir", str(tmp_path)],
                          capture_output=True, text=True, env={"ADJUDICATOR_KEY_PASSPHRASE": "", "PATH": ""})
    assert done.returncode == 2
    assert "is not a Maildir (it needs new/ and cur/ folders)" in done.stderr
    assert "Traceback" not in done.stderr
