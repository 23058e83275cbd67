// The weighted sum one output sample of a Lanczos pass takes (see LanczosTable.swift): its table
// row, at texel `entry` of `table` (binding 2), holds the first source sample k₀ and then `taps`
// weights four to a texel (padded with zero weights); source sample k is the texel at
// `origin + k·step` of `source`, k clamped to 0…count−1 (samples past an edge repeat the edge).
// A shader reading samples otherwise defines TAP(source, index) first.
#ifndef TAP
#define TAP(source, index) texelFetch(source, index)
#endif
vec4 weighted(samplerBuffer source, int entry, int taps, int origin, int step, int count) {
    int first = int(texelFetch(table, entry).r);
    vec4 sum = vec4(0.0);
    for (int t = 0; t < (taps + 3) / 4; t++) {
        vec4 w = texelFetch(table, entry + 1 + t);
        int k = first + 4 * t;
        sum += w.x * TAP(source, origin + clamp(k, 0, count - 1) * step)
             + w.y * TAP(source, origin + clamp(k + 1, 0, count - 1) * step)
             + w.z * TAP(source, origin + clamp(k + 2, 0, count - 1) * step)
             + w.w * TAP(source, origin + clamp(k + 3, 0, count - 1) * step);
    }
    return sum;
}
