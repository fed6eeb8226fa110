#!/usr/bin/env python3
"""Prepare a running Telepath for ../shared/bench/tiles/run.sh: sign in as the demo
site user, upload a slide with tus (the way the browser does) and print the slide's
signed Deep Zoom URL, to pass as TARGET_DZI.

  bin/telepath serve &   # TELEPATH_DEMO=1 TELEPATH_TEST_MODE=1 TELEPATH_CAPTCHA_TEST_ANSWER=2468 ...
  TARGET_DZI=$(scripts/bench-tiles.py http://127.0.0.1:8080 slide.tif) ../shared/bench/tiles/run.sh
"""
import base64, hashlib, json, os, sys, time, urllib.request

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding

base, path = sys.argv[1].rstrip('/'), sys.argv[2]
user, password = os.environ.get('BENCH_USER', 'site'), os.environ.get('BENCH_PASSWORD', 'Telepath@2026')
captcha = os.environ.get('TELEPATH_CAPTCHA_TEST_ANSWER', '2468')


def call(method, url, body=None, headers=None, data=None):
    h = {'content-type': 'application/json', **(headers or {})}
    payload = data if data is not None else (json.dumps(body).encode() if body is not None else None)
    req = urllib.request.Request(base + url if url.startswith('/') else url, data=payload, method=method, headers=h)
    with urllib.request.urlopen(req, timeout=600) as r:
        raw = r.read()
        return r, (json.loads(raw) if raw and r.headers.get('content-type', '').startswith('application/json') else None)


_, key = call('GET', '/api/auth/public_key')
pub = serialization.load_pem_public_key(key['data']['public_key'].encode())
enc = base64.b64encode(pub.encrypt(password.encode(), padding.OAEP(mgf=padding.MGF1(hashes.SHA256()), algorithm=hashes.SHA256(), label=None))).decode()
_, cap = call('GET', '/api/common/captcha')
_, session = call('POST', '/api/auth/login', {'username': user, 'password': enc, 'captcha_key': cap['data']['key'], 'captcha_code': captcha})
auth = {'authorization': 'Bearer ' + session['data']['token']}

sha = hashlib.sha256()
with open(path, 'rb') as f:
    for chunk in iter(lambda: f.read(1 << 20), b''):
        sha.update(chunk)
size = os.path.getsize(path)
meta = lambda k, v: k + ' ' + base64.b64encode(v.encode()).decode()
tus = {**auth, 'tus-resumable': '1.0.0'}
r, _ = call('POST', '/api/uploads/', headers={**tus, 'upload-length': str(size), 'upload-metadata': meta('filename', os.path.basename(path)) + ',' + meta('sha256', sha.hexdigest())}, data=b'')
location = r.headers['location']
slide_id, offset, chunk = None, 0, 64 << 20
with open(path, 'rb') as f:
    while offset < size:
        part = f.read(chunk)
        r, _ = call('PATCH', location if location.startswith('http') else base + location, headers={**tus, 'upload-offset': str(offset), 'content-type': 'application/offset+octet-stream'}, data=part)
        offset += len(part)
        slide_id = r.headers.get('slide-id') or slide_id
for _ in range(600):  # the pyramid is read in the background
    try:
        _, viewer = call('GET', f'/api/slides/{slide_id}/viewer', headers=auth)
        print(viewer['data']['dzi_url'] if viewer['data']['dzi_url'].startswith('http') else base + viewer['data']['dzi_url'])
        break
    except urllib.error.HTTPError as e:
        if e.code != 409:
            raise
        time.sleep(1)
