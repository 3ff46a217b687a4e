"""Reading mail from each kind of source: Maildir, mbox, .eml files, standard input."""

from __future__ import annotations

import io
import mailbox
import os
import sys
from pathlib import Path

import pytest

from adjudicator.mail import MailSourceError, read_messages


def make_mail(number: int, *, body: str = "", crlf: bool = False) -> bytes:
    """A small, well-formed message numbered ``number``."""
    text = (
        f"From: Player {number} <player{number}@example.com>\n"
        "To: referee@example.org\n"
        f"Subject: Orders {number}\n"
        f"Message-ID: <msg{number}@example.com>\n"
        "Date: Mon, 01 Feb 1904 10:00:00 +0900\n"
        "\n"
        f"{body or f'orders of message {number}'}\n"
    )
    data = text.encode("utf-8")
    return data.replace(b"\n", b"\r\n") if crlf else data


def subjects(source, **kwargs) -> list[str]:
    return [mail.subject for mail in read_messages(source, **kwargs)]


# -- Maildir -----------------------------------------------------------------


def maildir_file(folder: Path, key: str) -> Path:
    """The file holding message ``key`` of a Maildir (in new/ or cur/)."""
    (path,) = [p for p in folder.glob("*/*") if p.name.split(":")[0] == key]
    return path


def test_maildir_reads_new_and_cur_oldest_first_and_ignores_tmp(tmp_path: Path) -> None:
    box = mailbox.Maildir(tmp_path / "inbox", create=True)
    second = box.add(make_mail(2))
    first_message = mailbox.MaildirMessage(make_mail(1))
    first_message.set_subdir("cur")
    first = box.add(first_message)
    third = box.add(make_mail(3))
    for key, stamp in ((first, 1_000_000), (second, 2_000_000), (third, 3_000_000)):
        os.utime(maildir_file(tmp_path / "inbox", key), (stamp, stamp))
    (tmp_path / "inbox" / "tmp" / "half-delivered").write_bytes(make_mail(9))
    (tmp_path / "inbox" / "new" / ".hidden").write_bytes(make_mail(8))

    mails = list(read_messages(tmp_path / "inbox"))

    assert [m.subject for m in mails] == ["Orders 1", "Orders 2", "Orders 3"]
    assert mails[0].origin == str(maildir_file(tmp_path / "inbox", first))
    assert "/cur/" in mails[0].origin.replace(os.sep, "/")
    assert all(m.problems == () for m in mails)


def test_maildir_is_not_modified_by_reading(tmp_path: Path) -> None:
    box = mailbox.Maildir(tmp_path / "inbox", create=True)
    box.add(make_mail(1))
    before = sorted(p.relative_to(tmp_path) for p in (tmp_path / "inbox").rglob("*"))

    assert subjects(tmp_path / "inbox") == ["Orders 1"]
    assert sorted(p.relative_to(tmp_path) for p in (tmp_path / "inbox").rglob("*")) == before


def test_maildir_message_moved_or_deleted_while_reading(tmp_path: Path) -> None:
    box = mailbox.Maildir(tmp_path / "inbox", create=True)
    keys = [box.add(make_mail(n)) for n in (1, 2, 3)]
    for stamp, key in enumerate(keys, 1):
        os.utime(maildir_file(tmp_path / "inbox", key), (stamp, stamp))

    mails = read_messages(tmp_path / "inbox")
    assert next(mails).subject == "Orders 1"
    second = maildir_file(tmp_path / "inbox", keys[1])
    second.rename(tmp_path / "inbox" / "cur" / f"{second.name}:2,S")  # a mail program read it
    maildir_file(tmp_path / "inbox", keys[2]).unlink()  # and deleted this one

    assert [m.subject for m in mails] == ["Orders 2"]


def test_empty_maildir_yields_nothing(tmp_path: Path) -> None:
    mailbox.Maildir(tmp_path / "inbox", create=True)
    assert subjects(tmp_path / "inbox") == []


# -- mbox --------------------------------------------------------------------


def test_mbox_reads_every_message_in_order(tmp_path: Path) -> None:
    path = tmp_path / "inbox.mbox"
    box = mailbox.mbox(path)
    for number in (1, 2, 3):
        box.add(make_mail(number, body=f"From the fleet, orders {number}"))
    box.flush()
    box.close()

    mails = list(read_messages(path))

    assert [m.subject for m in mails] == ["Orders 1", "Orders 2", "Orders 3"]
    assert [m.message_id for m in mails] == [
        "<msg1@example.com>",
        "<msg2@example.com>",
        "<msg3@example.com>",
    ]
    assert mails[1].origin == f"{path}#2"
    assert "orders 2" in mails[1].text


def test_mbox_without_extension_is_detected_by_content(tmp_path: Path) -> None:
    path = tmp_path / "spool"
    path.write_bytes(b"From someone Mon Feb  1 10:00:00 1904\n" + make_mail(1) + b"\n")
    assert subjects(path) == ["Orders 1"]


def test_empty_mbox_file_yields_nothing(tmp_path: Path) -> None:
    path = tmp_path / "empty.mbox"
    path.write_bytes(b"")
    assert subjects(path) == []


# -- .eml files --------------------------------------------------------------


def test_folder_of_eml_files_is_read_by_name_skipping_other_files(tmp_path: Path) -> None:
    (tmp_path / "b.eml").write_bytes(make_mail(2))
    (tmp_path / "a.eml").write_bytes(make_mail(1, crlf=True))
    (tmp_path / "notes.txt").write_text("not mail")

    mails = list(read_messages(tmp_path))

    assert [m.subject for m in mails] == ["Orders 1", "Orders 2"]
    assert mails[0].origin == str(tmp_path / "a.eml")


def test_single_eml_file(tmp_path: Path) -> None:
    path = tmp_path / "one.EML"
    path.write_bytes(make_mail(5))
    assert subjects(path) == ["Orders 5"]


def test_file_without_extension_holding_one_message(tmp_path: Path) -> None:
    path = tmp_path / "message"
    path.write_bytes(make_mail(6))
    assert subjects(path) == ["Orders 6"]


def test_empty_folder_yields_nothing(tmp_path: Path) -> None:
    assert subjects(tmp_path) == []


# -- standard input ----------------------------------------------------------


def test_dash_reads_one_message_from_the_given_stream() -> None:
    mails = list(read_messages("-", stdin=io.BytesIO(make_mail(7, crlf=True))))
    assert [m.subject for m in mails] == ["Orders 7"]
    assert mails[0].origin == "<stdin>"


def test_dash_reads_standard_input_bytes_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_stdin = io.TextIOWrapper(
        io.BytesIO(make_mail(8, body="Ordres : déplacer")), encoding="ascii"
    )
    monkeypatch.setattr(sys, "stdin", fake_stdin)
    mails = list(read_messages("-"))
    assert [m.subject for m in mails] == ["Orders 8"]
    assert "déplacer" in mails[0].text


# -- refused sources ---------------------------------------------------------


def test_missing_source_is_refused_clearly(tmp_path: Path) -> None:
    with pytest.raises(MailSourceError, match="no such file or folder"):
        read_messages(tmp_path / "nowhere")


def test_folder_without_eml_files_is_refused(tmp_path: Path) -> None:
    (tmp_path / "orders.txt").write_text("move fleet")
    with pytest.raises(MailSourceError, match="neither a Maildir"):
        read_messages(tmp_path)


def test_binary_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "picture.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    with pytest.raises(MailSourceError, match="not a mail source"):
        read_messages(path)


def test_own_address_marks_own_mail(tmp_path: Path) -> None:
    (tmp_path / "a.eml").write_bytes(make_mail(1))
    (tmp_path / "b.eml").write_bytes(make_mail(2))
    mails = list(read_messages(tmp_path, own_address="PLAYER2@Example.com"))
    assert [m.is_own for m in mails] == [False, True]
