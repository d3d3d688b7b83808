"""The names a request's `Host` may give, by the address the service is bound to."""

import socket

from srl_zoo.serving.hosts import LOOPBACK_NAMES, allowed_hosts, host_name


def test_loopback_takes_its_names_and_what_is_added():
    assert allowed_hosts("127.0.0.1") == LOOPBACK_NAMES
    assert allowed_hosts("::1", ["srl.example", " "]) == LOOPBACK_NAMES | {"srl.example"}
    assert allowed_hosts("localhost") == LOOPBACK_NAMES


def test_one_address_takes_it_and_this_machines_names():
    hosts = allowed_hosts("10.1.2.3")
    assert hosts is not None and {"10.1.2.3", socket.gethostname().lower()} | LOOPBACK_NAMES <= hosts
    assert "evil.example" not in hosts


def test_every_interface_takes_any_name_unless_some_are_given():
    assert allowed_hosts("0.0.0.0") is None and allowed_hosts("::") is None
    assert allowed_hosts("0.0.0.0", ["[2001:db8::1]", "SRL.example"]) == LOOPBACK_NAMES | {"2001:db8::1", "srl.example"}


def test_the_port_and_brackets_are_not_the_name():
    assert host_name("LocalHost:8000") == "localhost"
    assert host_name("[::1]:8000") == "::1" and host_name("[::1]") == "::1"
    assert host_name("::1") == "::1" and host_name("") == ""
