// The vertical Lanczos pass of one-channel planes, four neighbouring columns at once: the planes
// are read as RGBA32F texels, four samples of a row a texel (rows padded to a multiple of four
// samples by the horizontal pass), so one fetch and one weight serve four output samples. The
// table (binding `table`, as lanczos.glsl reads it) gives output row `row` its first source row
// and weights; rows past an edge repeat the edge.
#include "taps.glsl"

// The filtered samples of columns 4·`column`…4·`column`+3 of output row `row` of the plane whose
// first texel is `base`, `columns` texels a row and `rows` rows; its table's rows start at texel
// `tableOffset` and have `taps` weights.
vec4 filteredColumns(samplerBuffer source, int base, int columns, int rows, int tableOffset, int taps, int row, int column) {
    return weighted(source, tableOffset + row * (1 + (taps + 3) / 4), taps, base + column, columns, rows);
}

// A filtered sample back to 8 bits: round_half_even(v) clamped to 0…255.
vec4 eightBit(vec4 v) { return clamp(roundEven(v), 0.0, 255.0); }
