# lib.sh - set-up shared by scripts/demo, scripts/test, scripts/bench and
# scripts/fuzz.  Sourced, not run.  Every step is skipped when its result
# is already there, so a second run costs only an incremental make.

set -euo pipefail

NPU_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
NPU_BUILD=${NPU_BUILD:-$NPU_TOP/build}
NPU_JOBS=${NPU_JOBS:-$(nproc 2>/dev/null || echo 2)}

# Debian packages the build, the tests and the tools need.
NPU_DEBS="build-essential autoconf automake libtool pkg-config check
libsubunit-dev libjansson-dev libsqlite3-dev sqlite3 libelf-dev libinih-dev
libopenblas-dev clang libclang-rt-14-dev gnuplot-nox python3 python3-numpy
python3-torch slurm-wlm munge"

npu_say() { printf 'npusim: %s\n' "$*" >&2; }

# Installs missing Debian packages (as root), or prints the command to run.
npu_deps() {
	local missing=() p
	for p in $NPU_DEBS ${NPU_EXTRA_DEBS:-}; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	local cmd="apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends ${missing[*]}"
	if [ "$(id -u)" != 0 ]; then
		npu_say "missing packages; as root run:"
		printf '  apt-get -o DPkg::Lock::Timeout=600 update && %s\n' "$cmd" >&2
		exit 2
	fi
	npu_say "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get -o DPkg::Lock::Timeout=600 update -qq
	# shellcheck disable=SC2086
	$cmd >/dev/null
}

# Generates configure when it is missing or older than its inputs.
npu_autoreconf() {
	local f
	if [ -x "$NPU_TOP/configure" ]; then
		for f in "$NPU_TOP/configure.ac" "$NPU_TOP/Makefile.am" "$NPU_TOP"/mk/*.am; do
			[ "$f" -nt "$NPU_TOP/configure" ] && break
			f=
		done
		[ -z "${f:-}" ] && return 0
	fi
	npu_say "autoreconf"
	(cd "$NPU_TOP" && autoreconf -fi >/dev/null 2>&1) ||
		(cd "$NPU_TOP" && autoreconf -fi)
}

# npu_configure DIR [configure args...]: configures an out-of-tree build.
npu_configure() {
	local dir=$1; shift
	mkdir -p "$dir"
	if [ ! -f "$dir/Makefile" ] || [ "$NPU_TOP/configure" -nt "$dir/Makefile" ]; then
		npu_say "configure in ${dir#"$NPU_TOP"/}"
		(cd "$dir" && "$NPU_TOP/configure" -q "$@")
	fi
}

# Everything a user needs before running the tools.
npu_setup() {
	npu_deps
	npu_autoreconf
	npu_configure "$NPU_BUILD" --enable-werror
	make -s -C "$NPU_BUILD" -j"$NPU_JOBS" >/dev/null
}
