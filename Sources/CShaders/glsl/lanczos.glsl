// One axis of a resize by a table of filter weights (see LanczosTable.swift: Lanczos3, centres
// aligned, the kernel stretched when reducing, weights normalised). For output sample o the
// table holds, in 4-float texels, the first source sample it reads, then `taps` weights four to
// a texel (padded with zero weights); samples past an edge repeat the edge. The table starts at
// texel `tableOffset` of its buffer (several tables share one). Working pictures in, tightly
// packed; out as target.glsl says, rows `stride` samples apart (sums in 32 bits); a grid-stride
// loop over all output samples. Compiled as lanczos.comp, lanczos-plane.comp (one-channel
// planes) and lanczos-rgba8.comp (the last pass of packed pictures, finished to RGBA8).
layout(local_size_x = 16, local_size_y = 16) in;

layout(push_constant) uniform Constants {
    int sourceWidth, sourceHeight;
    int width, height;
    int stride;
    int vertical;
    int taps;
    int frames;
    int tableOffset;
    // What finished() does, for RGBA8 out.
    int unpremultiply, adjust;
    float gain, offset, saturation;
} p;

// Read-only pictures and tables are uniform texel buffers: software devices fetch them with vector
// gathers, where storage-buffer loads go one invocation at a time.
layout(binding = 0) uniform samplerBuffer source;
#include "target.glsl"

layout(binding = 2) uniform samplerBuffer table;
#include "taps.glsl"

vec4 filtered(int frame, ivec2 o);

#define OUTPUT filtered
#define STRIDE p.stride
#include "grid.glsl"

vec4 filtered(int frame, ivec2 o) {
    int along = p.vertical != 0 ? o.y : o.x;
    int count = p.vertical != 0 ? p.sourceHeight : p.sourceWidth;
    int entry = p.tableOffset + along * (1 + (p.taps + 3) / 4);
    int base = frame * p.sourceWidth * p.sourceHeight;
    // Successive taps step one row (vertical) or one sample (horizontal) through the source.
    int step = p.vertical != 0 ? p.sourceWidth : 1;
    int origin = base + (p.vertical != 0 ? o.x : o.y * p.sourceWidth);
    return weighted(source, entry, p.taps, origin, step, count);
}
