# Which Debian kernels the project builds for and boots as guests.
# Sourced by scripts/deps, scripts/vm and the Makefile helpers.

KERNEL_SERIES="${KERNEL_SERIES:-6.1 6.12}"
# The series whose PREEMPT_RT flavour the tests also run on.
RT_SERIES=6.12

# newest_kernel SERIES [FLAVOUR]: the newest ABI of a kernel series that the
# archive offers, e.g. "6.1.0-57-amd64" or "6.12.117+deb12-amd64".
newest_kernel() {
	local series=$1 flavour=${2:-amd64} re
	case $series in
	6.1) re="^linux-image-(6\.1\.0-[0-9]+-$flavour)-unsigned\$" ;;
	*) re="^linux-image-(${series//./\\.}\.[0-9]+\+deb[0-9]+-$flavour)-unsigned\$" ;;
	esac
	{
		apt-cache pkgnames linux-image- 2>/dev/null
		dpkg-query -W -f='${Package}\n' 'linux-image-*' 2>/dev/null || true
	} | sed -nE "s/$re/\1/p" | sort -uV | tail -n 1
}

# installed_kernel SERIES [FLAVOUR]: newest installed kernel of a series that
# has both its image and its headers.
installed_kernel() {
	local series=$1 flavour=${2:-amd64} v
	for v in $(ls /lib/modules 2>/dev/null | sort -rV); do
		[[ $v =~ ^${series//./\\.}[.-][0-9]+(\+deb[0-9]+)?-$flavour$ ]] ||
			[[ $v =~ ^${series//./\\.}\.[0-9]+-[0-9]+-$flavour$ ]] || continue
		[ -e "/boot/vmlinuz-$v" ] && [ -d "/lib/modules/$v/build" ] &&
			{ echo "$v"; return 0; }
	done
	return 1
}
