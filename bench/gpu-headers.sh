#!/usr/bin/env bash
# gpu-headers.sh: CUDA and NVML headers for analysing GPU bindings, with no
# driver and nothing installed.
#
# Debian ships every CUDA 11.8 header in nvidia-cuda-dev (component non-free
# of the same archive the machine uses). Only headers are needed: cgo
# compiles the preamble, nothing is linked or run. The script downloads the
# packages with a private apt configuration (its own sources file naming the
# machine's release with "contrib non-free", its own package lists and
# cache; the system's apt state is not touched) and unpacks them with
# dpkg -x. About 780 MB are downloaded once and kept.
#
#   bench/gpu-headers.sh [DIR]     DIR defaults to ${TMPDIR:-/tmp}/lifetimevet-gpu
#
# It prints the include directory on standard output (for CGO_CFLAGS=-I...),
# progress on standard error. OpenCL and Vulkan headers are in Debian main
# (opencl-headers ocl-icd-opencl-dev libvulkan-dev): install those with
# apt-get. cuDNN and NCCL headers are not packaged in Debian 12.
set -euo pipefail
dir=${1:-${TMPDIR:-/tmp}/lifetimevet-gpu}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
root=$dir/root
inc=$root/usr/include
if [ -f "$inc/cuda.h" ] && [ -f "$inc/nvml.h" ]; then
	echo "$inc"
	exit 0
fi
. /etc/os-release
codename=${VERSION_CODENAME:?no VERSION_CODENAME in /etc/os-release}
# The archive the machine already uses (deb822 or one-line sources).
uri=$(grep -hoE '^URIs: *[^ ]+' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' | grep -v security | head -n1 || true)
if [ -z "$uri" ]; then
	uri=$(grep -hoE '^deb +[^ ]+' /etc/apt/sources.list 2>/dev/null | awk '{print $2}' | grep -v security | head -n1 || true)
fi
uri=${uri:-http://deb.debian.org/debian}
apt=$dir/apt
mkdir -p "$apt/lists/partial" "$apt/archives/partial" "$dir/debs"
cat > "$apt/sources.list" <<SRC
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri $codename main contrib non-free
SRC
opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o "Dir::Etc::SourceParts=-"
	-o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt" -o "Dir::Cache::archives=$apt/archives"
	-o "Debug::NoLocking=1")
echo "gpu-headers: package lists for $codename main contrib non-free" >&2
apt-get "${opts[@]}" update >&2
cd "$dir/debs"
for p in nvidia-cuda-dev libnvidia-ml-dev; do
	if ! ls "${p}"_*.deb >/dev/null 2>&1; then
		echo "gpu-headers: downloading $p" >&2
		apt-get "${opts[@]}" download "$p" >&2
	fi
done
mkdir -p "$root"
for deb in "$dir"/debs/*.deb; do
	echo "gpu-headers: unpacking $(basename "$deb")" >&2
	dpkg -x "$deb" "$root"
done
# nvidia-cuda-dev puts the CUDA headers in /usr/include directly; NVML's
# header comes with libnvidia-ml-dev.
for h in cuda.h cublas_v2.h nvrtc.h nvml.h; do
	[ -f "$inc/$h" ] || { echo "gpu-headers: $h missing under $inc" >&2; exit 1; }
done
echo "$inc"
