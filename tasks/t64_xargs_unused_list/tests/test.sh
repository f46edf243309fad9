#!/bin/bash
# Goal: the four public/img entries of the report are deleted.
cd /workspace || exit 1
left=""
for f in public/img/old/banner-2019.png public/img/old/banner-2020.png public/img/icons/cart-old.png public/img/icons/star-outline.png; do
  [ -e "$f" ] && left="$left $f"
done
[ -z "$left" ] || { echo "still present:$left"; exit 1; }
echo "ok: unused images under public/img removed"
