#!/bin/bash
# Install the Debian packages the build and tests need (only what is missing).
set -euo pipefail
need=()
# locales: the locale sources scripts/test.sh compiles a decimal-comma locale from
for p in cmake g++ make pkg-config nasm xz-utils python3 libgtest-dev nlohmann-json3-dev locales; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
    echo "deps: installing ${need[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${need[@]}" >/dev/null
fi
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
    echo "deps: nvcc is in /usr/local/cuda/bin (add it to PATH for the CUDA executor)"
fi
