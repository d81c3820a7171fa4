"""The Discord window: slash-command and button plumbing, the table message, private panels and replies.

It renders the presentation layer's table model as Discord messages and sends presses back to the host."""
