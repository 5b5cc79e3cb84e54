#!/usr/bin/env bash
# The benches' generated repository, sourced by benches/*.sh:
#   . benches/gen_tree.sh; gen_tree DIR FILES BYTES_PER_FILE SCRATCH
# makes DIR a git repository of one commit holding FILES text-like files of BYTES_PER_FILE
# bytes each (base64 of random bytes: compresses about as poorly as dense source does) in 100
# folders, the first folder's files executable, plus a folder and a file symlink. SCRATCH holds the random
# source while it is split (removed after).
gen_tree() {
  local repo=$1 files=$2 per=$3 scratch=$4
  mkdir -p "$repo"
  echo "generating $files files x $per bytes in $repo ..." >&2
  head -c $(( files * per * 3 / 4 * 100 / 101 )) /dev/urandom | base64 -w 100 > "$scratch/big"
  (
    cd "$repo"
    split -b "$per" -a 6 -d "$scratch/big" f_
    i=0
    for f in f_*; do
      d=$(printf 'd%03d' $(( i % 100 )))
      mkdir -p "$d"
      mv "$f" "$d/$f.txt"
      i=$(( i + 1 ))
    done
    chmod +x d000/*.txt
    ln -s d001 link_dir
    ln -s ../d002/f_000002.txt d003/link_file
    git init -q -b main .
    git -c core.autocrlf=false add -A
    git -c user.name=b -c user.email=b@localhost commit -qm bench
  )
  rm -f "$scratch/big"
  echo "repo: $(git -C "$repo" ls-files | wc -l) files, $(du -sm --exclude=.git "$repo" | cut -f1) MB in the tree" >&2
}
