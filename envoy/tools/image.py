#!/usr/bin/env python3
"""`make envoy-image`: the filter as an OCI image in the Wasm image "compat" variant, the format
Istio (`WasmPlugin`, `TrafficExtension`) and Envoy Gateway (`EnvoyExtensionPolicy`) pull.

Per the compat variant of the Wasm image specification (github.com/solo-io/wasm, spec-compat.md):
exactly one layer, `application/vnd.oci.image.layer.v1.tar+gzip`, a tar holding `plugin.wasm`,
and the manifest annotation `module.wasm.image/variant: compat`. Written without a container
daemon, as an OCI image layout folder and an `oci-archive` tar of that folder.

Reproducible: every timestamp is 0, owners and modes are fixed, gzip writes no name or time, JSON is
written with sorted keys, so the same .wasm gives the same digest. Prints the manifest digest and
the .wasm's sha256 (the `sha256` a WasmPlugin or EnvoyExtensionPolicy pins).

Usage: image.py --wasm FILTER.wasm --out DIR [--tag latest]
"""

import argparse
import gzip
import hashlib
import io
import json
import os
import shutil
import sys
import tarfile

LAYER_MEDIA_TYPE = "application/vnd.oci.image.layer.v1.tar+gzip"
CONFIG_MEDIA_TYPE = "application/vnd.oci.image.config.v1+json"
MANIFEST_MEDIA_TYPE = "application/vnd.oci.image.manifest.v1+json"
INDEX_MEDIA_TYPE = "application/vnd.oci.image.index.v1+json"
VARIANT = {"module.wasm.image/variant": "compat"}
TITLE = "org.opencontainers.image.title"


def deterministic_tar(entries):
    """A tar of (name, bytes), in order, with nothing that depends on the machine or the time."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name, data in entries:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mode = 0o644
            info.mtime = 0
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def canonical_json(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


def sha256(data):
    return "sha256:" + hashlib.sha256(data).hexdigest()


def descriptor(media_type, data, annotations=None):
    out = {"mediaType": media_type, "digest": sha256(data), "size": len(data)}
    if annotations:
        out["annotations"] = annotations
    return out


def build(wasm_bytes, tag):
    """The image's blobs by digest, the index, and the manifest's descriptor."""
    layer_tar = deterministic_tar([("plugin.wasm", wasm_bytes)])
    # mtime=0 and no file name in the gzip header; level 9 as `gzip -9`.
    layer = gzip.compress(layer_tar, compresslevel=9, mtime=0)
    config = canonical_json({
        "architecture": "wasm",
        "os": "wasip1",
        "config": {},
        "rootfs": {"type": "layers", "diff_ids": [sha256(layer_tar)]},
    })
    manifest = canonical_json({
        "schemaVersion": 2,
        "mediaType": MANIFEST_MEDIA_TYPE,
        "config": descriptor(CONFIG_MEDIA_TYPE, config),
        "layers": [descriptor(LAYER_MEDIA_TYPE, layer, {TITLE: "plugin.wasm"})],
        "annotations": VARIANT,
    })
    blobs = {sha256(b): b for b in (layer, config, manifest)}
    manifest_descriptor = descriptor(MANIFEST_MEDIA_TYPE, manifest,
                                     {"org.opencontainers.image.ref.name": tag, **VARIANT})
    index = canonical_json({"schemaVersion": 2, "mediaType": INDEX_MEDIA_TYPE, "manifests": [manifest_descriptor]})
    return blobs, index, manifest_descriptor


def write_layout(folder, blobs, index):
    """An OCI image layout: `oci-layout`, `index.json`, `blobs/sha256/<hex>`."""
    if os.path.exists(folder):
        shutil.rmtree(folder)
    os.makedirs(os.path.join(folder, "blobs", "sha256"))
    files = [("oci-layout", canonical_json({"imageLayoutVersion": "1.0.0"})), ("index.json", index)]
    files += [(f"blobs/sha256/{digest.split(':', 1)[1]}", data) for digest, data in sorted(blobs.items())]
    for name, data in files:
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)
    return files


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wasm", required=True)
    parser.add_argument("--out", required=True, help="folder for the layout (DIR/layout) and the archive (DIR/*.tar)")
    parser.add_argument("--tag", default="latest")
    args = parser.parse_args()
    with open(args.wasm, "rb") as f:
        wasm = f.read()
    if wasm[:4] != b"\0asm":
        print(f"image.py: {args.wasm} is not a WebAssembly module", file=sys.stderr)
        return 1
    blobs, index, manifest = build(wasm, args.tag)
    layout = os.path.join(args.out, "layout")
    files = write_layout(layout, blobs, index)
    archive = os.path.join(args.out, "ingress-router-envoy.oci.tar")
    with open(archive, "wb") as f:
        # The same folder as a tar (skopeo's `oci-archive:` transport), as reproducible as the layout.
        f.write(deterministic_tar(files))
    print(f"layout:        {layout} (skopeo: oci:{layout}:{args.tag})")
    print(f"archive:       {archive} (skopeo: oci-archive:{archive}:{args.tag})")
    print(f"image digest:  {manifest['digest']}")
    print(f"plugin.wasm:   {sha256(wasm)} ({len(wasm)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
