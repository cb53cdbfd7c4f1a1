"""Terminal rendering (rich) of views, actions and settlements."""
