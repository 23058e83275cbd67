#version 450
// One-channel 32-bit floating-point pictures (one resized plane of YUV pictures) back to 8 bits,
// round_half_even(v) clamped to 0…255, written into that plane of YUV 4:2:0 pictures laid
// out as YUVLayout says: picture f's plane starts at word `frameWords·f + planeWord`, rows
// `stride` bytes apart (a multiple of 4). Each step of an invocation's grid-stride loop writes
// four bytes of one row.
layout(local_size_x = 16, local_size_y = 16) in;

// Read-only pictures and tables are uniform texel buffers: software devices fetch them with vector
// gathers, where storage-buffer loads go one invocation at a time.
layout(binding = 0) uniform samplerBuffer source;
layout(std430, binding = 1) writeonly buffer Target { uint target[]; };

layout(push_constant) uniform Constants {
    int width, height;
    int stride;
    int frameWords, planeWord;
    int frames;
} p;

void main() {
    int words = p.stride / 4;
    ivec2 grid = ivec2(gl_NumWorkGroups.xy * gl_WorkGroupSize.xy);
    for (int frame = 0; frame < p.frames; frame++) {
        uint base = uint(frame) * uint(p.width * p.height);
        for (int row = int(gl_GlobalInvocationID.y); row < p.height; row += grid.y) {
            for (int word = int(gl_GlobalInvocationID.x); word < words; word += grid.x) {
                uint packed = 0u;
                for (int k = 0; k < 4; k++) {
                    int x = word * 4 + k;
                    if (x >= p.width) break;
                    float v = clamp(roundEven(texelFetch(source, int(base + uint(row * p.width + x))).r), 0.0, 255.0);
                    packed |= uint(v) << (8 * k);
                }
                target[uint(frame * p.frameWords + p.planeWord + row * words + word)] = packed;
            }
        }
    }
}
