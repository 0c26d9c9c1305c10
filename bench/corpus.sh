#!/usr/bin/env bash
# corpus.sh: run lifetimevet over real cgo bindings and print every finding.
#
# It makes a scratch module (outside the repository) that depends, through
# the Go module proxy, on real cgo modules that build with gcc alone, then
# runs lifetimevet over their packages twice: standalone, and through
# go vet -vettool. Nothing fetched is committed.
#
#   bench/corpus.sh [BIN]       BIN defaults to a fresh build of ./cmd/lifetimevet
#
# Environment: CORPUS_DIR (scratch module; default $TMPDIR/lifetimevet-corpus),
# CORPUS_MODULES (override the module list, "path@version" words).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-}
if [ -z "$bin" ]; then
	bin=$root/bin/lifetimevet
	(cd "$root" && go build -o "$bin" ./cmd/lifetimevet)
fi
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
dir=${CORPUS_DIR:-${TMPDIR:-/tmp}/lifetimevet-corpus}
modules=${CORPUS_MODULES:-"github.com/mattn/go-sqlite3@v1.14.53 github.com/NVIDIA/go-nvml@v0.13.4-1 github.com/yalue/onnxruntime_go@v1.27.0 github.com/marcboeker/go-duckdb@v1.8.5 github.com/libgit2/git2go/v34@v34.0.0"}

# git2go links against the system's libgit2 (Debian's libgit2-dev, 1.5).
if [[ " $modules " == *git2go* ]] && ! pkg-config --exists libgit2 2>/dev/null; then
	if [ "$(id -u)" = 0 ]; then
		(apt-get install -y --no-install-recommends libgit2-dev pkg-config >/dev/null 2>&1 ||
			{ apt-get update >/dev/null && apt-get install -y --no-install-recommends libgit2-dev pkg-config >/dev/null; }) ||
			echo "corpus: could not install libgit2-dev; git2go will fail to build" >&2
	else
		echo "corpus: git2go needs libgit2-dev (apt-get install libgit2-dev)" >&2
	fi
fi

mkdir -p "$dir"
cd "$dir"
if [ ! -f go.mod ]; then
	go mod init lifetimevet.example/corpus >/dev/null 2>&1
fi
imports=""
for m in $modules; do
	go get -t "$m" >/dev/null 2>&1 || go get "$m" >/dev/null
	imports="$imports	_ \"${m%@*}\"
"
done
# A file that imports every module keeps them in go.mod and builds them.
printf 'package corpus\n\nimport (\n%s)\n' "$imports" > corpus.go
go mod tidy >/dev/null 2>&1 || true
for m in $modules; do go get -t "${m%@*}/..." >/dev/null 2>&1 || true; done

export CGO_ENABLED=1
# The bindings' C compiles with warnings (deprecations) that are not ours.
export CGO_CFLAGS="${CGO_CFLAGS:--O2 -g} -w"
status=0
for m in $modules; do
	path=${m%@*}
	echo "== $m: standalone"
	"$bin" -test=false "$path/..." || status=$?
	echo "== $m: go vet -vettool"
	go vet -vettool="$bin" "$path/..." || status=$?
done
echo "== done (last non-zero status $status; 3 means findings)"
