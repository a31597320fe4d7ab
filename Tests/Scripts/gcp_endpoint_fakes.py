#!/usr/bin/env python3
"""Google Cloud's token services as their published contracts describe them, on loopback,
strict, with a Cloud Storage read that checks the token they issued.

- OAuth token endpoint (RFC 7523, as a service account's key's token_uri): POST /token with
  grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer and an RS256 assertion, verified
  with the state file's "public_key" (PEM); its iss must be "client_email", its aud this
  URL, its scope read-only storage, and it must expire within the hour.
- Metadata server: GET /computeMetadata/v1/instance/service-accounts/default/token answers
  only with "Metadata-Flavor: Google".
- Cloud Storage's JSON API read: GET /storage/v1/b/<bucket>/o/<object>?alt=media answers the
  state file's "object" (base64) only with "Authorization: Bearer <a token issued here>".
- Secret Manager's REST API: GET /v1/projects/<p>/secrets/<s>/versions/<v>:access answers the
  state file's "secrets" entry for that name (base64), with a token issued for the
  cloud-platform scope only.

GET /__hits answers the count of tokens issued, by endpoint.

usage: gcp_endpoint_fakes.py PORT STATE_FILE
"""
import base64, json, sys, time, urllib.parse
from http.server import ThreadingHTTPServer

from strict_http import StrictHandler

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding

port, state_file = int(sys.argv[1]), sys.argv[2]
issued, hits = {}, {"oauth": 0, "metadata": 0, "storage": 0, "secrets": 0}
SCOPES = {"https://www.googleapis.com/auth/devstorage.read_only", "https://www.googleapis.com/auth/cloud-platform"}


def state():
    with open(state_file) as f:
        return json.load(f)


def unb64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Handler(StrictHandler):
    def answer(self, status, body, content_type="application/json", headers=None):
        super().answer(status, body, content_type, headers)

    def token(self, kind, scope=None):
        token = f"ya29.osprey-test-{kind}-{len(issued)}"
        issued[token] = scope
        hits[kind] += 1
        return json.dumps({"access_token": token, "expires_in": 3599, "token_type": "Bearer"})

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        form = urllib.parse.parse_qs(self.rfile.read(length).decode())
        if self.path != "/token" or form.get("grant_type") != ["urn:ietf:params:oauth:grant-type:jwt-bearer"]:
            return self.answer(400, json.dumps({"error": "unsupported_grant_type"}))
        try:
            header, claims, signature = form["assertion"][0].split(".")
            key = serialization.load_pem_public_key(state()["public_key"].encode())
            key.verify(unb64(signature), f"{header}.{claims}".encode(), padding.PKCS1v15(), hashes.SHA256())
            head, body = json.loads(unb64(header)), json.loads(unb64(claims))
        except Exception as error:
            return self.answer(400, json.dumps({"error": "invalid_grant", "error_description": f"bad assertion: {error}"}))
        now = time.time()
        if (head.get("alg") != "RS256" or body.get("iss") != state()["client_email"] or body.get("aud") != f"http://127.0.0.1:{port}/token"
                or body.get("scope") not in SCOPES
                or not body["iat"] - 60 <= now <= body["exp"] <= body["iat"] + 3600):
            return self.answer(400, json.dumps({"error": "invalid_grant", "error_description": f"bad claims {body}"}))
        self.answer(200, self.token("oauth", body["scope"]))

    def do_GET(self):
        if self.path == "/__hits":
            return self.answer(200, json.dumps(hits))
        if self.path == "/computeMetadata/v1/instance/service-accounts/default/token":
            if self.headers.get("Metadata-Flavor") != "Google":
                return self.answer(403, "Missing Metadata-Flavor:Google header.", "text/html")
            return self.answer(200, self.token("metadata"))
        if self.path.startswith("/v1/projects/") and self.path.endswith(":access"):
            authorization = self.headers.get("Authorization", "")
            if issued.get(authorization[7:], "") != "https://www.googleapis.com/auth/cloud-platform":
                return self.answer(403, json.dumps({"error": {"code": 403, "message": "Permission denied on the secret"}}))
            name = self.path[len("/v1/"):-len(":access")]
            if name not in state().get("secrets", {}):
                return self.answer(404, json.dumps({"error": {"code": 404, "message": f"Secret [{name}] not found"}}))
            hits["secrets"] += 1
            return self.answer(200, json.dumps({"name": name, "payload": {"data": state()["secrets"][name]}}))
        if self.path.startswith("/storage/v1/b/"):
            authorization = self.headers.get("Authorization", "")
            if not authorization.startswith("Bearer ") or authorization[7:] not in issued:
                return self.answer(401, json.dumps({"error": {"code": 401, "message": "Invalid Credentials"}}))
            if "alt=media" not in self.path:
                return self.answer(400, "{}")
            hits["storage"] += 1
            return self.answer(200, base64.b64decode(state()["object"]), "application/octet-stream")
        self.answer(404, "")


ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
