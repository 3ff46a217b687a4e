"""Referee key files, public key text form and fingerprints."""

import os
import stat

import pytest

from adjudicator.fairdice import (
    EmptyPassphrase,
    FairDiceError,
    InvalidPublicKey,
    KeyFileError,
    KeyFileExists,
    PassphraseRequired,
    WrongPassphrase,
    fingerprint,
    generate_keypair,
    load_private_key,
    public_key_bytes,
    public_key_from_text,
    public_key_to_text,
    referee_fingerprint,
    save_private_key,
)


def mode_of(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def same_key(a, b):
    return public_key_bytes(a.public_key()) == public_key_bytes(b.public_key())


@pytest.fixture
def key():
    return generate_keypair()[0]


def test_generate_keypair_returns_matching_keys():
    private_key, public_key = generate_keypair()
    assert public_key_bytes(private_key.public_key()) == public_key_bytes(public_key)


@pytest.mark.parametrize("passphrase", ["correct horse", "mot de passe été", None])
def test_save_and_load_round_trip(tmp_path, key, passphrase):
    path = tmp_path / "referee.pem"
    save_private_key(path, key, passphrase)
    assert same_key(load_private_key(path, passphrase), key)


def test_encrypted_file_is_encrypted(tmp_path, key):
    path = tmp_path / "referee.pem"
    save_private_key(path, key, "secret")
    assert b"ENCRYPTED PRIVATE KEY" in path.read_bytes()


@pytest.mark.parametrize("passphrase", ["secret", None])
def test_key_file_mode_is_0600_even_with_a_permissive_umask(tmp_path, key, passphrase):
    path = tmp_path / "referee.pem"
    old_umask = os.umask(0)
    try:
        save_private_key(path, key, passphrase)
    finally:
        os.umask(old_umask)
    assert mode_of(path) == 0o600


def test_refuses_to_overwrite(tmp_path, key):
    path = tmp_path / "referee.pem"
    path.write_text("precious")
    with pytest.raises(KeyFileExists):
        save_private_key(path, key, "secret")
    assert path.read_text() == "precious"


def test_overwrite_replaces_with_mode_0600(tmp_path, key):
    path = tmp_path / "referee.pem"
    path.write_text("old")
    path.chmod(0o644)
    save_private_key(path, key, "secret", overwrite=True)
    assert mode_of(path) == 0o600
    assert same_key(load_private_key(path, "secret"), key)
    assert [p.name for p in tmp_path.iterdir()] == ["referee.pem"]


def test_wrong_passphrase(tmp_path, key):
    path = tmp_path / "referee.pem"
    save_private_key(path, key, "secret")
    with pytest.raises(WrongPassphrase) as caught:
        load_private_key(path, "Secret")
    assert "wrong passphrase" in str(caught.value)
    assert caught.value.__cause__ is None and caught.value.__suppress_context__


def test_missing_passphrase(tmp_path, key):
    path = tmp_path / "referee.pem"
    save_private_key(path, key, "secret")
    with pytest.raises(PassphraseRequired):
        load_private_key(path, None)


def test_passphrase_for_a_clear_key(tmp_path, key):
    path = tmp_path / "referee.pem"
    save_private_key(path, key, None)
    with pytest.raises(KeyFileError, match="not encrypted"):
        load_private_key(path, "secret")


def test_empty_passphrase_is_refused(tmp_path, key):
    with pytest.raises(EmptyPassphrase):
        save_private_key(tmp_path / "referee.pem", key, "")
    assert not (tmp_path / "referee.pem").exists()


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"not a key at all",
        b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
        b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
    ],
)
def test_damaged_files(tmp_path, content):
    path = tmp_path / "referee.pem"
    path.write_bytes(content)
    with pytest.raises(KeyFileError) as caught:
        load_private_key(path, None)
    assert not isinstance(caught.value, WrongPassphrase)


def test_truncated_encrypted_file(tmp_path, key):
    path = tmp_path / "referee.pem"
    save_private_key(path, key, "secret")
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:2] + lines[-1:]))
    with pytest.raises(KeyFileError):
        load_private_key(path, "secret")


def test_missing_file(tmp_path):
    with pytest.raises(KeyFileError, match="cannot read"):
        load_private_key(tmp_path / "absent.pem", None)


def test_missing_directory(tmp_path, key):
    with pytest.raises(KeyFileError):
        save_private_key(tmp_path / "no" / "such" / "dir.pem", key, None)


def test_other_key_types_are_refused(tmp_path):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    other = ec.generate_private_key(ec.SECP256R1())
    path = tmp_path / "ec.pem"
    path.write_bytes(
        other.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    with pytest.raises(KeyFileError, match="not an Ed25519 key"):
        load_private_key(path, None)
    with pytest.raises(KeyFileError):
        save_private_key(tmp_path / "out.pem", other, None)


def test_public_key_text_round_trip(key):
    text = public_key_to_text(key.public_key())
    assert text.startswith("ed25519:") and len(text) == len("ed25519:") + 44
    parsed = public_key_from_text("  " + text + "\n")
    assert public_key_bytes(parsed) == public_key_bytes(key.public_key())


@pytest.mark.parametrize(
    "text",
    [
        "",
        "ssh-ed25519 AAAA",
        "ed25519:",
        "ed25519:not base64!",
        "ed25519:" + "A" * 40 + "==",
        "ed25519:Kay64UG8yvCyLhqU000LxzYeUm0L/hLIl5S8kyKWbdd=",
    ],
)
def test_bad_public_key_text(text):
    with pytest.raises(InvalidPublicKey):
        public_key_from_text(text)


def test_fingerprint_format(key):
    shown = fingerprint(key.public_key())
    groups = shown.split(" ")
    assert len(groups) == 8 and all(len(g) == 4 for g in groups)
    assert all(c in "0123456789abcdef " for c in shown)
    assert fingerprint(generate_keypair()[1]) != shown


def test_all_key_errors_are_fair_dice_errors():
    for error in (KeyFileError, KeyFileExists, WrongPassphrase, PassphraseRequired, EmptyPassphrase):
        assert issubclass(error, FairDiceError)


def test_a_clear_key_file_reads_as_the_serialization_module_reads_it(tmp_path):
    """The short read of the form save_private_key writes gives the very key that
    cryptography's PEM reader gives."""
    from cryptography.hazmat.primitives import serialization

    for index in range(20):
        key = generate_keypair()[0]
        path = tmp_path / f"referee-{index}.pem"
        save_private_key(path, key, None)
        expected = serialization.load_pem_private_key(path.read_bytes(), password=None)
        assert load_private_key(path, None).private_bytes_raw() == expected.private_bytes_raw() \
            == key.private_bytes_raw()


def test_a_clear_key_is_loaded_without_the_serialization_module(tmp_path, key):
    import subprocess
    import sys

    save_private_key(tmp_path / "referee.pem", key, None)
    probe = ("import sys; from adjudicator.fairdice import load_private_key, fingerprint; "
             f"k = load_private_key({str(tmp_path / 'referee.pem')!r}, None); print(fingerprint(k.public_key())); "
             "print('cryptography.hazmat.primitives.serialization' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.split("\n")[:2] == [fingerprint(key.public_key()), "False"]


def test_the_referee_fingerprint_of_a_charter_is_its_key_s_or_none_when_it_names_none_readable():
    _, public = generate_keypair()
    assert referee_fingerprint({"referee_key": public_key_to_text(public)}) == fingerprint(public)
    assert referee_fingerprint({}) is None
    assert referee_fingerprint({"referee_key": "ed25519:not-a-key"}) is None
    assert referee_fingerprint({"referee_key": 42}) is None
