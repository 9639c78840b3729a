"""The controls of every problem's own options (engine.bench.options), built from their
declarations: a drop-down for a ``Choice``, a spin box for ``Steps``, a line edit for ``Words``.
Problems that declare the same keyword share its control (sssp and mst: the graph families)."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QFormLayout, QLineEdit, QSpinBox, QWidget

from engine.bench.options import Choice, Steps


def _control(option) -> QWidget:
    if isinstance(option, Choice):
        w = QComboBox()
        w.addItems(list(option.choices))
        w.setCurrentText(option.default)
    elif isinstance(option, Steps):
        w = QSpinBox()
        w.setRange(option.low, option.high)
        w.setValue(option.default)
        w.setSuffix(option.suffix)
        w.setSpecialValueText(option.off)
    else:
        w = QLineEdit(option.default)
    w.setToolTip(option.tip)
    return w


def text_of(w: QWidget) -> str:
    """What a control shows, as ``Option.value`` reads it."""
    if isinstance(w, QComboBox):
        return w.currentText()
    return str(w.value()) if isinstance(w, QSpinBox) else w.text()


def set_text(w: QWidget, text: str) -> None:
    """Show ``text`` (a choice not offered, or a bad number, leaves the control as it was)."""
    if isinstance(w, QComboBox):
        if w.findText(text) >= 0:
            w.setCurrentText(text)
    elif isinstance(w, QSpinBox):
        if str(text).lstrip("-").isdigit():
            w.setValue(int(text))
    else:
        w.setText(text)


class OptionControls:
    """One control per option keyword of the given problems (name -> problem module), each a
    row of ``form``; only the chosen problem's rows are shown."""

    def __init__(self, problems: dict, form: QFormLayout):
        self._problems, self._form = problems, form
        self.options = {}   # keyword -> its declaration (the first problem's)
        self.widgets = {}   # keyword -> its control
        for bench in problems.values():
            for option in bench.OPTIONS:
                if option.key not in self.widgets:
                    self.options[option.key] = option
                    self.widgets[option.key] = _control(option)
                    form.addRow(option.label, self.widgets[option.key])

    def show_for(self, name: str) -> None:
        own = {o.key for o in self._problems[name].OPTIONS}
        for key, w in self.widgets.items():
            self._form.setRowVisible(w, key in own)

    def values(self, name: str) -> tuple:
        """(keyword, value) of each of the problem's options; ValueError saying what to fix."""
        return tuple((o.key, o.value(text_of(self.widgets[o.key])))
                     for o in self._problems[name].OPTIONS)

    def set_texts(self, texts: dict) -> None:
        for key, text in texts.items():
            set_text(self.widgets[key], text)

    def restore(self, settings) -> None:
        for key, o in self.options.items():
            set_text(self.widgets[key], settings.value(o.setting, str(o.default), type=str))

    def save(self, settings) -> None:
        for key, o in self.options.items():
            settings.setValue(o.setting, text_of(self.widgets[key]))
