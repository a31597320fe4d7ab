#!/usr/bin/env python3
"""AWS's endpoints that moto does not answer, as their published contracts describe them, on
loopback, strict.

- IAM Identity Center's GetRoleCredentials: GET /federation/credentials?role_name=ImageReader
  &account_id=123456789012 with x-amz-sso_bearer_token equal to the state's "sso_token"
  ("sso-access-token" unless set), answering roleCredentials (expiration in milliseconds).
- EC2 IMDSv2: PUT /latest/api/token (needs X-aws-ec2-metadata-token-ttl-seconds) gives a
  session token; GET /latest/meta-data/iam/security-credentials/ and .../<role> answer only
  with that token in X-aws-ec2-metadata-token (401 otherwise). With "imds_v1_only" in the
  state, the PUT is 405 and the GETs need no token, as an IMDSv1-only service.
- ECS container endpoint: GET /v2/credentials/<id> answers only with the Authorization
  header the state file names ("authorization"; none asked when it is null).
- STS AssumeRoleWithWebIdentity: POST / with the form STS documents; answers only when
  WebIdentityToken equals the state file's "web_identity_token" and RoleArn its "role_arn".
- S3 for a bucket in another region: GET or HEAD /regional/<bucket>[/<key>] is a bucket in
  the state file's "bucket_region" (else eu-west-1): a request signed for another region
  gets S3's 301 PermanentRedirect with x-amz-bucket-region; one signed for it, the object.

Every answer gives the credentials of the state file (JSON: access_key_id, secret_access_key,
session_token, expiration), read again at each request so a test can rotate them. GET
/__hits answers the count of credential answers given, by endpoint (and of S3 HEADs).

usage: aws_endpoint_fakes.py PORT STATE_FILE
"""
import datetime, json, sys, urllib.parse
from http.server import ThreadingHTTPServer

from strict_http import StrictHandler

port, state_file = int(sys.argv[1]), sys.argv[2]
tokens, hits = set(), {"imds": 0, "ecs": 0, "sts": 0, "sso": 0, "s3 redirected": 0, "s3 answered": 0, "s3 heads": 0}


def state():
    with open(state_file) as f:
        return json.load(f)


class Handler(StrictHandler):
    def answer(self, status, body, content_type="text/plain", headers=None):
        super().answer(status, body, content_type, headers)

    def credentials_json(self):
        s = state()
        return json.dumps({"Code": "Success", "Type": "AWS-HMAC", "AccessKeyId": s["access_key_id"],
                           "SecretAccessKey": s["secret_access_key"], "Token": s["session_token"],
                           "Expiration": s["expiration"]})

    def do_PUT(self):
        if self.path != "/latest/api/token":
            return self.answer(404, "")
        if state().get("imds_v1_only"):
            return self.answer(405, "")
        ttl = self.headers.get("X-aws-ec2-metadata-token-ttl-seconds")
        if not ttl or not ttl.isdigit() or not 1 <= int(ttl) <= 21600:
            return self.answer(400, "missing or invalid TTL")
        token = f"imds-token-{len(tokens)}"
        tokens.add(token)
        self.answer(200, token)

    def regional(self):
        region = state().get("bucket_region", "eu-west-1")
        scope = (self.headers.get("Authorization") or "").split("Credential=")[-1].split(",")[0].split("/")
        if len(scope) < 5 or scope[2] != region:
            hits["s3 redirected"] += 1
            body = (f"<Error><Code>PermanentRedirect</Code><Message>The bucket you are attempting to access must be addressed "
                    f"using the specified endpoint.</Message><Endpoint>s3.{region}.amazonaws.com</Endpoint></Error>")
            return self.answer(301, body, "application/xml", {"x-amz-bucket-region": region})
        hits["s3 answered"] += 1
        self.answer(200, "the object in its region", "application/octet-stream", {"x-amz-bucket-region": region})

    def do_HEAD(self):
        if self.path.startswith("/regional/"):
            hits["s3 heads"] += 1
            return self.regional()
        self.answer(404, "")

    def do_GET(self):
        if self.path.startswith("/regional/"):
            return self.regional()
        if self.path == "/__hits":
            return self.answer(200, json.dumps(hits), "application/json")
        if self.path.startswith("/latest/meta-data/"):
            if self.headers.get("X-aws-ec2-metadata-token") not in tokens and not state().get("imds_v1_only"):
                return self.answer(401, "")
            if self.path == "/latest/meta-data/iam/security-credentials/":
                return self.answer(200, "osprey-instance-role")
            if self.path == "/latest/meta-data/iam/security-credentials/osprey-instance-role":
                hits["imds"] += 1
                return self.answer(200, self.credentials_json(), "application/json")
            return self.answer(404, "")
        if self.path.startswith("/federation/credentials?"):
            # IAM Identity Center's GetRoleCredentials: the bearer token `aws sso login` cached.
            query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
            s = state()
            if self.headers.get("x-amz-sso_bearer_token") != s.get("sso_token", "sso-access-token"):
                return self.answer(401, json.dumps({"message": "Session token not found or invalid"}), "application/json")
            if query.get("role_name") != ["ImageReader"] or query.get("account_id") != ["123456789012"]:
                return self.answer(403, json.dumps({"message": "No access"}), "application/json")
            hits["sso"] += 1
            expiration = int(datetime.datetime.fromisoformat(s["expiration"].replace("Z", "+00:00")).timestamp() * 1000)
            return self.answer(200, json.dumps({"roleCredentials": {"accessKeyId": s["access_key_id"], "secretAccessKey": s["secret_access_key"],
                                                                    "sessionToken": s["session_token"], "expiration": expiration}}),
                               "application/json")
        if self.path.startswith("/v2/credentials/"):
            wanted = state().get("authorization")
            if wanted is not None and self.headers.get("Authorization") != wanted:
                return self.answer(403, json.dumps({"message": "bad authorization"}), "application/json")
            hits["ecs"] += 1
            return self.answer(200, self.credentials_json(), "application/json")
        self.answer(404, "")

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        form = urllib.parse.parse_qs(self.rfile.read(length).decode())
        s = state()
        one = lambda name: form.get(name, [None])[0]
        if one("Action") != "AssumeRoleWithWebIdentity" or one("Version") != "2011-06-15":
            return self.answer(400, "<ErrorResponse><Error><Code>InvalidAction</Code><Message>unknown</Message></Error></ErrorResponse>")
        if one("WebIdentityToken") != s["web_identity_token"] or one("RoleArn") != s["role_arn"] or not one("RoleSessionName"):
            return self.answer(403, "<ErrorResponse><Error><Code>AccessDenied</Code><Message>Not authorized to perform "
                                    "sts:AssumeRoleWithWebIdentity</Message></Error></ErrorResponse>", "text/xml")
        hits["sts"] += 1
        self.answer(200, f"""<AssumeRoleWithWebIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <AssumeRoleWithWebIdentityResult>
    <Credentials>
      <SessionToken>{s["session_token"]}</SessionToken>
      <SecretAccessKey>{s["secret_access_key"]}</SecretAccessKey>
      <Expiration>{s["expiration"]}</Expiration>
      <AccessKeyId>{s["access_key_id"]}</AccessKeyId>
    </Credentials>
    <SubjectFromWebIdentityToken>system:serviceaccount:images:osprey</SubjectFromWebIdentityToken>
  </AssumeRoleWithWebIdentityResult>
</AssumeRoleWithWebIdentityResponse>""", "text/xml")


ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
