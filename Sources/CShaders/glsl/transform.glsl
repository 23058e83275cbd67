// Crop, quarter turns and an optional whole-factor box shrink, exactly: 8-bit grey (one plane
// of a YUV picture), RGB or RGBA pictures in (tightly packed, one after another from byte
// `sourceOffset`), working pictures out as target.glsl says (grey in every colour channel;
// alpha-premultiplied on request, as the Lanczos resize needs). Compiled as transform.comp and,
// for one-channel planes, transform-plane.comp.
// Each invocation walks the output pixels of all pictures in a grid-stride loop (no division),
// so a dispatch needs few workgroups (software devices pay for each one). Turns are clockwise: turned (x, y) comes from the crop's (y, h-1-x) for one turn.
layout(local_size_x = 16, local_size_y = 16) in;

// Read-only pictures and tables are uniform texel buffers: software devices fetch them with vector
// gathers, where storage-buffer loads go one invocation at a time.
layout(binding = 0) uniform usamplerBuffer source;
#include "target.glsl"

layout(push_constant) uniform Constants {
    int sourceWidth, sourceHeight, channels;
    int cropX, cropY, cropWidth, cropHeight;
    int turns;
    int shrinkX, shrinkY;
    int width, height;
    int premultiply;
    int frames;
    uint sourceOffset;
} p;

vec4 transformed(int frame, ivec2 o);

float byteAt(uint offset) {
    return float((texelFetch(source, int(offset >> 2)).r >> ((offset & 3u) * 8u)) & 255u);
}

vec4 pixelAt(uint index) {
    uint offset = p.sourceOffset + index * uint(p.channels);
    if (p.channels == 1) {
        float grey = byteAt(offset);
        return vec4(grey, grey, grey, 255.0);
    }
    return vec4(byteAt(offset), byteAt(offset + 1u), byteAt(offset + 2u), p.channels == 4 ? byteAt(offset + 3u) : 255.0);
}

#define OUTPUT transformed
#include "grid.glsl"

vec4 transformed(int frame, ivec2 o) {
    bool swaps = (p.turns & 1) == 1;
    int turnedWidth = swaps ? p.cropHeight : p.cropWidth;
    int turnedHeight = swaps ? p.cropWidth : p.cropHeight;
    uint base = uint(frame) * uint(p.sourceWidth * p.sourceHeight);
    vec4 sum = vec4(0.0);
    for (int j = 0; j < p.shrinkY; j++) {
        for (int i = 0; i < p.shrinkX; i++) {
            int tx = min(o.x * p.shrinkX + i, turnedWidth - 1);
            int ty = min(o.y * p.shrinkY + j, turnedHeight - 1);
            ivec2 c;
            if (p.turns == 1) c = ivec2(ty, p.cropHeight - 1 - tx);
            else if (p.turns == 2) c = ivec2(p.cropWidth - 1 - tx, p.cropHeight - 1 - ty);
            else if (p.turns == 3) c = ivec2(p.cropWidth - 1 - ty, tx);
            else c = ivec2(tx, ty);
            vec4 v = pixelAt(base + uint((p.cropY + c.y) * p.sourceWidth + p.cropX + c.x));
            if (p.premultiply != 0) v.rgb *= v.a / 255.0;
            sum += v;
        }
    }
    return sum / float(p.shrinkX * p.shrinkY);
}
