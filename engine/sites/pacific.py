"""(to do)"""


def split(text):
    return []


def parse(text):
    raise NotImplementedError
