#!/bin/sh
# Installs the hel binary of a GitHub release for this machine.
#
#   curl -fsSL https://github.com/OWNER/hel/releases/latest/download/install.sh | sh
#   curl -fsSL .../install.sh | sh -s -- v0.2.0        # a pinned release
#
# It picks the binary for this OS and CPU (Linux or macOS, x64 or arm64), downloads it with the
# release's SHA256SUMS, checks the checksum, checks that the binary runs, and only then moves it
# into place in one step (rename), as ~/.local/bin/hel or $HEL_INSTALL_DIR/hel. On any failure
# (unsupported platform, failed download, checksum mismatch) it installs nothing.
#
# Settings (environment):
#   HEL_VERSION        release to install, e.g. v0.2.0 (default: latest; an argument wins)
#   HEL_INSTALL_DIR    where to put hel (default: ~/.local/bin)
#   HEL_REPO           GitHub repository owner/name (a release's copy of this script names its own)
#   HEL_INSTALL_BASE   releases URL instead of https://github.com/$HEL_REPO/releases (mirrors, tests)
#   HEL_INSTALL_OS, HEL_INSTALL_ARCH   use these instead of `uname -s` / `uname -m`
set -eu

# The release workflow writes its repository here in the copy it attaches to a release.
default_repo=""

# Everything runs from main, called on the last line: a script cut short in transit (curl | sh)
# ends in a syntax error before any of it runs, never with a part of it run.
main() {
  say() { printf 'hel-install: %s\n' "$*"; }
  fail() {
    printf 'hel-install: error: %s\n' "$*" >&2
    printf 'hel-install: nothing was installed\n' >&2
    exit 1
  }

  version=${1:-${HEL_VERSION:-latest}}
  case $version in
    latest) ;;
    v[0-9]*) ;;
    [0-9]*) version="v$version" ;;
    *) fail "version '$version' is not a release tag such as v0.2.0 (or 'latest')" ;;
  esac
  # A tag is put into a URL: only the characters release tags use.
  if [ "$version" != latest ] && ! printf '%s' "$version" | grep -Eq '^v[0-9]+\.[0-9]+\.[0-9]+([.+-][0-9A-Za-z.-]+)?$'; then
    fail "version '$version' is not a release tag such as v0.2.0 (or 'latest')"
  fi

  os=${HEL_INSTALL_OS:-$(uname -s)}
  arch=${HEL_INSTALL_ARCH:-$(uname -m)}
  case $os in
    Linux | linux) os=linux ;;
    Darwin | darwin | macos) os=macos ;;
    MINGW* | MSYS* | CYGWIN* | Windows*)
      fail "this script does not install on Windows: download hel-windows-x64.exe from the release page, or run: npm install -g @hel/hel" ;;
    *) fail "no hel binary for the OS '$os' (there are binaries for Linux and macOS; from source: see the README)" ;;
  esac
  case $arch in
    x86_64 | amd64 | x64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) fail "no hel binary for the CPU '$arch' on $os (there are binaries for x64 and arm64)" ;;
  esac
  # A shell under Rosetta reports x86_64 on an Apple silicon Mac: the native binary is better.
  if [ -z "${HEL_INSTALL_ARCH:-}" ] && [ "$os" = macos ] && [ "$arch" = x64 ] &&
    [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || true)" = 1 ]; then
    arch=arm64
  fi
  # The binaries link against glibc; musl systems (Alpine) cannot run them.
  if [ -z "${HEL_INSTALL_OS:-}" ] && [ "$os" = linux ] && ls /lib/ld-musl-* >/dev/null 2>&1; then
    fail "this Linux uses musl (Alpine?), and hel's binaries need glibc; install from source instead (see the README)"
  fi
  asset="hel-$os-$arch"

  repo=${HEL_REPO:-$default_repo}
  if [ -n "${HEL_INSTALL_BASE:-}" ]; then
    base=${HEL_INSTALL_BASE%/}
  elif [ -n "$repo" ]; then
    base="https://github.com/$repo/releases"
  else
    fail "no release to download from: set HEL_REPO=owner/name (or use the install.sh attached to a release)"
  fi
  if [ "$version" = latest ]; then
    url="$base/latest/download"
  else
    url="$base/download/$version"
  fi

  # An https base stays https through every redirect. Plain http only to this machine (a local
  # mirror, the tests): elsewhere the checksums would come over the same unprotected channel.
  case $base in
    https://*) https_only=1 ;;
    http://127.0.0.1[:/]* | http://localhost[:/]* | http://\[::1\][:/]*) https_only="" ;;
    *) fail "HEL_INSTALL_BASE must be an https:// address (plain http only to 127.0.0.1 or localhost): $base" ;;
  esac
  # A hel binary is about 100 MiB; a mirror sending far more is not sending hel.
  max_bytes=536870912
  if command -v curl >/dev/null 2>&1; then
    download() {
      if [ -n "$https_only" ]; then
        curl --fail --silent --show-error --location --retry 2 --max-filesize "$max_bytes" --proto '=https' --proto-redir '=https' --output "$2" "$1"
      else
        curl --fail --silent --show-error --location --retry 2 --max-filesize "$max_bytes" --output "$2" "$1"
      fi
    }
  elif command -v wget >/dev/null 2>&1; then
    download() {
      if [ -n "$https_only" ]; then
        # wget's --https-only holds only in recursive mode: it follows a redirect to http://. Its
        # log (in English: LC_ALL=C) names every redirect; one to http:// fails the download.
        LC_ALL=C wget --https-only --output-file="$tmp/wget.log" --output-document="$2" "$1" ||
          return 1
        if grep -i '^Location: *http:' "$tmp/wget.log" >/dev/null; then
          printf 'hel-install: %s redirected to plain http; refused\n' "$1" >&2
          return 1
        fi
      else
        wget --quiet --output-document="$2" "$1"
      fi
    }
  else
    fail "neither curl nor wget is installed; install one of them and run this again"
  fi
  if command -v sha256sum >/dev/null 2>&1; then
    sha256() { sha256sum "$1" | cut -d ' ' -f 1; }
  elif command -v shasum >/dev/null 2>&1; then
    sha256() { shasum -a 256 "$1" | cut -d ' ' -f 1; }
  else
    fail "neither sha256sum nor shasum is installed, so the download cannot be checked"
  fi

  dir=${HEL_INSTALL_DIR:-${HOME:?HOME is not set; set HEL_INSTALL_DIR}/.local/bin}
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/hel-install.XXXXXX") || fail "cannot create a temporary folder"
  staged=""
  cleanup() {
    rm -rf "$tmp"
    if [ -n "$staged" ]; then rm -f "$staged"; fi
  }
  trap cleanup EXIT
  trap 'exit 130' INT TERM

  say "downloading $asset ($version) from $url"
  download "$url/$asset" "$tmp/$asset" || fail "could not download $url/$asset"
  download "$url/SHA256SUMS" "$tmp/SHA256SUMS" || fail "could not download $url/SHA256SUMS"

  # A line is "<64 hex>  <name>" (or "*<name>" in binary mode).
  expected=$(awk -v name="$asset" '$2 == name || $2 == "*" name { print $1; exit }' "$tmp/SHA256SUMS")
  if ! printf '%s' "$expected" | grep -Eq '^[0-9a-fA-F]{64}$'; then
    fail "SHA256SUMS of $version has no checksum for $asset"
  fi
  actual=$(sha256 "$tmp/$asset")
  if [ "$(printf '%s' "$expected" | tr 'A-F' 'a-f')" != "$actual" ]; then
    fail "checksum mismatch for $asset: SHA256SUMS says $expected, the download is $actual"
  fi
  say "checksum ok ($actual)"

  # mv onto a folder (or a link to one) would put the file inside it, not replace it.
  if [ -d "$dir/hel" ]; then
    fail "$dir/hel is a folder (or a link to one), not the hel command; move it away and run this again"
  fi
  mkdir -p "$dir" || fail "cannot create $dir"
  # Staged in the target folder, so that the final step is a rename within one file system: a
  # running hel or a concurrent install never sees a half-written file. It is tried there too,
  # not in $TMPDIR, which may be mounted noexec.
  staged=$(mktemp "$dir/.hel-install.XXXXXX") || fail "cannot write into $dir"
  cp "$tmp/$asset" "$staged" || fail "cannot write into $dir"
  chmod 755 "$staged" || fail "cannot make $staged executable"
  if ! reported=$("$staged" --version 2>&1); then
    fail "the downloaded $asset does not run on this machine"
  fi
  # Its first line, without control characters, for the message below.
  reported=$(printf '%s\n' "$reported" | head -n 1 | tr -d '\000-\037\177')
  mv -f "$staged" "$dir/hel" || fail "cannot replace $dir/hel"
  staged=""
  say "installed $dir/hel: $reported"

  case ":${PATH:-}:" in
    *":$dir:"*) ;;
    *)
      say "$dir is not on your PATH; add it, e.g. in ~/.profile or your shell's rc file:"
      say "  export PATH=\"$dir:\$PATH\""
      ;;
  esac
}

main "$@"
