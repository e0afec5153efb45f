"""FX graph utilities shared by every magi pass: node construction with fake values, layout
helpers, graph marks, symbolic equality, padded-conv operands and graph predicates."""
