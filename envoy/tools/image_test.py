#!/usr/bin/env python3
"""Checks `make envoy-image` with an independent reader, skopeo (Debian's package), the way a
registry client sees the image: the compat variant's one layer, its annotation and media types,
`plugin.wasm` inside it byte for byte, the printed digest, and reproducibility. Part of
`make test-envoy`; exits non-zero on the first failed check.

Usage: image_test.py --wasm FILTER.wasm
"""

import argparse
import gzip
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
IMAGE = os.path.join(HERE, "image.py")


def check(condition, what):
    if not condition:
        raise AssertionError(what)
    print(f"ok: {what}")


def make_image(wasm, out):
    result = subprocess.run([sys.executable, IMAGE, "--wasm", wasm, "--out", out], capture_output=True, text=True)
    if result.returncode != 0:
        raise AssertionError(f"image.py failed: {result.stderr}")
    printed = dict(re.findall(r"^(image digest|plugin.wasm):\s+(sha256:[0-9a-f]{64})", result.stdout, re.M))
    return printed, os.path.join(out, "layout"), os.path.join(out, "ingress-router-envoy.oci.tar")


def skopeo(*args):
    return subprocess.run(["skopeo", *args], capture_output=True, text=True, check=True).stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--wasm", required=True)
    args = parser.parse_args()
    with open(args.wasm, "rb") as f:
        wasm = f.read()
    wasm_sha = "sha256:" + hashlib.sha256(wasm).hexdigest()
    work = tempfile.mkdtemp(prefix="ingress-router-image-")
    try:
        printed, layout, archive = make_image(args.wasm, os.path.join(work, "a"))
        check(printed.get("plugin.wasm") == wasm_sha, "the printed plugin.wasm sha256 is the module's")

        raw = skopeo("inspect", "--raw", f"oci:{layout}:latest")
        manifest = json.loads(raw)
        digest = "sha256:" + hashlib.sha256(raw.encode()).hexdigest()
        check(printed.get("image digest") == digest, "the printed image digest is the manifest's digest")
        check(json.loads(skopeo("inspect", f"oci:{layout}:latest"))["Digest"] == digest, "skopeo inspect gives that digest")
        check(manifest.get("annotations", {}).get("module.wasm.image/variant") == "compat",
              "the manifest carries module.wasm.image/variant=compat")
        layers = manifest.get("layers", [])
        check(len(layers) == 1, "exactly one layer")
        check(layers[0]["mediaType"] == "application/vnd.oci.image.layer.v1.tar+gzip", "the layer is an OCI tar+gzip")
        check(manifest["config"]["mediaType"] == "application/vnd.oci.image.config.v1+json", "an OCI image config")

        # The resource a user applies pins exactly this image.
        sys.path.insert(0, HERE)
        import harness
        shop = os.path.join(harness.ROOT, "examples", "shop", "manifests")
        resources = harness.cli("envoy-config", "-f", shop, "--format", "wasm-plugin", "--url",
                                "oci://registry.example/ingress-router-envoy:latest", "--sha256", printed["image digest"]).stdout
        plugin = json.loads(resources.split("---\n")[1])
        check(plugin["spec"]["sha256"] == digest.split(":", 1)[1], "the WasmPlugin's sha256 is the image digest skopeo reads")

        # Read the archive back as a client would, and open the layer.
        copied = os.path.join(work, "copied")
        skopeo("copy", "-q", f"oci-archive:{archive}:latest", f"dir:{copied}")
        blob = os.path.join(copied, layers[0]["digest"].split(":", 1)[1])
        with open(blob, "rb") as f:
            layer = gzip.decompress(f.read())
        with tarfile.open(fileobj=io.BytesIO(layer)) as tar:
            members = tar.getmembers()
            check([m.name for m in members] == ["plugin.wasm"], "the layer holds plugin.wasm and nothing else")
            check(tar.extractfile(members[0]).read() == wasm, "plugin.wasm in the archive is the module, byte for byte")
            check(members[0].mtime == 0 and members[0].uid == 0, "no timestamp or owner from the build machine")

        again, _, archive_again = make_image(args.wasm, os.path.join(work, "b"))
        check(again == printed, "the same module gives the same image digest")
        with open(archive, "rb") as a, open(archive_again, "rb") as b:
            check(a.read() == b.read(), "and the same archive, byte for byte")

        # The module itself must not depend on where it was built (Makefile's --remap-path-prefix).
        root = os.path.dirname(os.path.dirname(HERE)).encode()
        cargo_home = os.environ.get("CARGO_HOME", os.path.expanduser("~/.cargo")).encode()
        check(root not in wasm and cargo_home not in wasm, "no build path in the module (paths are remapped)")

        not_wasm = os.path.join(work, "not.wasm")
        with open(not_wasm, "wb") as f:
            f.write(b"#!/bin/sh\n")
        refused = subprocess.run([sys.executable, IMAGE, "--wasm", not_wasm, "--out", os.path.join(work, "c")],
                                 capture_output=True, text=True)
        check(refused.returncode != 0 and "not a WebAssembly module" in refused.stderr, "a file that is not wasm is refused")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
