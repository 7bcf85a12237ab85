#!/bin/sh
# The release build inside an image's Swift stage (Containerfile, the add-on's Dockerfile): the
# -dev packages energyclock links, its three programs (the Swift ones with the Swift runtime linked
# in), stripped, in /out.
set -eu
apt-get update
apt-get install -y --no-install-recommends pkg-config libmosquitto-dev libsqlite3-dev libcurl4-openssl-dev \
    libcairo2-dev binutils
swift build -c release --static-swift-stdlib --product energyclock
swift build -c release --static-swift-stdlib --product energyclock-render
swift build -c release --product energyclock-fetch
mkdir -p /out
bin="$(swift build -c release --static-swift-stdlib --show-bin-path)"
cp "$bin/energyclock" "$bin/energyclock-render" "$bin/energyclock-fetch" /out/
strip /out/energyclock /out/energyclock-render /out/energyclock-fetch
