"""``deploy/nginx-tls.conf`` for real (issue 29 §7): with a self-signed certificate made here, nginx
redirects HTTP to HTTPS, sends HSTS, a page's guest sign-up gets a Secure cookie, and a table is
made over HTTPS and played over a websocket on TLS (wss)."""

from __future__ import annotations

import json
import shutil
import ssl
import subprocess
import tempfile
from pathlib import Path
from string import Template

import httpx
from websockets.sync.client import connect

from codecrack.loadtest.target import codecrack_server

from ..services import free_port
from .services import DEPLOY, binary, wait_until

HUMAN = {"kind": "human"}
RANDOM = {"kind": "ai", "agent": "random"}


def self_signed(folder: Path) -> tuple[Path, Path]:
    certificate, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(certificate)],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    return certificate, key


def test_nginx_with_tls_redirects_sends_hsts_and_carries_websockets():
    folder = Path(tempfile.mkdtemp(prefix="codecrack-nginx-tls-"))
    folder.chmod(0o755)
    certificate, key = self_signed(folder)
    http_port, https_port = free_port(), free_port()
    with codecrack_server(None, CODECRACK_AI_PACE="0", CODECRACK_TRUSTED_PROXIES="127.0.0.1") as server:
        upstream = f"        server 127.0.0.1:{server.url.rsplit(':', 1)[1]};"
        config = Template((DEPLOY / "nginx-tls.conf").read_text()).safe_substitute(
            LISTEN_HTTP=f"127.0.0.1:{http_port}",
            LISTEN_HTTPS=f"127.0.0.1:{https_port}",
            HTTPS_PORT=str(https_port),
            CERTIFICATE=str(certificate),
            CERTIFICATE_KEY=str(key),
            UPSTREAM_SERVERS=upstream,
            PREFIX=str(folder),
        )
        (folder / "nginx.conf").write_text(config)
        command = [binary("nginx"), "-c", str(folder / "nginx.conf"), "-p", str(folder), "-g", "daemon off;"]
        nginx = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        try:
            wait_until(lambda: (folder / "nginx.pid").exists() or nginx.poll() is not None, "nginx starts")
            assert nginx.poll() is None, (folder / "error.log").read_text()
            https = f"https://127.0.0.1:{https_port}"

            moved = httpx.get(f"http://127.0.0.1:{http_port}/api/games?x=1")
            assert moved.status_code == 301 and moved.headers["location"] == f"{https}/api/games?x=1"

            with httpx.Client(verify=str(certificate)) as client:
                games = client.get(f"{https}/api/games")
                assert games.status_code == 200 and games.headers["strict-transport-security"] == "max-age=31536000"
                made = client.post(f"{https}/api/tables", json={"game": "coda", "seats": [HUMAN, RANDOM], "sit": 0})
                assert made.status_code == 200, made.text
                made = made.json()
                guest = client.post(f"{https}/api/me/guest", json={"name": "Tess"}, headers={"origin": https})
                assert guest.status_code == 200, guest.text  # the page's origin, port included, is this site's
                assert "secure" in guest.headers["set-cookie"].lower().split("; ")

            context = ssl.create_default_context(cafile=str(certificate))
            with connect(f"wss://127.0.0.1:{https_port}/ws/{made['code']}", ssl=context) as socket:
                socket.send(json.dumps({"type": "hello", "token": made["token"]}))
                while (message := json.loads(socket.recv(timeout=30)))["type"] != "state":
                    pass
                assert message["view"]["legal_actions"] or message["step"] >= 0
        finally:
            nginx.terminate()
            nginx.wait(timeout=60)
            shutil.rmtree(folder, ignore_errors=True)
