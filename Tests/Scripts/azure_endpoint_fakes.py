#!/usr/bin/env python3
"""Azure's Blob service and token services as their published contracts describe them, on
loopback, strict. The Shared Key signature is checked by Azure's own Python SDK
(azure-storage-blob's SharedKeyCredentialPolicy, recomputed over the request received).

- Blob GET /<account>/<container>/<blob>: answers the state file's "object" (base64) only
  when authorised by the account key (Shared Key), the SAS token (its query, as given), or a
  bearer token issued here; x-ms-version and a fresh x-ms-date are required.
- Entra ID token endpoint: POST /<tenant>/oauth2/v2.0/token, client_credentials with the
  state's "client_secret"; or, as a workload identity, "federated_token" as client_assertion;
  or a client assertion signed with the key of the state's "certificate" (PEM): RS256, its
  x5t the certificate's SHA-1 thumbprint (x5c, when sent, the certificate), aud this endpoint's URL, iss and sub the client, not
  expired. The scope must be https://storage.azure.com/.default.
- Managed identity: GET /metadata/identity/oauth2/token (IMDS, "Metadata: true") and
  GET /msi/token (App Service, X-IDENTITY-HEADER equal to the state's "identity_header").

GET /__hits answers the counts, by kind.

usage: azure_endpoint_fakes.py PORT STATE_FILE
"""
import base64, email.utils, hashlib, json, sys, time, urllib.parse
from http.server import ThreadingHTTPServer

from azure.core.pipeline import PipelineContext, PipelineRequest
from azure.core.pipeline.transport import HttpRequest
from azure.storage.blob._shared.authentication import SharedKeyCredentialPolicy
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding

from strict_http import StrictHandler

port, state_file = int(sys.argv[1]), sys.argv[2]
issued, hits = set(), {"shared key": 0, "sas": 0, "bearer": 0, "secret": 0, "workload": 0, "certificate": 0, "certificate chain": 0, "imds": 0, "app service": 0}
RESOURCE = "https://storage.azure.com/"


def state():
    with open(state_file) as f:
        return json.load(f)


class Handler(StrictHandler):
    def answer(self, status, body, content_type="application/json", headers=None):
        super().answer(status, body, content_type, headers)

    def token(self, kind, **extra):
        token = f"eyJ0eXAi.osprey-{kind.replace(' ', '-')}-{len(issued)}"
        issued.add(token)
        hits[kind] += 1
        return json.dumps({"access_token": token, "token_type": "Bearer", **extra})

    def certificate_assertion_valid(self, assertion, client):
        def unpad(part):
            return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))
        try:
            header, claims, signature = assertion.split(".")
            fields, payload = json.loads(unpad(header)), json.loads(unpad(claims))
            certificate = x509.load_pem_x509_certificate(state()["certificate"].encode())
            thumbprint = base64.urlsafe_b64encode(hashlib.sha1(certificate.public_bytes(serialization.Encoding.DER)).digest()).rstrip(b"=")
            certificate.public_key().verify(unpad(signature), f"{header}.{claims}".encode(), padding.PKCS1v15(), hashes.SHA256())
        except Exception:
            return False
        now = time.time()
        chain = fields.get("x5c")
        if chain is not None and chain != [base64.b64encode(certificate.public_bytes(serialization.Encoding.DER)).decode()]:
            return False
        if chain is not None:
            hits["certificate chain"] += 1
        return (fields.get("alg") == "RS256" and fields.get("x5t", "").encode() == thumbprint
                and payload.get("aud") == f"http://127.0.0.1:{port}{self.path}" and payload.get("iss") == client == payload.get("sub")
                and payload.get("nbf", now) <= now + 60 and payload.get("exp", 0) > now and payload.get("jti"))

    def shared_key_valid(self, account, key):
        url = f"http://127.0.0.1:{port}{self.path}"
        request = HttpRequest("GET", url, headers={name: value for name, value in self.headers.items() if name.lower() != "authorization"})
        pipeline = PipelineRequest(request, PipelineContext(None))
        SharedKeyCredentialPolicy(account, key).on_request(pipeline)
        return request.headers["Authorization"] == self.headers.get("Authorization")

    def blob(self):
        s = state()
        parsed = urllib.parse.urlsplit(self.path)
        account = parsed.path.split("/")[1]
        if account != s["account"] or not self.headers.get("x-ms-version"):
            return self.answer(400, "{}")
        authorization = self.headers.get("Authorization", "")
        if authorization.startswith("SharedKey "):
            sent = email.utils.parsedate_to_datetime(self.headers.get("x-ms-date", "Thu, 01 Jan 1970 00:00:00 GMT")).timestamp()
            if abs(sent - time.time()) > 900 or not self.shared_key_valid(account, s["account_key"]):
                return self.answer(403, "AuthenticationFailed: the signature does not match", "application/xml")
            hits["shared key"] += 1
        elif authorization.startswith("Bearer "):
            if authorization[7:] not in issued:
                return self.answer(401, "InvalidAuthenticationInfo", "application/xml")
            hits["bearer"] += 1
        elif parsed.query and urllib.parse.parse_qs(parsed.query).get("sig") == [urllib.parse.parse_qs(s["sas"])["sig"][0]]:
            hits["sas"] += 1
        else:
            return self.answer(404 if not parsed.query else 403, "ResourceNotFound", "application/xml")
        self.answer(200, base64.b64decode(s["object"]), "application/octet-stream")

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        form = {k: v[0] for k, v in urllib.parse.parse_qs(self.rfile.read(length).decode()).items()}
        s = state()
        if not self.path.endswith("/oauth2/v2.0/token") or self.path.split("/")[1] != s["tenant"] or form.get("client_id") != s["client_id"] \
                or form.get("scope") != RESOURCE + ".default" or form.get("grant_type") != "client_credentials":
            return self.answer(400, json.dumps({"error": "invalid_request"}))
        if form.get("client_secret") == s["client_secret"]:
            return self.answer(200, self.token("secret", expires_in=3599))
        if form.get("client_assertion_type") == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer" \
                and form.get("client_assertion") == s["federated_token"]:
            return self.answer(200, self.token("workload", expires_in=3599))
        if form.get("client_assertion_type") == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer" \
                and self.certificate_assertion_valid(form.get("client_assertion", ""), s["client_id"]):
            return self.answer(200, self.token("certificate", expires_in=3599))
        self.answer(401, json.dumps({"error": "invalid_client"}))

    def do_GET(self):
        if self.path == "/__hits":
            return self.answer(200, json.dumps(hits))
        parsed = urllib.parse.urlsplit(self.path)
        query = {k: v[0] for k, v in urllib.parse.parse_qs(parsed.query).items()}
        if parsed.path == "/metadata/identity/oauth2/token":
            if self.headers.get("Metadata") != "true" or query.get("resource") != RESOURCE or query.get("api-version") != "2018-02-01":
                return self.answer(400, json.dumps({"error": "invalid_request"}))
            return self.answer(200, self.token("imds", expires_in="3599", expires_on=str(int(time.time()) + 3599), resource=RESOURCE))
        if parsed.path == "/msi/token":
            if self.headers.get("X-IDENTITY-HEADER") != state()["identity_header"] or query.get("resource") != RESOURCE:
                return self.answer(401, json.dumps({"error": "unauthorized"}))
            return self.answer(200, self.token("app service", expires_on=str(int(time.time()) + 3599), resource=RESOURCE))
        self.blob()


ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
