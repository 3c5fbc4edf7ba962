# Helpers for host tests that need a pristine copy of the project.

# clean_copy DIR: the tracked files of this checkout (with uncommitted edits)
# copied into DIR, without build products.  Outside a git work tree (a
# release tarball) it is the whole tree less what Kbuild and the tests write.
clean_copy() {
	local dst=$1
	mkdir -p "$dst"
	if git -C "$TOP" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		(cd "$TOP" && git ls-files -z --cached --others --exclude-standard |
			xargs -0 tar cf - 2>/dev/null) | (cd "$dst" && tar xf -)
	else
		tar -C "$TOP" -cf - --exclude=./build --exclude='*.o' \
			--exclude='*.ko' --exclude='*.mod' --exclude='*.mod.c' \
			--exclude='.*.cmd' --exclude=Module.symvers \
			--exclude=modules.order --exclude=.tmp_versions . |
			(cd "$dst" && tar xf -)
	fi
}

# checkpatch_dir: a directory holding checkpatch.pl and its data files from
# Debian's linux-source-6.12, unpacked once into the cache.
checkpatch_dir() {
	local cache=${XDG_CACHE_HOME:-$HOME/.cache}/dm-crypt-inline/checkpatch
	local tarball
	tarball=$(ls /usr/src/linux-source-6.12*.tar.* 2>/dev/null | head -n 1)
	[ -n "$tarball" ] || return 1
	if [ ! -x "$cache/scripts/checkpatch.pl" ] || [ "$cache/.stamp" -ot "$tarball" ]; then
		rm -rf "$cache" && mkdir -p "$cache"
		tar xf "$tarball" -C "$cache" --strip-components=1 \
			--wildcards '*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
			'*/scripts/const_structs.checkpatch' || return 1
		touch "$cache/.stamp"
	fi
	echo "$cache"
}
