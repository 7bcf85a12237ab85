#!/bin/sh
# The release build inside an image's Swift stage (Containerfile, the add-on's Dockerfile): the
# -dev packages energyclock links, its three programs, stripped, in /out. The two Swift programs
# have the Swift runtime linked in. energyclock-fetch is C, compiled here with the toolchain's
# clang rather than by SwiftPM: the Swift driver links every program it makes with the Swift
# runtime (swiftrt.o needs libswiftCore), which the helper never uses.
set -eu
apt-get update
apt-get install -y --no-install-recommends pkg-config libmosquitto-dev libsqlite3-dev libcurl4-openssl-dev \
    libcairo2-dev binutils
swift build -c release --static-swift-stdlib --product energyclock
swift build -c release --static-swift-stdlib --product energyclock-render
mkdir -p /out
# shellcheck disable=SC2046 # pkg-config's flags are words
clang -O2 -Wall -Werror -o /out/energyclock-fetch Sources/energyclock-fetch/main.c $(pkg-config --cflags --libs libcurl)
bin="$(swift build -c release --static-swift-stdlib --show-bin-path)"
cp "$bin/energyclock" "$bin/energyclock-render" /out/
strip /out/energyclock /out/energyclock-render /out/energyclock-fetch
