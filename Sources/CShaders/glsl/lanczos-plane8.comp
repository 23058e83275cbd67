#version 450
// The last (vertical) pass of one plane of YUV pictures, written straight to 8 bits: each step of
// an invocation's grid-stride loop filters four neighbouring samples of an output row at once
// (columns.glsl) and writes them as one word into that plane of YUV 4:2:0 pictures laid out as
// YUVLayout says: picture f's plane starts at word `frameWords·f + planeWord`, rows
// `(width + 3) / 4` words apart. The source holds `frames` planes; from plane `pictures` on they
// are the next plane of the same pictures (the red-difference chroma after the blue), which
// starts `planeGapWords` words further on.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 16, local_size_y = 16) in;

// Read-only pictures and tables are uniform texel buffers: software devices fetch them with vector
// gathers, where storage-buffer loads go one invocation at a time.
layout(binding = 0) uniform samplerBuffer source;
layout(std430, binding = 1) writeonly buffer Target { uint target[]; };
layout(binding = 2) uniform samplerBuffer table;

layout(push_constant) uniform Constants {
    int sourceHeight;
    int width, height;
    int taps;
    int tableOffset;
    int frames, pictures;
    int frameWords, planeWord, planeGapWords;
} p;

#include "columns.glsl"

void main() {
    int words = (p.width + 3) / 4;
    ivec2 grid = ivec2(gl_NumWorkGroups.xy * gl_WorkGroupSize.xy);
    for (int frame = 0; frame < p.frames; frame++) {
        int base = frame * words * p.sourceHeight;
        bool second = frame >= p.pictures;
        int plane = (second ? frame - p.pictures : frame) * p.frameWords + p.planeWord + (second ? p.planeGapWords : 0);
        for (int row = int(gl_GlobalInvocationID.y); row < p.height; row += grid.y) {
            for (int word = int(gl_GlobalInvocationID.x); word < words; word += grid.x) {
                uvec4 b = uvec4(eightBit(filteredColumns(source, base, words, p.sourceHeight, p.tableOffset, p.taps, row, word)));
                // Samples past the right edge (the row's padding) are written as 0.
                int valid = p.width - 4 * word;
                if (valid < 4) b = uvec4(b.x, valid > 1 ? b.y : 0u, valid > 2 ? b.z : 0u, 0u);
                target[plane + row * words + word] = b.x | (b.y << 8) | (b.z << 16) | (b.w << 24);
            }
        }
    }
}
