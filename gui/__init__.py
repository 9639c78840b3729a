"""BagRoute's desktop GUI (PySide6 + pyqtgraph); imports the engine, never the other way round."""
