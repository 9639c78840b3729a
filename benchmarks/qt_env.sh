# The trimmed Qt (benchmarks/qt_bundle.sh) unpacked and put on the paths, offscreen, for the GPU host,
# which has no PySide6: source it with the bundle's path; it returns 3 when the bundle cannot be
# unpacked and 4 when Qt does not start.
#   source benchmarks/qt_env.sh QT_BUNDLE.tar.xz
bundle=${1:?usage: source qt_env.sh QT_BUNDLE.tar.xz}
qt=/tmp/bagroute-qt
rm -rf $qt && mkdir -p $qt/missing
python3 -c "import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])" "$bundle" $qt || return 3
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
      pyqtgraph.__version__, '· platform', app.platformName())" || return 4
