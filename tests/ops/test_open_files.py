"""A server may hold as many sockets as the system lets it (issue 29 §8): ``codecrack serve`` raises
its soft limit of open files, often 1,024 in a shell (a thousand players), to its hard limit."""

from __future__ import annotations

import resource

from codecrack.web.server import open_files_raised


def test_the_server_raises_its_open_files_limit_to_the_hard_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))
    try:
        raised = open_files_raised()
        assert resource.getrlimit(resource.RLIMIT_NOFILE) == (raised, hard)
        assert raised == hard or hard == resource.RLIM_INFINITY
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
