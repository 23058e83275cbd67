#version 450
// RGBA8 pictures, or YUV 4:2:0 pictures with a colour change, to planar YUV 4:2:0 by the video's
// own matrix and range (what the CPU path's swscale writes), given as rows: Y = lumaOffset + (lumaR, lumaG, lumaB)·RGB, Cb = 128 +
// (blueR, blueG, blueB)·RGB, Cr = 128 + (redR, redG, redB)·RGB (BT.601 limited range: luma
// (65.481, 128.553, 24.966)/255 from 16), each chroma sample from the mean of its 2×2 pixels,
// rounded. Each step of an invocation's grid-stride loop writes four bytes of one plane row.
// Per picture the planes lie Y, Cb, Cr, rows `lumaStride` and `chromaStride` bytes apart
// (multiples of 4).
// With `planar` set the source is YUV 4:4:4 pictures of the output size (the resized planes, chroma
// resized to the full size as the CPU path's swscale does before converting to RGB): per picture
// Y, Cb, Cr, each `height` rows `lumaStride` bytes apart. Each pixel goes back to 8-bit RGB by the
// inverse rows (R = lumaGain·(Y − lumaOffset) + redCr·(Cr − 128), G = … + greenCb·(Cb − 128) +
// greenCr·(Cr − 128), B = … + blueCb·(Cb − 128)), rounded as the CPU path's RGB24 picture is, and
// through the colour steps (colour.glsl) before the conversion above.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 16, local_size_y = 16) in;

#include "colour.glsl"

// Read-only pictures and tables are uniform texel buffers: software devices fetch them with vector
// gathers, where storage-buffer loads go one invocation at a time.
layout(binding = 0) uniform usamplerBuffer source;
layout(std430, binding = 1) writeonly buffer Target { uint target[]; };

layout(push_constant) uniform Constants {
    int width, height;
    int lumaStride, chromaStride;
    int chroma;
    int frames;
    float lumaR, lumaG, lumaB, lumaOffset;
    float blueR, blueG, blueB;
    float redR, redG, redB;
    int planar;
    float lumaGain, redCr, greenCb, greenCr, blueCb;
    float gain, offset, saturation;
} p;

void convert(int word, int row, int frame);

float byteAt(uint offset) {
    return float((texelFetch(source, int(offset >> 2)).r >> ((offset & 3u) * 8u)) & 255u);
}

vec3 rgb(int frame, int x, int y) {
    x = min(x, p.width - 1);
    y = min(y, p.height - 1);
    if (p.planar == 0) {
        uint v = texelFetch(source, int(uint(frame) * uint(p.width * p.height) + uint(y * p.width + x))).r;
        return vec3(float(v & 255u), float((v >> 8) & 255u), float((v >> 16) & 255u));
    }
    uint planeBytes = uint(p.lumaStride * p.height);
    uint luma = uint(frame) * 3u * planeBytes + uint(y * p.lumaStride + x);
    float yy = p.lumaGain * (byteAt(luma) - p.lumaOffset);
    float cb = byteAt(luma + planeBytes) - 128.0, cr = byteAt(luma + 2u * planeBytes) - 128.0;
    vec3 v = clamp(roundEven(vec3(yy + p.redCr * cr, yy + p.greenCb * cb + p.greenCr * cr, yy + p.blueCb * cb)), 0.0, 255.0);
    return adjusted(v, p.gain, p.offset, p.saturation);
}

uint byte(float v) { return uint(clamp(floor(v + 0.5), 0.0, 255.0)); }

void main() {
    int words = (p.chroma == 0 ? p.lumaStride : p.chromaStride) / 4;
    int rows = p.chroma == 0 ? p.height : (p.height + 1) / 2;
    ivec2 grid = ivec2(gl_NumWorkGroups.xy * gl_WorkGroupSize.xy);
    for (int frame = 0; frame < p.frames; frame++) {
        for (int row = int(gl_GlobalInvocationID.y); row < rows; row += grid.y) {
            for (int word = int(gl_GlobalInvocationID.x); word < words; word += grid.x) {
                convert(word, row, frame);
            }
        }
    }
}

void convert(int word, int row, int frame) {
    int chromaWidth = (p.width + 1) / 2, chromaHeight = (p.height + 1) / 2;
    int lumaBytes = p.lumaStride * p.height, chromaBytes = p.chromaStride * chromaHeight;
    uint frameBase = uint(frame) * uint(lumaBytes + 2 * chromaBytes) / 4u;
    if (p.chroma == 0) {
        if (word * 4 >= p.lumaStride || row >= p.height) return;
        uint packed = 0u;
        for (int k = 0; k < 4; k++) {
            int x = word * 4 + k;
            if (x >= p.width) break;
            vec3 c = rgb(frame, x, row);
            packed |= byte(p.lumaOffset + dot(c, vec3(p.lumaR, p.lumaG, p.lumaB))) << (8 * k);
        }
        target[frameBase + uint(row * p.lumaStride / 4 + word)] = packed;
    } else {
        if (word * 4 >= p.chromaStride || row >= chromaHeight) return;
        uint cb = 0u, cr = 0u;
        for (int k = 0; k < 4; k++) {
            int x = word * 4 + k;
            if (x >= chromaWidth) break;
            vec3 c = (rgb(frame, 2 * x, 2 * row) + rgb(frame, 2 * x + 1, 2 * row)
                      + rgb(frame, 2 * x, 2 * row + 1) + rgb(frame, 2 * x + 1, 2 * row + 1)) / 4.0;
            cb |= byte(128.0 + dot(c, vec3(p.blueR, p.blueG, p.blueB))) << (8 * k);
            cr |= byte(128.0 + dot(c, vec3(p.redR, p.redG, p.redB))) << (8 * k);
        }
        uint chromaBase = frameBase + uint(lumaBytes / 4 + row * p.chromaStride / 4 + word);
        target[chromaBase] = cb;
        target[chromaBase + uint(chromaBytes / 4)] = cr;
    }
}
