#!/usr/bin/env bash
# The demo's samples, written to FOLDER: photographs from Debian's lomiri-wallpapers-16.04
# (the Ubuntu 16.04 wallpaper contest's; CC BY 4.0, CC BY-SA 4.0 and CC0 1.0, as its
# copyright file says), and, since the package has none of these kinds, four files made from
# them with libvips: a Display P3 JPEG, an AVIF, a HEIC and an animated GIF. SOURCES.tsv
# names each file's photographer and licence, and how it was made. Safe to run twice.
set -euo pipefail
out=${1:?usage: make_samples.sh FOLDER}
src=${OSPREY_WALLPAPERS:-/usr/share/backgrounds}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# name <TAB> file in the package <TAB> photographer and licence
photos="bridge.jpg	Bridge_by_Sander_Klootwijk.jpg	Sander Klootwijk, CC BY-SA 4.0
dragonfly.jpg	Dragonfly_by_Bolly.jpg	Bolly, CC BY-SA 4.0
fig.jpg	Picture_0B_by_freespace.jpg	Trevor Freespace, CC BY 4.0
brushes.jpg	Picture_1A_by_freespace.jpg	Trevor Freespace, CC BY 4.0
wine.jpg	Wine_by_Jakkub_Mede.jpg	Jakub Mede, CC BY 4.0
aitzgorri.jpg	aitzgorri_by_Aitzol_Berasategi.jpg	Aitzol Berasategi, CC BY 4.0
dandelions.jpg	seeding_by_Clements_Engelhardt.jpg	Clemens Engelhardt, CC0 1.0
sunset.jpg	sunset_by_Aitzol_Berasategi.jpg	Aitzol Berasategi, CC BY 4.0"

sources=""
while IFS=$'\t' read -r name file credit; do
    cp "$src/$file" "$out/$name"
    sources+="$name	$credit (photograph, as the package ships it)"$'\n'
done <<< "$photos"

made() { sources+="$1	$2"$'\n'; }
vips thumbnail "$src/life_by_Aitzol_Berasategi.jpg" "$work/stream.v" 2400
vips icc_transform "$work/stream.v" "$out/stream-p3.jpg[Q=92]" p3
made stream-p3.jpg "Aitzol Berasategi, CC BY 4.0; converted to Display P3 with libvips (icc_transform)"
vips thumbnail "$src/picosdeeuropa_by_Aitzol_Berasategi.jpg" "$work/peaks.v" 1600
vips heifsave "$work/peaks.v" "$out/peaks.avif" --compression av1 --Q 60
made peaks.avif "Aitzol Berasategi, CC BY 4.0; made AVIF with libvips (heifsave, AV1)"
vips thumbnail "$src/friends_by_Aitzol_Berasategi.jpg" "$work/teddies.v" 1600
vips heifsave "$work/teddies.v" "$out/teddies.heic" --compression hevc --Q 60
made teddies.heic "Aitzol Berasategi, CC BY 4.0; made HEIC with libvips (heifsave, HEVC)"
frames=()
for name in bridge dragonfly fig brushes aitzgorri sunset; do
    vips thumbnail "$out/$name.jpg" "$work/$name.png" 320 --height 240 --crop centre
    frames+=("$work/$name.png")
done
vips arrayjoin "${frames[*]}" "$work/strip.v" --across 1
vips gifsave "$work/strip.v" "$out/slideshow.gif" --page-height 240
made slideshow.gif "six of these photographs at 320×240, made an animated GIF with libvips (arrayjoin, gifsave)"
printf '%s' "$sources" > "$out/SOURCES.tsv"
echo "make_samples: $(ls "$out" | wc -l) files in $out"
