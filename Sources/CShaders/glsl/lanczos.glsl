// One axis of a resize by a table of filter weights (see LanczosTable.swift: Lanczos3, centres
// aligned, the kernel stretched when reducing, weights normalised). For output sample o the
// table holds, in 4-float texels, the first source sample it reads, then `taps` weights four to
// a texel (padded with zero weights); samples past an edge repeat the edge. The table starts at
// texel `tableOffset` of its buffer (several tables share one). Working pictures in and out as
// target.glsl says (sums in 32 bits); a grid-stride loop over all output samples. Compiled as
// lanczos.comp and, for one-channel planes, lanczos-plane.comp.
layout(local_size_x = 16, local_size_y = 16) in;

// Read-only pictures and tables are uniform texel buffers: software devices fetch them with vector
// gathers, where storage-buffer loads go one invocation at a time.
layout(binding = 0) uniform samplerBuffer source;
#include "target.glsl"

layout(binding = 2) uniform samplerBuffer table;

layout(push_constant) uniform Constants {
    int sourceWidth, sourceHeight;
    int width, height;
    int vertical;
    int taps;
    int frames;
    int tableOffset;
} p;

vec4 filtered(int frame, ivec2 o);

#define OUTPUT filtered
#include "grid.glsl"

vec4 filtered(int frame, ivec2 o) {
    int along = p.vertical != 0 ? o.y : o.x;
    int count = p.vertical != 0 ? p.sourceHeight : p.sourceWidth;
    int texels = (p.taps + 3) / 4;
    int entry = p.tableOffset + along * (1 + texels);
    int first = int(texelFetch(table, entry).r);
    int base = frame * p.sourceWidth * p.sourceHeight;
    // Successive taps step one row (vertical) or one sample (horizontal) through the source.
    int step = p.vertical != 0 ? p.sourceWidth : 1;
    int origin = base + (p.vertical != 0 ? o.x : o.y * p.sourceWidth);
    vec4 sum = vec4(0.0);
    for (int t = 0; t < texels; t++) {
        vec4 w = texelFetch(table, entry + 1 + t);
        int k = first + 4 * t;
        sum += w.x * texelFetch(source, origin + clamp(k, 0, count - 1) * step)
             + w.y * texelFetch(source, origin + clamp(k + 1, 0, count - 1) * step)
             + w.z * texelFetch(source, origin + clamp(k + 2, 0, count - 1) * step)
             + w.w * texelFetch(source, origin + clamp(k + 3, 0, count - 1) * step);
    }
    return sum;
}
