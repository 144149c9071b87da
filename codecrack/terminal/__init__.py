"""Terminal play: Rich rendering of views and a prompt for human seats."""
