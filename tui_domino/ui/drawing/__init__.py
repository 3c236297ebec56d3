"""Pure drawing of boards and hands onto a character canvas (no Textual here)."""
