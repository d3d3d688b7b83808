"""Data: pure-Python CoNLL formats, the frames field and the registered dataset readers."""

from srl_zoo.data.dataset_readers import Conll2005Reader, Conll2009Reader, Conll2012Reader, SrlReader
from srl_zoo.data.fields import SrlFramesField
