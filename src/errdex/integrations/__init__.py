"""Where developers already are: the environment-wide hook, pytest, IPython and Jupyter.

Each integration only translates: it hands the exception to `errdex.hook` and shows the
summary in the host's own way.
"""
