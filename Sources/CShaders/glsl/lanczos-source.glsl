// The horizontal Lanczos pass straight from the uploaded 8-bit pictures, for passes without a box
// shrink: the crop and quarter turns are an affine map of turned coordinates to source pixels
// (turned (x, y) is source pixel `origin + x·stepX + y·stepY` of the picture), so the taps of an
// output row walk the source with one step and no transform pass writes a copy first. The bytes
// are read one a texel (R8_UNORM; `channels` a pixel, tightly packed, picture f's from byte
// `sourceOffset + f·frameBytes`), RGBA alpha-premultiplied on request. Weights as taps.glsl
// reads them; working pictures out as target.glsl says, rows `stride` samples apart. Compiled as
// lanczos-source.comp (packed pictures, RGBA working pictures) and lanczos-source-plane.comp
// (planes of YUV pictures, one channel).
layout(local_size_x = 16, local_size_y = 16) in;

layout(push_constant) uniform Constants {
    int width, height;
    int stride;
    int frames;
    int taps;
    int tableOffset;
    uint sourceOffset;
    int frameBytes;
    int channels;
    int origin, stepX, stepY;
    int turnedWidth;
    int premultiply;
    int lastByte;
} p;

// Read-only pictures and tables are uniform texel buffers: software devices fetch them with vector
// gathers, where storage-buffer loads go one invocation at a time.
layout(binding = 0) uniform samplerBuffer source;
#include "target.glsl"
layout(binding = 2) uniform samplerBuffer table;

// Pixel `index` of the uploaded pictures (counted from `sourceOffset`), in 0…1.
vec4 pixel(int index) {
    int offset = int(p.sourceOffset) + index * p.channels;
#ifdef ONE_CHANNEL
    return vec4(texelFetch(source, offset).r);
#else
    float r = texelFetch(source, offset).r;
    if (p.channels == 1) return vec4(r, r, r, 1.0);
    // Clamped to the last byte: a grey picture's last pixel has no bytes after it.
    vec4 v = vec4(r, texelFetch(source, min(offset + 1, p.lastByte)).r, texelFetch(source, min(offset + 2, p.lastByte)).r,
                  p.channels == 4 ? texelFetch(source, min(offset + 3, p.lastByte)).r : 1.0);
    if (p.premultiply != 0) v.rgb *= v.a;
    return v;
#endif
}

#define TAP(source, index) pixel(index)
#include "taps.glsl"

vec4 filtered(int frame, ivec2 o);

#define OUTPUT filtered
#define STRIDE p.stride
#include "grid.glsl"

vec4 filtered(int frame, ivec2 o) {
    int entry = p.tableOffset + o.x * (1 + (p.taps + 3) / 4);
    int origin = frame * (p.frameBytes / p.channels) + p.origin + o.y * p.stepY;
    return 255.0 * weighted(source, entry, p.taps, origin, p.stepX, p.turnedWidth);
}
