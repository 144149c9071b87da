"""A software WebAuthn authenticator (ES256, "none" attestation, a discoverable credential) for the
HTTP tests of passkeys: it answers the server's options as a browser's ``PublicKeyCredential.toJSON()``
would. The browser tests use Chromium's own virtual authenticator instead."""

from __future__ import annotations

import hashlib
import json
import secrets

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from webauthn.helpers import bytes_to_base64url

PRESENT, VERIFIED, ATTESTED = 0x01, 0x04, 0x40


class Authenticator:
    def __init__(self, origin: str = "http://testserver") -> None:
        self.origin = origin
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = secrets.token_bytes(32)
        self.count = 0
        self.user_handle = ""

    def client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        data = {"type": kind, "challenge": challenge, "origin": origin or self.origin, "crossOrigin": False}
        return json.dumps(data).encode()

    def auth_data(self, rp_id: str, flags: int, attested: bytes = b"") -> bytes:
        self.count += 1
        return hashlib.sha256(rp_id.encode()).digest() + bytes([flags]) + self.count.to_bytes(4, "big") + attested

    def create(self, options: dict, origin: str | None = None) -> dict:
        """The answer to ``navigator.credentials.create(options)``."""
        self.user_handle = options["user"]["id"]
        numbers = self.key.public_key().public_numbers()
        cose = {1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")}
        attested = bytes(16) + len(self.credential_id).to_bytes(2, "big") + self.credential_id + cbor2.dumps(cose)
        auth_data = self.auth_data(options["rp"]["id"], PRESENT | VERIFIED | ATTESTED, attested)
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        return self.answer(
            {
                "clientDataJSON": self.client_data("webauthn.create", options["challenge"], origin),
                "attestationObject": attestation,
            }
        )

    def get(self, options: dict, origin: str | None = None) -> dict:
        """The answer to ``navigator.credentials.get(options)``."""
        client_data = self.client_data("webauthn.get", options["challenge"], origin)
        auth_data = self.auth_data(options["rpId"], PRESENT | VERIFIED)
        signature = self.key.sign(auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256()))
        return self.answer(
            {"clientDataJSON": client_data, "authenticatorData": auth_data, "signature": signature},
            userHandle=self.user_handle,
        )

    def answer(self, response: dict[str, bytes], **more: str) -> dict:
        identifier = bytes_to_base64url(self.credential_id)
        return {
            "id": identifier,
            "rawId": identifier,
            "type": "public-key",
            "response": {**{key: bytes_to_base64url(value) for key, value in response.items()}, **more},
            "clientExtensionResults": {},
        }
