#version 450
// The last (vertical) pass of YUV 4:2:0 pictures with a colour change, fused with the change:
// the horizontally resized luma (binding 0) and chroma (binding 3: every picture's blue-
// difference plane, then every picture's red-difference plane), chroma at the full output size
// (4:4:4, as the CPU path's swscale resizes it before converting to RGB), are filtered
// vertically four columns at a time (columns.glsl; luma's table at texel `lumaTable` of binding
// 2, chroma's at `chromaTable`) and rounded to 8 bits, as the CPU path's resized planes are.
// Each pixel then goes to 8-bit RGB by the inverse rows of the video's matrix and range
// (R = lumaGain·(Y − lumaOffset) + redCr·(Cr − 128), G = … + greenCb·(Cb − 128) +
// greenCr·(Cr − 128), B = … + blueCb·(Cb − 128)), rounded as the CPU path's RGB24 picture is,
// through the colour steps (colour.glsl), and back to YUV 4:2:0 by the video's rows: Y =
// lumaOffset + (lumaR, lumaG, lumaB)·RGB, Cb = 128 + (blueR, blueG, blueB)·RGB, Cr = 128 +
// (redR, redG, redB)·RGB, each chroma sample from the mean of its 2×2 pixels; pixels past the
// edges repeat the edge. Planes lie per picture Y, Cb, Cr, rows `lumaStride` and `chromaStride`
// bytes apart (multiples of 4), as YUVLayout says.
// Each step of an invocation's grid-stride loop does a block of 8×2 pixels: one word of each
// chroma plane and the two luma words above it in each of its two rows.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 16, local_size_y = 16) in;

#include "colour.glsl"

// Read-only pictures and tables are uniform texel buffers: software devices fetch them with vector
// gathers, where storage-buffer loads go one invocation at a time.
layout(binding = 0) uniform samplerBuffer luma;
layout(std430, binding = 1) writeonly buffer Target { uint target[]; };
layout(binding = 2) uniform samplerBuffer table;
layout(binding = 3) uniform samplerBuffer chroma;

layout(push_constant) uniform Constants {
    int width, height;
    int lumaRows, chromaRows;
    int lumaTaps, chromaTaps;
    int lumaTable, chromaTable;
    int frames;
    int lumaStride, chromaStride;
    float lumaR, lumaG, lumaB, lumaOffset;
    float blueR, blueG, blueB;
    float redR, redG, redB;
    float lumaGain, redCr, greenCb, greenCr, blueCb;
    float gain, offset, saturation;
} p;

#include "columns.glsl"

void block(int frame, int word, int row);

void main() {
    int words = p.chromaStride / 4;
    int rows = (p.height + 1) / 2;
    ivec2 grid = ivec2(gl_NumWorkGroups.xy * gl_WorkGroupSize.xy);
    for (int frame = 0; frame < p.frames; frame++) {
        for (int row = int(gl_GlobalInvocationID.y); row < rows; row += grid.y) {
            for (int word = int(gl_GlobalInvocationID.x); word < words; word += grid.x) {
                block(frame, word, row);
            }
        }
    }
}

uint byte(float v) { return uint(clamp(floor(v + 0.5), 0.0, 255.0)); }

void block(int frame, int word, int row) {
    int columns = (p.width + 3) / 4;
    int lumaBase = frame * columns * p.lumaRows;
    int blueBase = frame * columns * p.chromaRows, redBase = (p.frames + frame) * columns * p.chromaRows;
    // The block's 8×2 pixels in RGB after the colour steps, edges repeated.
    vec3 rgb[2][8];
    for (int r = 0; r < 2; r++) {
        int y = min(2 * row + r, p.height - 1);
        for (int g = 0; g < 2; g++) {
            int column = min(2 * word + g, columns - 1);
            vec4 yy = p.lumaGain * (eightBit(filteredColumns(luma, lumaBase, columns, p.lumaRows, p.lumaTable, p.lumaTaps, y, column))
                                    - p.lumaOffset);
            vec4 cb = eightBit(filteredColumns(chroma, blueBase, columns, p.chromaRows, p.chromaTable, p.chromaTaps, y, column)) - 128.0;
            vec4 cr = eightBit(filteredColumns(chroma, redBase, columns, p.chromaRows, p.chromaTable, p.chromaTaps, y, column)) - 128.0;
            for (int i = 0; i < 4; i++) {
                // Past the right edge: the edge's sample, the last column's (p.width − 1) & 3.
                int k = 4 * (2 * word + g) + i < p.width ? i : (p.width - 1) & 3;
                vec3 v = clamp(roundEven(vec3(yy[k] + p.redCr * cr[k], yy[k] + p.greenCb * cb[k] + p.greenCr * cr[k],
                                              yy[k] + p.blueCb * cb[k])), 0.0, 255.0);
                rgb[r][4 * g + i] = adjusted(v, p.gain, p.offset, p.saturation);
            }
        }
    }
    int chromaHeight = (p.height + 1) / 2;
    int lumaBytes = p.lumaStride * p.height, chromaBytes = p.chromaStride * chromaHeight;
    int frameWords = (lumaBytes + 2 * chromaBytes) / 4;
    for (int r = 0; r < 2 && 2 * row + r < p.height; r++) {
        for (int g = 0; g < 2 && (2 * word + g) * 4 < p.lumaStride; g++) {
            uint packed = 0u;
            for (int i = 0; i < 4; i++) {
                if (8 * word + 4 * g + i >= p.width) break;
                packed |= byte(p.lumaOffset + dot(rgb[r][4 * g + i], vec3(p.lumaR, p.lumaG, p.lumaB))) << (8 * i);
            }
            target[frame * frameWords + ((2 * row + r) * p.lumaStride) / 4 + 2 * word + g] = packed;
        }
    }
    uint cb = 0u, cr = 0u;
    for (int i = 0; i < 4; i++) {
        if (4 * word + i >= (p.width + 1) / 2) break;
        vec3 c = (rgb[0][2 * i] + rgb[0][2 * i + 1] + rgb[1][2 * i] + rgb[1][2 * i + 1]) / 4.0;
        cb |= byte(128.0 + dot(c, vec3(p.blueR, p.blueG, p.blueB))) << (8 * i);
        cr |= byte(128.0 + dot(c, vec3(p.redR, p.redG, p.redB))) << (8 * i);
    }
    int chromaWord = frame * frameWords + lumaBytes / 4 + row * p.chromaStride / 4 + word;
    target[chromaWord] = cb;
    target[chromaWord + chromaBytes / 4] = cr;
}
