#!/usr/bin/env bash
# The live app on the GPU host, in race mode with every variant that runs there, offscreen:
# frames/s, each variant's time per recompute, the latency from a change of the bags to the new
# routes drawn, and a screenshot — then the same with race mode off and a GPU variant as the
# dispatcher's (the latency a user of the GPU sees); first of all, on a fresh machine, the GPU's
# first use (benchmarks/first_use.py). Run from the repository root:
#   bash benchmarks/live_app.sh QT_BUNDLE.tar.xz OUTDIR [SECONDS] [GPU_VARIANT]
set -uo pipefail
bundle=${1:?usage: live_app.sh QT_BUNDLE.tar.xz OUTDIR [SECONDS] [GPU_VARIANT]}
out=${2:?} seconds=${3:-12} gpu_variant=${4:-gpu-blocked}
mkdir -p "$out"
qt=/tmp/bagroute-qt
rm -rf $qt && mkdir -p $qt/missing
python3 -c "import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])" "$bundle" $qt || exit 3
site=$qt/site
export LD_LIBRARY_PATH=$site/PySide6/Qt/lib:$site/PySide6:$site/shiboken6
for pass in 1 2 3; do   # a bundled library may itself need another the host lacks
    for f in $site/PySide6/*.so* $site/PySide6/Qt/lib/* $site/PySide6/Qt/plugins/platforms/* \
             $site/shiboken6/*.so* $qt/missing/*; do
        [ -e "$f" ] && ldd "$f" 2>/dev/null | awk '/not found/{print $1}'
    done | sort -u | while read -r name; do
        if [ -e "$qt/syslibs/$name" ]; then ln -sf "$qt/syslibs/$name" "$qt/missing/$name"
        else echo "not on this host and not bundled: $name"; fi
    done
    export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$qt/missing
done
echo "system libraries taken from the bundle: $(ls $qt/missing | tr '\n' ' ')"
sed "s|@FONTS@|$qt/fonts|" $qt/fonts.conf.in > $qt/fonts.conf
export FONTCONFIG_FILE=$qt/fonts.conf QT_QPA_PLATFORM=offscreen PYTHONPATH=$site:${PYTHONPATH:-}
python3 -c "
import sys, PySide6, pyqtgraph
from PySide6.QtWidgets import QApplication
app = QApplication([])
print('Python', sys.version.split()[0], '· PySide6', PySide6.__version__, '· pyqtgraph',
      pyqtgraph.__version__, '· platform', app.platformName())" || exit 4
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
nproc
# first use on this machine (run it on a fresh one): the cold first call and the app's first route
python3 -m benchmarks.first_use hub-atl --variant "$gpu_variant" | tee "$out/first-use.json"
python3 main.py frame-rate airports/hub-atl.json --speeds 600 --race off --seconds "$seconds" \
    --variant "$gpu_variant" --json "$out/gpu-alone.json"
if [ "$SECONDS" -lt 330 ]; then
    python3 main.py frame-rate airports/hub-atl.json --speeds 600 --race on --seconds "$seconds" \
        --screenshot "$out/gpu-race.png" --json "$out/gpu-race.json"
else
    echo "skipped the race run: ${SECONDS}s used"
fi
echo "done in ${SECONDS}s"
