#!/usr/bin/env bash
# A trimmed Qt for the GPU host (Python 3.12, no PySide6, no network): PySide6-Essentials and
# shiboken6 (abi3 wheels, manylinux_2_28) cut down to QtCore, QtGui, QtWidgets and the two small
# OpenGL modules pyqtgraph imports unconditionally, their Qt libraries (ICU included), the
# offscreen platform plugin; plus pyqtgraph, fallback copies of the system libraries they link
# (used on the host only where its own are missing; never glibc), and DejaVu fonts.
#   bash benchmarks/qt_bundle.sh OUT.tar.xz
set -euo pipefail
out=$(realpath -m "${1:?usage: qt_bundle.sh OUT.tar.xz}")
# The Qt CI tests: its lower-bound pass (.ci/run) installs these pins from .ci/lower-bounds.txt.
pins=$(grep -E '^(PySide6-Essentials|shiboken6|pyqtgraph)==' \
       "$(dirname "$(realpath "$0")")/../.ci/lower-bounds.txt")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
python3 -m pip download -q --only-binary=:all: --python-version 3.12 \
    --platform manylinux_2_28_x86_64 --no-deps -d wheels \
    $pins
mkdir -p full b/site/PySide6/Qt/lib b/site/PySide6/Qt/plugins/platforms b/syslibs b/fonts
for w in wheels/*.whl; do python3 -m zipfile -e "$w" full; done
P=full/PySide6
cp $P/__init__.py $P/_config.py $P/_git_pyside_version.py $P/libpyside6.abi3.so.* b/site/PySide6/
cp -r $P/support b/site/PySide6/
for m in QtCore QtGui QtWidgets QtOpenGL QtOpenGLWidgets; do cp $P/$m.abi3.so b/site/PySide6/; done
for l in Core Gui Widgets DBus OpenGL OpenGLWidgets; do cp $P/Qt/lib/libQt6$l.so.6 b/site/PySide6/Qt/lib/; done
cp $P/Qt/lib/libicu*.so.* b/site/PySide6/Qt/lib/
cp $P/Qt/plugins/platforms/libqoffscreen.so b/site/PySide6/Qt/plugins/platforms/
cp -r full/shiboken6 full/pyqtgraph b/site/
rm -rf b/site/pyqtgraph/examples b/site/pyqtgraph/jupyter b/site/pyqtgraph/opengl
find b -name __pycache__ -prune -exec rm -rf {} +
# system libraries the Qt libraries need, from this machine, as a fallback for the host
export LD_LIBRARY_PATH=$PWD/b/site/PySide6/Qt/lib:$PWD/b/site/PySide6:$PWD/b/site/shiboken6
find b/site -name "*.so*" -exec ldd {} \; | awk '/=> \//{print $3}' | sort -u \
    | grep -v "$PWD" | grep -v -E '/(libc|libm|libpthread|libdl|librt|ld-linux[^/]*|libgcc_s|libstdc\+\+)\.so' \
    | xargs -I{} cp -L {} b/syslibs/
cp /usr/share/fonts/truetype/dejavu/DejaVuSans{,-Bold}.ttf b/fonts/
cat > b/fonts.conf.in <<'CONF'
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>@FONTS@</dir>
  <dir>/usr/share/fonts</dir>
  <cachedir>/tmp/bagroute-fontconfig-cache</cachedir>
</fontconfig>
CONF
tar -cJf "$out" -C b .
echo "$out: $(du -h "$out" | cut -f1) ($(du -sh b | cut -f1) unpacked)"
