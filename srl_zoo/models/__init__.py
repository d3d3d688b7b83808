"""The shared `srl` Model."""

from srl_zoo.models.srl_model import SrlModel
