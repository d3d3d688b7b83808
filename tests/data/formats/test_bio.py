from srl_zoo.data.formats import SrlSpan, bio_to_spans, spans_to_bio


def test_spans_and_bio_round_trip():
    spans = [SrlSpan("A0", 0, 1), SrlSpan("V", 2, 2), SrlSpan("C-A1", 4, 6)]
    tags = spans_to_bio(spans, 8)
    assert tags == ["B-A0", "I-A0", "B-V", "O", "B-C-A1", "I-C-A1", "I-C-A1", "O"]
    assert bio_to_spans(tags) == spans


def test_stray_inside_tag_starts_a_span():
    assert bio_to_spans(["I-A0", "I-A1", "B-A1", "O", "I-A1"]) == [
        SrlSpan("A0", 0, 0),
        SrlSpan("A1", 1, 1),
        SrlSpan("A1", 2, 2),
        SrlSpan("A1", 4, 4),
    ]


def test_overlapping_spans_keep_the_first():
    assert spans_to_bio([SrlSpan("A0", 0, 2), SrlSpan("A1", 1, 1)], 3) == ["B-A0", "I-A0", "I-A0"]
