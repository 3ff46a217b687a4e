"""Known-answer vectors (the same as in docs/dice.md).

If one of these fails, the protocol changed: every published campaign
would stop verifying. Change the algorithm only with a new version in the
domain strings, and add new vectors beside these.

The second half re-derives the vectors with a minimal, independent
implementation written from docs/dice.md (hashlib, hmac and struct only),
as a verifier in another language would.
"""

import base64
import hashlib
import hmac

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from adjudicator.fairdice import (
    DiceStream,
    SeedChain,
    batch_key,
    canonical_json,
    dice_stats,
    encode,
    fingerprint,
    public_key_from_text,
    public_key_to_text,
    records_from_jsonl,
    verify_log,
)
from adjudicator.fairdice.records import RecordLog

CAMPAIGN = "demo-1904"
REFEREE_FINAL_SEED = bytes.fromhex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")
JAPAN_FINAL_SEED = bytes.fromhex("ff" * 32)
REFEREE_SEEDS = [
    "d414804c4c4d82d611f82c9a579d17b887359a89899b2bf85d58ad6d62b0a640",  # s_0 (anchor)
    "4990ad57039269847cf856efbc6b14d1f31a5bbbd75f088b29d3f34144924a92",  # s_1
    "b1bf2c552d50133db5ea677ae6d622e27f3f5b5fa78c1e5ee6dc9aa3c32a3b6e",  # s_2
    "f2bfc35bc5690855604b10a7df27f6325adea98a7b91241182bfc9013c6bd6b2",  # s_3
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",  # s_4 (secret)
]
REFEREE_GENERATION_1_ANCHOR = "da02a0ce6ddbdfbd5e58a62e7560b7c290acd6b7bc29e38dbb7b0fb677469921"
JAPAN_SEEDS = [
    "44e91e86c8a8636b36e8b56e1d99f7f72fe8fc848a22eb8dfffb2c7b8bf4b64c",
    "9e96e329fad33713e76ba04f24f84af68a0a5088f835fd00c78d72be71d80a48",
    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
]
CONTRIBUTIONS = {"russia": b"Port Arthur holds", "japan": bytes.fromhex(JAPAN_SEEDS[1])}
BATCH_1_KEY = "48ee1c63bbd83b89c242de7871993131243dc467caea5557dcd9198147ec52b8"
BATCH_1_KEY_NO_CONTRIBUTIONS = "abfcc6517d6dbd8f2de0bb2b95c862c6e2c8e80d3d5669c78da9ece1b5983a4d"
DIE_0_BLOCK_0 = "a2c11dbfbce0f7254a0e3adf82cfc3a2b899563b6a5ae81cbde23d77d7e716ac"
ROLLS = (1, 4, 3, 5, 4, 6, 4, 6, 2, 3, 2, 6, 3, 5, 1, 4, 3, 1, 1, 6, 1, 3, 3, 1)
REJECTION_INDEX = 21
REJECTION_BLOCK_0 = "fdaaa18f84d17a0707f35bdf810246df8b55134f6396e2d30ae126ff28e66990"
UNIFORM_52 = [21, 28, 39, 47, 20, 45]
UNIFORM_1000 = [635, 67, 588, 314, 190, 924]
UNIFORM_2_40_PLUS_1 = 547249120084
SHUFFLED_DECK = "PLFDBMAJEOHIKNCG"

SIGNING_KEY_SEED = bytes(range(32, 64))
PUBLIC_KEY_TEXT = "ed25519:Kay64UG8yvCyLhqU000LxzYeUm0L/hLIl5S8kyKWbdc="
FINGERPRINT = "24f6 ed6a cbfe 1009 c030 d7ca 567c 33ca"
EXPORT = (
    '{"body":{"campaign_id":"demo-1904","chain":{"algorithm":"adjudicator/chain/v1",'
    '"anchor":"d414804c4c4d82d611f82c9a579d17b887359a89899b2bf85d58ad6d62b0a640",'
    '"campaign_id":"demo-1904","generation":0,"length":4,"owner":"referee"},'
    '"game":"port-arthur","referee_key":"ed25519:Kay64UG8yvCyLhqU000LxzYeUm0L/hLIl5S8kyKWbdc="},'
    '"kind":"charter","prev":"0000000000000000000000000000000000000000000000000000000000000000",'
    '"seq":0,"signature":"iry6h+xnFNF0Oy0dUxmqrpasX9t+Vkk9K08wMDABXTVA4MXgW3244nGCTnNzR+iEzrqJyR8RDYjwOKjjFh7QBA=="}\n'
    '{"body":{"batch":1,"owner":"referee",'
    '"seed":"4990ad57039269847cf856efbc6b14d1f31a5bbbd75f088b29d3f34144924a92"},'
    '"kind":"reveal","prev":"7e15bae89df8a7670a4a7e6d144e7ed0b2842b26d23758eb76860ac17b5d657c",'
    '"seq":1,"signature":"/X0f6r0Yw00RJavBKQFeJaSvQV9+Za7SyYWLUETviVZZKeCXSVX2+tWpt7A/NRepo1RP/xBFuSsaVRl+z467CQ=="}\n'
)
RECORD_HASHES = [
    "7e15bae89df8a7670a4a7e6d144e7ed0b2842b26d23758eb76860ac17b5d657c",
    "3b46d59519330b2433c6cca0b8bcbc77d1f353917ceb4502c8538b96bfd4824c",
]


def batch_1_stream():
    return DiceStream(bytes.fromhex(BATCH_1_KEY), CAMPAIGN, 1)


# --- the library reproduces the vectors ---------------------------------------


def test_encoding_vectors():
    assert encode(b"adjudicator/die/v1", CAMPAIGN, 1, 1, "operations", 0, 0).hex() == (
        "000000001261646a7564696361746f722f6469652f7631"
        "020000000964656d6f2d31393034"
        "03000000080000000000000001"
        "03000000080000000000000001"
        "020000000a6f7065726174696f6e73"
        "03000000080000000000000000"
        "03000000080000000000000000"
    )
    assert encode(
        b"adjudicator/batch/v1", CAMPAIGN, 1, (("japan", b"Togo"), ("russia", b"\x00\xff"))
    ).hex() == (
        "000000001461646a7564696361746f722f62617463682f7631"
        "020000000964656d6f2d31393034"
        "03000000080000000000000001"
        "040000002f"
        "0400000013" "02000000056a6170616e" "0100000004546f676f"
        "0400000012" "0200000006727573736961" "010000000200ff"
    )
    assert encode(b"x/v1", -1, "é", b"").hex() == (
        "0000000004782f7631" "0300000008ffffffffffffffff" "0200000002c3a9" "0100000000"
    )


def test_canonical_json_vector():
    value = {"b": [1, "é", None], "a": {"z": None, "y": True}, "A": -5}
    assert canonical_json(value).hex() == '{"A":-5,"a":{"y":true,"z":null},"b":[1,"é",null]}'.encode().hex()


def test_chain_vectors():
    chain = SeedChain.from_final_seed(CAMPAIGN, 4, REFEREE_FINAL_SEED)
    assert [seed.hex() for seed in chain.seeds] == REFEREE_SEEDS
    successor = SeedChain.from_final_seed(CAMPAIGN, 4, REFEREE_FINAL_SEED, generation=1)
    assert successor.anchor.hex() == REFEREE_GENERATION_1_ANCHOR
    japan = SeedChain.from_final_seed(CAMPAIGN, 2, JAPAN_FINAL_SEED, owner="japan")
    assert [seed.hex() for seed in japan.seeds] == JAPAN_SEEDS


def test_batch_key_vectors():
    seed = bytes.fromhex(REFEREE_SEEDS[1])
    assert batch_key(CAMPAIGN, 1, seed, CONTRIBUTIONS).hex() == BATCH_1_KEY
    assert batch_key(CAMPAIGN, 1, seed, {}).hex() == BATCH_1_KEY_NO_CONTRIBUTIONS


def test_dice_vectors():
    stream = batch_1_stream()
    assert stream.roll(24, 1, "operations", 0) == ROLLS
    assert stream.die(1, "operations", REJECTION_INDEX) == 3


def test_uniform_and_shuffle_vectors():
    stream = batch_1_stream()
    assert [stream.uniform_below(52, 1, "cards", i) for i in range(6)] == UNIFORM_52
    assert [stream.uniform_below(1000, 1, "cards", i) for i in range(6)] == UNIFORM_1000
    assert stream.uniform_below(2**40 + 1, 1, "cards", 0) == UNIFORM_2_40_PLUS_1
    assert "".join(stream.shuffle("ABCDEFGHIJKLMNOP", 1, "deck", 0)) == SHUFFLED_DECK


def test_key_and_record_vectors():
    signing_key = Ed25519PrivateKey.from_private_bytes(SIGNING_KEY_SEED)
    assert public_key_to_text(signing_key.public_key()) == PUBLIC_KEY_TEXT
    assert fingerprint(signing_key.public_key()) == FINGERPRINT
    chain = SeedChain.from_final_seed(CAMPAIGN, 4, REFEREE_FINAL_SEED)
    log = RecordLog().appended(
        signing_key,
        "charter",
        {
            "campaign_id": CAMPAIGN,
            "game": "port-arthur",
            "referee_key": PUBLIC_KEY_TEXT,
            "chain": chain.public_dict(),
        },
    )
    log = log.appended(signing_key, "reveal", {"batch": 1, "owner": "referee", "seed": REFEREE_SEEDS[1]})
    assert log.to_jsonl() == EXPORT
    assert [record.hash for record in log.records] == RECORD_HASHES


def test_exported_vector_verifies_without_secrets():
    records = records_from_jsonl(EXPORT)
    public_key = public_key_from_text(PUBLIC_KEY_TEXT)
    assert verify_log(records, public_key, expected_head=RECORD_HASHES[-1]) == RECORD_HASHES[-1]


def test_dice_stats_vector():
    stats = dice_stats(ROLLS)
    assert stats.counts == (6, 2, 6, 4, 2, 4)
    assert stats.mean == 3.25 and stats.chi_square == 4.0
    assert round(stats.p_value, 6) == 0.549416


# --- an independent implementation, written from docs/dice.md ----------------


def element(tag, payload):
    return bytes([tag]) + len(payload).to_bytes(4, "big") + payload


def field(value):
    if isinstance(value, bytes):
        return element(1, value)
    if isinstance(value, str):
        return element(2, value.encode("utf-8"))
    if isinstance(value, int):
        return element(3, value.to_bytes(8, "big", signed=True))
    return element(4, b"".join(field(item) for item in value))


def message(domain, *values):
    return element(0, domain) + b"".join(field(value) for value in values)


def hmac_sha256(key, data):
    return hmac.new(key, data, hashlib.sha256).digest()


def reference_die(key, batch, turn, phase, index):
    counter = 0
    while True:
        block = hmac_sha256(key, message(b"adjudicator/die/v1", CAMPAIGN, batch, turn, phase, index, counter))
        for byte in block:
            if byte < 252:
                return byte % 6 + 1
        counter += 1


def reference_uniform_below(key, batch, n, turn, phase, index):
    width = 1
    while 256**width < n:
        width += 1
    limit = 256**width - 256**width % n
    stream, counter = b"", 0
    while True:
        while len(stream) < width:
            stream += hmac_sha256(
                key, message(b"adjudicator/uniform/v1", CAMPAIGN, batch, turn, phase, index, n, counter)
            )
            counter += 1
        value, stream = int.from_bytes(stream[:width], "big"), stream[width:]
        if value < limit:
            return value % n


def test_reference_chain():
    seed = REFEREE_FINAL_SEED
    for index in range(4, 0, -1):
        seed = hashlib.sha256(message(b"adjudicator/chain/v1", CAMPAIGN, "referee", 0, index, seed)).digest()
        assert seed.hex() == REFEREE_SEEDS[index - 1]


def test_reference_batch_key_and_dice():
    pairs = [(side, CONTRIBUTIONS[side]) for side in sorted(CONTRIBUTIONS)]
    key = hmac_sha256(bytes.fromhex(REFEREE_SEEDS[1]), message(b"adjudicator/batch/v1", CAMPAIGN, 1, pairs))
    assert key.hex() == BATCH_1_KEY
    assert hmac_sha256(key, message(b"adjudicator/die/v1", CAMPAIGN, 1, 1, "operations", 0, 0)).hex() == DIE_0_BLOCK_0
    assert tuple(reference_die(key, 1, 1, "operations", i) for i in range(24)) == ROLLS
    block = hmac_sha256(key, message(b"adjudicator/die/v1", CAMPAIGN, 1, 1, "operations", REJECTION_INDEX, 0))
    assert block.hex() == REJECTION_BLOCK_0 and block[0] >= 252 and block[1] % 6 + 1 == 3


def test_reference_uniform_and_shuffle():
    key = bytes.fromhex(BATCH_1_KEY)
    assert [reference_uniform_below(key, 1, 52, 1, "cards", i) for i in range(6)] == UNIFORM_52
    assert [reference_uniform_below(key, 1, 1000, 1, "cards", i) for i in range(6)] == UNIFORM_1000
    assert reference_uniform_below(key, 1, 2**40 + 1, 1, "cards", 0) == UNIFORM_2_40_PLUS_1
    deck = list("ABCDEFGHIJKLMNOP")
    for step, position in enumerate(range(len(deck) - 1, 0, -1)):
        other = reference_uniform_below(key, 1, position + 1, 1, "deck", step)
        deck[position], deck[other] = deck[other], deck[position]
    assert "".join(deck) == SHUFFLED_DECK


def test_reference_record_signatures_and_hashes():
    import json

    public_key = public_key_from_text(PUBLIC_KEY_TEXT)
    prev = "0" * 64
    for line, expected_hash in zip(EXPORT.splitlines(), RECORD_HASHES):
        record = json.loads(line)
        assert record["prev"] == prev
        signed = {key: record[key] for key in ("seq", "kind", "body", "prev")}
        payload = json.dumps(signed, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
        public_key.verify(base64.b64decode(record["signature"]), payload)
        prev = hashlib.sha256(line.encode()).hexdigest()
        assert prev == expected_hash
