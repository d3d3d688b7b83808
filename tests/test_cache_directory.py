"""Where the scorer, GloVe and MiniLM are looked for: the checkout's `.cache` here, `$SRL_ZOO_CACHE` when set,
the user's cache folder for an installed package (not `site-packages/.cache`)."""

import os

from srl_zoo import cache_directory as module
from srl_zoo.cache_directory import cache_directory
from tests.conftest import REPO_ROOT


def test_a_checkout_uses_its_own_cache_folder():
    assert cache_directory({}) == os.path.join(REPO_ROOT, ".cache")


def test_the_variable_moves_it():
    assert cache_directory({"SRL_ZOO_CACHE": "/data/srl"}) == "/data/srl"


def test_an_installed_package_uses_the_users_cache_folder(monkeypatch, tmp_path):
    site_packages = tmp_path / "site-packages"
    (site_packages / "srl_zoo").mkdir(parents=True)
    monkeypatch.setattr(module, "_CHECKOUT", str(site_packages))
    assert cache_directory({"XDG_CACHE_HOME": "/home/me/.cache"}) == "/home/me/.cache/srl_zoo"
    assert cache_directory({}) == os.path.join(os.path.expanduser("~"), ".cache", "srl_zoo")
