#!/usr/bin/env bash
# Builds golangci-lint with the lifetimevet module plugin, as
# `golangci-lint custom` does with plugin/.custom-gcl.yml, but from the Go
# module proxy alone: `golangci-lint custom` clones golangci-lint from
# GitHub, which many build machines cannot reach.
#
# Usage: plugin/build-custom-gcl.sh [-o OUTPUT] [-v VERSION]
#
#   -o OUTPUT   the binary to write (default ./custom-gcl)
#   -v VERSION  the golangci-lint v2 version (default v2.15.0)
#
# The steps are those of `golangci-lint custom`:
#   1. take github.com/golangci/golangci-lint/v2@VERSION from the module
#      cache (`go mod download` fetches it through GOPROXY) and copy it to a
#      scratch directory;
#   2. write cmd/golangci-lint/plugins.go importing the plugin package;
#   3. replace github.com/lifetimevet/lifetimevet with this checkout;
#   4. go mod tidy, then go build ./cmd/golangci-lint.
# Only the Go module proxy is used (GOPROXY, GOSUMDB and GOFLAGS are
# honoured as they are set).
set -euo pipefail

out=./custom-gcl
version=v2.15.0
while getopts "o:v:h" opt; do
	case $opt in
	o) out=$OPTARG ;;
	v) version=$OPTARG ;;
	*)
		sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
		[ "$opt" = h ] && exit 0 || exit 2
		;;
	esac
done

root=$(cd "$(dirname "$0")/.." && pwd)
module=github.com/lifetimevet/lifetimevet
case $out in /*) ;; *) out=$PWD/${out#./} ;; esac

export GOWORK=off

echo "build-custom-gcl: fetching golangci-lint $version through the module proxy" >&2
src=$(cd "$root" && go mod download -json "github.com/golangci/golangci-lint/v2@$version" |
	sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')
if [ -z "$src" ] || [ ! -d "$src" ]; then
	echo "build-custom-gcl: go mod download gave no directory for golangci-lint $version" >&2
	exit 1
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/custom-gcl.XXXXXX")
trap 'chmod -R u+w "$scratch" 2>/dev/null; rm -rf "$scratch"' EXIT
cp -R "$src" "$scratch/golangci-lint"
chmod -R u+w "$scratch/golangci-lint"
cd "$scratch/golangci-lint"

cat >cmd/golangci-lint/plugins.go <<GO
package main

import (
	_ "$module/plugin"
)
GO

go mod edit -replace "$module=$root"
echo "build-custom-gcl: go mod tidy" >&2
go mod tidy
# The version string has the form `golangci-lint custom` gives it, with the
# checkout's commit (or "dirty") in place of a hash of its directory.
rev=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git -C "$root" status --porcelain 2>/dev/null)" ]; then rev=$rev-dirty; fi
echo "build-custom-gcl: go build ./cmd/golangci-lint" >&2
go build \
	-ldflags "-s -w -X 'main.version=$version-custom-gcl-lifetimevet-$rev' -X 'main.date=$(date -u '+%Y-%m-%dT%H:%M:%SZ')'" \
	-o "$out" ./cmd/golangci-lint
echo "build-custom-gcl: wrote $out" >&2
