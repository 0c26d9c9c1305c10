#!/usr/bin/env bash
# corpus.sh: run lifetimevet over the field corpus and print every finding.
#
# The corpus is bench/corpus.txt: real cgo modules at pinned versions, with
# the Debian -dev packages, GPU headers and build tags each needs. The script
# installs what is missing (apt-get, when run as root; bench/gpu-headers.sh
# for CUDA and NVML headers, downloaded once and kept), makes a scratch
# module outside the repository that requires every module through the Go
# module proxy, then, module by module, lists the packages that build and
# those that do not (with the reason), and runs lifetimevet over the ones
# that build twice: standalone (tests included), and through
# go vet -vettool. Nothing fetched is committed.
#
#   bench/corpus.sh [BIN]       BIN defaults to a fresh build of ./cmd/lifetimevet
#
# Environment: CORPUS_DIR (scratch module; default $TMPDIR/lifetimevet-corpus),
# CORPUS_MODULES (only the corpus lines whose module path is one of these
# words), GPU_HEADERS_DIR (bench/gpu-headers.sh's directory), CORPUS_VET=0
# (skip the go vet -vettool run).
#
# Per module it prints the packages analysed and skipped, then a "stats" line:
# wall time and CPU time (user+system, seconds) and peak RSS (MiB) of the
# standalone run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-}
if [ -z "$bin" ]; then
	bin=$root/bin/lifetimevet
	(cd "$root" && go build -o "$bin" ./cmd/lifetimevet)
fi
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
dir=${CORPUS_DIR:-${TMPDIR:-/tmp}/lifetimevet-corpus}

# The corpus lines, filtered by CORPUS_MODULES.
lines=()
while read -r mod pkgs needs; do
	case "$mod" in ''|'#'*) continue ;; esac
	if [ -n "${CORPUS_MODULES:-}" ] && [[ " $CORPUS_MODULES " != *" ${mod%@*} "* ]] && [[ " $CORPUS_MODULES " != *" $mod "* ]]; then
		continue
	fi
	lines+=("$mod $pkgs $needs")
done < "$root/bench/corpus.txt"
[ ${#lines[@]} -gt 0 ] || { echo "corpus: no module of bench/corpus.txt selected" >&2; exit 2; }

# What the selected modules need.
apt_pkgs=() tags=() cuda=0
for l in "${lines[@]}"; do
	set -- $l
	IFS=, read -ra ns <<< "$3"
	for n in "${ns[@]}"; do
		case "$n" in
		apt:*) apt_pkgs+=("${n#apt:}") ;;
		tags:*) tags+=("${n#tags:}") ;;
		cuda) cuda=1 ;;
		esac
	done
done
missing=()
for p in ${apt_pkgs[@]+"${apt_pkgs[@]}"}; do
	dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	if [ "$(id -u)" = 0 ]; then
		echo "corpus: apt-get install ${missing[*]}" >&2
		(apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null 2>&1 ||
			{ apt-get update >/dev/null && apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null; }) ||
			echo "corpus: could not install ${missing[*]}; their modules will not build" >&2
	else
		echo "corpus: missing Debian packages (apt-get install ${missing[*]}); their modules will not build" >&2
	fi
fi
export CGO_ENABLED=1
# The bindings' C compiles with warnings (deprecations) that are not ours.
export CGO_CFLAGS="${CGO_CFLAGS:--O2 -g} -w"
cuda_cflags="" cuda_ldflags=""
if [ "$cuda" = 1 ]; then
	inc=$("$root/bench/gpu-headers.sh" ${GPU_HEADERS_DIR:+"$GPU_HEADERS_DIR"})
	lib=$(dirname "$inc")/lib/x86_64-linux-gnu
	# Headers to compile the preambles; the stub libraries (libcuda.so,
	# libnvidia-ml.so) to satisfy cgo's link step. Nothing is run. Only the
	# modules marked cuda get them: others (go-nvml) ship their own headers.
	cuda_cflags="-I$inc"
	cuda_ldflags="-L$lib/stubs -L$lib"
fi
tagflag=()
if [ ${#tags[@]} -gt 0 ]; then
	tagflag=(-tags "$(IFS=,; echo "${tags[*]}")")
fi

mkdir -p "$dir"
cd "$dir"
[ -f go.mod ] || go mod init lifetimevet.example/corpus >/dev/null 2>&1
# patterns MODULE PKGS: the package patterns of a corpus line.
patterns() {
	local path=${1%@*} p out=()
	IFS=, read -ra ps <<< "$2"
	for p in "${ps[@]}"; do
		case "$p" in
		.) out+=("$path") ;;
		...) out+=("$path/...") ;;
		*) out+=("$path/$p") ;;
		esac
	done
	echo "${out[@]}"
}
for l in "${lines[@]}"; do
	set -- $l
	go get ${tagflag[@]+"${tagflag[@]}"} -t "$1" >/dev/null 2>&1 || go get "$1" >/dev/null 2>&1 ||
		echo "corpus: go get $1 failed" >&2
done
# Every module of the corpus, selected or not, so that go mod tidy keeps
# the others' requirements for later runs.
imports=""
while read -r mod pkgs needs; do
	case "$mod" in ''|'#'*) continue ;; esac
	grep -q "^	${mod%@*} " go.mod 2>/dev/null || grep -q "^require ${mod%@*} " go.mod 2>/dev/null || continue
	p=$(patterns "$mod" "$pkgs")
	p=${p%% *}
	case "$p" in
	*/...) p=$(go list -e ${tagflag[@]+"${tagflag[@]}"} "$p" 2>/dev/null | grep -v /internal | head -n1) ;;
	esac
	[ -n "$p" ] || continue
	imports="$imports	_ \"$p\"
"
done < "$root/bench/corpus.txt"
# A file that imports a package of every module keeps them in go.mod and
# lets go mod tidy complete go.sum (a later go get can move a shared
# dependency to a version whose sums an earlier module's packages lack).
printf 'package corpus\n\nimport (\n%s)\n' "$imports" > corpus.go
go mod tidy -e >/dev/null 2>&1 || true
for l in "${lines[@]}"; do
	set -- $l
	# At the pinned version: a bare path would move the module to its latest.
	for p in $(patterns "$1" "$2"); do
		go get ${tagflag[@]+"${tagflag[@]}"} -t "$p@${1#*@}" >/dev/null 2>&1 || true
	done
done
# (a later module's go get can move a shared dependency to a version
# whose sums an earlier one's packages lack: one go get of them all, at
# their pinned versions, adds every sum they need)
all=()
for l in "${lines[@]}"; do
	set -- $l
	for p in $(patterns "$1" "$2"); do
		all+=("$p@${1#*@}")
	done
done
go get ${tagflag[@]+"${tagflag[@]}"} -t "${all[@]}" >/dev/null 2>&1 || true

status=0
base_cflags=$CGO_CFLAGS base_ldflags=${CGO_LDFLAGS:-}
for l in "${lines[@]}"; do
	set -- $l
	mod=$1
	pats=$(patterns "$1" "$2")
	echo "== $mod"
	export CGO_CFLAGS="$base_cflags" CGO_LDFLAGS="$base_ldflags"
	if [[ ",$3," == *,cuda,* ]]; then
		export CGO_CFLAGS="$base_cflags $cuda_cflags" CGO_LDFLAGS="$base_ldflags $cuda_ldflags"
	fi
	# Packages that build (cgo run, deps complete) and those that do not.
	ok=() 
	while IFS=$'\t' read -r pkg err; do
		if [ -z "$err" ]; then
			ok+=("$pkg")
		else
			echo "skipped $pkg: $err"
		fi
	done < <(go list -e -compiled ${tagflag[@]+"${tagflag[@]}"} \
		-f '{{.ImportPath}}{{"\t"}}{{with .Error}}{{.Err | printf "%.300q"}}{{else}}{{with .DepsErrors}}{{(index . 0).Err | printf "imports a package with errors: %.260q"}}{{end}}{{end}}' \
		$pats 2>/dev/null)
	echo "analysed ${#ok[@]} packages"
	[ ${#ok[@]} -gt 0 ] || continue
	stats=$(mktemp)
	rc=0
	/usr/bin/time -f '%e %U %S %M' -o "$stats" "$bin" ${tagflag[@]+"${tagflag[@]}"} "${ok[@]}" || rc=$?
	[ "$rc" = 0 ] || [ "$rc" = 3 ] || status=$rc
	read -r wall usr sys rss < <(tail -n1 "$stats") || true
	rm -f "$stats"
	awk -v w="$wall" -v u="$usr" -v s="$sys" -v r="$rss" \
		'BEGIN { printf "stats %s: wall %.1f s, cpu %.1f s, peak rss %.0f MiB\n", "'"$mod"'", w, u + s, r / 1024 }'
	if [ "${CORPUS_VET:-1}" != 0 ]; then
		echo "== $mod: go vet -vettool"
		go vet ${tagflag[@]+"${tagflag[@]}"} -vettool="$bin" "${ok[@]}" || true
	fi
done
echo "== done (last load or analysis error status $status; findings give 3 and are not errors)"
exit "$status"
