"""The variant combo box: unavailable variants are shown disabled, with their reason."""

from types import SimpleNamespace

from PySide6.QtCore import Qt

from gui.route.variant_picker import VariantPicker


def fake(name, reason=None):
    return SimpleNamespace(name=name, description=f"{name} does things", reason=reason,
                           available=reason is None)


VARIANTS = [fake("cpu-linear"), fake("cpu-blocked"),
            fake("gpu-blocked", "no CUDA driver or no NVIDIA GPU found")]


def test_unavailable_variant_is_disabled_with_its_reason_as_tooltip(qtbot):
    picker = VariantPicker(variants=VARIANTS)
    qtbot.addWidget(picker)
    item = picker.model().item(2)
    assert not item.isEnabled()
    assert "no CUDA driver" in item.data(Qt.ItemDataRole.ToolTipRole)
    assert picker.model().item(0).isEnabled() and picker.model().item(1).isEnabled()
    assert "gpu-blocked unavailable (no CUDA driver" in picker.unavailable_summary()


def test_default_is_the_best_variant_that_can_run(qtbot):
    picker = VariantPicker(variants=VARIANTS)
    qtbot.addWidget(picker)
    assert picker.current_variant() == "cpu-blocked"
    with_gpu = VariantPicker(variants=VARIANTS[:2] + [fake("gpu-blocked")])
    qtbot.addWidget(with_gpu)
    assert with_gpu.current_variant() == "gpu-blocked"


def test_an_unavailable_variant_cannot_be_selected(qtbot):
    picker = VariantPicker(variants=VARIANTS)
    qtbot.addWidget(picker)
    assert picker.set_current_variant("gpu-blocked") is False
    assert picker.current_variant() == "cpu-blocked"


def test_variant_changed_fires_once_per_real_change(qtbot):
    picker = VariantPicker(variants=VARIANTS)
    qtbot.addWidget(picker)
    seen = []
    picker.variantChanged.connect(seen.append)
    picker.set_current_variant("cpu-linear")
    picker.set_current_variant("cpu-linear")
    picker.set_current_variant("cpu-blocked", silent=True)
    assert seen == ["cpu-linear"]
    assert picker.current_variant() == "cpu-blocked"
