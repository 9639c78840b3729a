"""The main window's own parts: declared actions and menus, the status line, docks, files
(recent, drag and drop, exports) and what the machine is."""
