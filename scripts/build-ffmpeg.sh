#!/usr/bin/env bash
# Build a static ffmpeg (7.1, 8.1 or 9.0; default 8.1) with the vqcuda filter.
#
#   scripts/build-ffmpeg.sh [BUILD_DIR]        (default: build/ in the repo)
#   FFMPEG_VERSION=9.0 scripts/build-ffmpeg.sh build/ff90
#
# One BUILD_DIR holds one release (another release asked of it is unpacked
# over the old one).  See docs/ffmpeg-versions.md.
#
# Result: BUILD_DIR/ffmpeg/ffmpeg.  Re-running is cheap: downloads are cached
# in BUILD_DIR/src, the patch and configure are redone only when they change,
# and make rebuilds what changed (the filter is a symlink to filter/).
#
# Environment (all optional):
#   FFMPEG_VERSION 7.1, 8.1 (default) or 9.0: the release, hence the patch
#                  patches/ffmpeg-<ver>-vqcuda.patch
#   FFMPEG_SRC     FFmpeg source: a tarball or a directory (not modified); its
#                  RELEASE (or VERSION) file decides the release when
#                  FFMPEG_VERSION is not given, and must match it when it is
#   VQ_SRC_DIR     where downloaded sources are cached (default BUILD_DIR/src;
#                  build dirs of several releases can share one)
#   NVCODEC_SRC    nv-codec-headers >= 12.1.14: a tarball or a directory
#   VQCUDA_PREFIX  an installed libvqcuda (lib/pkgconfig/libvqcuda.pc) to use
#                  instead of building this repo's
#   JOBS           parallel make jobs (default: nproc)
#   VQ_SANITIZE    1: an ASan + UBSan build (CI's second configuration):
#                  libvqcuda and the filter with both (CPU executor only),
#                  the rest of FFmpeg with ASan
#
# Without FFMPEG_SRC / NVCODEC_SRC the sources are Debian's orig tarballs,
# through apt-get source with a private apt state (deb-src of trixie, forky
# and sid: 7.1 is trixie's, 8.1 sid's, 9.0 forky's and sid's) and the mirror
# this machine's apt already uses; the system's apt setup is untouched.
#
# A release not supported, a source of another release than asked, or a patch
# that does not apply stop the build before anything is compiled.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${1:-$REPO/build}
mkdir -p "$BUILD_DIR"
BUILD_DIR=$(cd "$BUILD_DIR" && pwd)
SRC=${VQ_SRC_DIR:-$BUILD_DIR/src}  # downloaded tarballs (cache)
DEPS=$BUILD_DIR/deps               # nv-codec-headers, libvqcuda
FFSRC=$BUILD_DIR/ffmpeg-src        # patched FFmpeg tree, built in place
OUT=$BUILD_DIR/ffmpeg
SUPPORTED="7.1 8.1 9.0"
DEFAULT_VERSION=8.1             # the lowest release the VMAF tools accept
JOBS=${JOBS:-$(nproc)}
SAN_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g"
SAN_LINK="-fsanitize=address,undefined"
START=$(date +%s)

log() { printf '== %s\n' "$*" >&2; }
die() { printf 'build-ffmpeg: %s\n' "$*" >&2; exit 1; }

# --- (0) which release ------------------------------------------------------
# the release of an FFmpeg source (tarball or directory): its RELEASE file,
# else VERSION ("8.1.2"), or nothing
source_release() {
    local from=$1 r=
    if [ -d "$from" ]; then
        r=$(cat "$from/RELEASE" 2>/dev/null || cat "$from/VERSION" 2>/dev/null || true)
    elif [ -f "$from" ]; then
        r=$(tar -xOf "$from" --wildcards --no-wildcards-match-slash '*/RELEASE' 2>/dev/null ||
            tar -xOf "$from" --wildcards --no-wildcards-match-slash '*/VERSION' 2>/dev/null || true)
    else
        die "FFMPEG_SRC=$from: no such file or directory"
    fi
    printf '%s\n' "$r" | head -n1 | tr -d '[:space:]'
}

# major.minor of a release string: 8.1.2 -> 8.1, 9.0 -> 9.0
release_series() { printf '%s\n' "$1" | sed -n 's/^\([0-9]\{1,\}\.[0-9]\{1,\}\).*/\1/p'; }

pick_version() {
    local want=${FFMPEG_VERSION:-} got v
    if [ -n "$want" ]; then
        for v in $SUPPORTED; do [ "$want" = "$v" ] && break; v=; done
        [ -n "$v" ] || die "FFMPEG_VERSION=$want is not supported: expected one of $SUPPORTED"
    fi
    if [ -n "${FFMPEG_SRC:-}" ]; then
        got=$(source_release "$FFMPEG_SRC")
        [ -n "$got" ] || die "FFMPEG_SRC=$FFMPEG_SRC has no RELEASE or VERSION file: expected an FFmpeg ${want:-$SUPPORTED} source"
        if [ -n "$want" ]; then
            [ "$(release_series "$got")" = "$want" ] ||
                die "FFMPEG_SRC=$FFMPEG_SRC is FFmpeg $got, not $want (FFMPEG_VERSION)"
        else
            want=$(release_series "$got")
            for v in $SUPPORTED; do [ "$want" = "$v" ] && break; v=; done
            [ -n "$v" ] || die "FFMPEG_SRC=$FFMPEG_SRC is FFmpeg $got: expected one of $SUPPORTED"
        fi
    fi
    VERSION=${want:-$DEFAULT_VERSION}
    PATCH=$REPO/patches/ffmpeg-$VERSION-vqcuda.patch
    [ -f "$PATCH" ] || die "no patch for FFmpeg $VERSION: expected $PATCH"
}

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"
    elif command -v sudo >/dev/null; then sudo "$@"
    else die "need root for: $*"
    fi
}

# --- (a) build tools -------------------------------------------------------
install_tools() {
    # clang: scale_cuda's CUDA kernels (--enable-cuda-llvm)
    local pkgs=(make gcc g++ nasm pkg-config xz-utils dpkg-dev cmake patch clang)
    local missing=() p
    for p in "${pkgs[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
            missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    log "installing ${missing[*]}"
    if ! as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"; then
        as_root apt-get update
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
    fi
}

# --- (b) sources ----------------------------------------------------------
# The first Debian (non-security) mirror in this machine's apt configuration.
debian_mirror() {
    local f uri
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -r "$f" ] || continue
        # deb822 stanzas: the URIs of a "deb" stanza whose suites are not -security
        uri=$(awk '
            function flush() { if (types ~ /deb/ && suites !~ /security/ && uris != "") { print uris; exit } types = suites = uris = "" }
            /^[[:space:]]*$/ { flush(); next }
            /^Types:/  { types = $0 }
            /^Suites:/ { suites = $0 }
            /^URIs:/   { uris = $2 }
            END { flush() }' "$f")
        [ -n "$uri" ] && { echo "$uri"; return 0; }
    done
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -r "$f" ] || continue
        uri=$(awk '$1 == "deb" && $0 !~ /security/ {
                     for (i = 2; i <= NF; i++) if ($i ~ /^[a-z+]+:\/\//) { print $i; exit } }' "$f")
        [ -n "$uri" ] && { echo "$uri"; return 0; }
    done
    die "no Debian mirror found in /etc/apt; set FFMPEG_SRC and NVCODEC_SRC"
}

# Debian suites whose deb-src the private apt state reads: 7.1 is trixie's,
# 8.1 sid's (beside 9.0), 9.0 forky's (testing) and sid's
SUITES="trixie forky sid"
APT_DIR=$SRC/apt
APT_OPTS=(-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$APT_DIR/parts"
          -o Dir::State::Lists="$APT_DIR/lists" -o Dir::Cache="$APT_DIR/cache")

# apt state of our own, updated once
apt_state() {
    local d=$APT_DIR mirror parts=$APT_DIR/parts/debian-src.sources
    mkdir -p "$d/parts" "$d/lists/partial" "$d/cache/archives/partial"
    if ! grep -qx "Suites: $SUITES" "$parts" 2>/dev/null; then
        mirror=$(debian_mirror)
        rm -f "$d/parts"/*.sources "$d/updated"
        printf 'Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
            "$mirror" "$SUITES" > "$parts"
    fi
    if [ ! -f "$d/updated" ]; then
        apt-get -q "${APT_OPTS[@]}" update >&2
        touch "$d/updated"
    fi
}

# apt-get source --download-only PKG[=VERSION] into $SRC
apt_source() {
    local apt=(apt-get -q "${APT_OPTS[@]}")
    [ "$(id -u)" -eq 0 ] && apt+=(-o APT::Sandbox::User=root)
    apt_state
    # the .debian.tar of some packages is missing on mirrors: only the orig matters
    (cd "$SRC" && "${apt[@]}" source --download-only "$@" >&2) || true
}

# the newest Debian version of source package $1 whose upstream release is
# in series $2 (7:8.1.2-2 for ffmpeg 8.1), or nothing
apt_version() {
    apt_state
    apt-cache "${APT_OPTS[@]}" madison "$1" 2>/dev/null |
        awk -F ' [|] ' -v s="$2" '{ v = $2; gsub(/ /, "", v); u = v; sub(/^[0-9]+:/, "", u)
                                    if (index(u, s ".") == 1 || index(u, s "-") == 1) print v }' |
        sort -V | tail -n1
}

# newest cached orig tarball whose name starts with $1 (not its .asc), or
# nothing; $2: the name's version must be $2 or $2.<more>
cached() {
    local f newest= v
    for f in "$SRC/$1"*.orig.tar.xz "$SRC/$1"*.orig.tar.gz "$SRC/$1"*.orig.tar.bz2; do
        [ -f "$f" ] || continue
        if [ -n "${2:-}" ]; then
            v=${f##*/}; v=${v#"$1"}; v=${v%%.orig.tar.*}
            [ "$v" = "$2" ] || [ "${v#"$2".}" != "$v" ] || continue
        fi
        newest=$(printf '%s\n' "$newest" "$f" | sort -V | tail -n1)
    done
    echo "$newest"
}

ffmpeg_tarball() {
    local t v try
    t=$(cached ffmpeg_ "$VERSION")
    for try in 1 2; do
        [ -z "$t" ] || break
        # a second try with fresh package lists: the version the old ones
        # named may have left the mirror
        [ "$try" = 1 ] || rm -f "$APT_DIR/updated"
        v=$(apt_version ffmpeg "$VERSION")
        [ -n "$v" ] || continue
        log "fetching FFmpeg $VERSION source (Debian ffmpeg $v)"
        apt_source "ffmpeg=$v"
        t=$(cached ffmpeg_ "$VERSION")
    done
    [ -n "$t" ] || [ -n "$v" ] || die "no FFmpeg $VERSION source package in Debian $SUITES (set FFMPEG_SRC)"
    [ -n "$t" ] || die "could not get ffmpeg_$VERSION*.orig.tar.* (set FFMPEG_SRC)"
    echo "$t"
}

nvcodec_tarball() {
    local t
    t=$(cached nv-codec-headers_)
    if [ -z "$t" ]; then
        log "fetching nv-codec-headers (Debian)"
        apt_source nv-codec-headers
        t=$(cached nv-codec-headers_)
    fi
    [ -n "$t" ] || die "could not get nv-codec-headers_*.orig.tar.* (set NVCODEC_SRC)"
    echo "$t"
}

# unpack a tarball or copy a directory into $2 (its top directory stripped)
unpack() {
    local from=$1 to=$2
    rm -rf "$to.tmp" && mkdir -p "$to.tmp"
    if [ -d "$from" ]; then
        cp -a "$from/." "$to.tmp/"
    else
        tar -xf "$from" -C "$to.tmp" --strip-components=1
    fi
    rm -rf "$to" && mv "$to.tmp" "$to"
}

# --- (c) nv-codec-headers ---------------------------------------------------
install_nvcodec() {
    local from=${NVCODEC_SRC:-} stamp=$DEPS/.nvcodec-from
    [ -n "$from" ] || from=$(nvcodec_tarball)
    if [ -f "$DEPS/lib/pkgconfig/ffnvcodec.pc" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$from" ]; then
        return 0
    fi
    log "installing nv-codec-headers from $from"
    unpack "$from" "$BUILD_DIR/nv-codec-headers"
    make -C "$BUILD_DIR/nv-codec-headers" PREFIX="$DEPS" install >&2
    echo "$from" > "$stamp"
}

# --- (d) libvqcuda ----------------------------------------------------------
build_libvqcuda() {
    if [ -n "${VQCUDA_PREFIX:-}" ]; then
        [ -f "$VQCUDA_PREFIX/lib/pkgconfig/libvqcuda.pc" ] ||
            die "VQCUDA_PREFIX=$VQCUDA_PREFIX has no lib/pkgconfig/libvqcuda.pc"
        VQ_PKGCONFIG=$VQCUDA_PREFIX/lib/pkgconfig
        VQ_ARCHIVE=$VQCUDA_PREFIX/lib/libvqcuda.a
        return 0
    fi
    log "building libvqcuda"
    # scripts/test.sh shares this tree with the tests on: leave that choice as
    # it is, and only start a new tree without them
    local tests=() san=()
    [ -f "$BUILD_DIR/libvqcuda/CMakeCache.txt" ] || tests=(-DVQ_BUILD_TESTS=OFF)
    if [ -n "${VQ_SANITIZE:-}" ]; then
        san=(-DVQ_ENABLE_CUDA=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo
             "-DCMAKE_C_FLAGS=$SAN_FLAGS" "-DCMAKE_CXX_FLAGS=$SAN_FLAGS"
             "-DCMAKE_EXE_LINKER_FLAGS=$SAN_LINK" "-DCMAKE_SHARED_LINKER_FLAGS=$SAN_LINK")
    fi
    cmake -S "$REPO" -B "$BUILD_DIR/libvqcuda" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_INSTALL_PREFIX="$DEPS" -DCMAKE_INSTALL_LIBDIR=lib \
        "${tests[@]}" "${san[@]}" >&2
    cmake --build "$BUILD_DIR/libvqcuda" -j "$JOBS" >&2
    cmake --install "$BUILD_DIR/libvqcuda" >&2
    # ffmpeg must link the archive: with the .so beside it, -lvqcuda takes the .so
    rm -f "$DEPS"/lib/libvqcuda.so*
    VQ_PKGCONFIG=$DEPS/lib/pkgconfig
    VQ_ARCHIVE=$DEPS/lib/libvqcuda.a
}

# --- (e) FFmpeg -------------------------------------------------------------
prepare_ffmpeg() {
    local from=${FFMPEG_SRC:-} stamp=$FFSRC/.vqcuda-source applied=$FFSRC/.vqcuda-applied.patch
    [ -n "$from" ] || from=$(ffmpeg_tarball)
    if [ ! -f "$FFSRC/configure" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$from" ]; then
        # the release is checked before the tree is replaced
        local got
        got=$(source_release "$from")
        [ "$(release_series "$got")" = "$VERSION" ] ||
            die "$from is FFmpeg ${got:-?}, not $VERSION"
        log "unpacking FFmpeg from $from"
        rm -f "$applied"
        unpack "$from" "$FFSRC"
        echo "$from" > "$stamp"
    fi
    local rel
    rel=$(source_release "$FFSRC")
    [ "$(release_series "$rel")" = "$VERSION" ] || die "$FFSRC is FFmpeg ${rel:-?}, not $VERSION"

    # the patch: apply it once; if it changed since, swap the old one for it
    if [ -f "$applied" ] && ! cmp -s "$applied" "$PATCH"; then
        log "patch changed: reverting the old one"
        (cd "$FFSRC" && patch -p1 -R -s -f < "$applied") || die "cannot revert the old patch"
        rm -f "$applied"
    fi
    if (cd "$FFSRC" && patch -p1 -R --dry-run -s -f < "$PATCH" >/dev/null 2>&1); then
        :   # already applied
    else
        log "applying $(basename "$PATCH")"
        # a dry run first: a patch that does not apply leaves the tree as it was
        (cd "$FFSRC" && patch -p1 --dry-run -s -f < "$PATCH" >&2) ||
            die "$(basename "$PATCH") does not apply to $from (FFmpeg $rel): expected a pristine FFmpeg $VERSION source"
        (cd "$FFSRC" && patch -p1 -s -f < "$PATCH") || die "$(basename "$PATCH") does not apply to $from"
    fi
    cp "$PATCH" "$applied"

    # one copy of the filter source: the repo's
    local f
    for f in vf_vqcuda.c vf_vqcuda.h vf_vqcuda_reinit.c; do
        ln -sfn "$REPO/filter/$f" "$FFSRC/libavfilter/$f"
    done
}

configure_ffmpeg() {
    # what the VMAF tools run (ffmpeg-quality-metrics, ab-av1, ...) and the tests
    local filters=vqcuda,libvmaf,libvmaf_cuda,scale,format,null,split,hwupload,hwdownload,hwupload_cuda,metadata,psnr,ssim,testsrc2,settb,setpts,select,trim,extractplanes,fps,concat,streamselect,yadif,bwdif,colorspace,setparams,color,nullsrc
    local vq_version
    vq_version=$(sed -n 's/^project([^)]*VERSION \([0-9.]*\).*/\1/p' "$REPO/CMakeLists.txt")
    local extra=() codecs=h264,hevc,av1,vp9
    # scale_cuda's kernels need a CUDA compiler: clang (free) if there is one
    if command -v clang >/dev/null && [ -z "${VQ_SANITIZE:-}" ]; then
        filters=$filters,scale_cuda
        extra+=(--enable-cuda-llvm)
    fi
    # the sanitizer build runs the CPU executor's tests on the H.264, HEVC
    # and FFV1 clips alone: neither AV1, VP9 nor scale_cuda (a shorter build)
    [ -n "${VQ_SANITIZE:-}" ] && codecs=h264,hevc
    # shellcheck disable=SC2054  # the commas are configure's list syntax
    CONFIGURE_ARGS=(
        --pkg-config-flags=--static --enable-static --disable-shared
        --disable-autodetect --disable-everything --disable-doc --disable-debug
        --disable-programs --enable-ffmpeg --enable-ffprobe
        "--extra-version=vqcuda$vq_version"
        --enable-avdevice --enable-indev=lavfi
        --enable-ffnvcodec --enable-cuda --enable-nvdec "${extra[@]}"
        # wrapped_avframe: the lavfi input device's frames
        "--enable-decoder=$codecs,ffv1,rawvideo,wrapped_avframe"
        "--enable-hwaccel=$(echo "$codecs" | sed 's/\([a-z0-9]*\)/\1_nvdec/g')"
        "--enable-parser=$codecs"
        --enable-demuxer=mov,matroska,rawvideo,yuv4mpegpipe,h264,hevc,concat
        --enable-muxer=rawvideo,yuv4mpegpipe,null,framecrc,h264,hevc,matroska
        --enable-encoder=rawvideo,wrapped_avframe
        --enable-bsf=h264_mp4toannexb,hevc_mp4toannexb,extract_extradata
        --enable-protocol=file,pipe
        "--enable-filter=$filters"
        --enable-libvqcuda
    )
    if [ -n "${VQ_SANITIZE:-}" ]; then
        CONFIGURE_ARGS+=("--extra-cflags=-fsanitize=address -fno-omit-frame-pointer"
                         "--extra-ldflags=$SAN_LINK")
    fi
    export PKG_CONFIG_PATH=$VQ_PKGCONFIG:$DEPS/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
    local want="${CONFIGURE_ARGS[*]} PKG_CONFIG_PATH=$PKG_CONFIG_PATH"
    if [ -f "$FFSRC/ffbuild/config.mak" ] && [ "$(cat "$FFSRC/.vqcuda-configured" 2>/dev/null)" = "$want" ] &&
       [ "$FFSRC/ffbuild/config.mak" -nt "$FFSRC/configure" ]; then
        return 0
    fi
    log "configuring FFmpeg"
    log "./configure ${CONFIGURE_ARGS[*]}"
    rm -f "$FFSRC/.vqcuda-configured"
    (cd "$FFSRC" && ./configure "${CONFIGURE_ARGS[@]}" >&2) ||
        die "configure failed: see $FFSRC/ffbuild/config.log"
    echo "$want" > "$FFSRC/.vqcuda-configured"
}

build_ffmpeg() {
    # make knows nothing of libvqcuda.a: relink when it is newer
    if [ -f "$FFSRC/ffmpeg_g" ] && [ "$VQ_ARCHIVE" -nt "$FFSRC/ffmpeg_g" ]; then
        rm -f "$FFSRC/ffmpeg_g" "$FFSRC/ffmpeg"
    fi
    log "make -j$JOBS"
    local extra=()
    [ -n "${VQ_SANITIZE:-}" ] && extra=("VQCUDA_EXTRA_CFLAGS=-fsanitize=undefined -fno-sanitize-recover=undefined")
    make -C "$FFSRC" -j "$JOBS" "${extra[@]}" ffmpeg ffprobe >&2
    mkdir -p "$OUT"
    local p
    for p in ffmpeg ffprobe; do
        cp -f "$FFSRC/$p" "$OUT/$p.tmp" && mv -f "$OUT/$p.tmp" "$OUT/$p"
    done
}

pick_version
log "FFmpeg $VERSION ($(basename "$PATCH")) in $BUILD_DIR"
install_tools
mkdir -p "$SRC" "$DEPS"
prepare_ffmpeg
install_nvcodec
build_libvqcuda
configure_ffmpeg
build_ffmpeg
for f in vqcuda libvmaf; do
    "$OUT/ffmpeg" -hide_banner -h filter=$f >/dev/null ||
        die "the built ffmpeg does not know the $f filter"
done
banner=$("$OUT/ffmpeg" -version | sed -n 1p)
case $banner in
    "ffmpeg version $VERSION."*|"ffmpeg version $VERSION-"*) ;;
    *) die "the built ffmpeg does not report FFmpeg $VERSION: $banner" ;;
esac
log "done in $(( $(date +%s) - START ))s: $OUT/ffmpeg ($banner)"
