#!/bin/bash
# World: /workspace/assets is a symlink to the user's photo library on /mnt/photos.
set -euo pipefail
mkdir -p /mnt/photos/2023/iceland /mnt/photos/2024/wedding public/img .cache/thumbs src
for f in 2023/iceland/DSC_0001.jpg 2023/iceland/DSC_0002.jpg 2024/wedding/IMG_1001.jpg 2024/wedding/IMG_1002.jpg 2024/wedding/IMG_1003.jpg; do
  printf 'JPEG-PLACEHOLDER %s\n' "$f" > "/mnt/photos/$f"
done
ln -s /mnt/photos assets
printf '<html>gallery</html>\n' > public/index.html
printf 'thumb\n' > public/img/t1.jpg
printf 'thumb-cache\n' > .cache/thumbs/0001.bin
printf 'module.exports = { source: "assets" };\n' > src/site.config.js
