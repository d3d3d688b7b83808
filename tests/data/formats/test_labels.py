import pytest

from srl_zoo.data.formats import normalize_label


@pytest.mark.parametrize(
    "propbank, conll2005",
    [
        ("ARG0", "A0"),
        ("ARGM-TMP", "AM-TMP"),
        ("C-ARG1", "C-A1"),
        ("R-ARGM-LOC", "R-AM-LOC"),
        ("ARG1-DSP", "A1-DSP"),
        ("C-ARG1-DSP", "C-A1-DSP"),
        ("ARGA", "AA"),
        ("V", "V"),
        ("C-V", "C-V"),
    ],
)
def test_both_directions(propbank, conll2005):
    assert normalize_label(propbank, "conll2005") == conll2005
    assert normalize_label(conll2005, "propbank") == propbank
    assert normalize_label(conll2005, "conll2005") == conll2005
    assert normalize_label(propbank, None) == propbank


def test_unknown_convention_is_a_clear_error():
    with pytest.raises(ValueError, match="label_convention"):
        normalize_label("A0", "conll2008")
