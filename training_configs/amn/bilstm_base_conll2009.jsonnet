// AMN's base: the paper-size BiLSTM labeler on CoNLL-2009 without the memory (see amn.libsonnet).
local amn = import 'amn.libsonnet';
amn('conll2009', { memory: false })
