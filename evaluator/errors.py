"""The one exception type users see: the CLI turns it into a one-line message and exit code 2."""


class SampyongError(ValueError):
    """A problem with the user's input or request, with a message fit to print as-is."""
